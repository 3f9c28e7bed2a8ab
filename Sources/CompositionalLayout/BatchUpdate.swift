/// A batch of updates as `performBatchUpdates` takes it: deletes and reloads name index paths
/// before the batch, inserts index paths after it, moves go from before to after.
public struct BatchUpdate: Sendable, Hashable {
  /// A section moved: its index before and after the batch.
  public struct SectionMove: Sendable, Hashable {
    public var from: Int
    public var to: Int
    public init(from: Int, to: Int) {
      self.from = from
      self.to = to
    }
  }

  /// An item moved: its index path before and after the batch.
  public struct ItemMove: Sendable, Hashable {
    public var from: ItemPath
    public var to: ItemPath
    public init(from: ItemPath, to: ItemPath) {
      self.from = from
      self.to = to
    }
  }

  /// A name for reports.
  public var name: String
  public var deleteSections: [Int]
  public var insertSections: [Int]
  public var reloadSections: [Int]
  public var moveSections: [SectionMove]
  public var deleteItems: [ItemPath]
  public var insertItems: [ItemPath]
  public var reloadItems: [ItemPath]
  public var moveItems: [ItemMove]
  /// The data source's item counts after the batch (nil: what the operations make them; an
  /// inserted or reloaded section then has as many items as before, or none). When given, they
  /// must add up as UIKit checks them.
  public var itemCounts: [Int]?

  public init(
    name: String = "", deleteSections: [Int] = [], insertSections: [Int] = [],
    reloadSections: [Int] = [], moveSections: [SectionMove] = [], deleteItems: [ItemPath] = [],
    insertItems: [ItemPath] = [], reloadItems: [ItemPath] = [], moveItems: [ItemMove] = [],
    itemCounts: [Int]? = nil
  ) {
    self.name = name
    self.deleteSections = deleteSections
    self.insertSections = insertSections
    self.reloadSections = reloadSections
    self.moveSections = moveSections
    self.deleteItems = deleteItems
    self.insertItems = insertItems
    self.reloadItems = reloadItems
    self.moveItems = moveItems
    self.itemCounts = itemCounts
  }
}

/// A batch that UIKit would reject (it raises an exception; here it is an error naming the
/// operation, and nothing is changed).
public struct BatchError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The operation, as the batch's JSON names it (`insertItems[2]`, `itemCounts[0]`, …).
  public var operation: String
  public var message: String
  public init(_ operation: String, _ message: String) {
    self.operation = operation
    self.message = message
  }
  public var description: String { "\(operation): \(message)" }
}

/// Where every section and item of the state before a batch goes, and what came new: the
/// index arithmetic of `performBatchUpdates`, worked out once for the layouts and the
/// transition to read.
public struct BatchMapping: Sendable {
  /// What happened to an element.
  public enum Change: String, Sendable {
    case insert, delete, move, reload, shift
  }

  /// Item counts before and after.
  public let countsBefore: [Int]
  public let countsAfter: [Int]
  /// Per section before: its index after (nil: deleted).
  public let sectionAfter: [Int?]
  /// Per section after: its index before (nil: inserted).
  public let sectionBefore: [Int?]
  /// Sections after whose content was reloaded (their index before is `sectionBefore`).
  public let reloadedSections: Set<Int>
  /// Per section before, per item: its path after (nil: deleted).
  package let itemAfter: [SectionItemMap]
  /// Per section after, per item: its path before (nil: inserted).
  package let itemBefore: [SectionItemMap]
  /// Items after that were moved explicitly, or reloaded (paths after).
  public let movedItems: Set<ItemPath>
  public let reloadedItems: Set<ItemPath>

  /// Where the item at `path` before the batch is after it (nil: deleted, or no such item), as
  /// UIKit's `indexPathAfterUpdate(for:)` would say.
  public func path(after path: ItemPath) -> ItemPath? {
    guard path.section >= 0, path.section < itemAfter.count, path.item >= 0,
      path.item < itemAfter[path.section].count
    else { return nil }
    return itemAfter[path.section][path.item]
  }

  /// Where the item at `path` after the batch was before it (nil: inserted, or no such item).
  public func path(before path: ItemPath) -> ItemPath? {
    guard path.section >= 0, path.section < itemBefore.count, path.item >= 0,
      path.item < itemBefore[path.section].count
    else { return nil }
    return itemBefore[path.section][path.item]
  }

  /// The change of the item at `path` after the batch, when it did not come new.
  func change(after path: ItemPath) -> Change? {
    if itemBefore[path.section][path.item] == nil { return .insert }
    if reloadedItems.contains(path) || reloadedSections.contains(path.section) { return .reload }
    if movedItems.contains(path) { return .move }
    return nil
  }

  /// Works out the batch on a state of `counts` items per section.
  /// - Throws: ``BatchError`` for what UIKit rejects: an index out of range, an element named
  ///   twice (deleted and moved, moved twice, …), an item of a deleted or inserted section,
  ///   counts that do not add up.
  public init(_ batch: BatchUpdate, counts: [Int]) throws {
    let n = counts.count
    countsBefore = counts
    let (sectionBefore, reloadOld) = try Self.sections(batch, count: n)
    var sectionAfter = [Int?](repeating: nil, count: n)
    for (s, b) in sectionBefore.enumerated() { if let b { sectionAfter[b] = s } }
    self.sectionAfter = sectionAfter
    self.sectionBefore = sectionBefore
    reloadedSections = Set(reloadOld.compactMap { sectionAfter[$0] })
    let goneItems = try Self.claimedItems(batch, counts: counts, reloadOld: reloadOld)
    let after = try Self.counts(
      batch, before: counts, sectionBefore: sectionBefore, sectionAfter: sectionAfter,
      reloaded: reloadedSections)
    countsAfter = after
    let fixedItem = try Self.fixedItems(batch, after: after)
    let maps = Self.itemMaps(
      before: counts, after: after, sectionBefore: sectionBefore, sectionAfter: sectionAfter,
      reloaded: reloadedSections, gone: goneItems, fixed: fixedItem)
    itemBefore = maps.before
    itemAfter = maps.after
    movedItems = maps.moved
    var reloaded = Set<ItemPath>()
    for p in batch.reloadItems { if let q = maps.after[p.section][p.item] { reloaded.insert(q) } }
    reloadedItems = reloaded
  }

  /// Where each section after the batch was before it (nil: inserted), and the sections it
  /// reloads (by their index before). Inserted sections and move targets take their places;
  /// the others fill the free places in their order (reloaded ones stay where unchanged ones
  /// would be).
  static func sections(_ batch: BatchUpdate, count n: Int) throws -> (
    before: [Int?], reloaded: Set<Int>
  ) {
    var gone = Set<Int>()
    func claimOld(_ s: Int, _ op: String) throws {
      guard s >= 0 && s < n else {
        throw BatchError(op, "section \(s) does not exist before the batch (there are \(n))")
      }
      guard gone.insert(s).inserted else {
        throw BatchError(op, "section \(s) is already deleted, reloaded or moved in this batch")
      }
    }
    for (k, s) in batch.deleteSections.enumerated() { try claimOld(s, "deleteSections[\(k)]") }
    var reloadOld = Set<Int>()
    for (k, s) in batch.reloadSections.enumerated() {
      try claimOld(s, "reloadSections[\(k)]")
      reloadOld.insert(s)
    }
    for (k, m) in batch.moveSections.enumerated() { try claimOld(m.from, "moveSections[\(k)].from") }
    let m = n - batch.deleteSections.count + batch.insertSections.count
    var fixed = [Int?](repeating: nil, count: max(0, m))
    var isInserted = [Bool](repeating: false, count: max(0, m))
    func claimNew(_ s: Int, _ op: String) throws {
      guard s >= 0 && s < m else {
        throw BatchError(op, "section \(s) does not exist after the batch (there will be \(m))")
      }
      guard fixed[s] == nil && !isInserted[s] else {
        throw BatchError(op, "section \(s) after the batch is already the target of an insert or a move")
      }
    }
    for (k, s) in batch.insertSections.enumerated() {
      try claimNew(s, "insertSections[\(k)]")
      isInserted[s] = true
    }
    for (k, mv) in batch.moveSections.enumerated() {
      try claimNew(mv.to, "moveSections[\(k)].to")
      fixed[mv.to] = mv.from
    }
    var sectionBefore = [Int?](repeating: nil, count: m)
    var rest = (0..<n).filter { !gone.contains($0) || reloadOld.contains($0) }.makeIterator()
    for s in 0..<m {
      if isInserted[s] { continue }
      if let f = fixed[s] { sectionBefore[s] = f } else { sectionBefore[s] = rest.next() }
    }
    return (sectionBefore, reloadOld)
  }

  /// The items the batch names before it (each at most once), checked; those that leave their
  /// place (deleted or moved away).
  static func claimedItems(
    _ batch: BatchUpdate, counts: [Int], reloadOld: Set<Int>
  ) throws -> Set<ItemPath> {
    let n = counts.count
    let deletedSections = Set(batch.deleteSections)
    var named = Set<ItemPath>()
    var goneItems = Set<ItemPath>()
    func claimOldItem(_ p: ItemPath, _ op: String) throws {
      guard p.section >= 0 && p.section < n else {
        throw BatchError(op, "section \(p.section) does not exist before the batch (there are \(n))")
      }
      guard p.item >= 0 && p.item < counts[p.section] else {
        throw BatchError(
          op, "item \(p) does not exist before the batch (section \(p.section) has \(counts[p.section]) items)")
      }
      if deletedSections.contains(p.section) || reloadOld.contains(p.section) {
        throw BatchError(op, "item \(p) is in a section this batch deletes or reloads whole")
      }
      guard named.insert(p).inserted else {
        throw BatchError(op, "item \(p) is already deleted, reloaded or moved in this batch")
      }
    }
    for (k, p) in batch.deleteItems.enumerated() {
      try claimOldItem(p, "deleteItems[\(k)]")
      goneItems.insert(p)
    }
    // (A reloaded item keeps its place.)
    for (k, p) in batch.reloadItems.enumerated() { try claimOldItem(p, "reloadItems[\(k)]") }
    for (k, mv) in batch.moveItems.enumerated() {
      try claimOldItem(mv.from, "moveItems[\(k)].from")
      goneItems.insert(mv.from)
    }
    return goneItems
  }

  /// The item counts after the batch: per surviving section, before − deleted − moved out +
  /// inserted + moved in, which the batch's own counts (if it gives them) must equal, as UIKit
  /// asks; an inserted section's as given, else empty.
  static func counts(
    _ batch: BatchUpdate, before counts: [Int], sectionBefore: [Int?], sectionAfter: [Int?],
    reloaded reloadedSections: Set<Int>
  ) throws -> [Int] {
    let m = sectionBefore.count
    let insertedSections = Set(batch.insertSections)
    var deltas = [(del: Int, ins: Int, out: Int, into: Int)](repeating: (0, 0, 0, 0), count: m)
    for p in batch.deleteItems { if let s = sectionAfter[p.section] { deltas[s].del += 1 } }
    for mv in batch.moveItems { if let s = sectionAfter[mv.from.section] { deltas[s].out += 1 } }
    for (k, p) in batch.insertItems.enumerated() {
      guard p.section >= 0 && p.section < m else {
        throw BatchError(
          "insertItems[\(k)]", "section \(p.section) does not exist after the batch (there will be \(m))")
      }
      if insertedSections.contains(p.section) {
        throw BatchError("insertItems[\(k)]", "section \(p.section) is inserted whole by this batch")
      }
      deltas[p.section].ins += 1
    }
    for (k, mv) in batch.moveItems.enumerated() {
      guard mv.to.section >= 0 && mv.to.section < m else {
        throw BatchError(
          "moveItems[\(k)].to", "section \(mv.to.section) does not exist after the batch (there will be \(m))")
      }
      if insertedSections.contains(mv.to.section) || reloadedSections.contains(mv.to.section) {
        throw BatchError("moveItems[\(k)].to", "section \(mv.to.section) is inserted or reloaded whole by this batch")
      }
      deltas[mv.to.section].into += 1
    }
    var expected = [Int](repeating: 0, count: m)
    for s in 0..<m {
      if let b = sectionBefore[s] {
        let d = deltas[s]
        expected[s] = counts[b] - d.del - d.out + d.ins + d.into
      }
    }
    var after = expected
    if let given = batch.itemCounts {
      guard given.count == m else {
        throw BatchError(
          "itemCounts",
          "invalid number of sections: \(given.count) after the batch, but \(counts.count) before, \(batch.insertSections.count) inserted and \(batch.deleteSections.count) deleted make \(m)")
      }
      for s in 0..<m {
        guard given[s] >= 0 else { throw BatchError("itemCounts[\(s)]", "must be at least 0") }
        if sectionBefore[s] == nil || reloadedSections.contains(s) { continue }
        if given[s] != expected[s] {
          let d = deltas[s]
          let b = sectionBefore[s]!
          throw BatchError(
            "itemCounts[\(s)]",
            "invalid number of items in section \(s): \(given[s]) after the batch must equal the \(counts[b]) before, plus or minus the items inserted or deleted (\(d.ins) inserted, \(d.del) deleted) and plus or minus the items moved into or out of it (\(d.into) moved in, \(d.out) moved out)")
        }
      }
      after = given
    } else {
      for s in 0..<m where sectionBefore[s] == nil { after[s] = 0 }
    }
    // (Checked before any per-item table is made: a count of a few bytes could ask for more.)
    if after.reduce(0, +) > CollectionLayout.maximumItems {
      throw BatchError(
        batch.itemCounts != nil ? "itemCounts" : "insertItems",
        "more than \(CollectionLayout.maximumItems) items in all after the batch")
    }
    return after
  }

  /// The fixed places after the batch, by section after and item: inserts (nil) and move
  /// targets (where the item was).
  static func fixedItems(_ batch: BatchUpdate, after: [Int]) throws -> [Int: [Int: ItemPath?]] {
    var fixedItem = [Int: [Int: ItemPath?]]()
    func claimNewItem(_ p: ItemPath, _ op: String, from: ItemPath?) throws {
      guard p.item >= 0 && p.item < after[p.section] else {
        throw BatchError(
          op, "item \(p) does not exist after the batch (section \(p.section) will have \(after[p.section]) items)")
      }
      if fixedItem[p.section]?[p.item] != nil {
        throw BatchError(op, "item \(p) after the batch is already the target of an insert or a move")
      }
      fixedItem[p.section, default: [:]][p.item] = .some(from)
    }
    for (k, p) in batch.insertItems.enumerated() { try claimNewItem(p, "insertItems[\(k)]", from: nil) }
    for (k, mv) in batch.moveItems.enumerated() {
      try claimNewItem(mv.to, "moveItems[\(k)].to", from: mv.from)
    }
    return fixedItem
  }

  /// Where each item after the batch was before it and the reverse, and the items moved. Per
  /// section, the items that leave and the places taken, sorted: the survivors are merged into
  /// the free places in one pass, with no lookup per item. A section whose items all stay in
  /// order is mapped as a whole, in constant time and memory.
  static func itemMaps(
    before counts: [Int], after: [Int], sectionBefore: [Int?], sectionAfter: [Int?],
    reloaded reloadedSections: Set<Int>, gone goneItems: Set<ItemPath>,
    fixed fixedItem: [Int: [Int: ItemPath?]]
  ) -> (before: [SectionItemMap], after: [SectionItemMap], moved: Set<ItemPath>) {
    var goneBySection = [Int: [Int]]()
    for p in goneItems { goneBySection[p.section, default: []].append(p.item) }
    var itemBefore = [SectionItemMap]()
    itemBefore.reserveCapacity(sectionBefore.count)
    var listedAfter = [Int: [ItemPath?]]()
    var moved = Set<ItemPath>()
    for s in 0..<sectionBefore.count {
      guard let b = sectionBefore[s] else {
        itemBefore.append(SectionItemMap(listed: [ItemPath?](repeating: nil, count: after[s])))
        continue
      }
      if !reloadedSections.contains(s) && goneBySection[b] == nil && fixedItem[s] == nil
        && after[s] == counts[b]
      {
        itemBefore.append(SectionItemMap(section: b, count: after[s]))
        continue
      }
      let row =
        reloadedSections.contains(s)
        ? reloadedRow(count: after[s], before: b, beforeCount: counts[b])
        : mergedRow(
          s, count: after[s], before: b, beforeCount: counts[b],
          gone: (goneBySection[b] ?? []).sorted(),
          fixed: (fixedItem[s] ?? [:]).sorted { $0.key < $1.key }, moved: &moved)
      for (i, p) in row.enumerated() {
        guard let p else { continue }
        listedAfter[p.section, default: [ItemPath?](repeating: nil, count: counts[p.section])][
          p.item] = ItemPath(section: s, item: i)
      }
      itemBefore.append(SectionItemMap(listed: row))
    }
    var itemAfter = [SectionItemMap]()
    itemAfter.reserveCapacity(counts.count)
    for b in 0..<counts.count {
      if let list = listedAfter[b] {
        itemAfter.append(SectionItemMap(listed: list))
      } else if let s = sectionAfter[b], case .same = itemBefore[s].storage {
        itemAfter.append(SectionItemMap(section: s, count: counts[b]))
      } else {
        itemAfter.append(SectionItemMap(listed: [ItemPath?](repeating: nil, count: counts[b])))
      }
    }
    return (itemBefore, itemAfter, moved)
  }

  /// A reloaded section's items: they cross-fade where they were; new ones come in after.
  static func reloadedRow(count: Int, before b: Int, beforeCount: Int) -> [ItemPath?] {
    var row = [ItemPath?](repeating: nil, count: count)
    for i in 0..<min(count, beforeCount) { row[i] = ItemPath(section: b, item: i) }
    return row
  }

  /// Section `s`'s items after the batch: the fixed places as given, the survivors of section
  /// `b` (less `gone`) in the others, in order.
  static func mergedRow(
    _ s: Int, count: Int, before b: Int, beforeCount: Int, gone: [Int],
    fixed fixedHere: [(key: Int, value: ItemPath?)], moved: inout Set<ItemPath>
  ) -> [ItemPath?] {
    var row = [ItemPath?](repeating: nil, count: count)
    var nextGone = 0
    var nextFixed = 0
    var survivor = 0
    row.withUnsafeMutableBufferPointer { out in
      for i in 0..<out.count {
        if nextFixed < fixedHere.count && fixedHere[nextFixed].key == i {
          let f = fixedHere[nextFixed].value
          out[i] = f
          if f != nil { moved.insert(ItemPath(section: s, item: i)) }
          nextFixed += 1
          continue
        }
        while nextGone < gone.count && gone[nextGone] == survivor {
          survivor += 1
          nextGone += 1
        }
        out[i] = survivor < beforeCount ? ItemPath(section: b, item: survivor) : nil
        survivor += 1
      }
    }
    return row
  }
}

/// Where the items of one section go after a batch (or come from before it): a path or nil
/// per item. A section whose items all keep their order is held as that fact, not as a list.
package struct SectionItemMap: RandomAccessCollection, Sendable, Hashable {
  enum Storage: Sendable, Hashable {
    /// Item i maps to item i of `section`.
    case same(section: Int, count: Int)
    case listed([ItemPath?])
  }
  let storage: Storage

  init(section: Int, count: Int) { storage = .same(section: section, count: count) }
  init(listed: [ItemPath?]) { storage = .listed(listed) }

  public var startIndex: Int { 0 }
  public var endIndex: Int {
    switch storage {
    case .same(_, let count): return count
    case .listed(let list): return list.count
    }
  }

  public subscript(i: Int) -> ItemPath? {
    switch storage {
    case .same(let section, let count):
      precondition(i >= 0 && i < count, "item index out of range")
      return ItemPath(section: section, item: i)
    case .listed(let list): return list[i]
    }
  }

  /// Whether every item i maps to item i of `section`.
  func maps(toSameItemsOf section: Int) -> Bool {
    switch storage {
    case .same(let s, _): return s == section
    case .listed(let list):
      return list.enumerated().allSatisfy { $1 == ItemPath(section: section, item: $0) }
    }
  }
}
