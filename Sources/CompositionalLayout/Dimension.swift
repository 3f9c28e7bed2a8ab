/// One axis of a layout size, like `NSCollectionLayoutDimension`.
public enum Dimension: Hashable, Sendable {
  /// A fixed number of points.
  case absolute(Double)
  /// A fraction of the containing group's width (of the section's content width for an outermost group).
  case fractionalWidth(Double)
  /// A fraction of the containing group's height (of the section's content height for an outermost group).
  case fractionalHeight(Double)
  /// A placeholder replaced by the measured size (self-sizing).
  case estimated(Double)
  /// An estimate that every sibling with this dimension grows to the largest of (iOS 17 `uniformAcrossSiblings`).
  case uniformAcrossSiblings(estimate: Double)

  /// Whether the final value comes from measurement.
  public var isEstimated: Bool {
    switch self {
    case .estimated, .uniformAcrossSiblings: return true
    default: return false
    }
  }

  /// Whether the value is a fraction of the container.
  public var isFractional: Bool {
    switch self {
    case .fractionalWidth, .fractionalHeight: return true
    default: return false
    }
  }

  /// The raw number carried by the dimension.
  public var value: Double {
    switch self {
    case .absolute(let v), .fractionalWidth(let v), .fractionalHeight(let v), .estimated(let v),
      .uniformAcrossSiblings(let v):
      return v
    }
  }

  /// Resolves against a container size (estimates resolve to the estimate).
  /// - Complexity: O(1).
  @inlinable
  public func resolve(in container: Size) -> Double {
    switch self {
    case .absolute(let v), .estimated(let v), .uniformAcrossSiblings(let v): return v
    case .fractionalWidth(let f): return f * container.width
    case .fractionalHeight(let f): return f * container.height
    }
  }
}

/// A width and a height dimension, like `NSCollectionLayoutSize`.
public struct LayoutSize: Hashable, Sendable {
  /// The width dimension.
  public var width: Dimension
  /// The height dimension.
  public var height: Dimension
  /// Creates a layout size.
  public init(width: Dimension, height: Dimension) {
    self.width = width
    self.height = height
  }
  /// The dimension along an axis.
  public func dimension(_ axis: Axis) -> Dimension { axis == .horizontal ? width : height }
  /// Resolves both dimensions against a container.
  /// - Complexity: O(1).
  @inlinable
  public func resolve(in container: Size) -> Size {
    Size(width: width.resolve(in: container), height: height.resolve(in: container))
  }
}
