/// The kind of view an element is.
public enum ElementCategory: String, Hashable, Sendable {
  /// A cell (one item).
  case cell
  /// A supplementary view (header, footer, badge).
  case supplementary
  /// A decoration view (background).
  case decoration
}

/// What an element is attached to.
public enum ElementScope: Hashable, Sendable {
  /// An item: cells and item-anchored supplementary items.
  case item
  /// A section: headers, footers, backgrounds (`indexPath.item` is 0).
  case section
  /// The whole layout: global headers and footers (`indexPath` is `[0, 0]`).
  case global
}

/// The geometry of one element, like `UICollectionViewLayoutAttributes`.
public struct LayoutAttributes: Hashable, Sendable {
  /// Section and item.
  public var indexPath: ItemPath
  /// Cell, supplementary or decoration.
  public var category: ElementCategory
  /// What it is attached to.
  public var scope: ElementScope
  /// The element kind (empty for cells).
  public var kind: String
  /// The frame in the collection view's coordinates.
  public var frame: Rect
  /// Stacking order.
  public var zIndex: Int
  /// Creates attributes.
  public init(
    indexPath: ItemPath, category: ElementCategory, scope: ElementScope, kind: String, frame: Rect,
    zIndex: Int
  ) {
    self.indexPath = indexPath
    self.category = category
    self.scope = scope
    self.kind = kind
    self.frame = frame
    self.zIndex = zIndex
  }
}
