import Foundation
import Rasterizer
import Typesetting
import XCTest

/// Glyphs drawn with FreeType where the layout put them.
final class TextRendererTests: XCTestCase {
  func style(_ fonts: [String], size: Double = 20) throws -> TextStyle {
    TextStyle(fonts: try FontLibrary.bundled.stack(fonts), size: size)
  }

  func draw(_ text: String, _ style: TextStyle, width: Double, scale: Double = 2) throws -> (
    Canvas, TextLayout, [Rect?], PreparedText
  ) {
    let prepared = try Typesetter.shared.prepare(text, style: style)
    let layout = try prepared.layout(width: width)
    let canvas = Canvas(width: width + 20, height: layout.height + 20, scale: scale)
    let ink = try TextRenderer().draw(
      prepared, layout: layout, at: (10, 10), boxWidth: width, color: .black, on: canvas)
    return (canvas, layout, ink, prepared)
  }

  func testOutlineGlyphInkSitsInsideEachLineBox() throws {
    let s = try style(["Inter-Regular.otf", "NanumGothic.ttf"])
    let (canvas, layout, ink, _) = try draw(
      "Hello world, 안녕하세요 세계 and more words here", s, width: 160)
    XCTAssertGreaterThan(layout.lineCount, 1)
    XCTAssertEqual(ink.count, layout.lineCount)
    for (i, line) in layout.lines.enumerated() {
      let r = try XCTUnwrap(ink[i], "line \(i) drew nothing")
      let box = Rect(x: 10, y: 10 + line.top, width: line.width, height: line.height)
      XCTAssertTrue(box.contains(r, tolerance: 1.5), "line \(i): ink \(r) outside \(box)")
      XCTAssertGreaterThan(r.width, line.width * 0.8, "ink spans the line")
    }
    // The ink bounds agree with the pixels actually changed.
    let all = try XCTUnwrap(
      canvas.inkBounds(
        in: Rect(x: 0, y: 0, width: 180, height: layout.height + 20), background: .white))
    let union = ink.compactMap { $0 }.reduce(ink[0]!) { $0.union($1) }
    XCTAssertEqual(all, union)
    // Anti-aliased: grey levels between black and white.
    var greys = Set<UInt8>()
    for y in 0..<canvas.pixelHeight {
      for x in 0..<canvas.pixelWidth {
        let c = canvas.color(atPixelX: x, y: y)
        if c.r > 0 && c.r < 255 { greys.insert(c.r) }
      }
    }
    XCTAssertGreaterThan(greys.count, 20)
  }

  func testColourEmojiIsDrawnInColourAtTheTextSize() throws {
    let s = try style(["Inter-Regular.otf", "NotoColorEmoji.ttf"], size: 24)
    let (canvas, layout, ink, _) = try draw("👋🍎", s, width: 200)
    XCTAssertEqual(layout.lineCount, 1)
    let r = try XCTUnwrap(ink[0])
    // The strike is 109 ppem with bitmaps 136 × 128 pixels (CBLC/CBDT): scaled to 24 pt, each
    // bitmap is 29.94 pt wide (its advance) and 28.18 pt tall. The ink (pixels not fully
    // transparent) is at least an em tall and fits those boxes; the two glyphs' ink spans most
    // of the line. (Unscaled, it would be 4.5 times taller.)
    XCTAssertGreaterThanOrEqual(r.height, 24)
    XCTAssertLessThanOrEqual(r.height, 128 * 24 / 109 + 0.5)
    XCTAssertLessThanOrEqual(r.width, layout.lines[0].width + 0.5)
    XCTAssertGreaterThan(r.width, 0.9 * layout.lines[0].width)
    var coloured = 0
    var red = 0
    for y in 0..<canvas.pixelHeight {
      for x in 0..<canvas.pixelWidth {
        let c = canvas.color(atPixelX: x, y: y)
        let spread = Int(max(c.r, c.g, c.b)) - Int(min(c.r, c.g, c.b))
        if spread > 60 { coloured += 1 }
        if c.r > 180 && c.g < 90 && c.b < 90 { red += 1 }
      }
    }
    XCTAssertGreaterThan(coloured, 500, "emoji pixels are coloured, not grey")
    XCTAssertGreaterThan(red, 50, "the apple is red")
  }

  func testRightToLeftLineIsDrawnAtTheRight() throws {
    let s = try style(["NotoSansHebrew-Regular.ttf", "NotoSans-Regular.ttf"])
    let (_, layout, ink, prepared) = try draw("שלום עולם", s, width: 300)
    XCTAssertTrue(prepared.isRightToLeft)
    let r = try XCTUnwrap(ink[0])
    XCTAssertEqual(r.maxX, 10 + 300, accuracy: 3, "the line ends at the box's right edge")
    XCTAssertGreaterThan(r.minX, 10 + 300 - layout.lines[0].width - 3)
    // And a left-to-right line starts at the left.
    let (_, _, ltr, _) = try draw("hello", try style(["NotoSans-Regular.ttf"]), width: 300)
    XCTAssertLessThan(try XCTUnwrap(ltr[0]).minX, 13)
  }

  func testVisualOrderOfMixedDirectionText() throws {
    // "abc" then Hebrew in an LTR paragraph: the Hebrew word is drawn to the right of "abc".
    let s = try style(["NotoSans-Regular.ttf", "NotoSansHebrew-Regular.ttf"])
    let prepared = try Typesetter.shared.prepare("abc שלום", style: s)
    let layout = try prepared.layout(width: 300)
    let runs = prepared.glyphRuns(layout)
    let latin = try XCTUnwrap(runs.first { !$0.isRightToLeft && $0.glyphs.count >= 3 })
    let hebrew = try XCTUnwrap(runs.first { $0.isRightToLeft })
    XCTAssertLessThan(latin.x[0], hebrew.x[0])
  }
}
