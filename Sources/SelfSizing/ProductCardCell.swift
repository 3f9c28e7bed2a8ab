import Typesetting

/// A product card in a grid: an image of fixed aspect ratio, a title of at most `titleStyle.maxLines`
/// lines (2 by default) truncated at the end, a price line (with the original price struck through
/// beside it when it fits, else below), and an optional badge line. The width comes from the grid.
///
/// Height: padding.top + image + spacing + title + spacing + price line(s) [+ spacing + badge]
/// + padding.bottom, rounded up to 1/scale. Text blocks are laid out in width − leading − trailing.
public struct ProductCardCell: Sendable, Hashable {
  public var width: Double
  /// Image width ÷ image height (1 = square). The image spans the card's full width.
  public var imageAspectRatio: Double = 1
  public var title: String
  public var titleStyle: TextStyle
  public var price: String? = nil
  public var priceStyle: TextStyle? = nil
  public var originalPrice: String? = nil
  public var originalPriceStyle: TextStyle? = nil
  public var badge: String? = nil
  public var badgeStyle: TextStyle? = nil
  /// Vertical padding inside the badge's capsule.
  public var badgePadding = 2.0
  public var padding = Padding(top: 0, leading: 0, bottom: 12, trailing: 0)
  public var spacing = 4.0
  /// Gap between the price and the original price on one line.
  public var priceGap = 4.0
  public var scale: Double = 3
  public var textScale: Double = 1
  public var category: String? = nil

  public init(width: Double, title: String, titleStyle: TextStyle) {
    self.width = width
    self.title = title
    self.titleStyle = titleStyle
    if self.titleStyle.maxLines == nil { self.titleStyle.maxLines = 2 }
  }

  public func validate() throws {
    guard width.isFinite, width > 0 else {
      throw CellError.invalidValue("width", "must be a number > 0 (got \(width))")
    }
    guard imageAspectRatio.isFinite, imageAspectRatio > 0 else {
      throw CellError.invalidValue("imageAspectRatio", "must be > 0 (got \(imageAspectRatio))")
    }
    guard padding.isValid else {
      throw CellError.invalidValue("padding", "insets must be finite and >= 0")
    }
    guard spacing.isFinite, spacing >= 0 else {
      throw CellError.invalidValue("spacing", "must be >= 0")
    }
    guard scale.isFinite, scale > 0 else { throw CellError.invalidValue("scale", "must be > 0") }
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
