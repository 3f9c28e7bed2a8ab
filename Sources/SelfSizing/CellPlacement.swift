import Geometry
import Foundation
import Typesetting

/// Where each part of a measured cell sits: what a renderer draws. Coordinates are points from
/// the cell's top-left corner; the rules are those of ``CellSizer`` (the sizes agree exactly).
public struct CellPlacement: Sendable {
  /// A laid-out text and its box.
  public struct Text: Sendable {
    /// What a text is in its cell.
    public enum Role: String, CaseIterable, Sendable {
      /// A bubble's message, the sender's name, the time, and the quoted message's sender
      /// and text.
      case text, name, timestamp, replyName, replyText
      /// A product card's title, price, original (struck) price and badge.
      case title, price, originalPrice, badge
    }

    /// What the text is.
    public var role: Role
    /// The shaped text (draw it with `PreparedText.glyphRuns(_:)`).
    public var prepared: PreparedText
    /// Its lines at the width the cell gave it.
    public var layout: TextLayout
    /// The box's left edge (lines start there; right-to-left paragraphs end at `x + width`).
    public var x: Double
    /// The box's top edge (the first line's top).
    public var y: Double
    /// The box's width.
    public var width: Double
  }

  /// A filled area: `reply` (the quoted message's box), `image` (a card's picture), `badge`.
  public struct Box: Sendable {
    /// What an area is in its cell.
    public enum Role: String, CaseIterable, Sendable {
      /// The quoted message's box (a bubble), the picture and the badge's box (a card).
      case reply, image, badge
    }

    /// What the area is.
    public var role: Role
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double
  }

  /// The cell's size (as ``CellMeasurement/size``).
  public var size: CellSize
  /// The texts to draw, back to front.
  public var texts: [Text] = []
  /// The filled areas to draw under the texts.
  public var boxes: [Box] = []

  /// The characters no font of their stack has, of every text in order: what the cell's
  /// measurement reports (``CellMeasurement/missingCharacters``), read off the drawn texts.
  public var missingCharacters: [Unicode.Scalar] {
    texts.flatMap { $0.prepared.missingCharacters }
  }
}

extension CellSizer {
  /// A text shaped and laid out for drawing.
  private func prepared(_ text: String, _ style: TextStyle, width: Double) throws -> (
    PreparedText, TextLayout
  ) {
    do {
      let prepared = try typesetter.prepare(text, style: style)
      return (prepared, try prepared.layout(width: width))
    } catch let e as TypesettingError {
      throw CellError.text(e)
    }
  }

  private static func box(_ laid: (PreparedText, TextLayout)) -> TextBox {
    let (prepared, layout) = laid
    return TextBox(
      lineCount: layout.lineCount, height: layout.height, widest: layout.widest,
      lastLineWidth: layout.lines.last?.width ?? 0, isTruncated: layout.isTruncated,
      isRightToLeft: prepared.isRightToLeft)
  }

  private static func text(
    _ role: CellPlacement.Text.Role, _ laid: (PreparedText, TextLayout), _ frame: Rect
  ) -> CellPlacement.Text {
    .init(role: role, prepared: laid.0, layout: laid.1, x: frame.minX, y: frame.minY, width: frame.width)
  }

  private static func box(_ role: CellPlacement.Box.Role, _ f: Rect) -> CellPlacement.Box {
    .init(role: role, x: f.minX, y: f.minY, width: f.width, height: f.height)
  }

  /// Places the parts of a bubble by the rule it is measured with (``BubbleGeometry``), so
  /// the size is the measured size: reply box, sender name, text, timestamp (inline at the
  /// trailing end of the last line, or below it, aligned trailing).
  public func place(_ cell: BubbleCell) throws -> CellPlacement {
    try cell.validate()
    let g = BubbleGeometry(cell)
    let parts = try bubbleParts(cell, g) { try prepared($0, $1, width: $2) }
    let placed = g.place(
      text: Self.box(parts.text), reply: parts.reply.map { (($0.name.map(Self.box)), Self.box($0.text)) },
      name: parts.name.map(Self.box), timestamp: parts.timestamp.map(Self.box),
      containerWidth: cell.containerWidth)
    var out = CellPlacement(size: placed.size)
    if let reply = parts.reply, let box = placed.replyBox, let frame = placed.replyText {
      out.boxes.append(Self.box(.reply, box))
      if let name = reply.name, let f = placed.replyName {
        out.texts.append(Self.text(.replyName, name, f))
      }
      out.texts.append(Self.text(.replyText, reply.text, frame))
    }
    if let name = parts.name, let f = placed.name { out.texts.append(Self.text(.name, name, f)) }
    out.texts.append(Self.text(.text, parts.text, placed.text))
    if let t = parts.timestamp, let f = placed.timestamp {
      out.texts.append(Self.text(.timestamp, t, f))
    }
    return out
  }

  /// Places the parts of a product card by the rule it is measured with
  /// (``ProductCardGeometry``): picture, title, price (original price beside it when it fits,
  /// else below), badge.
  public func place(_ cell: ProductCardCell) throws -> CellPlacement {
    try cell.validate()
    let g = ProductCardGeometry(cell: cell)
    let parts = try cardParts(g) { try prepared($0, $1, width: $2) }
    let placed = g.place(
      title: Self.box(parts.title), price: parts.price.map(Self.box),
      originalPrice: parts.originalPrice.map(Self.box), badge: parts.badge.map(Self.box))
    var out = CellPlacement(size: placed.size)
    out.boxes.append(Self.box(.image, placed.image))
    out.texts.append(Self.text(.title, parts.title, placed.title))
    if let p = parts.price, let f = placed.price { out.texts.append(Self.text(.price, p, f)) }
    if let o = parts.originalPrice, let f = placed.originalPrice {
      out.texts.append(Self.text(.originalPrice, o, f))
    }
    if let b = parts.badge, let box = placed.badgeBox, let f = placed.badge {
      out.boxes.append(Self.box(.badge, box))
      out.texts.append(Self.text(.badge, b, f))
    }
    return out
  }
}
