import CompositionalLayout
import Foundation
import GalleyJSON
import Geometry
import SelfSizing
import Typesetting

/// A layout described in JSON (see docs/LAYOUT-SPEC.md): environment, configuration and sections with their items.
public struct LayoutSpec: Sendable {
  /// One section of the spec: its description, its item count and what replaces its estimates.
  public struct SpecSection: Sendable {
    /// The section description.
    public var section: Section
    /// How many items it holds.
    public var itemCount: Int
    /// Measured sizes by item index (either axis may be absent).
    public var itemSizes: [Int: MeasuredItemSize]
    /// Content to measure by item index: each cell object as read (docs/CELLS.md), decoded
    /// by the measurer.
    package var cells: [Int: JSONObject]
  }

  /// The container and display.
  public var environment: LayoutEnvironment
  /// Layout-wide settings.
  public var configuration: LayoutConfiguration
  /// The sections.
  public var sections: [SpecSection]

  /// The layout description of the spec.
  public var layout: CollectionLayout {
    let sections = self.sections.map(\.section)
    return CollectionLayout(configuration: configuration) { i, _ in sections[i] }
  }

  /// Lays the spec out; `cells` content goes to `measure`.
  /// - Throws: `LayoutSpecError` when cells are present without a measurer, or the measurer's own error.
  public func layoutResult(measure: ((CellRequest) throws -> Size)? = nil) throws -> LayoutResult {
    if measure == nil, let i = sections.firstIndex(where: { !$0.cells.isEmpty }) {
      throw LayoutSpecError(
        path: "sections[\(i)].cells", message: "cells need a measurer, and none was given")
    }
    let source = SpecSizingSource(sections: sections, measure: measure)
    var result = layout.layout(
      itemCounts: sections.map(\.itemCount), environment: environment, sizing: source)
    result.unmeasuredCells = source.failures.sorted { $0.key < $1.key }.map {
      LayoutResult.UnmeasuredCell(indexPath: $0.key, error: $0.value)
    }
    // Cells that overlap: a measured size larger than the slot the layout gives it.
    let overlaps = result.overlappingCells(listing: 5)
    for (a, b) in overlaps.first {
      result.warnings.append(
        "sections[\(a.section)]: items \(a.item) and \(b.section == a.section ? "\(b.item)" : "\(b) ") overlap: a measured size is larger than its slot (a group whose count divides an estimated axis keeps equal slots)"
      )
    }
    if overlaps.count > 5 { result.warnings.append("… \(overlaps.count - 5) more overlapping pairs") }
    // Measured sizes on axes that are not estimated are reported, not silently dropped.
    for (s, section) in sections.enumerated() {
      for (item, m) in section.itemSizes.sorted(by: { $0.key < $1.key }) {
        let asked = source.asked[ItemPath(section: s, item: item)]
        if m.width != nil && !(asked?.width ?? false) {
          result.warnings.append(
            "sections[\(s)].itemSizes[\(m.entry)].width: item \(item)'s width is not estimated; the measured width is ignored"
          )
        }
        if m.height != nil && !(asked?.height ?? false) {
          result.warnings.append(
            "sections[\(s)].itemSizes[\(m.entry)].height: item \(item)'s height is not estimated; the measured height is ignored"
          )
        }
      }
    }
    return result
  }
}

/// Reads a layout spec (docs/LAYOUT-SPEC.md) and writes the frames as JSON in the spec's output format.
/// `measure` sizes items whose content comes as `cells`; without it such specs are an error.
/// - Throws: `LayoutSpecError` naming the JSON path of a malformed value, or the measurer's error.
package func runLayoutSpec(_ data: Data, measure: ((CellRequest) throws -> Size)? = nil) throws
  -> Data
{
  let spec = try LayoutSpec(json: data)
  let result = try spec.layoutResult(measure: measure)
  return Data(LayoutJSONEncoder.encode(result).utf8)
}
