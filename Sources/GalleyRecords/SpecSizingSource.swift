import CompositionalLayout
import Foundation
import GalleyJSON
import Geometry
import SelfSizing
import Typesetting

/// Sizes for a spec: `itemSizes` first, then measured `cells`.
final class SpecSizingSource: SizingSource {
  let sections: [LayoutSpec.SpecSection]
  let measure: ((CellRequest) throws -> Size)?
  /// Cells whose measurer threw: they take their estimated size (nil here), the rest go on.
  var failures: [ItemPath: any Error] = [:]
  /// Which axes were estimated for the items that have `itemSizes`.
  var asked: [ItemPath: (width: Bool, height: Bool)] = [:]

  init(sections: [LayoutSpec.SpecSection], measure: ((CellRequest) throws -> Size)?) {
    self.sections = sections
    self.measure = measure
  }

  func size(for indexPath: ItemPath, proposed: ProposedSize) -> Size? {
    let s = sections[indexPath.section]
    if let m = s.itemSizes[indexPath.item] {
      asked[indexPath] = (proposed.widthIsEstimated, proposed.heightIsEstimated)
      return Size(width: m.width ?? proposed.width, height: m.height ?? proposed.height)
    }
    guard failures[indexPath] == nil, let cell = s.cells[indexPath.item], let measure else {
      return nil
    }
    let template = cell["template"]?.string.flatMap(CellTemplate.init(rawValue:))
    do {
      return try measure(
        CellRequest(
          indexPath: indexPath, proposedWidth: proposed.width, proposedHeight: proposed.height,
          template: template,
          cell: cell))
    } catch {
      failures[indexPath] = error
      return nil
    }
  }
}
