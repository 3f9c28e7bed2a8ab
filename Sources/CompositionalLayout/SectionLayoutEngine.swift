/// One section laid out with its scroll-axis origin at 0.
struct SectionLayout {
  var cells: [LayoutAttributes] = []
  var supplementaries: [LayoutAttributes] = []
  var pinned: [(index: Int, isFooter: Bool)] = []
  var extent: Double = 0
  var orthogonal: OrthogonalSectionInfo?
  var warnings: [String] = []
}

/// Lays out a section.
enum SectionLayoutEngine {
  /// Whether an alignment puts the item before the content along the scroll axis.
  static func placement(_ a: BoundaryAlignment, vertical: Bool) -> Int {
    // -1 before, 1 after, 0 beside.
    let e = a.edges
    if vertical {
      if e.contains(.top) { return -1 }
      if e.contains(.bottom) { return 1 }
      return 0
    }
    if e.contains(.leading) { return -1 }
    if e.contains(.trailing) { return 1 }
    return 0
  }

  /// A section's axes in its container: the scroll (main) and cross axes, the content area
  /// inside the section's insets, and where headers and footers go across.
  struct Axes {
    let vertical: Bool
    /// Where the container's content starts across, and its length across.
    let crossStart: Double
    let crossLength: Double
    /// The section's insets along and across the scroll axis.
    let mainLead: Double
    let mainTrail: Double
    let crossLead: Double
    let crossTrail: Double
    /// The content area inside the insets.
    let content: Size
    /// What boundary items resolve against: the content area, or the full width when they
    /// ignore the insets; and where they start across, and their length across.
    let supplementaryArea: Size
    let supplementaryLead: Double
    let supplementaryCross: Double

    init(_ section: Section, env: LayoutEnvironment, vertical: Bool) {
      self.vertical = vertical
      let eff = env.effectiveContentSize
      let ins = section.contentInsets
      crossStart = vertical ? env.containerInsets.leading : env.containerInsets.top
      crossLength = vertical ? eff.width : eff.height
      mainLead = vertical ? ins.top : ins.leading
      mainTrail = vertical ? ins.bottom : ins.trailing
      crossLead = vertical ? ins.leading : ins.top
      crossTrail = vertical ? ins.trailing : ins.bottom
      content = Size(
        width: Swift.max(0, eff.width - ins.leading - ins.trailing),
        height: Swift.max(0, eff.height - ins.top - ins.bottom))
      let follow = section.supplementariesFollowContentInsets
      supplementaryArea =
        follow
        ? content
        : (vertical
          ? Size(width: eff.width, height: content.height)
          : Size(width: content.width, height: eff.height))
      supplementaryLead = follow ? crossLead : 0
      supplementaryCross = follow ? (vertical ? content.width : content.height) : crossLength
    }

    func rect(main: Double, cross: Double, size: Size) -> Rect {
      vertical
        ? Rect(x: cross, y: main, width: size.width, height: size.height)
        : Rect(x: main, y: cross, width: size.width, height: size.height)
    }
    func mainLen(_ s: Size) -> Double { vertical ? s.height : s.width }
    func crossLen(_ s: Size) -> Double { vertical ? s.width : s.height }

    /// Where a boundary item starts across: at the trailing edge when it is aligned there.
    func crossPosition(_ b: BoundaryItemSlot) -> Double {
      let trail = vertical ? Edges.trailing : Edges.bottom
      if b.item.alignment.edges.contains(trail) {
        return crossStart + supplementaryLead + supplementaryCross - crossLen(b.size)
      }
      return crossStart + supplementaryLead
    }
  }

  /// Lays out section `index` with `itemCount` items.
  /// - Complexity: O(n · depth) for n items.
  static func layout(
    index: Int, section: Section, itemCount: Int, environment env: LayoutEnvironment,
    configuration: LayoutConfiguration, sizing: (any SizingSource)?
  ) -> SectionLayout {
    var out = SectionLayout()
    let axes = Axes(section, env: env, vertical: configuration.scrollDirection == .vertical)
    out.warnings = Lint.warnings(section: section, index: index, container: axes.content)
    var slots = boundarySlots(section, index: index, axes: axes, sizing: sizing)
    var mainCursor = 0.0
    for i in slots.indices where placement(slots[i].item.alignment, vertical: axes.vertical) == -1 {
      slots[i].main = mainCursor
      if slots[i].item.extendsBoundary { mainCursor += axes.mainLen(slots[i].size) }
    }
    mainCursor += axes.mainLead
    let contentStart = mainCursor
    var templates: [Item] = []
    let root = CompiledGroup.compile(section.group, templates: &templates)
    var engine = GroupLayoutEngine(
      section: index, itemCount: itemCount, sizing: sizing, templates: templates)
    placeGroups(
      root, section, index: index, axes: axes, engine: &engine, mainCursor: &mainCursor, &out)
    let contentEnd = mainCursor
    mainCursor += axes.mainTrail
    for i in slots.indices where placement(slots[i].item.alignment, vertical: axes.vertical) == 1 {
      if slots[i].item.extendsBoundary {
        slots[i].main = mainCursor
        mainCursor += axes.mainLen(slots[i].size)
      } else {
        slots[i].main = contentEnd + axes.mainTrail - axes.mainLen(slots[i].size)
      }
    }
    for i in slots.indices where placement(slots[i].item.alignment, vertical: axes.vertical) == 0 {
      slots[i].main = contentStart
    }
    out.extent = mainCursor
    appendCells(engine.leaves, templates: templates, section: index, &out)
    appendBoundaries(slots, section, index: index, axes: axes, &out)
    return out
  }

  /// The section's headers and footers at their sizes (an estimated one as the sizing source
  /// measures it), not yet placed along the scroll axis.
  static func boundarySlots(
    _ section: Section, index: Int, axes: Axes, sizing: (any SizingSource)?
  ) -> [BoundaryItemSlot] {
    section.boundarySupplementaryItems.map { b in
      var size = b.size.resolve(in: axes.supplementaryArea)
      let wEst = b.size.width.isEstimated
      let hEst = b.size.height.isEstimated
      if wEst || hEst, let sizing {
        let proposal = ProposedSize(
          width: size.width, height: size.height, widthIsEstimated: wEst, heightIsEstimated: hEst)
        if let m = sizing.supplementarySize(kind: b.kind, section: index, proposed: proposal) {
          if wEst, m.width.isFinite, m.width >= 0 { size.width = m.width }
          if hEst, m.height.isFinite, m.height >= 0 { size.height = m.height }
        }
      }
      return BoundaryItemSlot(item: b, size: size, main: 0)
    }
  }

  /// The groups one after another from `mainCursor` (or side by side across, in an
  /// orthogonally scrolling section, whose scroll facts go to `out`), each leaf moved to its
  /// group's origin; `mainCursor` ends after the content.
  static func placeGroups(
    _ root: CompiledGroup, _ section: Section, index: Int, axes: Axes,
    engine: inout GroupLayoutEngine, mainCursor: inout Double, _ out: inout SectionLayout
  ) {
    let ortho = section.orthogonalScrollingBehavior
    var groupSpans: [(start: Double, length: Double)] = []
    var crossCursor = axes.crossStart + axes.crossLead
    var maxMain = 0.0
    var groups = 0
    while engine.cursor < engine.itemCount {
      let leafStart = engine.leaves.count
      let before = engine.cursor
      let s = engine.layout(root, container: axes.content)
      if engine.cursor == before {
        out.warnings.append("sections[\(index)].group: holds no items; the section stops here")
        break
      }
      let origin: Rect
      if ortho == .none {
        origin = axes.rect(main: mainCursor, cross: axes.crossStart + axes.crossLead, size: .zero)
        mainCursor += axes.mainLen(s) + section.interGroupSpacing
      } else {
        origin = axes.rect(main: mainCursor, cross: crossCursor, size: .zero)
        groupSpans.append((crossCursor, axes.crossLen(s)))
        crossCursor += axes.crossLen(s) + section.interGroupSpacing
        maxMain = Swift.max(maxMain, axes.mainLen(s))
      }
      groups += 1
      for l in leafStart..<engine.leaves.count {
        engine.leaves[l].frame.origin.x += origin.minX
        engine.leaves[l].frame.origin.y += origin.minY
      }
    }
    if ortho == .none {
      if groups > 0 { mainCursor -= section.interGroupSpacing }
    } else {
      mainCursor += maxMain
      if groups > 0 { crossCursor -= section.interGroupSpacing }
      let contentWidth = crossCursor + axes.crossTrail - axes.crossStart
      out.orthogonal = OrthogonalSectionInfo(
        section: index, behavior: ortho, contentWidth: contentWidth, visibleWidth: axes.crossLength,
        pageOffsets: pageOffsets(
          ortho, spans: groupSpans, origin: axes.crossStart + axes.crossLead,
          crossStart: axes.crossStart, contentWidth: contentWidth, visible: axes.crossLength))
    }
  }

  /// The cells at their leaves' frames (less their insets) and the badges hung on them.
  static func appendCells(
    _ leaves: [Leaf], templates: [Item], section index: Int, _ out: inout SectionLayout
  ) {
    out.cells.reserveCapacity(leaves.count)
    // Per template, read once: whether insets change the frame, and whether badges hang on it.
    let insetTemplates = templates.map { t in
      !t.contentInsets.isZero && !(t.size.width.isEstimated && t.size.height.isEstimated)
    }
    let badgeTemplates = templates.map { !$0.supplementaryItems.isEmpty }
    for (i, leaf) in leaves.enumerated() {
      let ti = Int(leaf.template)
      let frame = insetTemplates[ti] ? templates[ti].applyingInsets(to: leaf.frame) : leaf.frame
      let path = ItemPath(section: index, item: i)
      out.cells.append(
        LayoutAttributes(
          indexPath: path, category: .cell, scope: .item, kind: "", frame: frame, zIndex: 0))
      guard badgeTemplates[ti] else { continue }
      for s in templates[ti].supplementaryItems {
        out.supplementaries.append(
          LayoutAttributes(
            indexPath: path, category: .supplementary, scope: .item, kind: s.kind,
            frame: s.frame(attachedTo: frame),
            zIndex: s.zIndex))
      }
    }
  }

  /// The headers and footers where they were placed (pinned ones noted), then the section's
  /// decorations over its whole frame less their insets.
  static func appendBoundaries(
    _ slots: [BoundaryItemSlot], _ section: Section, index: Int, axes: Axes,
    _ out: inout SectionLayout
  ) {
    for slot in slots {
      let b = slot.item
      let f = axes.rect(main: slot.main, cross: axes.crossPosition(slot), size: slot.size)
        .offsetBy(dx: b.offset.x, dy: b.offset.y)
      if b.pinToVisibleBounds {
        out.pinned.append(
          (out.supplementaries.count, placement(b.alignment, vertical: axes.vertical) == 1))
      }
      out.supplementaries.append(
        LayoutAttributes(
          indexPath: ItemPath(section: index, item: 0), category: .supplementary, scope: .section,
          kind: b.kind,
          frame: f, zIndex: b.zIndex))
    }
    let sectionFrame = axes.rect(
      main: 0, cross: axes.crossStart,
      size: axes.vertical
        ? Size(width: axes.crossLength, height: out.extent)
        : Size(width: out.extent, height: axes.crossLength))
    for d in section.decorationItems {
      let i = d.contentInsets
      let f = Rect(
        x: sectionFrame.minX + i.leading, y: sectionFrame.minY + i.top,
        width: Swift.max(0, sectionFrame.width - i.leading - i.trailing),
        height: Swift.max(0, sectionFrame.height - i.top - i.bottom))
      out.supplementaries.append(
        LayoutAttributes(
          indexPath: ItemPath(section: index, item: 0), category: .decoration, scope: .section,
          kind: d.kind, frame: f,
          zIndex: d.zIndex))
    }
  }

  /// The offsets an orthogonal scroll rests on.
  static func pageOffsets(
    _ b: OrthogonalScrollingBehavior, spans: [(start: Double, length: Double)], origin: Double,
    crossStart: Double,
    contentWidth: Double, visible: Double
  ) -> [Double] {
    let maxOffset = Swift.max(0, contentWidth - visible)
    var raw: [Double] = []
    switch b {
    case .none, .continuous: return []
    case .continuousGroupLeadingBoundary, .groupPaging:
      raw = spans.map { Swift.min(Swift.max(0, $0.start - origin), maxOffset) }
    case .groupPagingCentered:
      raw = spans.map { $0.start + $0.length / 2 - crossStart - visible / 2 }
    case .paging:
      guard visible > 0 else { return [0] }
      var k = 0.0
      while k * visible < maxOffset - 1e-9 {
        raw.append(k * visible)
        k += 1
      }
      raw.append(maxOffset)
    }
    var result: [Double] = []
    for v in raw where result.last.map({ abs($0 - v) > 1e-9 }) ?? true { result.append(v) }
    return result
  }
}

/// A boundary item being placed.
struct BoundaryItemSlot {
  var item: BoundarySupplementaryItem
  var size: Size
  var main: Double
}
