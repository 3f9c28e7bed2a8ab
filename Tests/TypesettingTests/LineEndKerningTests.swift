import CHarfBuzz
import GalleyRecords
import XCTest

@testable import Typesetting

/// A line that ends where its last glyph kerns with the next is measured as Chromium measures
/// it: the end of the line shaped on its own, the pair's adjustment gone. (Expected values:
/// Chromium 156 on the corpus's cases, `Corpus/chromium.jsonl`.)
final class LineEndKerningTests: XCTestCase {
  /// Inter kerns "3" with "c" across a zero width space: in the paragraph the first 56 code
  /// points are 319.95 px wide and would fit 320; ended on its own the line is 320.25, so it
  /// ends at the break before (edge-zwsp-0026).
  func testAKernedPairAcrossABreakDoesNotMakeALineFit() throws {
    var style = try Fixtures.style(["Inter-Regular.otf"], size: 13)
    style.overflowWrap = .breakWord
    let zwsp = "\u{200B}"
    let words = [
      "124", "0a6", "797", "c44", "489", "f10", "4be", "6f0", "689", "59b", "8d2", "a03", "983",
      "73f", "e25", "c53", "839", "c70", "43f", "2c5", "b1e", "3",
    ]
    let prepared = try Typesetter(cacheCapacity: 0).prepare(
      words.joined(separator: zwsp), style: style)
    let layout = try prepared.layout(width: 320)
    XCTAssertEqual(layout.lines.map(\.start), [0, 52])
    XCTAssertEqual(layout.lines.map(\.width), [300.078125, 187.9375])
    let measured = try prepared.measure(width: 320)
    XCTAssertEqual(measured.lines, 2)
    XCTAssertEqual(measured.widest, 300.078125)
  }

  /// Inter kerns a hyphen with the capital after it: the line that ends after "System-" is
  /// as wide as the hyphen's own advance makes it (ko-prose-sentence-0191).
  func testALineEndingAfterAKernedHyphenHasTheHyphensOwnAdvance() throws {
    var style = try Fixtures.style(
      ["Inter-Regular.otf", "NanumGothic.ttf", "NotoColorEmoji.ttf"], size: 17)
    style.language = "ko"
    style.whiteSpace = .preWrap
    style.wordBreak = .keepAll
    style.overflowWrap = .breakWord
    style.lineHeight = .points(22)
    let text = "서비스 시작 순서를 제어하려면, 고전 System-V 형식 유닉스 시스템은 runlevel을 씁니다."
    let prepared = try Typesetter(cacheCapacity: 0).prepare(text, style: style)
    let layout = try prepared.layout(width: 343)
    XCTAssertEqual(layout.lines.map(\.start), [0, 28])
    XCTAssertEqual(layout.lines.map(\.width), [336.15625, 310.6875])
    // Drawn as measured: the hyphen's glyph takes its own advance at the line's end.
    let drawn = prepared.glyphRuns(forLine: 0, of: layout).reduce(0) { $0 + $1.width }
    XCTAssertEqual(drawn, 336.15625, accuracy: 1.0 / 64)
  }

  /// A line that overflow-wrap ends inside a word ends as any other: kana kern in Noto Sans
  /// CJK JP, and the line of 21 kana that breaks before "ン" is 315.016 px in Chromium, not the
  /// paragraph's 315.766 (faker-ja_JP-0006), drawn as measured.
  func testALineBrokenInsideAWordEndsShapedOnItsOwn() throws {
    let (prepared, c) = try Self.prepared("faker-ja_JP-0006", of: "corpus.jsonl")
    let layout = try prepared.layout(width: c.width)
    XCTAssertEqual(layout.lines.map(\.start), [0, 21, 26, 47, 61, 82])
    XCTAssertEqual(layout.lines[0].width, 315.015625, accuracy: 1.0 / 64)
    XCTAssertEqual(try prepared.measure(width: c.width).widest, 315.015625, accuracy: 1.0 / 64)
    let drawn = prepared.glyphRuns(forLine: 0, of: layout).reduce(0) { $0 + $1.width }
    XCTAssertEqual(drawn, layout.lines[0].width, accuracy: 1.0 / 64)
  }

  /// When the line's end on its own no longer fits, the break before is taken: "awayaway…" in
  /// Inter at 13 px breaks after 39 and 78 code points where the paragraph's advances would
  /// fit one more (edge-longword-0269 of the classes set).
  func testALineBrokenInsideAWordThatNoLongerFitsBreaksBefore() throws {
    let (prepared, c) = try Self.prepared("edge-longword-0269", of: "classes.jsonl")
    let layout = try prepared.layout(width: c.width)
    XCTAssertEqual(layout.lines.map(\.start), [0, 39, 78])
    XCTAssertEqual(layout.lines.map(\.width), [313.078125, 312.765625, 142.25])
    XCTAssertEqual(try prepared.measure(width: c.width).lines, 3)
  }

  /// A line may end on a glyph a lookup chose: Inter sets a hyphen after digits in its case
  /// form, kerned with a digit after it. The line's end is shaped again (here, from the segment
  /// before) and the hyphen keeps its case form but loses the pair: Chromium's lines end 0.5 px
  /// wider than the paragraph's advances (edge-digits-0000 of the classes set).
  func testALineEndingOnAGlyphALookupChoseIsShapedAgain() throws {
    let (prepared, c) = try Self.prepared("edge-digits-0000", of: "classes.jsonl")
    let layout = try prepared.layout(width: c.width)
    XCTAssertEqual(layout.lines.map(\.start), [0, 12, 38, 55])
    let widths = layout.lines.map(\.width)
    for (w, chromium) in zip(widths, [87.640625, 219.921875, 138.328125, 143.171875]) {
      XCTAssertEqual(w, chromium, accuracy: 1.0 / 64)
    }
  }

  /// A glyph is kerned when a pair made its advance other than its own, as HarfBuzz shapes
  /// it: "ジ" before "ャ" in Noto Sans CJK JP is 950 units of its own 1,000, "T" before "o" in
  /// Inter is narrower than its own; the glyphs after them and an unkerned pair are not.
  func testKernedGlyphsAreThoseAPairAdjusted() throws {
    func kerned(_ text: String, _ font: String, _ script: hb_script_t) throws -> [Bool] {
      let shaper = HarfBuzzShaper()
      let scalars = text.unicodeScalars.map(\.value)
      var advances = [Double](repeating: 0, count: scalars.count)
      shaper.shape(
        scalars,
        run: ShapingRun(
          start: 0, end: scalars.count, font: try Fixtures.library.font(named: font), rtl: false,
          script: script),
        size: 16, language: nil, features: [], into: &advances)
      return shaper.glyphs.map(\.kerned)
    }
    XCTAssertEqual(try kerned("ジャム", "NotoSansCJK-Regular.ttc", HB_SCRIPT_KATAKANA), [true, false, false])
    XCTAssertEqual(try kerned("To", "Inter-Regular.otf", HB_SCRIPT_LATIN), [true, false])
    XCTAssertEqual(try kerned("ab", "Inter-Regular.otf", HB_SCRIPT_LATIN), [false, false])
  }

  /// Case `id` of the conformance file `file`, prepared as measuring reads it.
  static func prepared(_ id: String, of file: String) throws -> (PreparedText, TextCase) {
    let json = try XCTUnwrap(try Fixtures.jsonLines(file).first { $0["id"] as? String == id })
    let c = try TextCase(json: json, library: Fixtures.library)
    return (try Typesetter(cacheCapacity: 0).prepare(c.text, style: c.style), c)
  }
}
