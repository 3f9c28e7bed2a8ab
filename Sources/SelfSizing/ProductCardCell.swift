import Typesetting

/// A product card in a grid: an image of fixed aspect ratio, a title of at most `titleStyle.maxLines`
/// lines (2 by default) truncated at the end, a price line (with the original price struck through
/// beside it when it fits, else below), and an optional badge line. The width comes from the grid.
///
/// Height: padding.top + image + spacing + title + spacing + price line(s) [+ spacing + badge]
/// + padding.bottom, rounded up to 1/scale. Text blocks are laid out in width − leading − trailing.
public struct ProductCardCell: Sendable, Hashable {
  /// The card's width, given by the grid.
  public var width: Double
  /// Image width ÷ image height (1 = square). The image spans the card's full width.
  public var imageAspectRatio: Double = 1
  /// The product title.
  public var title: String
  /// The title's style; `maxLines` defaults to 2, truncated at the end.
  public var titleStyle: TextStyle
  /// The price line.
  public var price: String? = nil
  /// The price's style (default: the title style, 1 pt larger).
  public var priceStyle: TextStyle? = nil
  /// The price before a discount, beside the price when it fits, else below.
  public var originalPrice: String? = nil
  /// The original price's style (default: the title style, 2 pt smaller).
  public var originalPriceStyle: TextStyle? = nil
  /// A badge line under the price ("오늘 마감").
  public var badge: String? = nil
  /// The badge's style (default: 12 pt).
  public var badgeStyle: TextStyle? = nil
  /// Vertical padding inside the badge's capsule.
  public var badgePadding = 2.0
  /// Insets of the card's content (the image spans the full width).
  public var padding = Padding(top: 0, leading: 0, bottom: 12, trailing: 0)
  /// Points between the image, title, price and badge.
  public var spacing = 4.0
  /// Gap between the price and the original price on one line.
  public var priceGap = 4.0
  /// Display scale: sizes are rounded up to 1/scale.
  public var scale: Double = 3
  /// Multiplies every font size (Dynamic Type's content size category).
  public var textScale: Double = 1
  /// A label for reports.
  public var category: String? = nil

  /// A card of the given width and title, with the template's defaults.
  public init(width: Double, title: String, titleStyle: TextStyle) {
    self.width = width
    self.title = title
    self.titleStyle = titleStyle
    if self.titleStyle.maxLines == nil { self.titleStyle.maxLines = 2 }
  }

  /// Checks the numbers that would make the card meaningless.
  /// - Throws: ``CellError`` naming the field.
  public func validate() throws {
    try CellLimits.length(width, "width")
    guard imageAspectRatio.isFinite, CellLimits.aspectRatios.contains(imageAspectRatio) else {
      throw CellError.invalidValue(
        "imageAspectRatio",
        "must be from \(CellLimits.aspectRatios.lowerBound) to "
          + "\(Int(CellLimits.aspectRatios.upperBound)) (got \(imageAspectRatio))")
    }
    try CellLimits.padding(padding, "padding")
    try CellLimits.length(spacing, "spacing", zeroAllowed: true)
    try CellLimits.scale(scale, "scale")
    guard textScale.isFinite, textScale > 0 else {
      throw CellError.invalidValue("textScale", "must be > 0")
    }
    guard width - padding.horizontal > 0 else {
      throw CellError.invalidValue(
        "padding",
        "the card width \(width) leaves no room for text after the paddings (\(padding.horizontal))"
      )
    }
  }
}
