@testable import GalleyRecords
import XCTest

@testable import Typesetting

/// A space with combining marks on it is one grapheme cluster, which the browser profile splits
/// where a line may break after the space (UAX #14 LB10). The cluster counts on the line before
/// (where its wider part, the space, is): that line starts the next one after the cluster, and
/// its reported width runs to the end of the space, which is not white space there. (Expected
/// values: Chromium 156 on the corpus's edge-combining-0010, `Corpus/chromium.jsonl`.)
final class SplitClusterTests: XCTestCase {
  /// The corpus's case, as measuring reads it.
  func prepared() throws -> PreparedText {
    let json = try XCTUnwrap(
      try Fixtures.jsonLines("corpus.jsonl").first { $0["id"] as? String == "edge-combining-0010" })
    let c = try TextCase(json: json, library: Fixtures.library)
    XCTAssertEqual(c.width, 299.5)
    return try Typesetter(cacheCapacity: 0).prepare(c.text, style: c.style)
  }

  func testALineEndingInASplitClusterReportsItsSpace() throws {
    let p = try prepared()
    let layout = try p.layout(width: 299.5)
    XCTAssertEqual(layout.lines.map(\.startUTF16), [0, 93])
    XCTAssertEqual(layout.lines[0].width, 262.828125, accuracy: 1.0 / 64 + 1e-9)
    XCTAssertEqual(layout.lines[1].width, 93.3125, accuracy: 1.0 / 64 + 1e-9)
    // Measuring (the compiled search) and the segment walk agree.
    XCTAssertEqual(try p.measure(width: 299.5).widest, layout.widest)
    XCTAssertNil(MeasureFastPathTests.walkAndSearchDiffer(p, width: 299.5))
  }

  /// The space still hangs when lines are fitted: a width that holds the first line's content
  /// but not its space breaks where 299.5 does.
  func testTheSplitSpaceStillHangsWhenTheLineIsFitted() throws {
    let p = try prepared()
    let space = 4.8  // more than Inter's space at 17 px (4.78)
    let layout = try p.layout(width: 262.83 - space + 0.05)
    XCTAssertEqual(layout.lines.map(\.startUTF16), [0, 93])
    XCTAssertEqual(layout.lines[0].width, 262.828125, accuracy: 1.0 / 64 + 1e-9)
  }
}
