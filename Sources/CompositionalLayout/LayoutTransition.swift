/// What keeps still on screen when a batch changes the content: UIKit keeps the content offset
/// (`top`); a chat that prepends history keeps the first visible item where the reader sees it
/// (`firstVisible`); a bottom-anchored transcript keeps the distance from the end (`bottom`).
public enum BatchAnchor: String, Sendable, CaseIterable {
  case top, firstVisible, bottom

  /// The content offset after a batch, from `offset` before: `top` keeps it, `bottom` keeps the
  /// distance from the end, `firstVisible` moves it by `itemMoved` (how far the kept item moved
  /// in the content; nil when none was kept: the offset stays); then clamped to the content.
  /// Gives the offset the anchor asks for and the one it gets.
  func offsetAfter(
    _ offset: Double, lengthBefore: Double, lengthAfter: Double, viewport: Double,
    itemMoved: Double?
  ) -> (asked: Double, clamped: Double) {
    let asked: Double
    switch self {
    case .top: asked = offset
    case .bottom: asked = lengthAfter - (lengthBefore - offset)
    case .firstVisible: asked = offset + (itemMoved ?? 0)
    }
    return (asked, min(max(0, asked), max(0, lengthAfter - viewport)))
  }
}

/// How one element animates across a batch, with UIKit's defaults: an appearing element starts
/// at its final frame at alpha 0, a disappearing one ends at its initial frame at alpha 0, a
/// reloaded one cross-fades in place, and one that only moves because others changed is a
/// `shift`.
public struct ElementChange: Sendable, Hashable {
  public var category: ElementCategory
  public var scope: ElementScope
  public var kind: String
  /// Its index path after the batch (before, for a deleted element).
  public var indexPath: ItemPath
  public var change: BatchMapping.Change
  public var from: Rect
  public var to: Rect
  public var fromAlpha: Double
  public var toAlpha: Double
}

/// Attributes where an animation starts or ends, with the alpha UIKit gives them.
public struct AnimatedAttributes: Sendable, Hashable {
  public var attributes: LayoutAttributes
  public var alpha: Double
}

/// The layouts before and after a batch and what happens between them: the changes, the
/// content offset after (kept by the anchor) and the checks a team runs before shipping an
/// update animation. What the screen shows (the anchor, `visibleChanges`, `teleports`) is
/// answered when the transition is made, in time proportional to the screen; the full lists
/// (`changes`, `overlaps`) are computed when asked for.
public struct LayoutTransition: Sendable {
  public let before: LayoutResult
  public let after: LayoutResult
  public let mapping: BatchMapping
  public let anchor: BatchAnchor
  /// Content offsets along the scroll axis.
  public let contentOffsetBefore: Double
  public let contentOffsetAfter: Double
  /// The viewport's length along the scroll axis.
  public let viewport: Double
  /// The item the anchor kept (its path after), for `firstVisible`.
  public let anchorItem: ItemPath?
  /// How far the anchored item moved on screen (0 but when the offset had to be clamped to the
  /// content, which ``anchorNote`` then says).
  public let anchorShift: Double
  public let anchorNote: String?
  /// The changes of the elements visible before the batch (at ``contentOffsetBefore``) or after
  /// it (at ``contentOffsetAfter``): the animation the reader sees, in the order of ``changes``.
  public let visibleChanges: [ElementChange]
  /// Changes of elements visible before or after that move farther than the viewport on screen.
  public let teleports: [ElementChange]

  /// Every element whose frame or presence changes, cells first (in order after the batch),
  /// then deleted cells, then supplementary and decoration views.
  /// - Complexity: O(n) for the elements of both layouts, computed at each call.
  public var changes: [ElementChange] {
    let diff = TransitionDiff(before: before, after: after, mapping: mapping)
    var out: [ElementChange] = []
    for a in after.cells { if let c = diff.change(of: a) { out.append(c) } }
    for b in before.cells { if let c = diff.removal(of: b) { out.append(c) } }
    var beforeViews: [ViewKey: LayoutAttributes] = [:]
    for b in before.supplementaryElements { beforeViews[ViewKey(b)] = b }
    var matched = Set<ViewKey>()
    for a in after.supplementaryElements {
      if let c = diff.change(of: a, matched: &matched, find: { beforeViews[$0] }) {
        out.append(c)
      }
    }
    for b in before.supplementaryElements where !matched.contains(ViewKey(b)) {
      out.append(ElementChange(removed: b))
    }
    return out
  }

  /// The cells whose frames overlap after the batch: how many pairs, and the first 50.
  /// - Complexity: O(n log n), computed at each call.
  public var overlaps: CellOverlaps { after.overlappingCells(listing: 50) }

  /// Where the item at `path` (after the batch) starts its animation: an inserted or reloaded
  /// one at its final frame at alpha 0, any other where it was, at alpha 1.
  public func initialLayoutAttributesForAppearingItem(at path: ItemPath) -> AnimatedAttributes? {
    guard let a = after.cell(at: path) else { return nil }
    switch mapping.change(after: path) {
    case .insert?, .reload?: return AnimatedAttributes(attributes: a, alpha: 0)
    default:
      guard let q = mapping.itemBefore[path.section][path.item], let b = before.cell(at: q)
      else { return AnimatedAttributes(attributes: a, alpha: 0) }
      var moved = b
      moved.indexPath = path
      return AnimatedAttributes(attributes: moved, alpha: 1)
    }
  }

  /// Where the item at `path` (before the batch) ends its animation: a deleted or reloaded one
  /// at its initial frame at alpha 0, any other where it goes, at alpha 1.
  public func finalLayoutAttributesForDisappearingItem(at path: ItemPath) -> AnimatedAttributes? {
    guard let b = before.cell(at: path) else { return nil }
    guard let q = mapping.itemAfter[path.section][path.item], let a = after.cell(at: q) else {
      return AnimatedAttributes(attributes: b, alpha: 0)
    }
    if mapping.change(after: q) == .reload { return AnimatedAttributes(attributes: b, alpha: 0) }
    var moved = a
    moved.indexPath = path
    return AnimatedAttributes(attributes: moved, alpha: 1)
  }

  /// The content offset after the batch, whatever was proposed along the scroll axis: the one
  /// the anchor keeps.
  public func targetContentOffset(forProposedContentOffset proposed: Point) -> Point {
    after.scrollDirection == .vertical
      ? Point(x: proposed.x, y: contentOffsetAfter) : Point(x: contentOffsetAfter, y: proposed.y)
  }

  /// The transition between `before` and `after` for `mapping`, the content offset before being
  /// `offset` in a viewport `viewport` long along the scroll axis.
  /// - Complexity: O(log n + k) for the k elements on screen before and after.
  public init(
    before: LayoutResult, after: LayoutResult, mapping: BatchMapping, contentOffset offset: Double,
    viewport: Double, anchor: BatchAnchor
  ) {
    self.before = before
    self.after = after
    self.mapping = mapping
    self.anchor = anchor
    self.viewport = viewport
    let vertical = after.scrollDirection == .vertical
    func main(_ r: Rect) -> (Double, Double) { vertical ? (r.minY, r.maxY) : (r.minX, r.maxX) }
    let lengthAfter = vertical ? after.contentSize.height : after.contentSize.width
    let lengthBefore = vertical ? before.contentSize.height : before.contentSize.width
    var note: String? = nil
    // The offset before, as a scroll view holds it: inside the content (what is on screen, and
    // so what the checks look at, is what a reader could see).
    let given = offset
    let offset = min(max(0, given), max(0, lengthBefore - viewport))
    if offset != given {
      note = "the offset before, \(fmt(given)), lies outside the content (0…\(fmt(max(0, lengthBefore - viewport)))): clamped"
    }
    contentOffsetBefore = offset
    let onScreenBefore = before.elements(onScreenAt: offset, viewport: viewport)

    // The content offset after: `firstVisible` keeps the topmost cell visible before that is
    // still there after.
    var item: ItemPath? = nil
    var moved: Double? = nil
    if anchor == .firstVisible {
      if let kept = Self.firstVisible(onScreenBefore, mapping: mapping, after: after, vertical: vertical) {
        (item, moved) = (kept.item, kept.moved)
      } else {
        let kept = "no item visible before the batch is still there after it: the offset is kept"
        note = note.map { $0 + "; " + kept } ?? kept
      }
    }
    let (target, clamped) = anchor.offsetAfter(
      offset, lengthBefore: lengthBefore, lengthAfter: lengthAfter, viewport: viewport,
      itemMoved: moved)
    var shift = 0.0
    if clamped != target {
      let why = "the offset \(fmt(target)) the anchor asks for lies outside the content (0…\(fmt(max(0, lengthAfter - viewport)))): clamped"
      note = note.map { $0 + "; " + why } ?? why
      if item != nil { shift = target - clamped }
    }
    contentOffsetAfter = clamped
    anchorItem = item
    anchorShift = shift
    anchorNote = note
    visibleChanges = Self.screenChanges(
      before: onScreenBefore, after: after.elements(onScreenAt: clamped, viewport: viewport),
      TransitionDiff(before: before, after: after, mapping: mapping))
    let offsetAfter = clamped
    teleports = visibleChanges.filter { c in
      let visibleBefore = c.fromAlpha > 0 && before.isOnScreen(c.from, at: offset, viewport: viewport)
      let visibleAfter =
        c.toAlpha > 0 && after.isOnScreen(c.to, at: offsetAfter, viewport: viewport)
      let onScreen = (main(c.to).0 - offsetAfter) - (main(c.from).0 - offset)
      return (visibleBefore || visibleAfter) && abs(onScreen) > viewport
    }
  }

  /// The cell `firstVisible` keeps: the topmost of those on screen before that is still there
  /// after, with how far it moved along the scroll axis (nil: none is).
  static func firstVisible(
    _ onScreenBefore: [LayoutAttributes], mapping: BatchMapping, after: LayoutResult,
    vertical: Bool
  ) -> (item: ItemPath, moved: Double)? {
    var best: (start: Double, path: ItemPath, after: ItemPath)? = nil
    for c in onScreenBefore where c.category == .cell {
      let s = vertical ? c.frame.minY : c.frame.minX
      guard let q = mapping.itemAfter[c.indexPath.section][c.indexPath.item] else { continue }
      if best == nil || s < best!.start || (s == best!.start && c.indexPath < best!.path) {
        best = (s, c.indexPath, q)
      }
    }
    guard let best, let a = after.cell(at: best.after) else { return nil }
    return (best.after, (vertical ? a.frame.minY : a.frame.minX) - best.start)
  }

  /// What the screen shows: the changes of elements on screen before or after, each once, in
  /// the order of `changes` (cells in after's order, then deleted ones, then other views).
  static func screenChanges(
    before onScreenBefore: [LayoutAttributes], after onScreenAfter: [LayoutAttributes],
    _ diff: TransitionDiff
  ) -> [ElementChange] {
    let (before, after, mapping) = (diff.before, diff.after, diff.mapping)
    var visible: [ElementChange] = []
    // (A deleted element carries its path before the batch, which another may have after it.)
    struct Seen: Hashable {
      var view: ViewKey
      var deleted: Bool
    }
    var seen = Set<Seen>()
    func add(_ c: ElementChange?) {
      guard let c, seen.insert(Seen(view: ViewKey(c), deleted: c.change == .delete)).inserted
      else { return }
      visible.append(c)
    }
    var unusedMatches = Set<ViewKey>()
    let findBefore = before.supplementary(matching:)
    for a in onScreenAfter {
      add(
        a.category == .cell
          ? diff.change(of: a) : diff.change(of: a, matched: &unusedMatches, find: findBefore))
    }
    for b in onScreenBefore {
      if b.category == .cell {
        if let q = mapping.itemAfter[b.indexPath.section][b.indexPath.item] {
          if let a = after.cell(at: q) { add(diff.change(of: a)) }
        } else {
          add(diff.removal(of: b))
        }
      } else if let a = after.supplementary(matching: ViewKey(counterpartOf: b, mapping: mapping)) {
        add(diff.change(of: a, matched: &unusedMatches, find: findBefore))
      } else {
        add(ElementChange(removed: b))
      }
    }
    func rank(_ c: ElementChange) -> (Int, Int, Int, Int) {
      let isCell = c.category == .cell ? 0 : 1
      return (isCell, c.change == .delete ? 1 : 0, c.indexPath.section, c.indexPath.item)
    }
    return visible.sorted { rank($0) < rank($1) }
  }
}

/// How each element changes across a batch, element by element: what ``LayoutTransition``
/// lists in full and for the screen.
struct TransitionDiff {
  let before: LayoutResult
  let after: LayoutResult
  let mapping: BatchMapping

  /// The change of a cell present after the batch; nil when it stays as it was.
  func change(of a: LayoutAttributes) -> ElementChange? {
    let p = a.indexPath
    let kind = mapping.change(after: p)
    let q = mapping.itemBefore[p.section][p.item]
    let b = q.flatMap { before.cell(at: $0) }
    var c = ElementChange(
      category: .cell, scope: .item, kind: "", indexPath: p, change: kind ?? .shift,
      from: b?.frame ?? a.frame, to: a.frame, fromAlpha: 1, toAlpha: 1)
    switch kind {
    case .insert?:
      c.from = a.frame
      c.fromAlpha = 0
    case nil:
      if c.from == c.to { return nil }
    default: break
    }
    return c
  }

  /// The deletion of a cell present before the batch; nil when it is still there.
  func removal(of b: LayoutAttributes) -> ElementChange? {
    guard mapping.itemAfter[b.indexPath.section][b.indexPath.item] == nil else { return nil }
    return ElementChange(removed: b)
  }

  /// The change of a supplementary or decoration view present after the batch (nil: it stays
  /// as it was); its counterpart before, found by `find`, goes into `matched`.
  func change(
    of a: LayoutAttributes, matched: inout Set<ViewKey>, find: (ViewKey) -> LayoutAttributes?
  ) -> ElementChange? {
    var k = ViewKey(a)
    var change = BatchMapping.Change.shift
    switch a.scope {
    case .global: break
    case .section:
      if let s = mapping.sectionBefore[a.indexPath.section] {
        k.path = ItemPath(section: s, item: 0)
        if mapping.reloadedSections.contains(a.indexPath.section) { change = .reload }
      } else {
        change = .insert
      }
    case .item:
      if let q = mapping.itemBefore[a.indexPath.section][a.indexPath.item] {
        k.path = q
        if let c = mapping.change(after: a.indexPath) { change = c }
      } else {
        change = .insert
      }
    }
    let b = change == .insert ? nil : find(k)
    if b != nil { matched.insert(k) }
    if change == .shift && b?.frame == a.frame { return nil }
    let appearing = b == nil
    return ElementChange(
      category: a.category, scope: a.scope, kind: a.kind, indexPath: a.indexPath,
      change: appearing ? .insert : change, from: b?.frame ?? a.frame, to: a.frame,
      fromAlpha: appearing ? 0 : 1, toAlpha: 1)
  }
}

/// A supplementary or decoration view's identity: category, scope, kind and path.
struct ViewKey: Hashable {
  var category: ElementCategory
  var scope: ElementScope
  var kind: String
  var path: ItemPath

  init(_ a: LayoutAttributes) {
    category = a.category
    scope = a.scope
    kind = a.kind
    path = a.indexPath
  }

  init(_ c: ElementChange) {
    category = c.category
    scope = c.scope
    kind = c.kind
    path = c.indexPath
  }

  /// The key the view `b` (before the batch) has after it (its section or item moved), or a
  /// key nothing has when its section or item is gone.
  init(counterpartOf b: LayoutAttributes, mapping: BatchMapping) {
    self.init(b)
    switch b.scope {
    case .global: break
    case .section:
      let s = b.indexPath.section < mapping.sectionAfter.count ? mapping.sectionAfter[b.indexPath.section] : nil
      path = s.map { ItemPath(section: $0, item: 0) } ?? ItemPath(section: -1, item: -1)
    case .item:
      path = mapping.itemAfter[b.indexPath.section][b.indexPath.item] ?? ItemPath(section: -1, item: -1)
    }
  }
}

extension ElementChange {
  /// A view or cell that disappears: it fades out where it was.
  init(removed b: LayoutAttributes) {
    self.init(
      category: b.category, scope: b.scope, kind: b.kind, indexPath: b.indexPath,
      change: .delete, from: b.frame, to: b.frame, fromAlpha: 1, toAlpha: 0)
  }
}

extension LayoutResult {
  /// The elements whose extent along the scroll axis overlaps the viewport at `offset` (edges
  /// touching do not count), all across the other axis.
  /// - Complexity: O(log n + k).
  func elements(onScreenAt offset: Double, viewport: Double) -> [LayoutAttributes] {
    let vertical = scrollDirection == .vertical
    let far = 1e15
    let rect =
      vertical
      ? Rect(x: -far, y: offset, width: 2 * far, height: viewport)
      : Rect(x: offset, y: -far, width: viewport, height: 2 * far)
    return elements(in: rect).filter { isOnScreen($0.frame, at: offset, viewport: viewport) }
  }

  /// Whether `frame` overlaps, along the scroll axis, the viewport `viewport` long at `offset`
  /// (edges touching do not count).
  func isOnScreen(_ frame: Rect, at offset: Double, viewport: Double) -> Bool {
    let (s, e) =
      scrollDirection == .vertical ? (frame.minY, frame.maxY) : (frame.minX, frame.maxX)
    return e > offset && s < offset + viewport
  }

  /// The supplementary or decoration view with `key`, if the layout has it.
  /// - Complexity: O(k) for the k views of its section.
  func supplementary(matching key: ViewKey) -> LayoutAttributes? {
    let views: ArraySlice<LayoutAttributes>
    switch key.scope {
    case .global: views = supplementaryElements(inSection: nil)
    case .section, .item:
      guard key.path.section >= 0 && key.path.section < numberOfSections else { return nil }
      views = supplementaryElements(inSection: key.path.section)
    }
    return views.first { ViewKey($0) == key }
  }

  /// The cell at `path`, if the layout has it.
  public func cell(at path: ItemPath) -> LayoutAttributes? {
    guard let c = attributes(at: path) else { return nil }
    return c.indexPath == path ? c : cells.first { $0.indexPath == path }
  }
}
