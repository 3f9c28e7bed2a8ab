/// What a size change did: the content size change and the content-offset correction that keeps the anchor still.
public struct LayoutUpdate: Hashable, Sendable {
  /// New content size minus old.
  public var contentSizeDelta: Size
  /// Add this to the content offset along the scroll axis so the anchor stays at the same screen position.
  public var contentOffsetCorrection: Double
  /// Creates an update.
  public init(contentSizeDelta: Size, contentOffsetCorrection: Double) {
    self.contentSizeDelta = contentSizeDelta
    self.contentOffsetCorrection = contentOffsetCorrection
  }
}
