/// A measured size from a spec's `itemSizes`.
public struct MeasuredItemSize: Hashable, Sendable {
  /// The position of the entry in `itemSizes`, for warnings.
  public var entry: Int
  /// The measured width, if given.
  public var width: Double?
  /// The measured height, if given.
  public var height: Double?
  /// Creates a measured size.
  public init(entry: Int, width: Double?, height: Double?) {
    self.entry = entry
    self.width = width
    self.height = height
  }
}
