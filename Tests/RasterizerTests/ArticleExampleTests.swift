import Foundation
import Rasterizer
import SelfSizing
import Typesetting
import XCTest

/// The walk-through of the Rasterizer documentation article, as written there: a text prepared,
/// laid out, sized as a bubble and drawn.
final class ArticleExampleTests: XCTestCase {
  func testFromATextToItsPicture() throws {
    let style = TextStyle(fonts: try FontLibrary.bundled.defaultStack(), size: 17)
    let bubble = BubbleCell(text: "오늘 저녁 7시에 만나요 👋", style: style, containerWidth: 390)
    let placement = try CellSizer.shared.place(bubble)  // prepare → layout → frame
    let canvas = Canvas(width: 390, height: placement.size.height + 16, scale: 2)
    let frame = Rect(x: 8, y: 8, width: placement.size.width, height: placement.size.height)
    canvas.fillRoundedRect(frame, radius: 18, Color(hex: 0xE9E9EB))
    let renderer = try TextRenderer()
    var lines = 0
    for t in placement.texts {
      let ink = try renderer.draw(
        t.prepared, layout: t.layout, at: (8 + t.x, 8 + t.y), boxWidth: t.width, on: canvas)
      for r in ink {
        let r = try XCTUnwrap(r)
        XCTAssertTrue(frame.contains(r), "\(t.role): \(r) outside \(frame)")
        lines += 1
      }
    }
    XCTAssertEqual(lines, 1)
    let png = try PNGImage.encode(canvas)
    let decoded = try PNGImage.decode(png)
    XCTAssertEqual(decoded.width, 780)
    XCTAssertEqual(decoded.color(x: 2, y: 2), .white)
    XCTAssertEqual(
      decoded.color(x: 20, y: Int(8 + placement.size.height / 2) * 2), Color(hex: 0xE9E9EB))
  }
}
