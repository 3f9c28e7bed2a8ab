import Foundation
import SelfSizing
import Typesetting
import XCTest

/// Where a cell's parts sit agrees with its measured size.
final class PlacementTests: XCTestCase {
  func testPlacedPartsFitTheMeasuredBubble() throws {
    var cells = try Fixtures.transcript(300)
    for i in cells.indices where i % 5 == 2 {
      cells[i].senderName = "민지"
      cells[i].replyName = "Alex"
      cells[i].replyText = "quoted message"
    }
    let sizer = CellSizer(cacheCapacity: 0)
    for (i, cell) in cells.enumerated() {
      let m = try sizer.measure(cell)
      let p = try sizer.place(cell)
      XCTAssertEqual(p.size, m.size, "cell \(i)")
      for t in p.texts {
        XCTAssertGreaterThanOrEqual(t.x, cell.padding.leading - 1e-9, "cell \(i) \(t.role)")
        XCTAssertGreaterThanOrEqual(t.y, cell.padding.top - 1e-9, "cell \(i) \(t.role)")
        XCTAssertLessThanOrEqual(
          t.y + t.layout.height, m.size.height - cell.padding.bottom + 1e-6,
          "cell \(i) \(t.role)")
        XCTAssertLessThanOrEqual(
          t.x + t.layout.widest, m.size.width - cell.padding.trailing + 1e-6,
          "cell \(i) \(t.role)")
      }
      XCTAssertEqual(p.texts.filter { $0.role == .text }.count, 1)
      XCTAssertEqual(p.texts.contains { $0.role == .timestamp }, cell.timestamp != nil)
    }
  }

  func testInlineTimestampFollowsTheLastLineInEitherDirection() throws {
    let sizer = CellSizer(cacheCapacity: 0)
    for (text, fonts) in [
      ("hello there", ["NotoSans-Regular.ttf"]),
      ("مرحبا بالعالم", ["NotoSansArabic-Regular.ttf", "NotoSans-Regular.ttf"]),
    ] {
      var b = BubbleCell(
        text: text, style: TextStyle(fonts: try Fixtures.library.stack(fonts), size: 17),
        containerWidth: 390)
      b.timestamp = "19:02"
      let p = try sizer.place(b)
      XCTAssertEqual(try sizer.measure(b).timestampPlacement, .inline)
      let body = try XCTUnwrap(p.texts.first { $0.role == .text })
      let ts = try XCTUnwrap(p.texts.first { $0.role == .timestamp })
      let lineWidth = body.layout.lines.last!.width
      if body.prepared.isRightToLeft {
        // The line is right-aligned; the timestamp sits to its left without touching it.
        XCTAssertLessThanOrEqual(ts.x + ts.layout.widest, body.x + body.width - lineWidth + 1e-6)
      } else {
        XCTAssertGreaterThanOrEqual(ts.x, body.x + lineWidth)
      }
    }
  }

  func testProductCardPartsStackInsideTheCard() throws {
    var card = ProductCardCell(
      width: 187, title: "[단독] 한강 야경 선셋 카약 투어 + 인생샷 촬영",
      titleStyle: TextStyle(fonts: try Fixtures.library.stack(["NanumGothic.ttf"]), size: 15))
    card.titleStyle.maxLines = 2
    card.price = "39,000원"
    card.originalPrice = "52,000원"
    card.badge = "오늘 마감"
    let sizer = CellSizer(cacheCapacity: 0)
    let p = try sizer.place(card)
    XCTAssertEqual(p.size, try sizer.measure(card).size)
    XCTAssertEqual(Set(p.texts.map(\.role)), [.title, .price, .originalPrice, .badge])
    var previousBottom = 0.0
    for role: CellPlacement.Text.Role in [.title, .price, .badge] {
      let t = try XCTUnwrap(p.texts.first { $0.role == role })
      XCTAssertGreaterThanOrEqual(t.y, previousBottom, role.rawValue)
      previousBottom = t.y + t.layout.height
    }
    XCTAssertLessThanOrEqual(previousBottom, p.size.height)
  }
}
