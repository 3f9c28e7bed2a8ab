import GalleyRecords
import XCTest

@testable import Typesetting

/// A word that overflow-wrap breaks inside a ligature is broken as Chromium breaks it: the
/// line may end after the ligature's first characters when they fit shaped on their own, and
/// the next line starts with the rest shaped on its own. (Expected values: Chromium 156,
/// `Corpus/chromium.jsonl` and `Corpus/ligatures-chromium.jsonl`.)
final class LigatureSplitsTests: XCTestCase {
  /// Noto Sans forms "ff", "fi", "ffi": the graphemes after a ligature's first are marked as
  /// its tails, and only where lines may break inside words.
  func testTheCharactersAfterALigaturesFirstAreItsTails() throws {
    var style = try Fixtures.style(["NotoSans-Regular.ttf"], size: 15)
    style.overflowWrap = .anywhere
    let prepared = try Typesetter(cacheCapacity: 0).prepare("office flu", style: style)
    let tails = (0..<prepared.graphemeCount).filter { prepared.isLigatureTail($0) }
    XCTAssertEqual(tails, [2, 3, 8])
    XCTAssertEqual(prepared.ligatureHead(of: 3), 1)
    XCTAssertEqual(prepared.ligatureEnd(after: 1), 4)
    style.overflowWrap = .normal
    let unbroken = try Typesetter(cacheCapacity: 0).prepare("office flu", style: style)
    XCTAssertFalse((0..<unbroken.graphemeCount).contains { unbroken.isLigatureTail($0) })
  }

  /// "…laugh&thousand=4daffd3a…" in Noto Sans at 13 px: the line ends after the first "f" of
  /// "ff" (the line before the ligature would fit too, but the "f" on its own fits after it),
  /// and the next starts with the second "f" on its own (edge-url-0005).
  func testALineEndsInsideALigatureWhenItsFirstPartFitsOnItsOwn() throws {
    let (prepared, c) = try LineEndKerningTests.prepared("edge-url-0005", of: "corpus.jsonl")
    let layout = try prepared.layout(width: c.width)
    XCTAssertEqual(layout.lines.map(\.start), [0, 31, 55, 85, 105, 137, 164])
    XCTAssertEqual(
      layout.lines.map(\.width),
      [185.921875, 159.765625, 215.578125, 132.9375, 219.6875, 180.234375, 88.390625])
    let measured = try prepared.measure(width: c.width)
    XCTAssertEqual(measured.lines, 7)
    XCTAssertEqual(measured.widest, 219.6875)
  }

  /// A line that starts inside a ligature and ends inside another: "fix4dstaf" between two
  /// "ff" in Noto Sans at 17 px, 69.08 px wide with both ends shaped on their own (lig-0185).
  func testALineBetweenTwoLigaturesIsMeasuredWithBothEndsOnTheirOwn() throws {
    let (prepared, c) = try LineEndKerningTests.prepared("lig-0185", of: "ligatures.jsonl")
    let layout = try prepared.layout(width: c.width)
    XCTAssertEqual(layout.lines.map(\.start), [0, 4, 13, 21, 30, 39, 41, 51, 60, 69, 77, 86])
    XCTAssertEqual(layout.lines[3].width, 69.078125)
    XCTAssertEqual(layout.lines[4].width, 65.609375)
    XCTAssertEqual(try prepared.measure(width: c.width).lines, 12)
    // Drawn as measured: an "f" alone ends line 3 and another starts line 4, not the "ff".
    let end = prepared.glyphRuns(forLine: 3, of: layout)
    let start = prepared.glyphRuns(forLine: 4, of: layout)
    XCTAssertEqual(end.reduce(0) { $0 + $1.width }, 69.078125, accuracy: 1.0 / 64)
    XCTAssertEqual(start.reduce(0) { $0 + $1.width }, 65.609375, accuracy: 1.0 / 64)
    let f = try XCTUnwrap(c.style.fonts.fonts[0].glyph(for: 0x66))
    XCTAssertEqual(end.last?.glyphs.last, f)
    XCTAssertEqual(start.first?.glyphs.first, f)
  }

  /// A line narrower than a ligature's first letter: the ligature comes first on the line, and
  /// the line takes Chromium's candidate, the ligature's last break ("ff" of "ffi", 10.33 px),
  /// not the whole ligature on the first line and nothing on the next (Noto Sans at 15 px,
  /// width 0.01; measured in Chromium 156).
  func testALineNarrowerThanALetterTakesTheLigaturesLastBreak() throws {
    var style = try Fixtures.style(["NotoSans-Regular.ttf"], size: 15)
    style.whiteSpace = .preWrap
    style.overflowWrap = .anywhere
    let prepared = try Typesetter(cacheCapacity: 0).prepare("ffi", style: style)
    let layout = try prepared.layout(width: 0.01)
    XCTAssertEqual(layout.lines.map(\.start), [0, 2])
    XCTAssertEqual(layout.lines.map(\.width), [10.328125, 3.875])
    XCTAssertEqual(try prepared.measure(width: 0.01).lines, 2)
    for i in layout.lines.indices {
      let drawn = prepared.glyphRuns(forLine: i, of: layout).reduce(0) { $0 + $1.width }
      XCTAssertEqual(drawn, layout.lines[i].width, accuracy: 1.0 / 64)
    }
  }

  /// A ligature whose first letter came first on a line that then had no room: the line ends
  /// after that letter on its own (5.17 px in 4), and the next starts inside the ligature
  /// ("ffl\u{301}ffi" in Noto Sans at 15 px; measured in Chromium 156).
  func testALigatureThatStartsAFullLineIsSplitAfterItsFirstLetter() throws {
    var style = try Fixtures.style(["NotoSans-Regular.ttf"], size: 15)
    style.whiteSpace = .preWrap
    style.overflowWrap = .anywhere
    let prepared = try Typesetter(cacheCapacity: 0).prepare("ffl\u{301}ffi", style: style)
    let layout = try prepared.layout(width: 4)
    XCTAssertEqual(layout.lines.map(\.start), [0, 1, 2, 4, 6])
    XCTAssertEqual(layout.lines.map(\.width), [5.171875, 5.171875, 3.875, 10.328125, 3.875])
  }

  /// The rest of a broken word fits by the paragraph's advances, but its hyphen, kerned there
  /// with the "T" after it, does not on its own: the line ends before the hyphen, which starts
  /// the next (DejaVu Sans at 17 px, lig2-0924).
  func testTheRestOfABrokenWordIsBrokenAgainWhenItsKernedEndDoesNotFit() throws {
    let (prepared, c) = try LineEndKerningTests.prepared("lig2-0924", of: "ligatures.jsonl")
    let layout = try prepared.layout(width: c.width)
    XCTAssertEqual(layout.lines.map(\.start), [0, 21, 46, 47, 71])
    XCTAssertEqual(layout.lines[1].width, 202.359375)
    XCTAssertEqual(try prepared.measure(width: c.width).lines, 5)
  }
}
