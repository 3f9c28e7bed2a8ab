import Typesetting

extension BubbleEstimator {
  /// The estimated lines, height and widest line of `text` in `style` at `width`: the same
  /// reading and wrapping as a bubble's message, without the bubble.
  public func estimateText(_ text: String, style: TextStyle, width: Double) -> (
    lines: Int, height: Double, widest: Double
  ) {
    let b = block(text, style, width: width)
    return (b.lines, b.height, b.widest)
  }
}
