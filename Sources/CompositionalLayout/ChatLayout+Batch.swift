/// What a batch does to one screen of a chat: the elements visible before or after it and how
/// each changes, and the content offset after. The chat's own layout is updated in O(k log n)
/// and only the screen is compared, so that a transcript of millions answers at once.
public struct ScreenTransition: Sendable {
  /// Changes of the cells and date headers on screen before or after (cells by their index
  /// after the batch; a deleted one by its index before).
  public let changes: [ElementChange]
  public let contentOffsetBefore: Double
  public let contentOffsetAfter: Double
  /// The item the anchor kept still (its index after), and how far it moved on screen.
  public let anchorItem: Int?
  public let anchorShift: Double
}

extension ChatLayout {
  /// Prepends older `messages` (a batch that inserts items 0..<k) with the reader at
  /// `contentOffset` in a screen `viewport` tall: `firstVisible` keeps the first bubble on screen
  /// where it is (the chat's way), `top` keeps the offset, `bottom` the distance from the end.
  /// - Complexity: O(k log n + the elements on screen).
  public mutating func prepend(
    _ messages: [ChatMessage], contentOffset: Double, viewport: Double,
    anchor: BatchAnchor = .firstVisible
  ) -> ScreenTransition {
    let k = messages.count
    let width = contentSize.width
    let screenBefore = Rect(x: 0, y: contentOffset, width: width, height: viewport)
    let before = elements(in: screenBefore)
    let first = item(atY: max(0, contentOffset))
    let firstTop = first.map { frame(ofItem: $0).minY } ?? 0
    let lengthBefore = contentSize.height
    _ = prepend(messages, keeping: nil)
    let lengthAfter = contentSize.height
    let anchorItem = anchor == .firstVisible ? first.map { $0 + k } : nil
    let (target, clamped) = anchor.offsetAfter(
      contentOffset, lengthBefore: lengthBefore, lengthAfter: lengthAfter, viewport: viewport,
      itemMoved: anchorItem.map { frame(ofItem: $0).minY - firstTop })
    let shift = anchorItem == nil ? 0 : target - clamped
    let after = elements(in: Rect(x: 0, y: clamped, width: width, height: viewport))
    // Before: item i is item i + k after; the new items 0..<k appear.
    var changes: [ElementChange] = []
    var seen = Set<ItemPath>()
    func changeOf(_ a: LayoutAttributes, old: LayoutAttributes?) -> ElementChange? {
      guard let old else {
        return ElementChange(
          category: a.category, scope: a.scope, kind: a.kind, indexPath: a.indexPath,
          change: .insert, from: a.frame, to: a.frame, fromAlpha: 0, toAlpha: 1)
      }
      if old.frame == a.frame { return nil }
      return ElementChange(
        category: a.category, scope: a.scope, kind: a.kind, indexPath: a.indexPath, change: .shift,
        from: old.frame, to: a.frame, fromAlpha: 1, toAlpha: 1)
    }
    var beforeByItem: [ItemPath: [LayoutAttributes]] = [:]
    for b in before { beforeByItem[b.indexPath, default: []].append(b) }
    func beforeAttributes(of a: LayoutAttributes) -> LayoutAttributes? {
      guard a.indexPath.item >= k else { return nil }
      return beforeByItem[ItemPath(section: a.indexPath.section, item: a.indexPath.item - k)]?
        .first { $0.category == a.category && $0.kind == a.kind }
    }
    for a in after {
      seen.insert(ItemPath(section: a.indexPath.section, item: a.indexPath.item - k))
      var old = beforeAttributes(of: a)
      if old == nil && a.indexPath.item >= k {
        // On screen after, off screen before: where it was is its frame less the content added
        // above it (rows shift as a block).
        var moved = a
        moved.frame.origin.y -= lengthAfter - lengthBefore
        old = moved
      }
      if let c = changeOf(a, old: old) { changes.append(c) }
    }
    for b in before where !seen.contains(b.indexPath) {
      // On screen before only: it moves off by the content added above it.
      var to = b.frame
      to.origin.y += lengthAfter - lengthBefore
      changes.append(
        ElementChange(
          category: b.category, scope: b.scope, kind: b.kind,
          indexPath: ItemPath(section: b.indexPath.section, item: b.indexPath.item + k),
          change: .shift, from: b.frame, to: to, fromAlpha: 1, toAlpha: 1))
    }
    return ScreenTransition(
      changes: changes, contentOffsetBefore: contentOffset, contentOffsetAfter: clamped,
      anchorItem: anchorItem, anchorShift: shift)
  }
}
