/// The frames of a laid-out collection view: cells, supplementary and decoration views, content size.
public struct LayoutResult: Sendable {
  /// The scrollable content size.
  public let contentSize: Size
  /// The cells, by section then item.
  public let cells: [LayoutAttributes]
  /// Supplementary and decoration views, by section (global headers and footers last).
  public let supplementaryElements: [LayoutAttributes]
  /// Scroll geometry of the orthogonally scrolling sections.
  public let orthogonalSections: [OrthogonalSectionInfo]
  /// Lint warnings.
  public internal(set) var warnings: [String]
  /// Cells of a layout spec that could not be measured: each was laid out at its estimated
  /// size, and the rest as measured.
  public internal(set) var cellErrors: [CellError] = []

  /// A cell that could not be measured, and why.
  public struct CellError: Sendable, Hashable {
    public var indexPath: ItemPath
    public var message: String
  }
  /// Each section's frame (full width across the scroll axis, headers, insets and footers included).
  public let sectionFrames: [Rect]
  /// The main scroll axis.
  public let scrollDirection: Axis
  /// Whether frames were mirrored for a right-to-left layout.
  public let layoutDirection: LayoutDirection
  let sectionCellStart: [Int]
  let sectionSupplementaryStart: [Int]
  let pinned: [PinnedRef]
  let cellIndex: SpatialIndex
  let badgeIndex: SpatialIndex
  let sectionElementIndex: SpatialIndex

  init(
    contentSize: Size, cells: [LayoutAttributes], supplementaryElements: [LayoutAttributes],
    orthogonalSections: [OrthogonalSectionInfo], warnings: [String], sectionFrames: [Rect],
    scrollDirection: Axis, layoutDirection: LayoutDirection,
    sectionCellStart: [Int], sectionSupplementaryStart: [Int], pinned: [PinnedRef]
  ) {
    self.contentSize = contentSize
    self.cells = cells
    self.supplementaryElements = supplementaryElements
    self.orthogonalSections = orthogonalSections
    self.warnings = warnings
    self.sectionFrames = sectionFrames
    self.scrollDirection = scrollDirection
    self.layoutDirection = layoutDirection
    self.sectionCellStart = sectionCellStart
    self.sectionSupplementaryStart = sectionSupplementaryStart
    self.pinned = pinned
    let v = scrollDirection == .vertical
    cellIndex = SpatialIndex(
      ids: (0..<Int32(cells.count)).map { $0 },
      start: { v ? cells[$0].frame.minY : cells[$0].frame.minX },
      end: { v ? cells[$0].frame.maxY : cells[$0].frame.maxX })
    var badges: [Int32] = []
    var sectionLevel: [Int32] = []
    for (i, a) in supplementaryElements.enumerated() {
      if a.scope == .item { badges.append(Int32(i)) } else { sectionLevel.append(Int32(i)) }
    }
    let s = supplementaryElements
    badgeIndex = SpatialIndex(
      ids: badges, start: { v ? s[$0].frame.minY : s[$0].frame.minX },
      end: { v ? s[$0].frame.maxY : s[$0].frame.maxX })
    sectionElementIndex = SpatialIndex(
      ids: sectionLevel, start: { v ? s[$0].frame.minY : s[$0].frame.minX },
      end: { v ? s[$0].frame.maxY : s[$0].frame.maxX })
  }

  /// The number of sections.
  public var numberOfSections: Int { sectionCellStart.count - 1 }

  /// The number of items in a section.
  public func numberOfItems(inSection section: Int) -> Int {
    guard section >= 0, section < numberOfSections else { return 0 }
    return sectionCellStart[section + 1] - sectionCellStart[section]
  }

  /// The attributes of a cell.
  /// - Complexity: O(1).
  public func attributes(at indexPath: ItemPath) -> LayoutAttributes? {
    guard indexPath.section >= 0, indexPath.section < numberOfSections, indexPath.item >= 0,
      indexPath.item < numberOfItems(inSection: indexPath.section)
    else { return nil }
    return cells[sectionCellStart[indexPath.section] + indexPath.item]
  }

  /// The supplementary and decoration views of a section, or the global ones for `nil`.
  public func supplementaryElements(inSection section: Int?) -> ArraySlice<LayoutAttributes> {
    guard let section else {
      return supplementaryElements[sectionSupplementaryStart[numberOfSections]...]
    }
    guard section >= 0, section < numberOfSections else { return [] }
    return supplementaryElements[
      sectionSupplementaryStart[section]..<sectionSupplementaryStart[section + 1]]
  }

  /// Every element: per section its cells then its other views, global views last.
  public var allAttributes: [LayoutAttributes] {
    var out: [LayoutAttributes] = []
    out.reserveCapacity(cells.count + supplementaryElements.count)
    for s in 0..<numberOfSections {
      out.append(contentsOf: cells[sectionCellStart[s]..<sectionCellStart[s + 1]])
      out.append(contentsOf: supplementaryElements(inSection: s))
    }
    out.append(contentsOf: supplementaryElements(inSection: nil))
    return out
  }

  /// The elements whose frames meet `rect` (edges touching count), cells first. Items of orthogonal sections are
  /// at their position with the section's own scroll offset at 0.
  /// - Complexity: O(log n + k), k being the elements whose extent along the scroll axis meets the rect's.
  public func elements(in rect: Rect) -> [LayoutAttributes] {
    var out: [LayoutAttributes] = []
    let v = scrollDirection == .vertical
    let lo = v ? rect.minY : rect.minX
    let hi = v ? rect.maxY : rect.maxX
    cellIndex.forEachCandidate(lo: lo, hi: hi) { i in
      if cells[i].frame.intersects(rect) { out.append(cells[i]) }
    }
    badgeIndex.forEachCandidate(lo: lo, hi: hi) { i in
      if supplementaryElements[i].frame.intersects(rect) { out.append(supplementaryElements[i]) }
    }
    sectionElementIndex.forEachCandidate(lo: lo, hi: hi) { i in
      if supplementaryElements[i].frame.intersects(rect) { out.append(supplementaryElements[i]) }
    }
    return out
  }

  /// The pinned headers and footers at their positions for the visible rectangle (content offset and bounds size).
  /// - Complexity: O(p) for p pinned items.
  public func pinnedElements(visibleRect: Rect) -> [LayoutAttributes] {
    let v = scrollDirection == .vertical
    var out: [LayoutAttributes] = []
    for p in pinned {
      var a = supplementaryElements[p.supplementaryIndex]
      let sf = sectionFrames[p.section]
      let len = v ? a.frame.height : a.frame.width
      let orig = v ? a.frame.minY : a.frame.minX
      let visMin = v ? visibleRect.minY : visibleRect.minX
      let visMax = v ? visibleRect.maxY : visibleRect.maxX
      let secMin = v ? sf.minY : sf.minX
      let secMax = v ? sf.maxY : sf.maxX
      let pos: Double
      // Mirrored horizontal layouts read right to left: a header sits at the right end of its section.
      let trailingEdge = p.isFooter != (!v && layoutDirection == .rightToLeft)
      if trailingEdge {
        pos = Swift.max(Swift.min(orig, visMax - len), secMin)
      } else {
        pos = Swift.max(orig, Swift.min(visMin, secMax - len))
      }
      if v { a.frame.origin.y = pos } else { a.frame.origin.x = pos }
      out.append(a)
    }
    return out
  }

  /// Bytes held by the result's arrays, for memory figures.
  public var approximateByteCount: Int {
    cells.capacity * MemoryLayout<LayoutAttributes>.stride + supplementaryElements.capacity
      * MemoryLayout<LayoutAttributes>.stride + cellIndex.byteCount + badgeIndex.byteCount
      + sectionElementIndex.byteCount
  }
}
