import XCTest

@testable import Typesetting

/// The recency rule of the font library's short lists: a hit moves one place forward, a new
/// entry goes in front, the last one drops out at capacity.
final class RecentListTests: XCTestCase {
  func testHitsMoveForwardAndTheLastDropsOut() {
    var list = RecentList<Int>(capacity: 3)
    for v in [1, 2, 3] { list.insert(v) }
    XCTAssertEqual(list.entries, [3, 2, 1])
    XCTAssertEqual(list.find { $0 == 1 }, 1)
    XCTAssertEqual(list.entries, [3, 1, 2])
    XCTAssertNil(list.find { $0 == 9 })
    XCTAssertEqual(list.entries, [3, 1, 2])
    list.insert(4)
    XCTAssertEqual(list.entries, [4, 3, 1])
    XCTAssertEqual(list.find { $0 == 4 }, 4)
    XCTAssertEqual(list.entries, [4, 3, 1])
  }
}
