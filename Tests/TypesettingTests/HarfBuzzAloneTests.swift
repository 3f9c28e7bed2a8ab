import XCTest

@testable import Typesetting

/// The text engine without the accelerator (this test target does not import it; another of
/// the test bundle may have installed it, so it is taken out for the test): every typesetter
/// shapes with HarfBuzz alone, and says why when the accelerator was asked for.
final class HarfBuzzAloneTests: XCTestCase {
  func testWithoutTheAcceleratorEveryRunIsShapedByHarfBuzz() throws {
    let installed = ShapingAccelerators.current
    ShapingAccelerators.install(nil)
    defer { ShapingAccelerators.install(installed) }
    let t = Typesetter(cacheCapacity: 0, wordCacheCapacity: 100)
    XCTAssertEqual(t.shaping, .harfBuzz)
    XCTAssertNil(t.shapingReason)
    let asked = Typesetter(cacheCapacity: 0, shaping: .accelerated)
    XCTAssertEqual(asked.shaping, .harfBuzz)
    XCTAssertEqual(asked.shapingReason, ShapingAccelerators.notInstalled)
    let style = try Fixtures.style(["NotoSans-Regular.ttf"])
    for text in ["Hello, world", "fi ffl office", "Hello again, world"] {
      _ = try t.prepare(text, style: style)
    }
    XCTAssertGreaterThanOrEqual(t.shapingCounts.runs, 3)
    XCTAssertEqual(t.shapingCounts.direct, 0)
    XCTAssertEqual(t.wordCacheCount, 0)
  }
}
