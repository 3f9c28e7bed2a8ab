import GalleyRecords
import Foundation
import SelfSizing
import Typesetting
import XCTest

/// Chat bubbles measured from real text: the template's rule checked against the text engine.
final class BubbleTests: XCTestCase {
  func roundUp(_ v: Double, _ scale: Double) -> Double { (v * scale - 1e-6).rounded(.up) / scale }

  func testTenThousandMessageTranscript() throws {
    let cells = try Fixtures.transcript(10_000)
    let sizer = CellSizer(cacheCapacity: 0)
    var inline = 0
    var below = 0
    for cell in cells {
      let m = try sizer.measure(cell)
      // The rule, recomputed from the text engine directly.
      let tw =
        min(cell.containerWidth * 0.75, cell.containerWidth) - cell.padding.leading
        - cell.padding.trailing
      let text = try Typesetter.shared.prepare(cell.text, style: cell.style).layout(width: tw)
      var height = cell.padding.top + text.height + cell.padding.bottom
      var content = text.widest
      if let ts = cell.timestamp {
        var s = cell.style
        s.size = 11
        s.maxLines = 1
        s.whiteSpace = .nowrap
        let t = try Typesetter.shared.prepare(ts, style: s).layout(width: tw)
        let last = text.lines.last?.width ?? 0
        if !text.lines.isEmpty && last + 6 + t.widest <= tw {
          XCTAssertEqual(m.timestampPlacement, .inline)
          content = max(content, last + 6 + t.widest)
          inline += 1
        } else {
          XCTAssertEqual(m.timestampPlacement, .below)
          height += (text.lines.isEmpty ? 0 : 2) + t.height
          content = max(content, t.widest)
          below += 1
        }
      }
      XCTAssertEqual(m.size.height, roundUp(height, 3), "\(cell.text.prefix(30))")
      // The bubble hugs its widest line, not the maximum width.
      XCTAssertEqual(m.size.width, roundUp(content + 24, 3), "\(cell.text.prefix(30))")
      XCTAssertLessThanOrEqual(m.size.width, roundUp(390 * 0.75, 3))
      XCTAssertEqual(m.lines, text.lineCount)
      XCTAssertEqual(m.textHeight, text.height)
    }
    XCTAssertGreaterThan(inline, 100)
    XCTAssertGreaterThan(below, 100)
  }

  func testShortMessageHugsAndMinSizeHolds() throws {
    let style = TextStyle(fonts: try Fixtures.library.stack(["Inter-Regular.otf"]), size: 17)
    var b = BubbleCell(text: "ok", style: style, containerWidth: 390)
    b.minSize = CellSize(width: 60, height: 44)
    let m = try CellSizer.shared.measure(b)
    XCTAssertEqual(m.size.width, 60)
    XCTAssertEqual(m.size.height, 44)
    b.minSize = CellSize(width: 0, height: 0)
    let n = try CellSizer.shared.measure(b)
    XCTAssertLessThan(n.size.width, 60)
  }

  func testDynamicTypeScalesTheBubble() throws {
    let style = TextStyle(
      fonts: try Fixtures.library.stack(["Inter-Regular.otf", "NanumGothic.ttf"]), size: 17)
    var b = BubbleCell(
      text: "A message long enough to wrap over a couple of lines in a bubble", style: style,
      containerWidth: 390)
    let base = try CellSizer.shared.measure(b)
    b.textScale = 1.5
    let big = try CellSizer.shared.measure(b)
    XCTAssertGreaterThan(big.size.height, base.size.height * 1.3)
    XCTAssertGreaterThan(big.lines, base.lines)
  }

  func testSenderNameReplyAndMaxLines() throws {
    var style = TextStyle(
      fonts: try Fixtures.library.stack(["Inter-Regular.otf", "NanumGothic.ttf"]), size: 17)
    let plain = try CellSizer.shared.measure(
      BubbleCell(text: "안녕하세요", style: style, containerWidth: 390))
    var named = BubbleCell(text: "안녕하세요", style: style, containerWidth: 390)
    named.senderName = "민지"
    XCTAssertGreaterThan(try CellSizer.shared.measure(named).size.height, plain.size.height)
    named.replyName = "Alex"
    named.replyText =
      "A quoted message that is long enough to be cut after two lines of preview text here"
    XCTAssertGreaterThan(try CellSizer.shared.measure(named).size.height, plain.size.height + 30)
    style.maxLines = 2
    let long = BubbleCell(
      text: String(repeating: "word ", count: 200), style: style, containerWidth: 390)
    let m = try CellSizer.shared.measure(long)
    XCTAssertEqual(m.lines, 2)
    XCTAssertTrue(m.truncated)
  }

  func testBadCellsGetClearErrors() throws {
    let style = TextStyle(fonts: try Fixtures.library.stack(["Inter-Regular.otf"]), size: 17)
    var b = BubbleCell(text: "x", style: style, containerWidth: 100)
    b.padding = Padding(top: 0, leading: 60, bottom: 0, trailing: 60)
    XCTAssertThrowsError(try CellSizer.shared.measure(b)) { e in
      XCTAssertTrue("\(e)".contains("no room"), "\(e)")
    }
    b.padding = Padding(top: -1, leading: 0, bottom: 0, trailing: 0)
    XCTAssertThrowsError(try CellSizer.shared.measure(b))
    b = BubbleCell(text: "x", style: style, containerWidth: .nan)
    XCTAssertThrowsError(try CellSizer.shared.measure(b))
    XCTAssertThrowsError(
      try CellRecord(json: ["template": "sticker", "text": "x"], library: Fixtures.library)
    ) { e in
      XCTAssertEqual(e as? CellError, .unknownTemplate("sticker"))
    }
    XCTAssertThrowsError(
      try CellRecord(
        json: ["template": "bubble", "containerWidth": 100], library: Fixtures.library)
    ) { e in
      XCTAssertEqual(e as? CellError, .missingField("text"))
    }
    // The text engine's error keeps its case inside the cell's.
    var wide = style
    wide.letterSpacing = 1e9
    XCTAssertThrowsError(try CellSizer.shared.measure(BubbleCell(text: "x", style: wide, containerWidth: 300))) { e in
      guard case .text(.invalidStyle(let why))? = e as? CellError else { return XCTFail("\(e)") }
      XCTAssertTrue(why.contains("letterSpacing"), why)
    }
  }

  func testPrecomputeForDeviceWidthsMatchesSingleMeasurements() throws {
    let cells = Array(try Fixtures.transcript(200))
    let widths: [Double] = [320, 375, 390, 393, 430, 507, 694]
    let table = CellSizer.shared.precompute(cells, containerWidths: widths)
    XCTAssertEqual(table.count, widths.count)
    for (w, row) in zip(widths, table) {
      for (cell, result) in zip(cells, row).prefix(50) {
        var c = cell
        c.containerWidth = w
        XCTAssertEqual(try result.get(), try CellSizer(cacheCapacity: 0).measure(c))
      }
    }
  }
}
