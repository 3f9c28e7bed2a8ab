import XCTest

@testable import CompositionalLayout

/// Self-sizing: estimates first, then measured sizes, with the anchor kept still.
final class SelfSizingTests: XCTestCase {
  static func feed() -> CollectionLayout {
    // 190 + 10 + 190 = 390: two per row (fractionalWidth(0.5) would be 195 and only one would fit).
    let item = Item(size: LayoutSize(width: .absolute(190), height: .estimated(100)))
    var row = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(100)), subitems: [.item(item)])
    row.interItemSpacing = .fixed(10)
    var s = Section(group: row, interGroupSpacing: 10)
    s.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(40)),
        alignment: .top)
    ]
    return CollectionLayout(section: s)
  }

  let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844), displayScale: 3)

  func testFirstPassUsesEstimatesThenAVisibleRangeThenTheRest() {
    var layout = SelfSizingLayout(layout: Self.feed(), itemCounts: [10, 10], environment: env)
    // Estimates: 5 rows of 100 with 10 between → 40 + 540 = 580 per section.
    XCTAssertEqual(layout.result.contentSize.height, 1160)
    assertFrame(
      layout.result.attributes(at: ItemPath(section: 1, item: 0))?.frame, 0, 620, 190, 100)
    // Measure items 0..<4 of section 0 at 150: rows 0 and 1 grow by 50 each; everything below moves down 100.
    let anchor = ScrollAnchor(indexPath: ItemPath(section: 1, item: 0))
    let u = layout.measure(section: 0, items: 0..<4, keeping: anchor) { _, p in
      XCTAssertEqual(p.width, 190)
      return Size(width: p.width, height: 150)
    }
    XCTAssertEqual(u.contentSizeDelta.height, 100)
    XCTAssertEqual(u.contentOffsetCorrection, 100)
    assertFrame(
      layout.result.attributes(at: ItemPath(section: 0, item: 3))?.frame, 200, 200, 190, 150)
    assertFrame(
      layout.result.attributes(at: ItemPath(section: 1, item: 0))?.frame, 0, 720, 190, 100)
    // Measuring items below the anchor moves nothing on screen. Item 6 alone at 40 leaves its row at the
    // estimate of item 7 (100); both at 40 shrink the row by 60.
    let one = layout.apply(
      [ItemPath(section: 1, item: 6): Size(width: 190, height: 40)], keeping: anchor)
    XCTAssertEqual(one.contentSizeDelta.height, 0)
    let below = layout.apply(
      [ItemPath(section: 1, item: 7): Size(width: 190, height: 40)], keeping: anchor)
    XCTAssertEqual(below.contentOffsetCorrection, 0)
    XCTAssertEqual(below.contentSizeDelta.height, -60)
  }

  func testAnchorCorrectionProperty() {
    var rng = TestRNG(21)
    for round in 0..<30 {
      var layout = SelfSizingLayout(
        layout: Self.feed(), itemCounts: [40, 30, 20], environment: env)
      for _ in 0..<5 {
        let section = rng.int(3)
        let count = layout.itemCounts[section]
        let lo = rng.int(count)
        let hi = min(count, lo + 1 + rng.int(10))
        let anchorPath = ItemPath(section: rng.int(3), item: 0)
        let edge: AnchorEdge = rng.int(2) == 0 ? .top : .bottom
        let anchor = ScrollAnchor(
          indexPath: ItemPath(
            section: anchorPath.section, item: rng.int(layout.itemCounts[anchorPath.section])),
          edge: edge, offset: rng.double(0, 20))
        let before = layout.result.attributes(at: anchor.indexPath)!.frame
        let oldHeight = layout.result.contentSize.height
        let update = layout.measure(section: section, items: lo..<hi, keeping: anchor) { _, p in
          Size(width: p.width, height: (rng.double(20, 300) * 3).rounded() / 3)
        }
        let after = layout.result.attributes(at: anchor.indexPath)!.frame
        let moved = edge == .top ? after.minY - before.minY : after.maxY - before.maxY
        XCTAssertEqual(
          update.contentOffsetCorrection, moved, accuracy: 1.0 / 3.0 / 2 + 1e-9, "round \(round)")
        XCTAssertEqual(
          update.contentSizeDelta.height, layout.result.contentSize.height - oldHeight,
          accuracy: 1e-9)
      }
    }
  }

  func testSelfSizingHeader() {
    // A header estimated at 44 measures 80: everything below moves down 36, the anchor below it too.
    var s = Section(
      group: .vertical(fixedSize(390, 100), subitems: [.item(Item(size: fixedSize(390, 100)))]))
    s.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .estimated(44)),
        alignment: .top)
    ]
    var layout = SelfSizingLayout(
      layout: CollectionLayout(section: s), itemCounts: [3, 3], environment: env)
    assertFrame(
      layout.result.attributes(at: ItemPath(section: 1, item: 0))?.frame, 0, 344 + 44, 390, 100)
    let u = layout.applySupplementarySize(
      Size(width: 1, height: 80), kind: "header", section: 0,
      keeping: ScrollAnchor(indexPath: ItemPath(section: 1, item: 0)))
    XCTAssertEqual(u.contentOffsetCorrection, 36)
    XCTAssertEqual(u.contentSizeDelta.height, 36)
    // Width is not estimated: it stays 390.
    assertFrame(supplementaries(layout.result, kind: "header").first?.frame, 0, 0, 390, 80)
    assertFrame(layout.result.attributes(at: ItemPath(section: 0, item: 0))?.frame, 0, 80, 390, 100)
  }

  func testMeasuredSizesOnlyReplaceEstimatedAxes() {
    // Absolute width, estimated height: a measured width is ignored, the height is used.
    var layout = SelfSizingLayout(layout: Self.feed(), itemCounts: [2], environment: env)
    _ = layout.apply([ItemPath(section: 0, item: 1): Size(width: 999, height: 77)])
    assertFrame(
      layout.result.attributes(at: ItemPath(section: 0, item: 1))?.frame, 200, 40, 190, 77)
    XCTAssertEqual(layout.measuredSizes.sizes[0]?[1], Size(width: 999, height: 77))
  }
}
