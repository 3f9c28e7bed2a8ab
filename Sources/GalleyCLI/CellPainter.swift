import Foundation
import GalleyService
import Rasterizer
import SelfSizing
import Typesetting

/// Draws measured cells onto a canvas: bubbles as rounded rectangles with their text, product
/// cards with a picture placeholder, title, prices and badge. Not thread-safe (one renderer).
final class CellPainter {
  let renderer: TextRenderer
  let sizer: CellSizer

  static let background = Color.white
  static let meBubble = Color(hex: 0x0A84FF)
  static let otherBubble = Color(hex: 0xE9E9EB)
  static let measuredOutline = Color(hex: 0x34C759)
  static let estimatedOutline = Color(hex: 0xFF3B30)
  static let frameOutline = Color(hex: 0x8E8E93)

  /// With `marksMissingGlyphs`, tofu is outlined in red (`render --overlay`).
  init(sizer: CellSizer, marksMissingGlyphs: Bool = false) throws {
    renderer = try TextRenderer()
    if marksMissingGlyphs { renderer.missingGlyphOutline = CellPainter.estimatedOutline }
    self.sizer = sizer
  }

  /// What one drawn cell covered: its frame, the ink bounds of its text lines (points), and
  /// the drawn width of each line of its main text (a bubble's message, a card's title).
  struct Drawn {
    var frame: Rect
    var ink: [Rect]
    var lineWidths: [Double] = []
  }

  /// Draws one placed text; returns its lines' ink and drawn widths.
  private func draw(
    _ t: CellPlacement.Text, x: Double, y: Double, color: Color, on canvas: Canvas
  ) throws -> (ink: [Rect], widths: [Double]) {
    let runs = t.prepared.glyphRuns(t.layout)
    let lines = try renderer.draw(
      runs: runs, layout: t.layout, rightToLeft: t.prepared.isRightToLeft, at: (x + t.x, y + t.y),
      boxWidth: t.width, color: color, on: canvas)
    return (lines.compactMap { $0 }, TextRenderer.lineWidths(runs, lineCount: t.layout.lineCount))
  }

  /// Draws a placed bubble with its top-left corner at (x, y).
  func drawBubble(
    _ cell: BubbleCell, _ placement: CellPlacement, x: Double, y: Double, on canvas: Canvas
  ) throws -> Drawn {
    let me = cell.sender == .me
    let frame = Rect(
      x: x, y: y, width: placement.size.width, height: placement.size.height)
    canvas.fillRoundedRect(
      frame, radius: min(18, placement.size.height / 2), me ? Self.meBubble : Self.otherBubble)
    for box in placement.boxes {
      canvas.fillRoundedRect(
        Rect(x: x + box.x, y: y + box.y, width: box.width, height: box.height),
        radius: 6, me ? Color(hex: 0xFFFFFF, alpha: 0.25) : Color(hex: 0xD1D1D6))
    }
    var ink: [Rect] = []
    var widths: [Double] = []
    for t in placement.texts {
      let color: Color
      switch t.role {
      case .timestamp: color = me ? Color(hex: 0xFFFFFF, alpha: 0.75) : Color(hex: 0x8E8E93)
      case .name, .replyName:
        color = me ? Color(hex: 0xFFFFFF, alpha: 0.85) : Color(hex: 0x6E6E73)
      default: color = me ? .white : .black
      }
      let lines = try draw(t, x: x, y: y, color: color, on: canvas)
      ink += lines.ink
      if t.role == .text { widths = lines.widths }
    }
    return Drawn(frame: frame, ink: ink, lineWidths: widths)
  }

  /// Draws a placed product card in `frame`'s top-left corner.
  func drawCard(_ placement: CellPlacement, x: Double, y: Double, on canvas: Canvas) throws -> Drawn
  {
    let frame = Rect(
      x: x, y: y, width: placement.size.width, height: placement.size.height)
    var ink: [Rect] = []
    var widths: [Double] = []
    for box in placement.boxes {
      let r = Rect(x: x + box.x, y: y + box.y, width: box.width, height: box.height)
      if box.role == .image {
        canvas.fillRoundedRect(r, radius: 8, Color(hex: 0xE5E5EA))
      } else {
        canvas.fillRoundedRect(r, radius: 3, Color(hex: 0xFFE5E3))
      }
    }
    for t in placement.texts {
      let color: Color
      switch t.role {
      case .price: color = .black
      case .originalPrice: color = Color(hex: 0x8E8E93)
      case .badge: color = Color(hex: 0xD70015)
      default: color = Color(hex: 0x1C1C1E)
      }
      let lines = try draw(t, x: x, y: y, color: color, on: canvas)
      ink += lines.ink
      if t.role == .title { widths = lines.widths }
    }
    return Drawn(frame: frame, ink: ink, lineWidths: widths)
  }
}
