import Foundation
import Typesetting
import XCTest

@testable import SelfSizing

/// Exact bubble sizes at a new width from texts shaped once equal measuring at that width.
final class ExactBubblesTests: XCTestCase {
  func testSizesAtNewWidthsEqualMeasuring() throws {
    var cells = try Fixtures.transcript(400)
    for i in cells.indices where i % 5 == 2 {
      cells[i].senderName = "민지"
      cells[i].replyName = "Alex"
      cells[i].replyText = "See you at 7?"
    }
    let sizer = CellSizer(typesetter: Typesetter(cacheCapacity: 0), cacheCapacity: 0)
    let exact = try sizer.prepareExact(cells)
    XCTAssertEqual(exact.count, cells.count)
    var compared = 0
    for w in [320.0, 390, 744, 1024] {
      for (i, cell) in cells.enumerated() {
        var c = cell
        c.containerWidth = w
        XCTAssertEqual(try exact.size(at: i, containerWidth: w), try sizer.measure(c).size, "cell \(i) at \(w)")
        compared += 1
      }
    }
    XCTAssertEqual(compared, 1600)
  }
}
