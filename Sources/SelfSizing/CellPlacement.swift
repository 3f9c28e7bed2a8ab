import Foundation
import Typesetting

/// Where each part of a measured cell sits: what a renderer draws. Coordinates are points from
/// the cell's top-left corner; the rules are those of ``CellSizer`` (the sizes agree exactly).
public struct CellPlacement: Sendable {
  /// A laid-out text and its box.
  public struct Text: Sendable {
    /// What the text is: `text`, `name`, `timestamp`, `replyName`, `replyText`, `title`,
    /// `price`, `originalPrice` or `badge`.
    public var role: String
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
    /// What the area is: `reply`, `image` or `badge`.
    public var role: String
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
}

extension CellSizer {
  private func prepared(_ text: String, _ style: TextStyle, width: Double) throws -> (
    PreparedText, TextLayout
  ) {
    do {
      let p = try typesetter.prepare(text, style: style)
      return (p, try p.layout(width: width))
    } catch let e as TypesettingError {
      throw CellError.text(e.description)
    }
  }

  /// Places the parts of a bubble (the same rules as ``measure(_:)-(BubbleCell)``, so the size is
  /// the measured size): reply box, sender name, text, timestamp (inline at the
  /// trailing end of the last line, or below it, aligned trailing).
  public func place(_ cell: BubbleCell) throws -> CellPlacement {
    let m = try measure(cell)
    var out = CellPlacement(size: m.size)
    let tw = cell.textWidth
    let left = cell.padding.leading
    let inner = m.size.width - cell.padding.horizontal
    var y = cell.padding.top
    let textStyle = scaled(cell.style, by: cell.textScale)
    if let replyText = cell.replyText {
      let rs = cell.replyTextStyle
      let innerReply = max(1, tw - cell.replyPadding.horizontal)
      var boxY = y + cell.replyPadding.top
      var content = 0.0
      var texts: [CellPlacement.Text] = []
      if let name = cell.replyName {
        let (p, l) = try prepared(name, cell.replyNameStyle, width: innerReply)
        texts.append(
          .init(
            role: "replyName", prepared: p, layout: l, x: left + cell.replyPadding.leading, y: boxY,
            width: l.widest))
        content = max(content, l.widest)
        boxY += l.height
      }
      let (p, l) = try prepared(replyText, rs, width: innerReply)
      texts.append(
        .init(
          role: "replyText", prepared: p, layout: l, x: left + cell.replyPadding.leading, y: boxY,
          width: l.widest))
      content = max(content, l.widest)
      boxY += l.height + cell.replyPadding.bottom
      out.boxes.append(
        .init(
          role: "reply", x: left, y: y,
          width: min(tw, content + cell.replyPadding.horizontal), height: boxY - y))
      out.texts += texts
      y = boxY + cell.blockSpacing
    }
    if let name = cell.senderName {
      let (p, l) = try prepared(name, cell.senderNameStyle, width: tw)
      out.texts.append(.init(role: "name", prepared: p, layout: l, x: left, y: y, width: inner))
      y += l.height + cell.nameSpacing
    }
    let (tp, tl) = try prepared(cell.text, textStyle, width: tw)
    out.texts.append(.init(role: "text", prepared: tp, layout: tl, x: left, y: y, width: inner))
    y += tl.height
    if let ts = cell.timestamp {
      let (p, l) = try prepared(ts, cell.timestampTextStyle, width: tw)
      let x = left + inner - l.widest
      if m.timestampPlacement == .inline {
        // After the last line: at its trailing end, which in a right-to-left paragraph is the
        // left (the line itself is right-aligned there).
        let ix = tp.isRightToLeft ? left : x
        out.texts.append(
          .init(role: "timestamp", prepared: p, layout: l, x: ix, y: y - l.height, width: l.widest))
      } else {
        y += tl.lines.isEmpty ? 0 : cell.nameSpacing
        out.texts.append(
          .init(role: "timestamp", prepared: p, layout: l, x: x, y: y, width: l.widest))
      }
    }
    return out
  }

  /// Places the parts of a product card: picture, title, price (original price beside it when
  /// it fits, else below), badge.
  public func place(_ cell: ProductCardCell) throws -> CellPlacement {
    let m = try measure(cell)
    var out = CellPlacement(size: m.size)
    let cw = cell.width - cell.padding.horizontal
    let left = cell.padding.leading
    var y = cell.padding.top
    let imageHeight = cell.width / cell.imageAspectRatio
    out.boxes.append(.init(role: "image", x: 0, y: y, width: cell.width, height: imageHeight))
    y += imageHeight + cell.spacing
    let titleStyle = scaled(cell.titleStyle, by: cell.textScale)
    let (tp, tl) = try prepared(cell.title, titleStyle, width: cw)
    out.texts.append(.init(role: "title", prepared: tp, layout: tl, x: left, y: y, width: cw))
    y += tl.height
    if let price = cell.price {
      y += cell.spacing
      var ps = scaled(cell.priceStyle ?? cell.titleStyle, by: cell.textScale)
      if cell.priceStyle == nil { ps.size += 1 }
      ps.maxLines = 1
      let (pp, pl) = try prepared(price, ps, width: cw)
      out.texts.append(.init(role: "price", prepared: pp, layout: pl, x: left, y: y, width: cw))
      var priceHeight = pl.height
      if let original = cell.originalPrice {
        var os = scaled(cell.originalPriceStyle ?? cell.titleStyle, by: cell.textScale)
        if cell.originalPriceStyle == nil { os.size = max(1, os.size - 2) }
        os.maxLines = 1
        let (op, ol) = try prepared(original, os, width: cw)
        if pl.widest + cell.priceGap + ol.widest <= cw {
          out.texts.append(
            .init(
              role: "originalPrice", prepared: op, layout: ol,
              x: left + pl.widest + cell.priceGap, y: y + max(0, pl.height - ol.height),
              width: ol.widest))
          priceHeight = max(priceHeight, ol.height)
        } else {
          out.texts.append(
            .init(
              role: "originalPrice", prepared: op, layout: ol, x: left, y: y + pl.height,
              width: cw))
          priceHeight += ol.height
        }
      }
      y += priceHeight
    }
    if let badge = cell.badge {
      y += cell.spacing
      var bs = scaled(cell.badgeStyle ?? cell.titleStyle, by: cell.textScale)
      if cell.badgeStyle == nil { bs.size = 12 * cell.textScale }
      bs.maxLines = 1
      let (bp, bl) = try prepared(badge, bs, width: cw)
      let pad = cell.badgePadding
      out.boxes.append(
        .init(
          role: "badge", x: left, y: y, width: min(cw, bl.widest + 2 * pad + 4),
          height: bl.height + 2 * pad))
      out.texts.append(
        .init(
          role: "badge", prepared: bp, layout: bl, x: left + pad + 2, y: y + pad, width: bl.widest))
    }
    return out
  }
}
