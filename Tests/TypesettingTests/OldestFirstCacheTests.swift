import XCTest

@testable import Typesetting

/// The bounded cache the typesetter and the cell sizer share: the oldest entry goes first, an
/// entry already there is kept, a capacity of 0 keeps nothing.
final class OldestFirstCacheTests: XCTestCase {
  func testOldestGoesFirst() {
    var cache = OldestFirstCache<String, Int>(capacity: 2)
    cache.insert(1, for: "a")
    cache.insert(2, for: "b")
    cache.insert(20, for: "b")
    XCTAssertEqual(cache["b"], 2)
    cache.insert(3, for: "c")
    XCTAssertNil(cache["a"])
    XCTAssertEqual(cache["b"], 2)
    XCTAssertEqual(cache["c"], 3)
    cache.insert(4, for: "d")
    XCTAssertNil(cache["b"])
    XCTAssertEqual(cache.count, 2)
    cache.removeAll()
    XCTAssertEqual(cache.count, 0)
    var none = OldestFirstCache<String, Int>(capacity: 0)
    none.insert(1, for: "a")
    XCTAssertNil(none["a"])
  }
}
