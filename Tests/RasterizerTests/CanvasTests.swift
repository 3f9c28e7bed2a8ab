import Foundation
import Rasterizer
import Typesetting
import XCTest

final class CanvasTests: XCTestCase {
  func testPNGRoundTrip() throws {
    let c = Canvas(width: 10, height: 5, scale: 2, background: .white)
    c.fill(Rect(x: 1, y: 1, width: 2, height: 2), Color(r: 255, g: 0, b: 0))
    let bitmap = try PNGImage.decode(try PNGImage.encode(c))
    XCTAssertEqual(bitmap.width, 20)
    XCTAssertEqual(bitmap.height, 10)
    XCTAssertEqual(bitmap.color(x: 3, y: 3), Color(r: 255, g: 0, b: 0))
    XCTAssertEqual(bitmap.color(x: 10, y: 3), .white)
  }
}
