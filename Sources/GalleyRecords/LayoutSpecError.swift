/// A malformed layout spec: the JSON path of the offending value and what is wrong with it.
public struct LayoutSpecError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The JSON path, e.g. `sections[1].group.subitems[0].size.width` (the `item`/`group` wrapper of a subitem is
  /// not part of the path).
  public var path: String
  /// What is wrong.
  public var message: String
  /// Creates an error.
  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }
  /// `path: message`.
  public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
