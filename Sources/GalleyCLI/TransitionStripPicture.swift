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
    let strip = Strip(viewport: viewport)
    try checkSize(width: strip.width, height: viewport.height + Strip.header, scale: scale)
    let canvas = Canvas(
      width: strip.width, height: viewport.height + Strip.header, scale: scale,
      background: Color(hex: 0xE5E5EA))
    try strip.drawHeader(on: canvas, typesetter: typesetter, library: library)
    // The elements that change are drawn from their changes, the others from the layout after.
    var changed = Set<String>()
    for c in t.changes where c.change != .delete {
      changed.insert(
        Strip.key(
          LayoutAttributes(
            indexPath: c.indexPath, category: c.category, scope: c.scope, kind: c.kind, frame: c.to,
            zIndex: 0)))
    }
    for (k, f) in [0.0, 0.5, 1.0].enumerated() {
      strip.drawPanel(k, at: f, of: t, changed: changed, on: canvas)
    }
    canvas.clip = nil
    return canvas
  }

  /// The geometry and drawing of a transition strip's parts.
  struct Strip {
    let viewport: Size
    /// Between the panels.
    static let gap = 24.0
    /// Above the panels: what each shows, and what the colours mean.
    static let header = 64.0
    var width: Double { 3 * viewport.width + 2 * Strip.gap }

    /// The colour of an element by its change.
    static func colour(_ change: BatchMapping.Change?) -> UInt32 {
      switch change {
      case .insert?: return 0x34C759
      case .delete?: return 0xFF3B30
      case .move?: return 0x007AFF
      case .reload?: return 0xAF52DE
      case .shift?: return 0xFF9500
      case nil: return 0xC7C7CC
      }
    }

    /// An element's identity across the two layouts.
    static func key(_ c: LayoutAttributes) -> String {
      "\(c.category.rawValue)/\(c.kind)/\(c.scope == .global ? -1 : c.indexPath.section)/\(c.scope == .item ? c.indexPath.item : -1)"
    }

    /// The panels' names and the legend of colours.
    func drawHeader(on canvas: Canvas, typesetter: Typesetter, library: FontLibrary) throws {
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
        _ = try label(name, labelStyle, x: Double(k) * (viewport.width + Strip.gap) + 4, y: 8)
      }
      var x = 4.0
      for (name, change) in [
        ("insert", BatchMapping.Change.insert), ("delete", .delete), ("move", .move),
        ("reload", .reload), ("shift", .shift), ("unchanged", nil),
      ] {
        canvas.fillRoundedRect(
          Rect(x: x, y: 38, width: 14, height: 14), radius: 3, Color(hex: Strip.colour(change)))
        x += 20 + (try label(name, legendStyle, x: x + 20, y: 37)) + 16
      }
      _ = try label("dashed: headers and decorations", legendStyle, x: x, y: 37)
    }

    /// Panel `k`: the viewport at fraction `f` of the animation, each element at its
    /// interpolated frame and alpha.
    func drawPanel(
      _ k: Int, at f: Double, of t: LayoutTransition, changed: Set<String>, on canvas: Canvas
    ) {
      let x0 = Double(k) * (viewport.width + Strip.gap)
      let offset = t.contentOffsetBefore + (t.contentOffsetAfter - t.contentOffsetBefore) * f
      let panel = Rect(x: x0, y: Strip.header, width: viewport.width, height: viewport.height)
      canvas.clip = panel
      canvas.fill(panel, .white)
      let vertical = t.after.scrollDirection == .vertical
      func draw(_ r: Rect, _ change: BatchMapping.Change?, alpha: Double, category: ElementCategory) {
        let shown = Rect(
          x: x0 + r.minX - (vertical ? 0 : offset),
          y: Strip.header + r.minY - (vertical ? offset : 0), width: r.width, height: r.height)
        guard shown.maxY > Strip.header && shown.minY < Strip.header + viewport.height
          && shown.maxX > x0 && shown.minX < x0 + viewport.width && alpha > 0.01
        else { return }
        drawElement(shown, change, alpha: alpha, category: category, on: canvas)
      }
      for a in t.after.allAttributes where !changed.contains(Strip.key(a)) {
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

    /// An element at `shown`: a cell filled and outlined, anything else dashed.
    func drawElement(
      _ shown: Rect, _ change: BatchMapping.Change?, alpha: Double, category: ElementCategory,
      on canvas: Canvas
    ) {
      let inset = Rect(
        x: shown.minX + 1, y: shown.minY + 1, width: max(0, shown.width - 2),
        height: max(0, shown.height - 2))
      let colour = Strip.colour(change)
      if category == .cell {
        canvas.fillRoundedRect(inset, radius: 6, Color(hex: colour, alpha: 0.35 * alpha))
        canvas.strokeRect(inset, Color(hex: colour, alpha: alpha), lineWidth: 1)
      } else {
        canvas.strokeRect(inset, Color(hex: colour, alpha: alpha), lineWidth: 1, dash: (4, 3))
      }
    }
  }
}
