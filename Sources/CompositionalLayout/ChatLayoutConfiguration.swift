import Geometry

/// Settings of a chat layout.
public struct ChatLayoutConfiguration: Hashable, Sendable {
  /// The collection view's bounds size.
  public var containerSize: Size
  /// Points to pixels; sizes are rounded up to 1/scale.
  public var displayScale: Double
  /// Insets around the transcript.
  public var contentInsets: DirectionalEdgeInsets
  /// The sender whose bubbles sit on the trailing side.
  public var currentUserID: Int32
  /// The widest a bubble may be, as a fraction of the content width.
  public var maxBubbleWidthFraction: Double
  /// Space between consecutive messages of one sender.
  public var sameSenderSpacing: Double
  /// Space before a message from a different sender (and before a date header).
  public var senderChangeSpacing: Double
  /// Height of a date header.
  public var dateHeaderHeight: Double
  /// Space between a date header and the message below it.
  public var dateHeaderSpacing: Double
  /// Left-to-right or right-to-left.
  public var layoutDirection: LayoutDirection

  /// The pixel scale sizes are rounded to: `displayScale` when positive and finite, else 1.
  public var pixelScale: Double { displayScale > 0 && displayScale.isFinite ? displayScale : 1 }

  /// The width between the content insets.
  public var contentWidth: Double {
    containerSize.width - contentInsets.leading - contentInsets.trailing
  }

  /// The widest a bubble may be, in whole pixels: `maxBubbleWidthFraction` of the content
  /// width, rounded down to the grid (at most 2³² − 1 pixels).
  public var bubbleWidthCapPixels: Double {
    Swift.max(
      0,
      Swift.min(
        PixelGrid.pixelsWithin(contentWidth * maxBubbleWidthFraction, scale: pixelScale),
        Double(UInt32.max)))
  }

  /// Creates a configuration.
  public init(
    containerSize: Size, displayScale: Double = 3, contentInsets: DirectionalEdgeInsets = .zero,
    currentUserID: Int32 = 0, maxBubbleWidthFraction: Double = 0.75, sameSenderSpacing: Double = 2,
    senderChangeSpacing: Double = 12, dateHeaderHeight: Double = 32, dateHeaderSpacing: Double = 8,
    layoutDirection: LayoutDirection = .leftToRight
  ) {
    self.containerSize = containerSize
    self.displayScale = displayScale
    self.contentInsets = contentInsets
    self.currentUserID = currentUserID
    self.maxBubbleWidthFraction = maxBubbleWidthFraction
    self.sameSenderSpacing = sameSenderSpacing
    self.senderChangeSpacing = senderChangeSpacing
    self.dateHeaderHeight = dateHeaderHeight
    self.dateHeaderSpacing = dateHeaderSpacing
    self.layoutDirection = layoutDirection
  }
}
