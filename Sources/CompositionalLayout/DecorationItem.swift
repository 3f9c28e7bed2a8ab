/// A decoration view of a section (a background), like `NSCollectionLayoutDecorationItem`.
public struct DecorationItem: Hashable, Sendable {
  /// The element kind.
  public var kind: String
  /// Insets from the section's frame.
  public var contentInsets: DirectionalEdgeInsets
  /// Stacking order; below the items (0) by default.
  public var zIndex: Int
  /// Creates a section background decoration.
  public init(kind: String, contentInsets: DirectionalEdgeInsets = .zero, zIndex: Int = -1) {
    self.kind = kind
    self.contentInsets = contentInsets
    self.zIndex = zIndex
  }
}
