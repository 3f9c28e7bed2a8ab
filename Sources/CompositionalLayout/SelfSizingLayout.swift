/// Answers from stored measurements and measures the wanted items that have none yet.
final class MeasuringSource: SizingSource {
  var store: MeasuredSizes
  let wanted: (ItemPath) -> Bool
  let measurer: ((ItemPath, ProposedSize) -> Size)?

  init(
    store: MeasuredSizes, wanted: @escaping (ItemPath) -> Bool,
    measurer: ((ItemPath, ProposedSize) -> Size)?
  ) {
    self.store = store
    self.wanted = wanted
    self.measurer = measurer
  }

  func supplementarySize(kind: String, section: Int, proposed: ProposedSize) -> Size? {
    store.supplementarySize(kind: kind, section: section, proposed: proposed)
  }

  func size(for indexPath: ItemPath, proposed: ProposedSize) -> Size? {
    if let s = store.size(for: indexPath, proposed: proposed) { return s }
    guard let measurer, wanted(indexPath) else { return nil }
    let s = measurer(indexPath, proposed)
    store.set(s, for: indexPath)
    return s
  }
}

/// A layout that starts on estimates and takes measured sizes later, section by section, reporting how the
/// content size changed and the content-offset correction that keeps an anchor element still.
public struct SelfSizingLayout: Sendable {
  /// The layout description.
  public let layout: CollectionLayout
  /// The environment it is laid out in.
  public let environment: LayoutEnvironment
  /// Items per section.
  public private(set) var itemCounts: [Int]
  /// The sizes measured so far.
  public private(set) var measuredSizes: MeasuredSizes
  /// The current frames.
  public private(set) var result: LayoutResult
  private var parts: [SectionBlock]

  /// The first pass: every estimated item at its estimate.
  /// - Complexity: O(n).
  public init(layout: CollectionLayout, itemCounts: [Int], environment: LayoutEnvironment) {
    self.layout = layout
    self.environment = environment
    self.itemCounts = itemCounts
    measuredSizes = MeasuredSizes()
    parts = itemCounts.enumerated().map { i, c in
      layout.layoutSection(i, itemCount: c, environment: environment, sizing: nil)
    }
    result = CollectionLayout.assemble(
      parts, configuration: layout.configuration, environment: environment)
  }

  /// Applies sizes already measured (only their estimated axes are used).
  /// - Complexity: O(n) for the sections touched plus O(N) to restack.
  public mutating func apply(_ sizes: [ItemPath: Size], keeping anchor: ScrollAnchor? = nil)
    -> LayoutUpdate
  {
    for (p, s) in sizes { measuredSizes.set(s, for: p) }
    let sections = Set(sizes.keys.map(\.section))
    let source = MeasuringSource(store: measuredSizes, wanted: { _ in false }, measurer: nil)
    return relayout(sections: sections, source: source, anchor: anchor)
  }

  /// Applies the measured size of a section's header or footer of `kind` (its estimated axes only).
  /// - Complexity: O(n) for the section plus O(N) to restack.
  public mutating func applySupplementarySize(
    _ size: Size, kind: String, section: Int, keeping anchor: ScrollAnchor? = nil
  ) -> LayoutUpdate {
    measuredSizes.set(size, forSupplementary: kind, inSection: section)
    let source = MeasuringSource(store: measuredSizes, wanted: { _ in false }, measurer: nil)
    return relayout(sections: [section], source: source, anchor: anchor)
  }

  /// Measures the items of `section` in `items` (a visible range first, or all), keeping `anchor` still.
  /// The measurer gets each item's index path and proposed size (its resolved width, estimate for height).
  /// - Complexity: O(n) for the section plus O(N) to restack.
  public mutating func measure(
    section: Int, items: Range<Int>? = nil, keeping anchor: ScrollAnchor? = nil,
    using measurer: @escaping (ItemPath, ProposedSize) -> Size
  ) -> LayoutUpdate {
    let source = MeasuringSource(
      store: measuredSizes,
      wanted: { p in p.section == section && (items?.contains(p.item) ?? true) },
      measurer: measurer)
    let update = relayout(sections: [section], source: source, anchor: anchor)
    measuredSizes = source.store
    return update
  }

  /// Measures every item of every section.
  public mutating func measureAll(
    keeping anchor: ScrollAnchor? = nil, using measurer: @escaping (ItemPath, ProposedSize) -> Size
  ) -> LayoutUpdate {
    let source = MeasuringSource(store: measuredSizes, wanted: { _ in true }, measurer: measurer)
    let update = relayout(sections: Set(itemCounts.indices), source: source, anchor: anchor)
    measuredSizes = source.store
    return update
  }

  /// Applies a batch of updates (`performBatchUpdates`), with `sizes` measured after it (index
  /// paths after): measured sizes follow their items, only the sections the batch touches are
  /// laid out again (the others are stacked as they were), and the transition says what moves,
  /// appears and disappears and where the content offset goes, kept by `anchor`.
  /// - Throws: ``BatchError`` for a batch UIKit would reject; the layout is then unchanged.
  /// - Complexity: O(n) for the sections touched plus O(N) to restack and compare.
  public mutating func apply(
    _ batch: BatchUpdate, sizes: [ItemPath: Size] = [:], contentOffset: Double = 0,
    anchor: BatchAnchor = .top
  ) throws -> LayoutTransition {
    let mapping = try BatchMapping(batch, counts: itemCounts)
    // Measured sizes follow their items and sections (in time proportional to the sizes).
    var moved = MeasuredSizes()
    for (section, items) in measuredSizes.sizes where section < mapping.itemAfter.count {
      for (item, size) in items where item < mapping.itemAfter[section].count {
        if let p = mapping.itemAfter[section][item] { moved.set(size, for: p) }
      }
    }
    for (b, kinds) in measuredSizes.supplementarySizes where b < mapping.sectionAfter.count {
      guard let s = mapping.sectionAfter[b] else { continue }
      for (kind, size) in kinds { moved.set(size, forSupplementary: kind, inSection: s) }
    }
    for (p, size) in sizes { moved.set(size, for: p) }
    let sized = Set(sizes.keys.map(\.section))
    let source = MeasuringSource(store: moved, wanted: { _ in false }, measurer: nil)
    var newParts: [SectionBlock] = []
    for (s, count) in mapping.countsAfter.enumerated() {
      // (A section is stacked as it was when it keeps its index, its items and their order.)
      if let b = mapping.sectionBefore[s], b == s, !sized.contains(s),
        !mapping.reloadedSections.contains(s), count == itemCounts[b],
        mapping.itemBefore[s].maps(toSameItemsOf: b)
      {
        newParts.append(parts[b])
      } else {
        newParts.append(layout.layoutSection(s, itemCount: count, environment: environment, sizing: source))
      }
    }
    let before = result
    parts = newParts
    itemCounts = mapping.countsAfter
    measuredSizes = moved
    result = CollectionLayout.assemble(
      parts, configuration: layout.configuration, environment: environment)
    let vertical = layout.configuration.scrollDirection == .vertical
    return LayoutTransition(
      before: before, after: result, mapping: mapping, contentOffset: contentOffset,
      viewport: vertical ? environment.containerSize.height : environment.containerSize.width,
      anchor: anchor)
  }

  private mutating func relayout(sections: Set<Int>, source: MeasuringSource, anchor: ScrollAnchor?)
    -> LayoutUpdate
  {
    let vertical = layout.configuration.scrollDirection == .vertical
    let before = anchor.flatMap { a in
      result.attributes(at: a.indexPath).map { a.position(in: $0.frame, vertical: vertical) }
    }
    let oldSize = result.contentSize
    for s in sections.sorted() where s >= 0 && s < itemCounts.count {
      parts[s] = layout.layoutSection(
        s, itemCount: itemCounts[s], environment: environment, sizing: source)
    }
    result = CollectionLayout.assemble(
      parts, configuration: layout.configuration, environment: environment)
    let after = anchor.flatMap { a in
      result.attributes(at: a.indexPath).map { a.position(in: $0.frame, vertical: vertical) }
    }
    var correction = 0.0
    if let before, let after {
      let scale = environment.displayScale
      correction = scale > 0 ? ((after - before) * scale).rounded() / scale : after - before
    }
    return LayoutUpdate(
      contentSizeDelta: Size(
        width: result.contentSize.width - oldSize.width,
        height: result.contentSize.height - oldSize.height),
      contentOffsetCorrection: correction)
  }
}
