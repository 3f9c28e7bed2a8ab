@testable import GalleyRecords
import Foundation
import XCTest

@testable import CompositionalLayout

/// Batch updates: the index arithmetic of `performBatchUpdates`, the transition between the
/// two layouts and the content offset an anchor keeps. Expected values worked out by hand.
final class BatchUpdateTests: XCTestCase {
  // MARK: The brand grid

  /// Container 390 × 844. Section 0: a 40 pt header, then pages (group paging) of three rows of
  /// three items, each item a third of 390 = 130 wide and 120 tall, no spacing: item i sits at
  /// x = 390 · (i / 9) + 130 · (i % 3), y = 40 + 120 · ((i % 9) / 3); the section is 40 + 120 ×
  /// (rows of the fullest page) tall. Section 1: one 390 × 100 item right below.
  static func grid(_ items: Int) throws -> LayoutSpec {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Examples/brand-grid.json")
    var spec = try LayoutSpec(json: Data(contentsOf: url))
    spec.sections[0].itemCount = items
    return spec
  }

  func transition(_ spec: LayoutSpec, _ batch: BatchUpdate, offset: Double = 0, anchor: BatchAnchor = .top)
    throws -> LayoutTransition
  {
    let (after, mapping) = try spec.applying(batch)
    return LayoutTransition(
      before: try spec.layoutResult(), after: try after.layoutResult(), mapping: mapping,
      contentOffset: offset, viewport: 844, anchor: anchor)
  }

  func change(_ t: LayoutTransition, _ section: Int, _ item: Int) -> ElementChange? {
    t.changes.first { $0.category == .cell && $0.indexPath == ItemPath(section: section, item: item) }
  }

  func testAFourthBrandByInsertItemsGrowsTheSectionByOneRow() throws {
    let t = try transition(Self.grid(3), BatchUpdate(insertItems: [ItemPath(section: 0, item: 3)]))
    XCTAssertEqual(t.before.sectionFrames[0].height, 160)
    XCTAssertEqual(t.after.sectionFrames[0].height, 280)  // one row more: + 120
    // The new item appears at its final frame from alpha 0.
    let new = try XCTUnwrap(change(t, 0, 3))
    XCTAssertEqual(new.change, .insert)
    XCTAssertEqual(new.from, Rect(x: 0, y: 160, width: 130, height: 120))
    XCTAssertEqual(new.to, new.from)
    XCTAssertEqual([new.fromAlpha, new.toAlpha], [0, 1])
    // The next section's cell shifts down by exactly one row.
    let next = try XCTUnwrap(change(t, 1, 0))
    XCTAssertEqual(next.change, .shift)
    XCTAssertEqual(next.from, Rect(x: 0, y: 160, width: 390, height: 100))
    XCTAssertEqual(next.to, Rect(x: 0, y: 280, width: 390, height: 100))
    // Items 0–2 and the header stay: no change listed.
    XCTAssertNil(change(t, 0, 0))
    XCTAssertFalse(t.changes.contains { $0.category == .supplementary })
    XCTAssertEqual(t.after.contentSize.height, 380)
    XCTAssertEqual(t.overlaps.count, 0)
    XCTAssertEqual(t.teleports.count, 0)
    let appearing = try XCTUnwrap(t.initialLayoutAttributesForAppearingItem(at: ItemPath(section: 0, item: 3)))
    XCTAssertEqual(appearing.alpha, 0)
    XCTAssertEqual(appearing.attributes.frame, new.to)
  }

  func testAFourthBrandByReloadSectionsCrossFadesAndGrowsTheSame() throws {
    let t = try transition(Self.grid(3), BatchUpdate(reloadSections: [0], itemCounts: [4, 1]))
    XCTAssertEqual(t.after.sectionFrames[0].height, 280)
    for i in 0..<3 {
      let c = try XCTUnwrap(change(t, 0, i))
      XCTAssertEqual(c.change, .reload)
      XCTAssertEqual(c.from, c.to)  // in place
    }
    XCTAssertEqual(change(t, 0, 3)?.change, .insert)
    XCTAssertEqual(change(t, 0, 3)?.fromAlpha, 0)
    XCTAssertEqual(change(t, 1, 0)?.to.minY, 280)
    XCTAssertEqual(
      t.finalLayoutAttributesForDisappearingItem(at: ItemPath(section: 0, item: 1))?.alpha, 0)
  }

  func testNineToTwelveOpensASecondPageAndMovesNothingBelow() throws {
    let t = try transition(
      Self.grid(9), BatchUpdate(insertItems: (9..<12).map { ItemPath(section: 0, item: $0) }))
    XCTAssertEqual(t.before.sectionFrames[0].height, 400)
    XCTAssertEqual(t.after.sectionFrames[0].height, 400)
    for i in 9..<12 {
      let c = try XCTUnwrap(change(t, 0, i))
      XCTAssertEqual(c.change, .insert)
      XCTAssertEqual(c.to, Rect(x: 390 + 130 * Double(i - 9), y: 40, width: 130, height: 120))
    }
    XCTAssertNil(change(t, 1, 0), "the next section does not move")
    XCTAssertEqual(t.changes.filter { $0.category == .cell }.count, 3)
    XCTAssertEqual(t.after.orthogonalSections.first?.pageOffsets, [0, 390])
  }

  func testTwelveToTwoRemovesTwoRowsAndShiftsEverythingBelowUp() throws {
    let t = try transition(
      Self.grid(12), BatchUpdate(deleteItems: (2..<12).map { ItemPath(section: 0, item: $0) }))
    XCTAssertEqual(t.after.sectionFrames[0].height, 160)  // 400 − 2 rows of 120
    for i in 2..<12 {
      let c = try XCTUnwrap(change(t, 0, i))
      XCTAssertEqual(c.change, .delete)
      XCTAssertEqual(c.from, c.to)  // disappears where it was
      XCTAssertEqual([c.fromAlpha, c.toAlpha], [1, 0])
    }
    XCTAssertEqual(change(t, 1, 0)?.from.minY, 400)  // 40 + 3 rows
    XCTAssertEqual(change(t, 1, 0)?.to.minY, 160)  // 40 + 1 row
    XCTAssertNil(change(t, 0, 0))
    XCTAssertNil(change(t, 0, 1))
  }

  // MARK: A chat of 10,000 measured bubbles

  /// One column, 8 pt between bubbles; bubble i is 40 + 4 · (i % 7) tall (40…64). Offsets worked
  /// out from those sums.
  static func chat() -> CollectionLayout {
    let item = Item(size: LayoutSize(width: .fractionalWidth(1), height: .estimated(44)))
    let group = Group.vertical(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(44)), subitems: [.item(item)])
    return CollectionLayout(section: Section(group: group, interGroupSpacing: 8))
  }
  static func height(_ i: Int) -> Double { 40 + 4 * Double(i % 7) }
  static let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844), displayScale: 3)

  func testPrependingHistoryKeepsTheVisibleBubbleStill() throws {
    let n = 10_000
    var before = MeasuredSizes()
    for i in 0..<n { before.set(Size(width: 390, height: Self.height(i)), for: ItemPath(section: 0, item: i)) }
    // 50 older messages, each 52 tall, come in above.
    var after = MeasuredSizes()
    for i in 0..<50 { after.set(Size(width: 390, height: 52), for: ItemPath(section: 0, item: i)) }
    for i in 0..<n { after.set(Size(width: 390, height: Self.height(i)), for: ItemPath(section: 0, item: i + 50)) }
    // The reader is at item 5,000's top.
    let top5000 = (0..<5000).reduce(0.0) { $0 + Self.height($1) + 8 }
    let t = try Self.chat().transition(
      itemCounts: [n], batch: BatchUpdate(insertItems: (0..<50).map { ItemPath(section: 0, item: $0) }),
      environment: Self.env, sizingBefore: before, sizingAfter: after, contentOffset: top5000,
      anchor: .firstVisible)
    XCTAssertEqual(t.anchorItem, ItemPath(section: 0, item: 5050))
    XCTAssertEqual(t.anchorShift, 0)
    XCTAssertNil(t.anchorNote)
    // The offset grows by exactly the new bubbles and their spacing: 50 × (52 + 8).
    XCTAssertEqual(t.contentOffsetAfter - t.contentOffsetBefore, 50 * 60, accuracy: 1e-6)
    XCTAssertEqual(t.after.contentSize.height - t.before.contentSize.height, 50 * 60, accuracy: 1e-6)
    // On screen, the visible bubble is where it was.
    let a = try XCTUnwrap(t.after.cell(at: ItemPath(section: 0, item: 5050)))
    XCTAssertEqual(a.frame.minY - t.contentOffsetAfter, 0, accuracy: 1e-6)
    XCTAssertEqual(
      t.targetContentOffset(forProposedContentOffset: Point(x: 0, y: 0)).y, t.contentOffsetAfter)
    // Every old bubble shifts by 3,000 in content, 0 on screen: nothing teleports.
    XCTAssertEqual(t.teleports.count, 0)
    XCTAssertEqual(t.overlaps.count, 0)
    // With the offset kept instead (top), the reader's bubble would jump 3,000 pt: a teleport.
    let kept = try Self.chat().transition(
      itemCounts: [n], batch: BatchUpdate(insertItems: (0..<50).map { ItemPath(section: 0, item: $0) }),
      environment: Self.env, sizingBefore: before, sizingAfter: after, contentOffset: top5000, anchor: .top)
    XCTAssertEqual(kept.contentOffsetAfter, top5000)
    XCTAssertGreaterThan(kept.teleports.count, 0)
  }

  func testDeletingAndReloadingMessagesOnScreen() throws {
    let n = 10_000
    var sizes = MeasuredSizes()
    for i in 0..<n { sizes.set(Size(width: 390, height: Self.height(i)), for: ItemPath(section: 0, item: i)) }
    let top100 = (0..<100).reduce(0.0) { $0 + Self.height($1) + 8 }
    // Delete item 105 (in the middle of the screen): those below move up by its height + 8.
    var afterDelete = MeasuredSizes()
    for i in 0..<n where i != 105 {
      afterDelete.set(Size(width: 390, height: Self.height(i)), for: ItemPath(section: 0, item: i < 105 ? i : i - 1))
    }
    let d = try Self.chat().transition(
      itemCounts: [n], batch: BatchUpdate(deleteItems: [ItemPath(section: 0, item: 105)]),
      environment: Self.env, sizingBefore: sizes, sizingAfter: afterDelete, contentOffset: top100)
    XCTAssertEqual(d.contentOffsetAfter, top100)  // top: kept
    let gone = try XCTUnwrap(change(d, 0, 105).flatMap { $0.change == .delete ? $0 : nil }
      ?? d.changes.first { $0.change == .delete })
    XCTAssertEqual(gone.indexPath, ItemPath(section: 0, item: 105))
    XCTAssertEqual(gone.toAlpha, 0)
    let below = try XCTUnwrap(change(d, 0, 105))  // item 106 before, 105 after
    XCTAssertEqual(below.change, .shift)
    XCTAssertEqual(below.from.minY - below.to.minY, Self.height(105) + 8)
    XCTAssertEqual(d.changes.filter { $0.change == .shift }.count, n - 1 - 105)
    // Reload item 103, now 100 pt taller: it cross-fades; those below move down by 100.
    var taller = sizes
    taller.set(Size(width: 390, height: Self.height(103) + 100), for: ItemPath(section: 0, item: 103))
    let r = try Self.chat().transition(
      itemCounts: [n], batch: BatchUpdate(reloadItems: [ItemPath(section: 0, item: 103)]),
      environment: Self.env, sizingBefore: sizes, sizingAfter: taller, contentOffset: top100)
    let reloaded = try XCTUnwrap(change(r, 0, 103))
    XCTAssertEqual(reloaded.change, .reload)
    XCTAssertEqual(reloaded.to.height - reloaded.from.height, 100)
    XCTAssertEqual(change(r, 0, 104)?.to.minY, (change(r, 0, 104)?.from.minY ?? 0) + 100)
    XCTAssertNil(change(r, 0, 102))
  }

  func testAChatLayoutPrependAnswersTheScreenAndKeepsTheReader() throws {
    // 10,000 messages of one day from two senders in turns; 50 older ones of the same day come
    // in above. Whatever the rows' spacing, everything added lies above the reader: the offset
    // grows by exactly the content added, and the first bubble on screen does not move.
    let config = ChatLayoutConfiguration(containerSize: Size(width: 390, height: 844))
    let messages = (0..<10_000).map {
      ChatMessage(senderID: Int32($0 % 2), day: 1, size: Size(width: 200, height: Self.height($0)))
    }
    var chat = ChatLayout(configuration: config, messages: messages)
    let offset = chat.frame(ofItem: 5000).minY + 10  // the reader inside bubble 5,000
    let length = chat.contentSize.height
    let older = (0..<50).map { _ in ChatMessage(senderID: 1, day: 1, size: Size(width: 200, height: 52)) }
    let t = chat.prepend(older, contentOffset: offset, viewport: 844)
    XCTAssertEqual(t.anchorItem, 5050)
    XCTAssertEqual(t.anchorShift, 0)
    XCTAssertEqual(t.contentOffsetAfter - t.contentOffsetBefore, chat.contentSize.height - length, accuracy: 1e-9)
    XCTAssertEqual(chat.frame(ofItem: 5050).minY - t.contentOffsetAfter, -10, accuracy: 1e-9)
    // Every bubble on screen moved in content by what was added, not on screen; the new ones
    // are far above, not on screen.
    XCTAssertFalse(t.changes.isEmpty)
    for c in t.changes {
      XCTAssertEqual(c.change, .shift, "\(c)")
      XCTAssertEqual(c.to.minY - c.from.minY, chat.contentSize.height - length, accuracy: 1e-9)
    }
  }

  func testSelfSizingLayoutAppliesABatchAsAFullLayoutWould() throws {
    // The golden brand grid (measured heights) and the 100 pt section below it; a third section
    // like the second. Insert two items into section 0 and delete section 2's only item.
    let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844), displayScale: 3)
    let base = BrandGridGoldenTests.layout()
    let layout = CollectionLayout(configuration: base.configuration) { i, e in
      base.sectionProvider(min(i, 1), e)
    }
    var sizing = SelfSizingLayout(layout: layout, itemCounts: [7, 1, 1], environment: env)
    _ = sizing.measureAll { path, proposed in
      Size(width: proposed.width, height: path.section == 0 ? BrandGridGoldenTests.heights[path.item] : 100)
    }
    let batch = BatchUpdate(
      insertItems: [ItemPath(section: 0, item: 0), ItemPath(section: 0, item: 4)],
      itemCounts: [9, 1, 1])
    let sizes = [
      ItemPath(section: 0, item: 0): Size(width: 120, height: 77),
      ItemPath(section: 0, item: 4): Size(width: 120, height: 66),
    ]
    let t = try sizing.apply(batch, sizes: sizes, contentOffset: 0)
    XCTAssertEqual(sizing.itemCounts, [9, 1, 1])
    // The same as laying everything out from scratch with the sizes where they went.
    var expected = MeasuredSizes()
    let old = BrandGridGoldenTests.heights
    let after: [Double] = [77, old[0], old[1], old[2], 66, old[3], old[4], old[5], old[6]]
    for (i, h) in after.enumerated() { expected.set(Size(width: 120, height: h), for: ItemPath(section: 0, item: i)) }
    expected.set(Size(width: 390, height: 100), for: ItemPath(section: 1, item: 0))
    expected.set(Size(width: 390, height: 100), for: ItemPath(section: 2, item: 0))
    let fresh = layout.layout(itemCounts: [9, 1, 1], environment: env, sizing: expected)
    XCTAssertEqual(sizing.result.cells, fresh.cells)
    XCTAssertEqual(sizing.result.contentSize, fresh.contentSize)
    XCTAssertEqual(t.after.cells, fresh.cells)
    XCTAssertEqual(change(t, 0, 0)?.change, .insert)
    XCTAssertEqual(change(t, 0, 4)?.change, .insert)
    // A bad batch changes nothing.
    XCTAssertThrowsError(try sizing.apply(BatchUpdate(deleteSections: [5])))
    XCTAssertEqual(sizing.itemCounts, [9, 1, 1])
  }

  func testOverlappingCellsAreFound() {
    // A custom group that puts its second item half over its first.
    let group = Group.custom(LayoutSize(width: .fractionalWidth(1), height: .absolute(100))) { _ in
      [Rect(x: 0, y: 0, width: 100, height: 100), Rect(x: 50, y: 50, width: 100, height: 100)]
    }
    let result = CollectionLayout(section: Section(group: group)).layout(
      itemCounts: [4], environment: Self.env)
    let overlaps = result.overlappingCells(listing: 50)
    let pairs = overlaps.first.map { [$0.0.item, $0.1.item] }
    XCTAssertEqual(overlaps.count, 3)
    // (Item 1, at y 50…150, also reaches into the next group's item 2 at y 100…200.)
    XCTAssertEqual(pairs, [[0, 1], [1, 2], [2, 3]])
    // Side by side, touching: no overlap.
    let touching = Group.custom(LayoutSize(width: .fractionalWidth(1), height: .absolute(100))) { _ in
      [Rect(x: 0, y: 0, width: 100, height: 100), Rect(x: 100, y: 0, width: 100, height: 100)]
    }
    XCTAssertTrue(
      CollectionLayout(section: Section(group: touching)).layout(itemCounts: [4], environment: Self.env)
        .overlappingCells(listing: 50).count == 0)
  }

  // MARK: Batches UIKit rejects

  func testBadBatchesAreErrorsNamingTheOperation() throws {
    let counts = [3, 5]
    let cases: [(String, BatchUpdate, String)] = [
      ("section out of range", BatchUpdate(deleteSections: [2]), "deleteSections[0]"),
      ("item out of range", BatchUpdate(deleteItems: [ItemPath(section: 0, item: 3)]), "deleteItems[0]"),
      (
        "deleted and moved",
        BatchUpdate(
          deleteItems: [ItemPath(section: 1, item: 0)],
          moveItems: [.init(from: ItemPath(section: 1, item: 0), to: ItemPath(section: 1, item: 3))]),
        "moveItems[0].from"
      ),
      (
        "item of a deleted section", BatchUpdate(deleteSections: [0], deleteItems: [ItemPath(section: 0, item: 1)]),
        "deleteItems[0]"
      ),
      (
        "insert into an inserted section",
        BatchUpdate(insertSections: [0], insertItems: [ItemPath(section: 0, item: 0)]), "insertItems[0]"
      ),
      (
        "counts that do not add up",
        BatchUpdate(insertItems: [ItemPath(section: 0, item: 3)], itemCounts: [5, 5]), "itemCounts[0]"
      ),
      ("number of sections", BatchUpdate(itemCounts: [3]), "itemCounts"),
      (
        "two inserts at one place",
        BatchUpdate(insertItems: [ItemPath(section: 1, item: 0), ItemPath(section: 1, item: 0)]),
        "insertItems[1]"
      ),
      ("insert past the end", BatchUpdate(insertItems: [ItemPath(section: 0, item: 5)]), "insertItems[0]"),
      ("a section moved twice", BatchUpdate(moveSections: [.init(from: 0, to: 1), .init(from: 0, to: 0)]), "moveSections[1].from"),
    ]
    for (what, batch, operation) in cases {
      XCTAssertThrowsError(try BatchMapping(batch, counts: counts), what) { e in
        let b = e as? BatchError
        XCTAssertEqual(b?.operation, operation, "\(what): \(e)")
        XCTAssertFalse(b?.message.isEmpty ?? true)
      }
    }
    // UIKit's message for counts that do not add up names them.
    XCTAssertThrowsError(
      try BatchMapping(BatchUpdate(insertItems: [ItemPath(section: 0, item: 3)], itemCounts: [5, 5]), counts: counts)
    ) { e in
      XCTAssertTrue("\(e)".contains("invalid number of items in section 0"), "\(e)")
    }
  }

  func testMovesFollowUIKitsIndexRules() throws {
    // [a b c d e]: delete b (before index 1), move d (before 3) to after index 0, insert x at 2.
    // After: d a x c e — inserts and move targets take their places, the rest fill in order.
    let m = try BatchMapping(
      BatchUpdate(
        deleteItems: [ItemPath(section: 0, item: 1)], insertItems: [ItemPath(section: 0, item: 2)],
        moveItems: [.init(from: ItemPath(section: 0, item: 3), to: ItemPath(section: 0, item: 0))]),
      counts: [5])
    XCTAssertEqual(m.countsAfter, [5])
    XCTAssertEqual(m.itemBefore[0].map { $0?.item }, [3, 0, nil, 2, 4])
    XCTAssertEqual(m.change(after: ItemPath(section: 0, item: 0)), .move)
    XCTAssertEqual(m.change(after: ItemPath(section: 0, item: 2)), .insert)
    XCTAssertNil(m.itemAfter[0][1])
    // The public questions, as UIKit's indexPathAfterUpdate / indexPathBeforeUpdate answer them.
    func at(_ i: Int) -> ItemPath { ItemPath(section: 0, item: i) }
    XCTAssertEqual(m.path(after: at(3)), at(0))
    XCTAssertEqual(m.path(after: at(4)), at(4))
    XCTAssertNil(m.path(after: at(1)), "deleted")
    XCTAssertNil(m.path(after: at(5)), "no such item")
    XCTAssertEqual(m.path(before: at(1)), at(0))
    XCTAssertNil(m.path(before: at(2)), "inserted")
    XCTAssertNil(m.path(before: ItemPath(section: 1, item: 0)), "no such section")
    // Sections: [A B C], delete A, insert N at 0, move C to 1 → N C B.
    let s = try BatchMapping(
      BatchUpdate(deleteSections: [0], insertSections: [0], moveSections: [.init(from: 2, to: 1)]),
      counts: [1, 2, 3])
    XCTAssertEqual(s.sectionBefore, [nil, 2, 1])
    XCTAssertEqual(s.countsAfter, [0, 3, 2])
  }
}

/// The screen's answer (`visibleChanges`, `teleports`, the `firstVisible` anchor), computed
/// from the elements on screen only, is the full answer restricted to the screen.
final class ScreenTransitionConsistencyTests: XCTestCase {
  func testTheScreensChangesAreTheFullChangesOnScreen() throws {
    var rng = SystemRandomNumberGenerator()
    let item = Item(size: LayoutSize(width: .fractionalWidth(1.0 / 3), height: .absolute(90)))
    let group = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .absolute(90)), subitems: [.item(item)])
    var section = Section(group: group, interGroupSpacing: 6)
    section.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(30)),
        alignment: .top)
    ]
    section.decorationItems = [DecorationItem(kind: "background")]
    let layout = CollectionLayout(section: section)
    let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844))
    for round in 0..<60 {
      let counts = (0..<Int.random(in: 2...6, using: &rng)).map { _ in Int.random(in: 0...40, using: &rng) }
      var batch = BatchUpdate()
      let s0 = Int.random(in: 0..<counts.count, using: &rng)
      if counts[s0] > 2 {
        batch.deleteItems = [ItemPath(section: s0, item: Int.random(in: 0..<counts[s0], using: &rng))]
      }
      batch.insertItems = [ItemPath(section: s0, item: 0)]
      if round % 3 == 0 && counts.count > 2 { batch.deleteSections = [counts.count - 1] }
      if round % 4 == 1 {
        batch.reloadSections = [0]
        if s0 == 0 {
          batch.insertItems = []
          batch.deleteItems = []
        }
      }
      let before = layout.layout(itemCounts: counts, environment: env)
      let height = before.contentSize.height
      let offset = Double.random(in: 0...max(0, height - 844), using: &rng)
      for anchor in BatchAnchor.allCases {
        guard let t = try? layout.transition(
          itemCounts: counts, batch: batch, environment: env, contentOffset: offset, anchor: anchor)
        else { continue }
        let after = t.contentOffsetAfter
        func visible(_ c: ElementChange) -> Bool {
          (c.fromAlpha > 0 && c.from.maxY > offset && c.from.minY < offset + 844)
            || (c.toAlpha > 0 && c.to.maxY > after && c.to.minY < after + 844)
        }
        let full = t.changes.filter(visible)
        XCTAssertEqual(Set(t.visibleChanges), Set(full), "round \(round) \(anchor)")
        XCTAssertEqual(t.visibleChanges.count, full.count, "round \(round) \(anchor)")
        let teleports = full.filter { c in
          abs((c.to.minY - after) - (c.from.minY - offset)) > 844
        }
        XCTAssertEqual(Set(t.teleports), Set(teleports), "round \(round) \(anchor)")
      }
    }
  }
}
