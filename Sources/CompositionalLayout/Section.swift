/// How a section scrolls on the axis orthogonal to the layout's scroll direction.
public enum OrthogonalScrollingBehavior: String, Hashable, Sendable, CaseIterable {
  /// The section does not scroll on its own; groups stack along the layout's scroll axis.
  case none
  /// Free scrolling, no snapping.
  case continuous
  /// Free scrolling that comes to rest on a group's leading edge.
  case continuousGroupLeadingBoundary
  /// Pages of the visible width.
  case paging
  /// One group per page, leading edges aligned with the section's leading inset.
  case groupPaging
  /// One group per page, centred in the visible width.
  case groupPagingCentered
}

/// A section: a group repeated until the section's items run out, like `NSCollectionLayoutSection`.
public struct Section: Sendable {
  /// The repeated group.
  public var group: Group
  /// Insets around the groups (headers and footers sit outside the top and bottom insets).
  public var contentInsets: DirectionalEdgeInsets
  /// Spacing between consecutive groups.
  public var interGroupSpacing: Double
  /// Orthogonal scrolling.
  public var orthogonalScrollingBehavior: OrthogonalScrollingBehavior
  /// Headers and footers.
  public var boundarySupplementaryItems: [BoundarySupplementaryItem]
  /// Backgrounds.
  public var decorationItems: [DecorationItem]
  /// Whether headers and footers keep to the section's leading/trailing insets (UIKit's default); when false they
  /// resolve against and span the full width across the scroll axis.
  public var supplementariesFollowContentInsets: Bool = true

  /// Creates a section.
  public init(
    group: Group, contentInsets: DirectionalEdgeInsets = .zero, interGroupSpacing: Double = 0,
    orthogonalScrollingBehavior: OrthogonalScrollingBehavior = .none,
    boundarySupplementaryItems: [BoundarySupplementaryItem] = [],
    decorationItems: [DecorationItem] = []
  ) {
    self.group = group
    self.contentInsets = contentInsets
    self.interGroupSpacing = interGroupSpacing
    self.orthogonalScrollingBehavior = orthogonalScrollingBehavior
    self.boundarySupplementaryItems = boundarySupplementaryItems
    self.decorationItems = decorationItems
  }
}
