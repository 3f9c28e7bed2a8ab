import CompositionalLayout
import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import Rasterizer
import SelfSizing
import Typesetting

extension Pictures {
  /// A layout spec: every element's frame outlined (cells grey, supplementary views orange,
  /// decorations filled), and the cells the spec carries drawn in their frames.
  static func layoutSpec(
    _ data: Data, scale: Double, library: FontLibrary, sizer: CellSizer,
    missing: MissingGlyphs? = nil
  ) throws -> (Canvas, [Placed], [Failure]) {
    let spec = try LayoutSpec(json: data)
    // Each cell as the layout measured it (the width it proposed stands in for a missing
    // container width): drawn as measured, never measured again at its frame's width.
    var measured: [ItemPath: CellRecord] = [:]
    let result = try spec.layoutResult { request in
      let (record, size) = try LayoutCommand.measuredCell(
        request, library: library, sizer: sizer, missing: missing)
      measured[request.indexPath] = record
      return size
    }
    let all = result.allAttributes
    var width = spec.environment.containerSize.width
    var height = result.contentSize.height
    for a in all {
      width = max(width, a.frame.origin.x + a.frame.size.width)
      height = max(height, a.frame.origin.y + a.frame.size.height)
    }
    let canvas = Canvas(
      width: width, height: height, scale: scale, background: CellPainter.background)
    let painter = try CellPainter(sizer: sizer)
    var placed: [Placed] = []
    // (Cells that could not be measured are drawn as frames at their estimated size.)
    var failures = result.unmeasuredCells.map { Failure(line: 0, id: nil, message: $0.message) }
    let unmeasured = Set(result.unmeasuredCells.map(\.indexPath))
    for a in all.sorted(by: { $0.zIndex < $1.zIndex }) {
      let f = a.frame
      switch a.category {
      case .decoration:
        canvas.fillRoundedRect(f, radius: 8, Color(hex: 0xF2F2F7))
      case .supplementary:
        canvas.strokeRect(f, Color(hex: 0xFF9500), lineWidth: 1, dash: (4, 3))
      case .cell:
        let s = a.indexPath.section
        if unmeasured.contains(a.indexPath) {
          // Its error is reported already: its estimated frame, dashed red.
          canvas.strokeRect(f, Color(hex: 0xFF3B30), lineWidth: 1, dash: (4, 3))
        } else if s < spec.sections.count, let cellData = spec.sections[s].cells[a.indexPath.item]
        {
          do {
            // (A cell whose item has no estimated axis is not measured: its frame is its width.)
            let record = try measured[a.indexPath]
              ?? CellRecord(json: cellData, library: library, proposedWidth: f.width)
            let drawn: CellPainter.Drawn
            switch record.cell {
            case .bubble(let b):
              let placement = try sizer.place(b)
              let x = b.sender == .me ? f.maxX - placement.size.width : f.minX
              drawn = try painter.drawBubble(b, placement, x: x, y: f.minY, on: canvas)
            case .productCard(let c):
              drawn = try painter.drawCard(try sizer.place(c), x: f.minX, y: f.minY, on: canvas)
            }
            placed.append(
              Placed(
                line: 0, id: record.id, frame: f, estimated: nil, ink: drawn.ink,
                lineWidths: drawn.lineWidths))
          } catch {
            failures.append(
              Failure(
                line: 0, id: "sections[\(s)].cells[\(a.indexPath.item)]",
                message: (error as? CellError)?.description ?? "\(error)"))
          }
        } else {
          placed.append(
            Placed(line: 0, id: "\(s).\(a.indexPath.item)", frame: f, estimated: nil, ink: []))
        }
        canvas.strokeRect(f, CellPainter.frameOutline, lineWidth: 0.5)
      }
    }
    return (canvas, placed, failures)
  }
}
