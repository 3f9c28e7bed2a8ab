import Foundation

/// One laid-out section in its own coordinates (scroll-axis origin 0, not mirrored), with its
/// spatial indexes: what a ``LayoutResult`` is stacked from, and what a later layout reuses
/// unchanged (not copied) for a section a batch or a measurement does not touch.
final class SectionBlock: Sendable {
  let cells: [LayoutAttributes]
  let supplementaries: [LayoutAttributes]
  /// Pinned boundary items: index into `supplementaries`, and whether it is a footer.
  let pinned: [PinnedItem]
  /// The section's length along the scroll axis.
  let extent: Double
  let orthogonal: OrthogonalSectionInfo?
  let warnings: [String]
  let cellIndex: SpatialIndex
  let badgeIndex: SpatialIndex
  let sectionElementIndex: SpatialIndex
  /// Where its elements start and end along the scroll axis (they may reach outside the
  /// section's frame: offsets, insets).
  let lowest: Double
  let highest: Double

  struct PinnedItem: Sendable {
    var index: Int
    var isFooter: Bool
  }

  init(_ part: SectionLayout, vertical: Bool) {
    cells = part.cells
    supplementaries = part.supplementaries
    pinned = part.pinned.map { PinnedItem(index: $0.index, isFooter: $0.isFooter) }
    extent = part.extent
    orthogonal = part.orthogonal
    warnings = part.warnings
    let c = part.cells
    let s = part.supplementaries
    func start(_ r: Rect) -> Double { vertical ? r.minY : r.minX }
    func end(_ r: Rect) -> Double { vertical ? r.maxY : r.maxX }
    cellIndex = SpatialIndex(
      ids: (0..<Int32(c.count)).map { $0 }, start: { start(c[$0].frame) },
      end: { end(c[$0].frame) })
    var badges: [Int32] = []
    var sectionLevel: [Int32] = []
    for (i, a) in s.enumerated() {
      if a.scope == .item { badges.append(Int32(i)) } else { sectionLevel.append(Int32(i)) }
    }
    badgeIndex = SpatialIndex(ids: badges, start: { start(s[$0].frame) }, end: { end(s[$0].frame) })
    sectionElementIndex = SpatialIndex(
      ids: sectionLevel, start: { start(s[$0].frame) }, end: { end(s[$0].frame) })
    var lo = 0.0
    var hi = part.extent
    for a in c {
      lo = Swift.min(lo, start(a.frame))
      hi = Swift.max(hi, end(a.frame))
    }
    for a in s {
      lo = Swift.min(lo, start(a.frame))
      hi = Swift.max(hi, end(a.frame))
    }
    lowest = lo
    highest = hi
  }

  /// Bytes held by its arrays.
  var byteCount: Int {
    (cells.capacity + supplementaries.capacity) * MemoryLayout<LayoutAttributes>.stride
      + cellIndex.byteCount + badgeIndex.byteCount + sectionElementIndex.byteCount
  }
}
