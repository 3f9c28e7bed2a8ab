/// A set of rectangle edges.
public struct Edges: OptionSet, Hashable, Sendable {
  /// The raw bits.
  public let rawValue: UInt8
  /// Creates an edge set from raw bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// The top edge.
  public static let top = Edges(rawValue: 1)
  /// The leading edge (left in left-to-right).
  public static let leading = Edges(rawValue: 2)
  /// The bottom edge.
  public static let bottom = Edges(rawValue: 4)
  /// The trailing edge (right in left-to-right).
  public static let trailing = Edges(rawValue: 8)
}

/// A point on a rectangle given by edges plus an offset, like `NSCollectionLayoutAnchor`.
///
/// With `top` the point is on the top edge, with `bottom` on the bottom edge, with neither or both at the
/// vertical centre; likewise horizontally. The offset is in points, or (when `isFractional`) in fractions of
/// the anchored supplementary item's size.
public struct Anchor: Hashable, Sendable {
  /// The edges the point sits on.
  public var edges: Edges
  /// The offset added to the point.
  public var offset: Point
  /// Whether `offset` is a fraction of the supplementary item's size.
  public var isFractional: Bool
  /// Creates an anchor.
  public init(edges: Edges, offset: Point = .zero, isFractional: Bool = false) {
    self.edges = edges
    self.offset = offset
    self.isFractional = isFractional
  }

  /// The anchor point on `rect`; `unit` scales a fractional offset.
  func point(in rect: Rect, unit: Size) -> Point {
    let hasLeading = edges.contains(.leading)
    let hasTrailing = edges.contains(.trailing)
    let hasTop = edges.contains(.top)
    let hasBottom = edges.contains(.bottom)
    let x: Double =
      hasLeading == hasTrailing ? rect.midX : (hasLeading ? rect.minX : rect.maxX)
    let y: Double = hasTop == hasBottom ? rect.midY : (hasTop ? rect.minY : rect.maxY)
    let dx = isFractional ? offset.x * unit.width : offset.x
    let dy = isFractional ? offset.y * unit.height : offset.y
    return Point(x: x + dx, y: y + dy)
  }
}
