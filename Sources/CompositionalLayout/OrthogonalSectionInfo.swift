/// Scroll geometry of an orthogonally scrolling section.
public struct OrthogonalSectionInfo: Hashable, Sendable {
  /// The section index.
  public var section: Int
  /// The behaviour.
  public var behavior: OrthogonalScrollingBehavior
  /// The scrollable extent of the section along its own axis (width for a vertical layout), insets included.
  public var contentWidth: Double
  /// The visible extent along that axis.
  public var visibleWidth: Double
  /// The content offsets a scroll comes to rest on, ascending (empty for `continuous`).
  public var pageOffsets: [Double]
}
