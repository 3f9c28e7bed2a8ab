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
}
