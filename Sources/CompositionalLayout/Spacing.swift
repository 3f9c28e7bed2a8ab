/// Spacing that is either exact or a minimum that can grow, like `NSCollectionLayoutSpacing`.
public enum Spacing: Hashable, Sendable {
  /// Exactly this many points.
  case fixed(Double)
  /// At least this many points; shares out leftover space with the other flexible spacings.
  case flexible(Double)
  /// The minimum (or exact) number of points.
  public var minimum: Double {
    switch self {
    case .fixed(let v), .flexible(let v): return v
    }
  }
  /// Whether leftover space may be added.
  public var isFlexible: Bool {
    if case .flexible = self { return true }
    return false
  }
}

/// Per-edge spacing around an item, applied before its content insets, like `NSCollectionLayoutEdgeSpacing`.
public struct EdgeSpacing: Hashable, Sendable {
  /// Spacing before the item on the horizontal axis (left in left-to-right).
  public var leading: Spacing?
  /// Spacing above the item.
  public var top: Spacing?
  /// Spacing after the item on the horizontal axis.
  public var trailing: Spacing?
  /// Spacing below the item.
  public var bottom: Spacing?
  /// Creates edge spacing.
  public init(
    leading: Spacing? = nil, top: Spacing? = nil, trailing: Spacing? = nil, bottom: Spacing? = nil
  ) {
    self.leading = leading
    self.top = top
    self.trailing = trailing
    self.bottom = bottom
  }
}
