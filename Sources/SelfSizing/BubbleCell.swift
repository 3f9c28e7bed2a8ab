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
  /// Who sent the message: bubbles of `me` align trailing, of `other` leading.
  public enum Sender: String, Sendable, Hashable, CaseIterable {
    case me, other
  }

  /// The message text.
  public var text: String
  /// The text's style (fonts, size, line height, wrapping, language, `maxLines`).
  public var style: TextStyle
  /// The width of the container the bubble sits in (the collection view's content width).
  public var containerWidth: Double
  /// The bubble is at most `containerWidth × maxWidthFraction` and at most `maxWidth` wide.
  public var maxWidthFraction: Double? = 0.75
  /// The widest the bubble may be, in points (nil: no limit but the fraction).
  public var maxWidth: Double? = nil
  /// Insets between the bubble's edge and its content.
  public var padding = Padding(top: 8, leading: 12, bottom: 8, trailing: 12)
  /// The smallest size the bubble takes, whatever its content.
  public var minSize = CellSize(width: 0, height: 0)
  /// Who sent the message.
  public var sender: Sender = .other
  /// A name line above the text (group chats).
  public var senderName: String? = nil
  /// The name line's style (default: the text style at 85% size).
  public var nameStyle: TextStyle? = nil
  /// A time shown after the last line when it fits there, else below.
  public var timestamp: String? = nil
  /// The timestamp's style (default: 11 pt in the text's fonts).
  public var timestampStyle: TextStyle? = nil
  /// A quoted message shown above the text: the quoted sender and text (two lines at most).
  public var replyName: String? = nil
  /// The quoted message of a reply preview (two lines at most).
  public var replyText: String? = nil
  /// The reply preview's style (default: the text style at 85% size).
  public var replyStyle: TextStyle? = nil
  /// Display scale: sizes are rounded up to 1/scale.
  public var scale: Double = 3
  /// Multiplies every font size (Dynamic Type's content size category).
  public var textScale: Double = 1
  /// A label for reports.
  public var category: String? = nil

  /// Points between the name line and the text, and between the text and a timestamp below it.
  public var nameSpacing = 2.0
  /// Points between the reply preview and what follows.
  public var blockSpacing = 6.0
  /// Points between the last line and an inline timestamp.
  public var timestampGap = 6.0
  /// Insets inside the reply preview box.
  public var replyPadding = Padding(top: 4, leading: 8, bottom: 4, trailing: 8)

  /// A bubble with the template's defaults: padding 8/12/8/12, at most 75% of the container wide.
  public init(text: String, style: TextStyle, containerWidth: Double) {
    self.text = text
    self.style = style
    self.containerWidth = containerWidth
  }

  /// The widest the bubble may be.
  public var maximumBubbleWidth: Double {
    BubbleCell.maximumBubbleWidth(
      containerWidth: containerWidth, fraction: maxWidthFraction, maxWidth: maxWidth)
  }

  /// The widest a bubble may be in a container, given its limits.
  static func maximumBubbleWidth(containerWidth: Double, fraction: Double?, maxWidth: Double?)
    -> Double
  {
    var w = containerWidth
    if let f = fraction { w = min(w, containerWidth * f) }
    if let m = maxWidth { w = min(w, m) }
    return w
  }

  // The styles of the bubble's parts, at its text scale (measuring, placing and estimating
  // all read them here).

  /// The reply preview's text: its own style, or the text's at 85%; two lines unless set.
  var replyTextStyle: TextStyle {
    var rs = CellSizer.scaled(replyStyle ?? style, by: textScale)
    if replyStyle == nil { rs.size *= 0.85 }
    rs.maxLines = rs.maxLines ?? 2
    return rs
  }

  /// The reply preview's name line: the reply's style on one line.
  var replyNameStyle: TextStyle {
    var ns = replyTextStyle
    ns.maxLines = 1
    return ns
  }

  /// The sender name: its own style, or the text's at 85%; one line.
  var senderNameStyle: TextStyle {
    var ns = CellSizer.scaled(nameStyle ?? style, by: textScale)
    if nameStyle == nil { ns.size *= 0.85 }
    ns.maxLines = 1
    return ns
  }

  /// The timestamp: its own style, or 11 pt; one line, never wrapped.
  var timestampTextStyle: TextStyle {
    var tss = CellSizer.scaled(timestampStyle ?? style, by: textScale)
    if timestampStyle == nil { tss.size = 11 * textScale }
    tss.maxLines = 1
    tss.whiteSpace = .nowrap
    return tss
  }

  /// The width the text is laid out in.
  public var textWidth: Double { maximumBubbleWidth - padding.horizontal }

  /// Checks the numbers that would make the cell meaningless.
  public func validate() throws {
    try CellLimits.length(containerWidth, "containerWidth")
    if let f = maxWidthFraction, !(f.isFinite && f > 0 && f <= 1_000) {
      throw CellError.invalidValue("maxWidthFraction", "must be > 0 and at most 1000 (got \(f))")
    }
    if let m = maxWidth { try CellLimits.length(m, "maxWidth") }
    try CellLimits.padding(padding, "padding")
    try CellLimits.length(minSize.width, "minSize.width", zeroAllowed: true)
    try CellLimits.length(minSize.height, "minSize.height", zeroAllowed: true)
    try CellLimits.scale(scale, "scale")
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
