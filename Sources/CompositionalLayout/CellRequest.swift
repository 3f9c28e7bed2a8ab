import Foundation

/// A request to measure one cell of a spec.
public struct CellRequest: Sendable {
  /// The item's index path.
  public var indexPath: ItemPath
  /// The width the layout offers (the item's resolved width, or its estimate).
  public var proposedWidth: Double
  /// The height the layout offers (its resolved height, or its estimate).
  public var proposedHeight: Double
  /// The cell's `template` field.
  public var template: String
  /// The cell object as JSON with sorted keys, for the measurer to decode.
  public var cell: Data
  /// Creates a request.
  public init(
    indexPath: ItemPath, proposedWidth: Double, proposedHeight: Double, template: String, cell: Data
  ) {
    self.indexPath = indexPath
    self.proposedWidth = proposedWidth
    self.proposedHeight = proposedHeight
    self.template = template
    self.cell = cell
  }
}
