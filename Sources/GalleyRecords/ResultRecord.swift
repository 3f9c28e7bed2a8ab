import GalleyJSON
import Geometry
import SelfSizing
import Typesetting

/// The result records of `galley measure` and the C ABI, written in one place.
package enum ResultRecord {
  /// A cell's size record (docs/CELLS.md).
  package static func cell(id: String, _ m: CellMeasurement) -> String {
    var w = JSONWriter()
    w.raw(UInt8(ascii: "{"))
    w.key("id", first: true)
    w.string(id)
    w.key("width")
    w.number(m.size.width)
    w.key("height")
    w.number(m.size.height)
    w.key("lines")
    w.int(m.lines)
    w.key("textHeight")
    w.number(m.textHeight)
    w.key("truncated")
    w.bool(m.truncated)
    if let p = m.timestampPlacement {
      w.key("timestamp")
      w.string(p.rawValue)
    }
    w.key("missingGlyphs")
    w.int(m.missingCharacters.count)
    w.raw(UInt8(ascii: "}"))
    return w.text
  }

  /// A text case's result record (docs/CASE-FORMAT.md).
  package static func text(id: String, _ layout: TextLayout, missingGlyphs: Int = 0) -> String {
    var w = JSONWriter()
    w.raw(UInt8(ascii: "{"))
    w.key("id", first: true)
    w.string(id)
    w.key("lines")
    w.int(layout.lineCount)
    w.key("height")
    w.number(layout.height)
    w.key("widest")
    w.number(layout.widest)
    let lines = layout.lines
    w.key("lineStarts")
    w.ints(lines.map(\.start))
    w.key("lineStartsU16")
    w.ints(lines.map(\.startUTF16))
    w.key("lineWidths")
    w.numbers(lines.map(\.width))
    if layout.isTruncated {
      w.key("truncated")
      w.bool(true)
      w.key("visibleEnd")
      w.int(layout.visibleRange.upperBound)
    }
    w.key("missingGlyphs")
    w.int(missingGlyphs)
    w.raw(UInt8(ascii: "}"))
    return w.text
  }

  /// The estimator's size of a bubble (`galley measure --estimate`).
  package static func estimatedCell(id: String, _ size: Size) -> String {
    JSONWriter.object([
      ("id", JSONWriter.string(id)), ("width", JSONWriter.number(size.width)),
      ("height", JSONWriter.number(size.height)), ("estimated", "true"),
    ])
  }

  /// The estimator's lines, height and widest line of a text case.
  package static func estimatedText(id: String, lines: Int, height: Double, widest: Double)
    -> String
  {
    JSONWriter.object([
      ("id", JSONWriter.string(id)), ("lines", String(lines)),
      ("height", JSONWriter.number(height)), ("widest", JSONWriter.number(widest)),
      ("estimated", "true"),
    ])
  }
}
