/// A compositional layout: a configuration and a section provider, like `UICollectionViewCompositionalLayout`.
public struct CollectionLayout: Sendable {
  /// Layout-wide settings.
  public var configuration: LayoutConfiguration
  /// Returns the section for an index and environment (may depend on data, not only on the index).
  public var sectionProvider: @Sendable (Int, LayoutEnvironment) -> Section

  /// A layout whose sections all share one description.
  public init(section: Section, configuration: LayoutConfiguration = LayoutConfiguration()) {
    self.configuration = configuration
    self.sectionProvider = { _, _ in section }
  }

  /// A layout whose sections come from a provider.
  public init(
    configuration: LayoutConfiguration = LayoutConfiguration(),
    sectionProvider: @escaping @Sendable (Int, LayoutEnvironment) -> Section
  ) {
    self.configuration = configuration
    self.sectionProvider = sectionProvider
  }

  /// Lays out `itemCounts.count` sections; estimated items take their size from `sizing`, or their estimate.
  /// - Complexity: O(n · depth) for n items, plus O(n log n) if cells are not already ordered along the scroll axis.
  public func layout(
    itemCounts: [Int], environment: LayoutEnvironment, sizing: (any SizingSource)? = nil
  ) -> LayoutResult {
    let parts = itemCounts.enumerated().map { i, count in
      layoutSection(i, itemCount: count, environment: environment, sizing: sizing)
    }
    return Self.assemble(parts, configuration: configuration, environment: environment)
  }

  /// Lays out one section with its scroll-axis origin at 0.
  func layoutSection(
    _ index: Int, itemCount: Int, environment: LayoutEnvironment, sizing: (any SizingSource)?
  ) -> SectionLayout {
    SectionLayoutEngine.layout(
      index: index, section: sectionProvider(index, environment),
      itemCount: Swift.max(0, itemCount),
      environment: environment, configuration: configuration, sizing: sizing)
  }

  /// Stacks laid-out sections along the scroll axis, adds global headers and footers, mirrors for right-to-left.
  /// - Complexity: O(n).
  static func assemble(
    _ parts: [SectionLayout], configuration: LayoutConfiguration, environment env: LayoutEnvironment
  ) -> LayoutResult {
    let vertical = configuration.scrollDirection == .vertical
    let eff = env.effectiveContentSize
    let crossStart = vertical ? env.containerInsets.leading : env.containerInsets.top
    let crossLength = vertical ? eff.width : eff.height
    var cells: [LayoutAttributes] = []
    var supps: [LayoutAttributes] = []
    cells.reserveCapacity(parts.reduce(0) { $0 + $1.cells.count })
    var cellStart: [Int] = [0]
    var suppStart: [Int] = [0]
    var frames: [Rect] = []
    var pinned: [PinnedRef] = []
    var orthogonal: [OrthogonalSectionInfo] = []
    var warnings: [String] = []
    var cursor = 0.0
    func rect(main: Double, cross: Double, size: Size) -> Rect {
      vertical
        ? Rect(x: cross, y: main, width: size.width, height: size.height)
        : Rect(x: main, y: cross, width: size.width, height: size.height)
    }
    var globals: [LayoutAttributes] = []
    let globalItems = configuration.boundarySupplementaryItems.map {
      ($0, $0.size.resolve(in: eff))
    }
    // Places one global boundary item at the cursor; an item that extends the boundary
    // and sits before (-1) or after (+1) the sections pushes the cursor past itself.
    func placeGlobal(_ b: BoundarySupplementaryItem, _ s: Size, placement: Int) {
      let crossPos =
        b.alignment.edges.contains(vertical ? .trailing : .bottom)
        ? crossStart + crossLength - (vertical ? s.width : s.height) : crossStart
      globals.append(
        LayoutAttributes(
          indexPath: ItemPath(section: 0, item: 0), category: .supplementary, scope: .global,
          kind: b.kind,
          frame: rect(main: cursor, cross: crossPos, size: s).offsetBy(
            dx: b.offset.x, dy: b.offset.y), zIndex: b.zIndex))
      if b.extendsBoundary && placement != 0 { cursor += vertical ? s.height : s.width }
    }
    for (b, s) in globalItems {
      let placement = SectionLayoutEngine.placement(b.alignment, vertical: vertical)
      if placement <= 0 { placeGlobal(b, s, placement: placement) }
    }
    for (i, part) in parts.enumerated() {
      if i > 0 { cursor += configuration.interSectionSpacing }
      let dx = vertical ? 0 : cursor
      let dy = vertical ? cursor : 0
      let firstCell = cells.count
      cells.append(contentsOf: part.cells)
      let base = supps.count
      supps.append(contentsOf: part.supplementaries)
      if dx != 0 || dy != 0 {
        for j in firstCell..<cells.count {
          cells[j].frame.origin.x += dx
          cells[j].frame.origin.y += dy
        }
        for j in base..<supps.count {
          supps[j].frame.origin.x += dx
          supps[j].frame.origin.y += dy
        }
      }
      for p in part.pinned {
        pinned.append(
          PinnedRef(supplementaryIndex: base + p.index, section: i, isFooter: p.isFooter))
      }
      frames.append(
        rect(
          main: cursor, cross: crossStart,
          size: vertical
            ? Size(width: crossLength, height: part.extent)
            : Size(width: part.extent, height: crossLength)
        ))
      if let o = part.orthogonal { orthogonal.append(o) }
      warnings.append(contentsOf: part.warnings)
      cursor += part.extent
      cellStart.append(cells.count)
      suppStart.append(supps.count)
    }
    for (b, s) in globalItems {
      let placement = SectionLayoutEngine.placement(b.alignment, vertical: vertical)
      if placement == 1 { placeGlobal(b, s, placement: placement) }
    }
    supps.append(contentsOf: globals)
    let contentSize =
      vertical
      ? Size(width: env.containerSize.width, height: cursor)
      : Size(width: cursor, height: env.containerSize.height)
    if env.layoutDirection == .rightToLeft {
      let w = vertical ? env.containerSize.width : contentSize.width
      for i in cells.indices { cells[i].frame.origin.x = w - cells[i].frame.maxX }
      for i in supps.indices { supps[i].frame.origin.x = w - supps[i].frame.maxX }
      for i in frames.indices { frames[i].origin.x = w - frames[i].maxX }
    }
    return LayoutResult(
      contentSize: contentSize, cells: cells, supplementaryElements: supps,
      orthogonalSections: orthogonal,
      warnings: warnings, sectionFrames: frames, scrollDirection: configuration.scrollDirection,
      layoutDirection: env.layoutDirection,
      sectionCellStart: cellStart, sectionSupplementaryStart: suppStart, pinned: pinned)
  }
}
