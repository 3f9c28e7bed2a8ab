import CompositionalLayout
import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import Rasterizer
import SelfSizing
import Typesetting

extension Pictures {
  /// A batch's animation on one sheet: the viewport before, halfway and after, side by side
  /// (left to right, each named above it), each element at its interpolated frame and alpha —
  /// appearing ones green, disappearing red, moved blue, reloaded purple, shifted orange,
  /// unchanged grey (a legend above says so).
  static func transitionStrip(
    _ t: LayoutTransition, viewport: Size, scale: Double, typesetter: Typesetter,
    library: FontLibrary
  ) throws -> Canvas {
    let gap = 24.0
    let width = 3 * viewport.width + 2 * gap
    func colour(_ change: BatchMapping.Change?) -> UInt32 {
      switch change {
      case .insert?: return 0x34C759
      case .delete?: return 0xFF3B30
      case .move?: return 0x007AFF
      case .reload?: return 0xAF52DE
      case .shift?: return 0xFF9500
      case nil: return 0xC7C7CC
      }
    }
    // Above the screens: what each shows, and what the colours mean.
    let header = 64.0
    try checkSize(width: width, height: viewport.height + header, scale: scale)
    let canvas = Canvas(
      width: width, height: viewport.height + header, scale: scale,
      background: Color(hex: 0xE5E5EA))
    let renderer = try TextRenderer()
    let labelStyle = TextStyle(fonts: try library.defaultStack(), size: 15)
    let legendStyle = TextStyle(fonts: try library.defaultStack(), size: 12)
    /// Draws `text` at (x, y), returning how wide it is.
    func label(_ text: String, _ style: TextStyle, x: Double, y: Double) throws -> Double {
      let prepared = try typesetter.prepare(text, style: style)
      let layout = try prepared.layout(width: 1e6)
      _ = try renderer.draw(prepared, layout: layout, at: (x, y), color: .black, on: canvas)
      return layout.widest
    }
    for (k, name) in ["before", "halfway", "after"].enumerated() {
      _ = try label(name, labelStyle, x: Double(k) * (viewport.width + gap) + 4, y: 8)
    }
    var x = 4.0
    for (name, change) in [
      ("insert", BatchMapping.Change.insert), ("delete", .delete), ("move", .move),
      ("reload", .reload), ("shift", .shift), ("unchanged", nil),
    ] {
      canvas.fillRoundedRect(Rect(x: x, y: 38, width: 14, height: 14), radius: 3, Color(hex: colour(change)))
      x += 20 + (try label(name, legendStyle, x: x + 20, y: 37)) + 16
    }
    _ = try label("dashed: headers and decorations", legendStyle, x: x, y: 37)
    let vertical = t.after.scrollDirection == .vertical
    var changed = Set<String>()
    func key(_ c: LayoutAttributes) -> String {
      "\(c.category.rawValue)/\(c.kind)/\(c.scope == .global ? -1 : c.indexPath.section)/\(c.scope == .item ? c.indexPath.item : -1)"
    }
    for c in t.changes where c.change != .delete {
      changed.insert(
        key(
          LayoutAttributes(
            indexPath: c.indexPath, category: c.category, scope: c.scope, kind: c.kind, frame: c.to,
            zIndex: 0)))
    }
    for (k, f) in [0.0, 0.5, 1.0].enumerated() {
      let x0 = Double(k) * (viewport.width + gap)
      let offset = t.contentOffsetBefore + (t.contentOffsetAfter - t.contentOffsetBefore) * f
      let panel = Rect(x: x0, y: header, width: viewport.width, height: viewport.height)
      canvas.clip = panel
      canvas.fill(panel, .white)
      func draw(_ r: Rect, _ change: BatchMapping.Change?, alpha: Double, category: ElementCategory) {
        let shown = Rect(
          x: x0 + r.minX - (vertical ? 0 : offset), y: header + r.minY - (vertical ? offset : 0),
          width: r.width, height: r.height)
        guard shown.maxY > header && shown.minY < header + viewport.height && shown.maxX > x0
          && shown.minX < x0 + viewport.width && alpha > 0.01
        else { return }
        let inset = Rect(
          x: shown.minX + 1, y: shown.minY + 1, width: max(0, shown.width - 2),
          height: max(0, shown.height - 2))
        if category == .cell {
          canvas.fillRoundedRect(inset, radius: 6, Color(hex: colour(change), alpha: 0.35 * alpha))
          canvas.strokeRect(inset, Color(hex: colour(change), alpha: alpha), lineWidth: 1)
        } else {
          canvas.strokeRect(inset, Color(hex: colour(change), alpha: alpha), lineWidth: 1, dash: (4, 3))
        }
      }
      for a in t.after.allAttributes where !changed.contains(key(a)) {
        draw(a.frame, nil, alpha: 1, category: a.category)
      }
      for c in t.changes {
        let r = Rect(
          x: c.from.minX + (c.to.minX - c.from.minX) * f, y: c.from.minY + (c.to.minY - c.from.minY) * f,
          width: c.from.width + (c.to.width - c.from.width) * f,
          height: c.from.height + (c.to.height - c.from.height) * f)
        draw(r, c.change, alpha: c.fromAlpha + (c.toAlpha - c.fromAlpha) * f, category: c.category)
      }
    }
    canvas.clip = nil
    return canvas
  }
}
