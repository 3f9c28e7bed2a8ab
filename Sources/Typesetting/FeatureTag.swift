/// An OpenType feature tag, such as `"liga"`, `"kern"` or `"ss01"`: one to four printable ASCII
/// characters (OpenType pads a shorter tag with spaces). A style's `features` are keyed by it.
///
/// ```swift
/// style.features = ["liga": 0, "ss01": 1]
/// let tag = FeatureTag(validating: input)   // nil for a string that is not a tag
/// ```
public struct FeatureTag: Hashable, Sendable, Comparable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The tag as written.
  public let name: String

  /// The tag `name`, or nil when it is not one to four printable ASCII characters.
  public init?(validating name: String) {
    self.name = name
    guard isValid else { return nil }
  }

  /// A tag written in code; one that is not a tag makes the style invalid
  /// (``TypesettingError/invalidStyle(_:)`` when it is used), not a crash.
  public init(stringLiteral name: String) { self.name = name }

  /// Whether the tag is one to four printable ASCII characters.
  public var isValid: Bool {
    (1...4).contains(name.utf8.count) && name.utf8.allSatisfy { (0x20...0x7E).contains($0) }
  }

  /// The tag as HarfBuzz takes it: four bytes, big-endian, padded with spaces.
  var value: UInt32 {
    var tag: UInt32 = 0
    for b in name.utf8.prefix(4) { tag = (tag << 8) | UInt32(b) }
    for _ in min(name.utf8.count, 4)..<4 { tag = (tag << 8) | 0x20 }
    return tag
  }

  public var description: String { name }

  public static func < (a: FeatureTag, b: FeatureTag) -> Bool { a.name < b.name }
}
