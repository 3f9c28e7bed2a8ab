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
    list.insert(5)
    list.insert(6)
    XCTAssertEqual(list.entries, [6, 5, 4])
    XCTAssertEqual(list.find { $0 == 4 }, 4)
    XCTAssertEqual(list.entries, [6, 4, 5])
  }

  /// An entry is found only under its own word, and the word is checked before the entry.
  func testWordsComeFirst() {
    var list = RecentList<Int>(capacity: 4)
    list.insert(1, word: 10)
    list.insert(2, word: 20)
    var looked: [Int] = []
    XCTAssertEqual(list.find(word: 10) { looked.append($0); return true }, 1)
    XCTAssertEqual(looked, [1])
    XCTAssertNil(list.find(word: 30) { _ in true })
    XCTAssertNil(list.find(word: 20) { $0 == 1 })
    XCTAssertEqual(list.entries, [1, 2])
  }
}
