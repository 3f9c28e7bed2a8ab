import Foundation
import Rasterizer
import Typesetting
import XCTest

/// Shapes, compositing and PNG files, checked pixel by pixel.
final class CanvasTests: XCTestCase {
  func testPNGRoundTripKeepsPixelsAndStraightAlpha() throws {
    let c = Canvas(width: 10, height: 5, scale: 2, background: .white)
    c.fill(Rect(x: 1, y: 1, width: 2, height: 2), Color(r: 255, g: 0, b: 0))
    c.fill(Rect(x: 5, y: 1, width: 1, height: 1), Color(r: 0, g: 0, b: 255, a: 128))
    let bitmap = try PNGImage.decode(try PNGImage.encode(c))
    XCTAssertEqual(bitmap.width, 20)
    XCTAssertEqual(bitmap.height, 10)
    XCTAssertEqual(bitmap.color(x: 3, y: 3), Color(r: 255, g: 0, b: 0))
    XCTAssertEqual(bitmap.color(x: 10, y: 3), Color(r: 127, g: 127, b: 255))
    XCTAssertEqual(bitmap.color(x: 15, y: 3), .white)
    // A transparent canvas stays transparent; a half-covered colour keeps its colour.
    let t = Canvas(width: 2, height: 1, scale: 1, background: .clear)
    t.fill(Rect(x: 0, y: 0, width: 1, height: 1), Color(r: 200, g: 100, b: 0, a: 128))
    let tb = try PNGImage.decode(try PNGImage.encode(t))
    XCTAssertEqual(tb.color(x: 1, y: 0).a, 0)
    let half = tb.color(x: 0, y: 0)
    XCTAssertEqual(half.a, 128)
    XCTAssertEqual(Int(half.r), 200, accuracy: 2)
    XCTAssertEqual(Int(half.g), 100, accuracy: 2)
    XCTAssertThrowsError(try PNGImage.decode(Data("not a png".utf8)))
  }

  func testRoundedRectIsAntiAliasedAndLeavesCornersEmpty() {
    let c = Canvas(width: 40, height: 20, scale: 1, background: .white)
    let blue = Color(hex: 0x0A84FF)
    c.fillRoundedRect(Rect(x: 0, y: 0, width: 40, height: 20), radius: 10, blue)
    XCTAssertEqual(c.color(atPixelX: 20, y: 10), blue)
    XCTAssertEqual(c.color(atPixelX: 0, y: 0), .white, "the corner is outside the arc")
    XCTAssertEqual(c.color(atPixelX: 39, y: 19), .white)
    // Along the arc some pixels are partly covered: neither background nor fill.
    var partial = 0
    for y in 0..<20 {
      for x in 0..<12 {
        let p = c.color(atPixelX: x, y: y)
        if p != .white && p != blue { partial += 1 }
      }
    }
    XCTAssertGreaterThan(partial, 5)
    // A fractional edge blends by coverage.
    let e = Canvas(width: 4, height: 1, scale: 1, background: .white)
    e.fill(Rect(x: 0, y: 0, width: 1.5, height: 1), .black)
    XCTAssertEqual(e.color(atPixelX: 0, y: 0), .black)
    XCTAssertEqual(Int(e.color(atPixelX: 1, y: 0).r), 128, accuracy: 1)
    XCTAssertEqual(e.color(atPixelX: 2, y: 0), .white)
  }

  func testDashedStrokeHasGapsAndStaysInsideTheRect() {
    let c = Canvas(width: 60, height: 30, scale: 1, background: .white)
    c.strokeRect(Rect(x: 10, y: 10, width: 40, height: 10), .black, lineWidth: 1, dash: (4, 4))
    var on = 0
    var off = 0
    for x in 10..<50 {
      if c.color(atPixelX: x, y: 10) == .black { on += 1 } else { off += 1 }
    }
    XCTAssertGreaterThan(on, 15)
    XCTAssertGreaterThan(off, 15)
    XCTAssertEqual(
      c.inkBounds(in: Rect(x: 0, y: 0, width: 60, height: 30), background: .white),
      Rect(x: 10, y: 10, width: 40, height: 10))
    let solid = Canvas(width: 60, height: 30, scale: 1, background: .white)
    solid.strokeRect(Rect(x: 10, y: 10, width: 40, height: 10), .black)
    for x in 10..<50 { XCTAssertEqual(solid.color(atPixelX: x, y: 19), .black) }
    XCTAssertEqual(solid.color(atPixelX: 20, y: 15), .white, "a stroke does not fill")
  }

  func testClipKeepsDrawingInside() {
    let c = Canvas(width: 10, height: 10, scale: 1, background: .white)
    c.clip = Rect(x: 0, y: 0, width: 5, height: 10)
    c.fill(Rect(x: 0, y: 0, width: 10, height: 10), .black)
    XCTAssertEqual(c.color(atPixelX: 4, y: 4), .black)
    XCTAssertEqual(c.color(atPixelX: 5, y: 4), .white)
  }
}
