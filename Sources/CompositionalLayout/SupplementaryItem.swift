/// A supplementary view anchored to an item (a badge), like `NSCollectionLayoutSupplementaryItem`.
public struct SupplementaryItem: Hashable, Sendable {
  /// The element kind reported in the attributes.
  public var kind: String
  /// The size, resolved against the item's frame.
  public var size: LayoutSize
  /// The point on the item the supplementary item is attached to.
  public var containerAnchor: Anchor
  /// The point on the supplementary item placed at the container anchor (defaults to the container anchor's edges).
  public var itemAnchor: Anchor
  /// Stacking order (items are 0).
  public var zIndex: Int

  /// Creates a supplementary item; `itemAnchor` defaults to the same edges as `containerAnchor` without offset,
  /// which keeps the badge inside the item at those edges.
  public init(
    kind: String, size: LayoutSize, containerAnchor: Anchor, itemAnchor: Anchor? = nil,
    zIndex: Int = 1
  ) {
    self.kind = kind
    self.size = size
    self.containerAnchor = containerAnchor
    self.itemAnchor = itemAnchor ?? Anchor(edges: containerAnchor.edges)
    self.zIndex = zIndex
  }

  /// The frame for an item frame.
  /// - Complexity: O(1).
  func frame(attachedTo item: Rect) -> Rect {
    let s = size.resolve(in: item.size)
    let target = containerAnchor.point(in: item, unit: s)
    let own = itemAnchor.point(in: Rect(origin: .zero, size: s), unit: s)
    return Rect(x: target.x - own.x, y: target.y - own.y, width: s.width, height: s.height)
  }
}
