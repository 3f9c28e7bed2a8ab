import CompositionalLayout
import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import Rasterizer
import SelfSizing
import Typesetting

extension Pictures {
  /// One text laid out at `width − 2 × 16` points; with `overlay`, each line's typographic box
  /// (green) and ink bounds (dashed red).
  static func text(
    _ c: TextCase, width: Double, scale: Double, overlay: Bool, typesetter: Typesetter,
    missing: MissingGlyphs? = nil
  ) throws -> (Canvas, [Placed]) {
    let pad = 16.0
    let prepared = try typesetter.prepare(c.text, style: c.style)
    missing?.note(order: 0, place: "--text", prepared.missingCharacters)
    let layout = try prepared.layout(width: max(1, width - 2 * pad))
    try checkSize(width: width, height: layout.height + 2 * pad, scale: scale)
    let canvas = Canvas(
      width: width, height: layout.height + 2 * pad, scale: scale, background: .white)
    let renderer = try TextRenderer()
    if overlay { renderer.missingGlyphOutline = CellPainter.estimatedOutline }
    let runs = prepared.glyphRuns(layout)
    let ink = try renderer.draw(
      runs: runs, layout: layout, rightToLeft: prepared.isRightToLeft, at: (pad, pad),
      boxWidth: width - 2 * pad, color: .black, on: canvas)
    if overlay {
      // (Each line's box where its glyphs were drawn: the renderer's alignment, not a second.)
      let starts = TextRenderer.lineStarts(
        runs, lineCount: layout.lines.count, rightToLeft: prepared.isRightToLeft,
        boxWidth: width - 2 * pad)
      for (i, line) in layout.lines.enumerated() {
        let x = pad + starts[i]
        canvas.strokeRect(
          Rect(x: x, y: pad + line.top, width: max(1, line.width), height: line.height),
          CellPainter.measuredOutline, lineWidth: 0.5)
        if let r = ink[i] {
          canvas.strokeRect(r, CellPainter.estimatedOutline, lineWidth: 0.5, dash: (2, 2))
        }
      }
    }
    let frame = Rect(x: pad, y: pad, width: width - 2 * pad, height: layout.height)
    return (
      canvas,
      [
        Placed(
          line: 1, id: c.id, frame: frame, estimated: nil, ink: ink.compactMap { $0 },
          lineWidths: TextRenderer.lineWidths(runs, lineCount: layout.lineCount))
      ]
    )
  }
}
