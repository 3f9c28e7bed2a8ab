import Typesetting

/// The kinds of cell, by the names the record formats give them (a record's `"template"`).
public enum CellTemplate: String, CaseIterable, Sendable {
  case bubble, productCard
}

/// A cell to size: a chat bubble or a product card.
public enum Cell: Sendable, Hashable {
  case bubble(BubbleCell)
  case productCard(ProductCardCell)

  /// Its kind.
  public var template: CellTemplate {
    switch self {
    case .bubble: return .bubble
    case .productCard: return .productCard
    }
  }

  /// The label for reports (`category`), if any.
  public var category: String? {
    switch self {
    case .bubble(let b): return b.category
    case .productCard(let p): return p.category
    }
  }
}

/// One line of a cells file (docs/CELLS.md): an identifier, a cell, and optionally the app's
/// estimate of its size.
public struct CellRecord: Sendable {
  /// The record's identifier, echoed in every output.
  public var id: String
  /// The cell to size.
  public var cell: Cell
  /// The app's estimate of the height, for validation.
  public var estimatedHeight: Double?
  /// The app's estimate of the width, for validation.
  public var estimatedWidth: Double?

  /// A record for a cell built in code.
  public init(id: String, cell: Cell, estimatedHeight: Double? = nil, estimatedWidth: Double? = nil)
  {
    self.id = id
    self.cell = cell
    self.estimatedHeight = estimatedHeight
    self.estimatedWidth = estimatedWidth
  }
}
