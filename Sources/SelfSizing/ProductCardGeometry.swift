import Geometry
import Typesetting

/// The product-card rule, once: the styles of a card's texts and
/// ``place(title:price:originalPrice:badge:)``, which puts a card together from its texts'
/// extents. Measuring and placing for drawing (``CellSizer``) both call it.
struct ProductCardGeometry: Sendable {
  let cell: ProductCardCell

  /// The width every text of the card is laid out in.
  var contentWidth: Double { cell.width - cell.padding.horizontal }

  var titleStyle: TextStyle { CellSizer.scaled(cell.titleStyle, by: cell.textScale) }

  /// The price's style: its own, or the title's one point larger; one line.
  var priceStyle: TextStyle {
    var s = CellSizer.scaled(cell.priceStyle ?? cell.titleStyle, by: cell.textScale)
    if cell.priceStyle == nil { s.size += 1 }
    s.maxLines = 1
    return s
  }

  /// The original price's style: its own, or the title's two points smaller; one line.
  var originalPriceStyle: TextStyle {
    var s = CellSizer.scaled(cell.originalPriceStyle ?? cell.titleStyle, by: cell.textScale)
    if cell.originalPriceStyle == nil { s.size = max(1, s.size - 2) }
    s.maxLines = 1
    return s
  }

  /// The badge's style: its own, or the title's at 12 points; one line.
  var badgeStyle: TextStyle {
    var s = CellSizer.scaled(cell.badgeStyle ?? cell.titleStyle, by: cell.textScale)
    if cell.badgeStyle == nil { s.size = 12 * cell.textScale }
    s.maxLines = 1
    return s
  }

  /// A card put together.
  struct Placed: Sendable {
    /// Rounded up to whole device pixels.
    var size: CellSize
    var image: Rect
    var title: Rect
    var price: Rect?
    var originalPrice: Rect?
    var badgeBox: Rect?
    var badge: Rect?
  }

  /// Top to bottom: padding, the picture (the card's width at its aspect ratio), `spacing`,
  /// title, `spacing` and the price (the original price beside it when both fit, else below),
  /// `spacing` and the badge in its box, padding; rounded up to 1/scale.
  func place(title: TextBox, price: TextBox?, originalPrice: TextBox?, badge: TextBox?) -> Placed {
    let cw = contentWidth
    let left = cell.padding.leading
    var y = cell.padding.top
    let imageHeight = cell.width / cell.imageAspectRatio
    let image = Rect(x: 0, y: y, width: cell.width, height: imageHeight)
    y += imageHeight + cell.spacing
    let titleFrame = Rect(x: left, y: y, width: cw, height: title.height)
    y += title.height
    var priceFrame: Rect? = nil
    var originalFrame: Rect? = nil
    if let price {
      y += cell.spacing
      priceFrame = Rect(x: left, y: y, width: cw, height: price.height)
      var priceHeight = price.height
      if let original = originalPrice {
        if price.widest + cell.priceGap + original.widest <= cw {
          originalFrame = Rect(
            x: left + price.widest + cell.priceGap, y: y + max(0, price.height - original.height),
            width: original.widest, height: original.height)
          priceHeight = max(priceHeight, original.height)
        } else {
          originalFrame = Rect(x: left, y: y + price.height, width: cw, height: original.height)
          priceHeight += original.height
        }
      }
      y += priceHeight
    }
    var badgeBox: Rect? = nil
    var badgeFrame: Rect? = nil
    if let badge {
      y += cell.spacing
      let pad = cell.badgePadding
      badgeBox = Rect(
        x: left, y: y, width: min(cw, badge.widest + 2 * pad + 4), height: badge.height + 2 * pad)
      badgeFrame = Rect(x: left + pad + 2, y: y + pad, width: badge.widest, height: badge.height)
      y += badge.height + 2 * pad
    }
    y += cell.padding.bottom
    return Placed(
      size: CellSize(
        width: roundUp(cell.width, scale: cell.scale), height: roundUp(y, scale: cell.scale)),
      image: image, title: titleFrame, price: priceFrame, originalPrice: originalFrame,
      badgeBox: badgeBox, badge: badgeFrame)
  }
}
