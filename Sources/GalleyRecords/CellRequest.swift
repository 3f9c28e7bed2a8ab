import CompositionalLayout
import Foundation
import GalleyJSON
import Geometry
import SelfSizing
import Typesetting

/// A request to measure one cell of a spec.
public struct CellRequest: Sendable {
  /// The item's index path.
  public var indexPath: ItemPath
  /// The width the layout offers (the item's resolved width, or its estimate).
  public var proposedWidth: Double
  /// The height the layout offers (its resolved height, or its estimate).
  public var proposedHeight: Double
  /// The kind of cell the spec names (nil: a `template` this version does not know, which
  /// ``cellRecord(library:)`` reports).
  public var template: CellTemplate?
  /// The cell object as read from the spec, for the measurer to decode.
  package var cell: JSONObject
  /// Creates a request.
  package init(
    indexPath: ItemPath, proposedWidth: Double, proposedHeight: Double, template: CellTemplate?,
    cell: JSONObject
  ) {
    self.indexPath = indexPath
    self.proposedWidth = proposedWidth
    self.proposedHeight = proposedHeight
    self.template = template
    self.cell = cell
  }
}

extension CellRequest {
  /// The cell of this request as a typed record (docs/CELLS.md): fonts resolve in `library`, and
  /// the width the layout offers stands in for a missing `containerWidth` or `width`.
  /// - Throws: ``CellError`` naming the field.
  public func cellRecord(library: FontLibrary) throws -> CellRecord {
    try CellRecord(json: cell, library: library, proposedWidth: proposedWidth)
  }
}
