/// Layout-wide settings, like `UICollectionViewCompositionalLayoutConfiguration`.
public struct LayoutConfiguration: Hashable, Sendable {
  /// The main scroll axis.
  public var scrollDirection: Axis
  /// Space between consecutive sections.
  public var interSectionSpacing: Double
  /// Global headers and footers (before the first and after the last section).
  public var boundarySupplementaryItems: [BoundarySupplementaryItem]
  /// Creates a configuration.
  public init(
    scrollDirection: Axis = .vertical, interSectionSpacing: Double = 0,
    boundarySupplementaryItems: [BoundarySupplementaryItem] = []
  ) {
    self.scrollDirection = scrollDirection
    self.interSectionSpacing = interSectionSpacing
    self.boundarySupplementaryItems = boundarySupplementaryItems
  }
}
