/// A leaf of a group: one cell, like `NSCollectionLayoutItem`.
public struct Item: Hashable, Sendable {
  /// The item's size, resolved against its containing group.
  public var size: LayoutSize
  /// Insets applied after placement, shrinking the frame; ignored on an estimated axis.
  public var contentInsets: DirectionalEdgeInsets
  /// Spacing around the item applied before its insets.
  public var edgeSpacing: EdgeSpacing?
  /// Badges and other views anchored to the item.
  public var supplementaryItems: [SupplementaryItem]

  /// Creates an item.
  public init(
    size: LayoutSize, contentInsets: DirectionalEdgeInsets = .zero, edgeSpacing: EdgeSpacing? = nil,
    supplementaryItems: [SupplementaryItem] = []
  ) {
    self.size = size
    self.contentInsets = contentInsets
    self.edgeSpacing = edgeSpacing
    self.supplementaryItems = supplementaryItems
  }

  /// The final frame of a placed frame after the content insets (skipped on estimated axes).
  /// - Complexity: O(1).
  @inlinable
  func applyingInsets(to frame: Rect) -> Rect {
    var r = frame
    if !size.width.isEstimated {
      r.origin.x += contentInsets.leading
      r.size.width -= contentInsets.leading + contentInsets.trailing
    }
    if !size.height.isEstimated {
      r.origin.y += contentInsets.top
      r.size.height -= contentInsets.top + contentInsets.bottom
    }
    return r
  }
}
