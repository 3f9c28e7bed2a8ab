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
        checked += 1
      }
    }
    XCTAssertEqual(checked, 3000 * 7)
  }
}
