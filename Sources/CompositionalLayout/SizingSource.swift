/// The size a measurer is offered for an item: resolved values, with estimates on estimated axes.
public struct ProposedSize: Hashable, Sendable {
  /// The resolved width (the estimate when `widthIsEstimated`).
  public var width: Double
  /// The resolved height (the estimate when `heightIsEstimated`).
  public var height: Double
  /// Whether the width is to be measured.
  public var widthIsEstimated: Bool
  /// Whether the height is to be measured.
  public var heightIsEstimated: Bool
}

/// Supplies measured sizes for self-sizing items; the layout never sees their content.
public protocol SizingSource {
  /// The measured size of an item, or nil to keep the estimate. Only estimated axes of the answer are used.
  func size(for indexPath: ItemPath, proposed: ProposedSize) -> Size?
  /// The measured size of a section's header or footer of `kind`, or nil to keep the estimate.
  func supplementarySize(kind: String, section: Int, proposed: ProposedSize) -> Size?
}

extension SizingSource {
  /// Headers and footers keep their estimates unless a source says otherwise.
  public func supplementarySize(kind: String, section: Int, proposed: ProposedSize) -> Size? { nil }
}

/// A sizing source backed by a closure.
public struct ClosureSizingSource: SizingSource {
  /// The closure answering each request.
  public let body: (ItemPath, ProposedSize) -> Size?
  /// Wraps a closure.
  public init(_ body: @escaping (ItemPath, ProposedSize) -> Size?) { self.body = body }
  /// Calls the closure.
  public func size(for indexPath: ItemPath, proposed: ProposedSize) -> Size? {
    body(indexPath, proposed)
  }
}

/// A sizing source holding sizes already measured, by index path (and headers/footers by section and kind).
public struct MeasuredSizes: SizingSource, Sendable {
  /// Sizes by section, then item.
  public var sizes: [Int: [Int: Size]]
  /// Header and footer sizes by section, then kind.
  public var supplementarySizes: [Int: [String: Size]]
  /// Creates an empty store.
  public init() {
    sizes = [:]
    supplementarySizes = [:]
  }
  /// Stores a header or footer size.
  public mutating func set(_ size: Size, forSupplementary kind: String, inSection section: Int) {
    supplementarySizes[section, default: [:]][kind] = size
  }
  /// The stored header or footer size.
  public func supplementarySize(kind: String, section: Int, proposed: ProposedSize) -> Size? {
    supplementarySizes[section]?[kind]
  }
  /// Stores a size.
  public mutating func set(_ size: Size, for indexPath: ItemPath) {
    sizes[indexPath.section, default: [:]][indexPath.item] = size
  }
  /// The stored size.
  public func size(for indexPath: ItemPath, proposed: ProposedSize) -> Size? {
    sizes[indexPath.section]?[indexPath.item]
  }
}
