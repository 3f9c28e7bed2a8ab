/// Where a boundary supplementary item sits on its section (or on the whole layout).
public enum BoundaryAlignment: String, Hashable, Sendable, CaseIterable {
  /// Above the content, at its leading edge horizontally (full width items span it).
  case top
  /// Above the content, at the leading edge.
  case topLeading
  /// Above the content, at the trailing edge.
  case topTrailing
  /// Below the content.
  case bottom
  /// Below the content, at the leading edge.
  case bottomLeading
  /// Below the content, at the trailing edge.
  case bottomTrailing
  /// Before the content on the horizontal axis.
  case leading
  /// After the content on the horizontal axis.
  case trailing

  /// The edges of the alignment.
  var edges: Edges {
    switch self {
    case .top: return [.top]
    case .topLeading: return [.top, .leading]
    case .topTrailing: return [.top, .trailing]
    case .bottom: return [.bottom]
    case .bottomLeading: return [.bottom, .leading]
    case .bottomTrailing: return [.bottom, .trailing]
    case .leading: return [.leading]
    case .trailing: return [.trailing]
    }
  }
}

/// A header or footer of a section or of the layout, like `NSCollectionLayoutBoundarySupplementaryItem`.
public struct BoundarySupplementaryItem: Hashable, Sendable {
  /// The element kind ("header", "footer", …).
  public var kind: String
  /// The size, resolved against the section's content area (container minus section insets).
  public var size: LayoutSize
  /// The edge it sits on.
  public var alignment: BoundaryAlignment
  /// An offset added to its frame.
  public var offset: Point
  /// Whether it enlarges the section along the scroll axis (otherwise it overlaps the content).
  public var extendsBoundary: Bool
  /// Whether it sticks to the visible bounds while its section is on screen.
  public var pinToVisibleBounds: Bool
  /// Stacking order.
  public var zIndex: Int

  /// Creates a boundary supplementary item.
  public init(
    kind: String, size: LayoutSize, alignment: BoundaryAlignment, offset: Point = .zero,
    extendsBoundary: Bool = true,
    pinToVisibleBounds: Bool = false, zIndex: Int = 1
  ) {
    self.kind = kind
    self.size = size
    self.alignment = alignment
    self.offset = offset
    self.extendsBoundary = extendsBoundary
    self.pinToVisibleBounds = pinToVisibleBounds
    self.zIndex = zIndex
  }
}
