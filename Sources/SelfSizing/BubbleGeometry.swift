import Geometry
/// A text's extent at the width it was laid out in — measured by the text engine or estimated —
/// as the cell rules read it.
struct TextBox: Sendable {
  var lineCount: Int
  var height: Double
  var widest: Double
  var lastLineWidth: Double
  var isTruncated = false
  /// Whether the paragraph runs right to left (an inline timestamp then sits on the left).
  var isRightToLeft = false
  /// Characters no font of the text's stack has (``PreparedText/missingCharacters``).
  var missing: [Unicode.Scalar] = []
}


/// The bubble rule, once: the geometry of a bubble as plain values (bubbles of a transcript
/// share it) and ``place(text:reply:name:timestamp:containerWidth:)``, which puts a bubble
/// together from its parts' extents. Measuring (``CellSizer``), placing for drawing and
/// estimating (``PreparedBubbles``) all call it; only how the parts' extents were found differs.
struct BubbleGeometry: Sendable, Hashable {
  var padding: Padding
  var minSize: CellSize
  var scale: Double
  var maxWidthFraction: Double?
  var maxWidth: Double?
  var nameSpacing: Double
  var blockSpacing: Double
  var timestampGap: Double
  var replyPadding: Padding

  init(_ cell: BubbleCell) {
    padding = cell.padding
    minSize = cell.minSize
    scale = cell.scale
    maxWidthFraction = cell.maxWidthFraction
    maxWidth = cell.maxWidth
    nameSpacing = cell.nameSpacing
    blockSpacing = cell.blockSpacing
    timestampGap = cell.timestampGap
    replyPadding = cell.replyPadding
  }

  /// The widest the bubble may be in a container.
  func maximumBubbleWidth(_ containerWidth: Double) -> Double {
    BubbleCell.maximumBubbleWidth(
      containerWidth: containerWidth, fraction: maxWidthFraction, maxWidth: maxWidth)
  }

  /// The width the main text, the sender name and the timestamp are laid out in.
  func textWidth(_ containerWidth: Double) -> Double {
    max(1, maximumBubbleWidth(containerWidth) - padding.horizontal)
  }

  /// The width the reply preview (name and text) is laid out in.
  func replyWidth(_ textWidth: Double) -> Double { max(1, textWidth - replyPadding.horizontal) }

  /// A bubble put together.
  struct Placed: Sendable {
    /// Rounded up to whole device pixels.
    var size: CellSize
    var timestampPlacement: TimestampPlacement?
    var replyBox: Rect?
    var replyName: Rect?
    var replyText: Rect?
    var name: Rect?
    var text: Rect
    var timestamp: Rect?
  }

  /// Top to bottom: padding, reply preview (its name and text in a box with `replyPadding`, then
  /// `blockSpacing`), sender name (+ `nameSpacing`), text, the timestamp inline after the last
  /// line when `timestampGap` and it fit in the text width, else on a line below (`nameSpacing`
  /// above it), padding. The bubble hugs the widest part, within its maximum width, is at least
  /// `minSize`, and is rounded up to 1/scale. `reply` needs a text; its name is optional.
  @inline(__always)
  func place(
    text: TextBox, reply: (name: TextBox?, text: TextBox)?, name: TextBox?, timestamp: TextBox?,
    containerWidth: Double
  ) -> Placed {
    let maxBubble = maximumBubbleWidth(containerWidth)
    let textWidth = max(1, maxBubble - padding.horizontal)
    let left = padding.leading
    var y = padding.top
    var content = min(text.widest, textWidth)
    var replyBox: Rect? = nil
    var replyNameFrame: Rect? = nil
    var replyTextFrame: Rect? = nil
    if let reply {
      let inner = replyWidth(textWidth)
      var boxY = y + replyPadding.top
      var widest = 0.0
      if let n = reply.name {
        replyNameFrame = Rect(
          x: left + replyPadding.leading, y: boxY, width: n.widest, height: n.height)
        widest = max(widest, min(inner, n.widest))
        boxY += n.height
      }
      replyTextFrame = Rect(
        x: left + replyPadding.leading, y: boxY, width: reply.text.widest,
        height: reply.text.height)
      widest = max(widest, min(inner, reply.text.widest))
      boxY += reply.text.height + replyPadding.bottom
      let boxWidth = min(textWidth, widest + replyPadding.horizontal)
      replyBox = Rect(x: left, y: y, width: boxWidth, height: boxY - y)
      content = max(content, boxWidth)
      y = boxY + blockSpacing
    }
    var nameFrame: Rect? = nil
    if let name {
      nameFrame = Rect(x: left, y: y, width: 0, height: name.height)
      content = max(content, min(textWidth, name.widest))
      y += name.height + nameSpacing
    }
    let textY = y
    y += text.height
    var placement: TimestampPlacement? = nil
    var stamp: (box: TextBox, y: Double)? = nil
    if let t = timestamp {
      if text.lineCount > 0 && text.lastLineWidth + timestampGap + t.widest <= textWidth {
        placement = .inline
        content = max(content, text.lastLineWidth + timestampGap + t.widest)
        stamp = (t, y - t.height)
      } else {
        placement = .below
        content = max(content, min(textWidth, t.widest))
        y += text.lineCount > 0 ? nameSpacing : 0
        stamp = (t, y)
        y += t.height
      }
    }
    y += padding.bottom
    let width = max(minSize.width, min(maxBubble, content + padding.horizontal))
    let size = CellSize(
      width: roundUp(width, scale: scale), height: roundUp(max(minSize.height, y), scale: scale))
    // Name and text boxes span the bubble's inside; the timestamp sits at its trailing end
    // (inline after a right-to-left paragraph, whose lines end on the left: at the left).
    let inside = size.width - padding.horizontal
    nameFrame?.size.width = inside
    var timestampFrame: Rect? = nil
    if let stamp {
      let trailing = left + inside - stamp.box.widest
      let x = placement == .inline && text.isRightToLeft ? left : trailing
      timestampFrame = Rect(x: x, y: stamp.y, width: stamp.box.widest, height: stamp.box.height)
    }
    return Placed(
      size: size, timestampPlacement: placement, replyBox: replyBox, replyName: replyNameFrame,
      replyText: replyTextFrame, name: nameFrame,
      text: Rect(x: left, y: textY, width: inside, height: text.height),
      timestamp: timestampFrame)
  }
}
