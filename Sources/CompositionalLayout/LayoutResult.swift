import Foundation

/// The frames of a laid-out collection view: cells, supplementary and decoration views, content size.
///
/// A result is a stack of laid-out sections, each kept in its own coordinates and placed when
/// read, so that a layout that changes one section reuses the others instead of copying them;
/// ``cells`` and ``supplementaryElements`` are the flat lists, made on first use.
public struct LayoutResult: Sendable {
  /// The scrollable content size.
  public let contentSize: Size
  /// Scroll geometry of the orthogonally scrolling sections.
  public let orthogonalSections: [OrthogonalSectionInfo]
  /// Lint warnings.
  public package(set) var warnings: [String]
  /// Cells of a layout spec that could not be measured: each was laid out at its estimated
  /// size, and the rest as measured.
  public package(set) var unmeasuredCells: [UnmeasuredCell] = []

  /// A cell that could not be measured, and why (what the measurer threw: for the cells
  /// themselves, a `SelfSizing.CellError`).
  public struct UnmeasuredCell: Sendable {
    public var indexPath: ItemPath
    /// What the measurer threw, as it threw it (match on its cases).
    public var error: any Error
    /// The error's description.
    public var message: String { String(describing: error) }
    package init(indexPath: ItemPath, error: any Error) {
      self.indexPath = indexPath
      self.error = error
    }
  }
  /// Each section's frame (full width across the scroll axis, headers, insets and footers included).
  public let sectionFrames: [Rect]
  /// The main scroll axis.
  public let scrollDirection: Axis
  /// Whether frames were mirrored for a right-to-left layout.
  public let layoutDirection: LayoutDirection

  /// The sections, in their own coordinates.
  let blocks: [SectionBlock]
  /// Where each section starts along the scroll axis.
  let origins: [Double]
  /// For a right-to-left layout, the width frames are mirrored in (x ↦ width − maxX).
  let mirrorWidth: Double?
  /// Global headers and footers, placed.
  let globals: [LayoutAttributes]
  /// Sections by the extent of their elements along the scroll axis, placed.
  let sectionIndex: SpatialIndex
  let globalIndex: SpatialIndex
  private let flat = FlatElements()

  init(
    contentSize: Size, blocks: [SectionBlock], origins: [Double], globals: [LayoutAttributes],
    sectionFrames: [Rect], scrollDirection: Axis, layoutDirection: LayoutDirection,
    mirrorWidth: Double?
  ) {
    self.contentSize = contentSize
    self.blocks = blocks
    self.origins = origins
    self.globals = globals
    self.sectionFrames = sectionFrames
    self.scrollDirection = scrollDirection
    self.layoutDirection = layoutDirection
    self.mirrorWidth = mirrorWidth
    orthogonalSections = blocks.compactMap(\.orthogonal)
    warnings = blocks.flatMap(\.warnings)
    let vertical = scrollDirection == .vertical
    // (Mirroring moves a horizontal layout's sections along the scroll axis.)
    let flip = vertical ? nil : mirrorWidth
    func range(_ s: Int) -> (Double, Double) {
      let lo = origins[s] + blocks[s].lowest
      let hi = origins[s] + blocks[s].highest
      return flip.map { ($0 - hi, $0 - lo) } ?? (lo, hi)
    }
    sectionIndex = SpatialIndex(
      ids: (0..<Int32(blocks.count)).map { $0 }, start: { range($0).0 }, end: { range($0).1 })
    globalIndex = SpatialIndex(
      ids: (0..<Int32(globals.count)).map { $0 },
      start: { vertical ? globals[$0].frame.minY : globals[$0].frame.minX },
      end: { vertical ? globals[$0].frame.maxY : globals[$0].frame.maxX })
  }

  /// An element of section `s` where the layout puts it.
  func placed(_ a: LayoutAttributes, section s: Int) -> LayoutAttributes {
    var a = a
    if scrollDirection == .vertical { a.frame.origin.y += origins[s] } else {
      a.frame.origin.x += origins[s]
    }
    if let w = mirrorWidth { a.frame.origin.x = w - a.frame.maxX }
    return a
  }

  /// The number of sections.
  public var numberOfSections: Int { blocks.count }

  /// The number of items in a section.
  public func numberOfItems(inSection section: Int) -> Int {
    guard section >= 0, section < numberOfSections else { return 0 }
    return blocks[section].cells.count
  }

  /// The cells, by section then item.
  /// - Complexity: O(n) the first time (the list is made then, and kept).
  public var cells: [LayoutAttributes] { flat.cells(of: self) }

  /// Supplementary and decoration views, by section (global headers and footers last).
  /// - Complexity: O(n) the first time (the list is made then, and kept).
  public var supplementaryElements: [LayoutAttributes] { flat.supplementaries(of: self) }

  /// The attributes of a cell.
  /// - Complexity: O(1).
  public func attributes(at indexPath: ItemPath) -> LayoutAttributes? {
    guard indexPath.section >= 0, indexPath.section < numberOfSections, indexPath.item >= 0,
      indexPath.item < numberOfItems(inSection: indexPath.section)
    else { return nil }
    return placed(blocks[indexPath.section].cells[indexPath.item], section: indexPath.section)
  }

  /// The supplementary and decoration views of a section, or the global ones for `nil`.
  /// - Complexity: O(k) for the k views returned.
  public func supplementaryElements(inSection section: Int?) -> ArraySlice<LayoutAttributes> {
    guard let section else { return globals[...] }
    guard section >= 0, section < numberOfSections else { return [] }
    return ArraySlice(blocks[section].supplementaries.map { placed($0, section: section) })
  }

  /// Every element: per section its cells then its other views, global views last.
  public var allAttributes: [LayoutAttributes] {
    var out: [LayoutAttributes] = []
    out.reserveCapacity(blocks.reduce(globals.count) { $0 + $1.cells.count + $1.supplementaries.count })
    for (s, b) in blocks.enumerated() {
      for a in b.cells { out.append(placed(a, section: s)) }
      for a in b.supplementaries { out.append(placed(a, section: s)) }
    }
    out.append(contentsOf: globals)
    return out
  }

  /// The elements whose frames meet `rect` (edges touching count), cells first. Items of orthogonal sections are
  /// at their position with the section's own scroll offset at 0.
  /// - Complexity: O(log n + k), k being the elements whose extent along the scroll axis meets the rect's.
  public func elements(in rect: Rect) -> [LayoutAttributes] {
    let vertical = scrollDirection == .vertical
    let lo = vertical ? rect.minY : rect.minX
    let hi = vertical ? rect.maxY : rect.maxX
    var sections: [Int] = []
    sectionIndex.forEachCandidate(lo: lo, hi: hi) { sections.append($0) }
    sections.sort()
    // The rect in a section's own coordinates along the scroll axis.
    func local(_ s: Int) -> (Double, Double) {
      if !vertical, let w = mirrorWidth { return (w - hi - origins[s], w - lo - origins[s]) }
      return (lo - origins[s], hi - origins[s])
    }
    var out: [LayoutAttributes] = []
    // Cells of every section first, then item views, then section views.
    func collect(_ s: Int, _ index: SpatialIndex, _ elements: [LayoutAttributes]) {
      let (l, h) = local(s)
      index.forEachCandidate(lo: l, hi: h) { i in
        let a = placed(elements[i], section: s)
        if a.frame.intersects(rect) { out.append(a) }
      }
    }
    for s in sections { collect(s, blocks[s].cellIndex, blocks[s].cells) }
    for s in sections { collect(s, blocks[s].badgeIndex, blocks[s].supplementaries) }
    for s in sections { collect(s, blocks[s].sectionElementIndex, blocks[s].supplementaries) }
    globalIndex.forEachCandidate(lo: lo, hi: hi) { i in
      if globals[i].frame.intersects(rect) { out.append(globals[i]) }
    }
    return out
  }

  /// The pinned headers and footers at their positions for the visible rectangle (content offset and bounds size).
  /// - Complexity: O(p) for p pinned items.
  public func pinnedElements(visibleRect: Rect) -> [LayoutAttributes] {
    let v = scrollDirection == .vertical
    var out: [LayoutAttributes] = []
    for (s, b) in blocks.enumerated() {
      for p in b.pinned {
        var a = placed(b.supplementaries[p.index], section: s)
        let sf = sectionFrames[s]
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
    }
    return out
  }

  /// Bytes held by the result's arrays, for memory figures (the flat lists included once made).
  public var approximateByteCount: Int {
    blocks.reduce(0) { $0 + $1.byteCount } + globals.capacity
      * MemoryLayout<LayoutAttributes>.stride + sectionIndex.byteCount + globalIndex.byteCount
      + flat.byteCount
  }
}

/// The flat lists of a result's cells and views, made once on first use (results are shared
/// between threads: made under a lock).
final class FlatElements: @unchecked Sendable {
  // @unchecked: the two lists are written once, under `lock`.
  private let lock = NSLock()
  private var cellList: [LayoutAttributes]? = nil
  private var viewList: [LayoutAttributes]? = nil

  func cells(of r: LayoutResult) -> [LayoutAttributes] {
    lock.lock()
    defer { lock.unlock() }
    if let c = cellList { return c }
    var out: [LayoutAttributes] = []
    out.reserveCapacity(r.blocks.reduce(0) { $0 + $1.cells.count })
    for (s, b) in r.blocks.enumerated() {
      for a in b.cells { out.append(r.placed(a, section: s)) }
    }
    cellList = out
    return out
  }

  func supplementaries(of r: LayoutResult) -> [LayoutAttributes] {
    lock.lock()
    defer { lock.unlock() }
    if let v = viewList { return v }
    var out: [LayoutAttributes] = []
    out.reserveCapacity(r.blocks.reduce(r.globals.count) { $0 + $1.supplementaries.count })
    for (s, b) in r.blocks.enumerated() {
      for a in b.supplementaries { out.append(r.placed(a, section: s)) }
    }
    out.append(contentsOf: r.globals)
    viewList = out
    return out
  }

  var byteCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return ((cellList?.capacity ?? 0) + (viewList?.capacity ?? 0))
      * MemoryLayout<LayoutAttributes>.stride
  }
}
