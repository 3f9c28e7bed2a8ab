/// What a section provider is told about the container, like `NSCollectionLayoutEnvironment`.
public struct LayoutEnvironment: Hashable, Sendable {
  /// The collection view's bounds size.
  public var containerSize: Size
  /// Insets of the container (e.g. safe area) removed from the content area.
  public var containerInsets: DirectionalEdgeInsets
  /// Points to pixels.
  public var displayScale: Double
  /// Dynamic Type size.
  public var contentSizeCategory: ContentSizeCategory
  /// Left-to-right or right-to-left.
  public var layoutDirection: LayoutDirection

  /// Creates an environment.
  public init(
    containerSize: Size, containerInsets: DirectionalEdgeInsets = .zero, displayScale: Double = 3,
    contentSizeCategory: ContentSizeCategory = .large,
    layoutDirection: LayoutDirection = .leftToRight
  ) {
    self.containerSize = containerSize
    self.containerInsets = containerInsets
    self.displayScale = displayScale
    self.contentSizeCategory = contentSizeCategory
    self.layoutDirection = layoutDirection
  }

  /// The container size minus its insets.
  public var effectiveContentSize: Size {
    Size(
      width: containerSize.width - containerInsets.leading - containerInsets.trailing,
      height: containerSize.height - containerInsets.top - containerInsets.bottom)
  }
}
