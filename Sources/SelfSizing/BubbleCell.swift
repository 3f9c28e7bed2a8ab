import Typesetting

/// A chat bubble: text with paddings, at most a fraction of the container wide, hugging its
/// widest line; optionally a sender name above, a timestamp inline or below, and a reply preview.
///
/// Layout rule, top to bottom: padding.top, reply preview (+ `blockSpacing`), sender name
/// (+ `nameSpacing`), text, timestamp line if it does not fit inline (`nameSpacing` above it),
/// padding.bottom. The timestamp sits inline, at the end of the last line, when the last line plus
/// `timestampGap` plus the timestamp fits in the text width.
///
/// ```swift
/// var bubble = BubbleCell(text: "오늘 저녁 7시에 만나요 👋", style: style, containerWidth: 390)
/// bubble.timestamp = "19:02"
/// let m = try CellSizer.shared.measure(bubble)   // m.size: the bubble's final size
/// ```
public struct BubbleCell: Sendable, Hashable {
  public enum Sender: String, Sendable, Hashable, CaseIterable {
    case me, other
  }

  public var text: String
  public var style: TextStyle
  public var containerWidth: Double
  /// The bubble is at most `containerWidth × maxWidthFraction` and at most `maxWidth` wide.
  public var maxWidthFraction: Double? = 0.75
  public var maxWidth: Double? = nil
  public var padding = Padding(top: 8, leading: 12, bottom: 8, trailing: 12)
  public var minSize = CellSize(width: 0, height: 0)
  public var sender: Sender = .other
  public var senderName: String? = nil
  public var nameStyle: TextStyle? = nil
  public var timestamp: String? = nil
  public var timestampStyle: TextStyle? = nil
  /// A quoted message shown above the text: the quoted sender and text (two lines at most).
  public var replyName: String? = nil
  public var replyText: String? = nil
  public var replyStyle: TextStyle? = nil
  /// Display scale: sizes are rounded up to 1/scale.
  public var scale: Double = 3
  /// Multiplies every font size (Dynamic Type's content size category).
  public var textScale: Double = 1
  /// A label for reports.
  public var category: String? = nil

  public var nameSpacing = 2.0
  public var blockSpacing = 6.0
  public var timestampGap = 6.0
  public var replyPadding = Padding(top: 4, leading: 8, bottom: 4, trailing: 8)

  public init(text: String, style: TextStyle, containerWidth: Double) {
    self.text = text
    self.style = style
    self.containerWidth = containerWidth
  }

  /// The widest the bubble may be.
  public var maximumBubbleWidth: Double {
    var w = containerWidth
    if let f = maxWidthFraction { w = min(w, containerWidth * f) }
    if let m = maxWidth { w = min(w, m) }
    return w
  }

  /// The width the text is laid out in.
  public var textWidth: Double { maximumBubbleWidth - padding.horizontal }

  /// Checks the numbers that would make the cell meaningless.
  public func validate() throws {
    guard containerWidth.isFinite, containerWidth > 0 else {
      throw CellError.invalidValue("containerWidth", "must be a number > 0 (got \(containerWidth))")
    }
    if let f = maxWidthFraction, !(f.isFinite && f > 0) {
      throw CellError.invalidValue("maxWidthFraction", "must be > 0 (got \(f))")
    }
    if let m = maxWidth, !(m.isFinite && m > 0) {
      throw CellError.invalidValue("maxWidth", "must be > 0 (got \(m))")
    }
    guard padding.isValid else {
      throw CellError.invalidValue("padding", "insets must be finite and >= 0")
    }
    guard minSize.width >= 0, minSize.height >= 0, minSize.width.isFinite, minSize.height.isFinite
    else {
      throw CellError.invalidValue("minSize", "must be finite and >= 0")
    }
    guard scale.isFinite, scale > 0 else { throw CellError.invalidValue("scale", "must be > 0") }
    guard textScale.isFinite, textScale > 0 else {
      throw CellError.invalidValue("textScale", "must be > 0")
    }
    guard textWidth > 0 else {
      throw CellError.invalidValue(
        "padding",
        "the bubble's maximum width \(maximumBubbleWidth) leaves no room for the text after the paddings (\(padding.horizontal))"
      )
    }
  }
}
