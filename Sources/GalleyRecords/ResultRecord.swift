import GalleyJSON
import Geometry
import SelfSizing
import Typesetting

/// The result records of `galley measure` and the C ABI, written in one place.
package enum ResultRecord {
  /// The first number of a result that JSON cannot hold (infinite or NaN), by its field's
  /// name: such a result is written as an error record naming it, never as `inf` or `null`.
  package static func unrepresentable(_ fields: KeyValuePairs<String, Double>) -> String? {
    fields.first { !$0.value.isFinite }.map { unrepresentable($0.key, $0.value) }
  }

  /// The message of a result field `name` whose number JSON cannot hold.
  static func unrepresentable(_ name: String, _ value: Double) -> String {
    "the result's \"\(name)\" is not a finite number (\(value)): an input is out of range"
  }

  /// ``unrepresentable(_:)`` of a cell's size record.
  package static func unrepresentable(_ m: CellMeasurement) -> String? {
    unrepresentable(["width": m.size.width, "height": m.size.height, "textHeight": m.textHeight])
  }

  /// ``unrepresentable(_:)`` of a text case's result record.
  package static func unrepresentable(_ layout: TextLayout) -> String? {
    if let e = unrepresentable(["height": layout.height, "widest": layout.widest]) { return e }
    let line = layout.lines.first { !$0.width.isFinite }
    return line.map { unrepresentable("lineWidths", $0.width) }
  }

  /// A cell's size record (docs/CELLS.md).
  package static func cell(id: String, _ m: CellMeasurement) -> String {
    var w = JSONWriter()
    cell(id: id, m, into: &w)
    return w.text
  }

  /// The same, appended to `w`.
  package static func cell(id: String, _ m: CellMeasurement, into w: inout JSONWriter) {
    w.raw("{\"id\": " as StaticString)
    w.string(id)
    w.raw(", \"width\": " as StaticString)
    w.number(m.size.width)
    w.raw(", \"height\": " as StaticString)
    w.number(m.size.height)
    w.raw(", \"lines\": " as StaticString)
    w.int(m.lines)
    w.raw(", \"textHeight\": " as StaticString)
    w.number(m.textHeight)
    w.raw(", \"truncated\": " as StaticString)
    w.bool(m.truncated)
    if let p = m.timestampPlacement {
      w.raw(", \"timestamp\": " as StaticString)
      w.string(p.rawValue)
    }
    w.raw(", \"missingGlyphs\": " as StaticString)
    w.int(m.missingCharacters.count)
    w.raw(UInt8(ascii: "}"))
  }

  /// A text case's result record (docs/CASE-FORMAT.md).
  package static func text(id: String, _ layout: TextLayout, missingGlyphs: Int = 0) -> String {
    var w = JSONWriter()
    text(id: id, layout, missingGlyphs: missingGlyphs, into: &w)
    return w.text
  }

  /// The same, appended to `w`.
  package static func text(
    id: String, _ layout: TextLayout, missingGlyphs: Int = 0, into w: inout JSONWriter
  ) {
    w.raw("{\"id\": " as StaticString)
    w.string(id)
    w.raw(", \"lines\": " as StaticString)
    w.int(layout.lineCount)
    w.raw(", \"height\": " as StaticString)
    w.number(layout.height)
    w.raw(", \"widest\": " as StaticString)
    w.number(layout.widest)
    // (Loops here rather than the writer's generic list: a closure is not specialised across
    // modules.)
    let lines = layout.lines
    w.raw(", \"lineStarts\": [" as StaticString)
    for (k, line) in lines.enumerated() {
      if k > 0 { w.raw(", " as StaticString) }
      w.int(line.start)
    }
    w.raw("], \"lineStartsU16\": [" as StaticString)
    for (k, line) in lines.enumerated() {
      if k > 0 { w.raw(", " as StaticString) }
      w.int(line.startUTF16)
    }
    w.raw("], \"lineWidths\": [" as StaticString)
    for (k, line) in lines.enumerated() {
      if k > 0 { w.raw(", " as StaticString) }
      w.number(line.width)
    }
    w.raw(UInt8(ascii: "]"))
    if layout.isTruncated {
      w.raw(", \"truncated\": true, \"visibleEnd\": " as StaticString)
      w.int(layout.visibleRange.upperBound)
    }
    w.raw(", \"missingGlyphs\": " as StaticString)
    w.int(missingGlyphs)
    w.raw(UInt8(ascii: "}"))
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
