import Foundation
import Typesetting
import XCTest

/// `measure(width:)` (binary search over prefix sums, no allocation) must agree exactly with the
/// full `layout(width:)` (the segment walk) on every case at many widths.
final class MeasureFastPathTests: XCTestCase {
  func testMeasureAgreesWithLayoutOnTheCorpus() throws {
    let cases = try Fixtures.jsonLines("corpus.jsonl").map {
      try TextCase(json: $0, library: Fixtures.library)
    }
    var checked = 0
    for c in cases {
      let prepared = try Typesetter.shared.prepare(c.text, style: c.style)
      for f in [0.31, 0.5, 0.77, 1.0, 1.13, 1.6, 3.0] {
        let w = c.width * f
        let full = try prepared.layout(width: w)
        let quick = try prepared.measure(width: w)
        XCTAssertEqual(quick.lines, full.lineCount, "\(c.id) at \(w)")
        XCTAssertEqual(quick.height, full.height, accuracy: 1e-9, "\(c.id) at \(w)")
        XCTAssertEqual(quick.widest, full.widest, accuracy: 1e-9, "\(c.id) at \(w)")
        XCTAssertEqual(
          quick.lastLineWidth, full.lines.last?.width ?? 0, accuracy: 1e-9, "\(c.id) at \(w)")
        checked += 1
      }
    }
    XCTAssertEqual(checked, 3000 * 7)
  }

  /// Zero-width spaces (alone, leading, trailing, doubled) and other white space the reported
  /// widths trim, with the search's guesses far off (one long word among short ones), at widths
  /// one point apart.
  func testMeasureAgreesWithLayoutAroundZeroWidthSpaces() throws {
    let style = try Fixtures.style(["NotoSans-Regular.ttf", "NotoSansCJK-Regular.ttc"], size: 15)
    let texts = [
      "a\u{200B}b\u{200B}\u{200B}c d\u{200B} \u{200B}e", "\u{200B}start and end\u{200B}",
      "https://\u{200B}example.\u{200B}com/\u{200B}a/\u{200B}b/\u{200B}c \u{200B}",
      "x Pneumonoultramicroscopicsilicovolcanoconiosis y z w v u t s r q p o n m",
      "全角\u{3000}スペース\u{3000}の\u{3000}行", "\u{200B}", "a \u{200B} b",
    ]
    for text in texts {
      let prepared = try Typesetter.shared.prepare(text, style: style)
      for w in stride(from: 4.0, through: 400, by: 1) {
        let full = try prepared.layout(width: w)
        let quick = try prepared.measure(width: w)
        XCTAssertEqual(quick.lines, full.lineCount, "\(text.debugDescription) at \(w)")
        XCTAssertEqual(
          quick.height, full.height, accuracy: 1e-9, "\(text.debugDescription) at \(w)")
        XCTAssertEqual(
          quick.widest, full.widest, accuracy: 1e-9, "\(text.debugDescription) at \(w)")
      }
    }
  }
}
