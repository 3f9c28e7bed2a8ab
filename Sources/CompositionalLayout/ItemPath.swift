/// A section and item index, like `IndexPath(item:section:)`.
public struct ItemPath: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The section index.
  public var section: Int
  /// The item index within the section.
  public var item: Int
  /// Creates an index path.
  public init(section: Int, item: Int) {
    self.section = section
    self.item = item
  }
  /// Orders by section, then item.
  public static func < (a: ItemPath, b: ItemPath) -> Bool {
    a.section != b.section ? a.section < b.section : a.item < b.item
  }
  /// `[section, item]`.
  public var description: String { "[\(section), \(item)]" }
}
