/// A compositional layout: a configuration and a section provider, like `UICollectionViewCompositionalLayout`.
public struct CollectionLayout: Sendable {
  /// Layout-wide settings.
  public var configuration: LayoutConfiguration
  /// Returns the section for an index and environment (may depend on data, not only on the index).
  public var sectionProvider: @Sendable (Int, LayoutEnvironment) -> Section

  /// The most items a layout may hold in all sections together, before or after a batch of
  /// updates: at this size a layout is made in well under 1 GiB (docs/RELIABILITY.md), so a
  /// spec or an updates file of a few bytes cannot ask for more memory than the machine has.
  public static let maximumItems = 1_000_000

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
    let blocks = itemCounts.enumerated().map { i, count in
      layoutSection(i, itemCount: count, environment: environment, sizing: sizing)
    }
    return Self.assemble(blocks, configuration: configuration, environment: environment)
  }

  /// Lays out one section with its scroll-axis origin at 0.
  func layoutSection(
    _ index: Int, itemCount: Int, environment: LayoutEnvironment, sizing: (any SizingSource)?
  ) -> SectionBlock {
    SectionBlock(
      SectionLayoutEngine.layout(
        index: index, section: sectionProvider(index, environment),
        itemCount: Swift.max(0, itemCount),
        environment: environment, configuration: configuration, sizing: sizing),
      vertical: configuration.scrollDirection == .vertical)
  }

  /// Stacks laid-out sections along the scroll axis and adds global headers and footers; a
  /// right-to-left layout is mirrored as it is read. The sections are not copied: a layout
  /// that changes one section reuses the others.
  /// - Complexity: O(s + g) for s sections and g global items.
  static func assemble(
    _ blocks: [SectionBlock], configuration: LayoutConfiguration, environment env: LayoutEnvironment
  ) -> LayoutResult {
    let vertical = configuration.scrollDirection == .vertical
    let eff = env.effectiveContentSize
    let crossStart = vertical ? env.containerInsets.leading : env.containerInsets.top
    let crossLength = vertical ? eff.width : eff.height
    var origins: [Double] = []
    origins.reserveCapacity(blocks.count)
    var frames: [Rect] = []
    frames.reserveCapacity(blocks.count)
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
    for (i, block) in blocks.enumerated() {
      if i > 0 { cursor += configuration.interSectionSpacing }
      origins.append(cursor)
      frames.append(
        rect(
          main: cursor, cross: crossStart,
          size: vertical
            ? Size(width: crossLength, height: block.extent)
            : Size(width: block.extent, height: crossLength)
        ))
      cursor += block.extent
    }
    for (b, s) in globalItems {
      let placement = SectionLayoutEngine.placement(b.alignment, vertical: vertical)
      if placement == 1 { placeGlobal(b, s, placement: placement) }
    }
    let contentSize =
      vertical
      ? Size(width: env.containerSize.width, height: cursor)
      : Size(width: cursor, height: env.containerSize.height)
    var mirrorWidth: Double? = nil
    if env.layoutDirection == .rightToLeft {
      let w = vertical ? env.containerSize.width : contentSize.width
      mirrorWidth = w
      for i in globals.indices { globals[i].frame.origin.x = w - globals[i].frame.maxX }
      for i in frames.indices { frames[i].origin.x = w - frames[i].maxX }
    }
    return LayoutResult(
      contentSize: contentSize, blocks: blocks, origins: origins, globals: globals,
      sectionFrames: frames, scrollDirection: configuration.scrollDirection,
      layoutDirection: env.layoutDirection, mirrorWidth: mirrorWidth)
  }
}
