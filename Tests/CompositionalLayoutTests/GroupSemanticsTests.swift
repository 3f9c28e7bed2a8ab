import XCTest

@testable import CompositionalLayout

/// Group and item semantics, each frame worked out by hand. Container 390 × 844, no section insets.
final class GroupSemanticsTests: XCTestCase {
  let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844), displayScale: 3)

  func lay(_ group: Group, items: Int, rtl: Bool = false, sizing: (any SizingSource)? = nil)
    -> LayoutResult
  {
    var e = env
    if rtl { e.layoutDirection = .rightToLeft }
    return CollectionLayout(section: Section(group: group)).layout(
      itemCounts: [items], environment: e, sizing: sizing)
  }

  func frame(_ r: LayoutResult, _ i: Int) -> Rect? {
    r.attributes(at: ItemPath(section: 0, item: i))?.frame
  }

  func testCountResizesEqualItemsToFitTheSpacing() {
    // iOS 13 count 3 with 10 pt spacing in 390: each (390 − 2·10) / 3 = 123.333…, at 0, 133.333…, 266.666…
    var g = Group.horizontal(
      fixedSize(390, 100), subitem: .item(Item(size: fixedSize(50, 100))), count: 3)
    g.interItemSpacing = .fixed(10)
    let r = lay(g, items: 4)
    let w = 370.0 / 3.0
    assertFrame(frame(r, 0), 0, 0, w, 100)
    assertFrame(frame(r, 1), w + 10, 0, w, 100)
    assertFrame(frame(r, 2), 2 * w + 20, 0, w, 100)
    assertFrame(frame(r, 3), 0, 100, w, 100)  // the next group holds the fourth item
    XCTAssertEqual(r.contentSize.height, 200)
    XCTAssertEqual(r.warnings, [])
  }

  func testRepeatingCountKeepsTheItemSize() {
    // iOS 16 repeatingCount 3: 50 pt items at 0, 60, 120, not resized.
    var g = Group.horizontal(
      fixedSize(390, 100), repeatingSubitem: .item(Item(size: fixedSize(50, 100))), count: 3)
    g.interItemSpacing = .fixed(10)
    let r = lay(g, items: 4)
    assertFrame(frame(r, 0), 0, 0, 50, 100)
    assertFrame(frame(r, 1), 60, 0, 50, 100)
    assertFrame(frame(r, 2), 120, 0, 50, 100)
    assertFrame(frame(r, 3), 0, 100, 50, 100)
    // 10 × 50 + 9 × 10 = 590 > 390: placed anyway (overflowing) and reported.
    var wide = Group.horizontal(
      fixedSize(390, 100), repeatingSubitem: .item(Item(size: fixedSize(50, 100))), count: 10)
    wide.interItemSpacing = .fixed(10)
    let r2 = lay(wide, items: 10)
    assertFrame(frame(r2, 9), 540, 0, 50, 100)
    XCTAssertEqual(
      r2.warnings,
      [
        "sections[0].group: repeatingCount 10 needs 590 pt but the group's width is 390 pt; the items overflow"
      ])
  }

  func testFillRepeatsTheSubitemListWhileItFits() {
    // [A 100, B 50] with 10 pt: A 0, B 110, A 170, B 280 (ends 330); the next A would end at 440 > 390.
    var g = Group.horizontal(
      fixedSize(390, 60),
      subitems: [.item(Item(size: fixedSize(100, 60))), .item(Item(size: fixedSize(50, 30)))])
    g.interItemSpacing = .fixed(10)
    let r = lay(g, items: 6)
    assertFrame(frame(r, 0), 0, 0, 100, 60)
    assertFrame(frame(r, 1), 110, 0, 50, 30)
    assertFrame(frame(r, 2), 170, 0, 100, 60)
    assertFrame(frame(r, 3), 280, 0, 50, 30)
    assertFrame(frame(r, 4), 0, 60, 100, 60)
    assertFrame(frame(r, 5), 110, 60, 50, 30)
  }

  func testFlexibleSpacingSharesTheLeftover() {
    // 100 pt items, flexible(10): 3 fit (320 ≤ 390 < 430); leftover 70 over 2 gaps → 45 each: x = 0, 145, 290.
    var g = Group.horizontal(
      fixedSize(390, 100), subitems: [.item(Item(size: fixedSize(100, 100)))])
    g.interItemSpacing = .flexible(10)
    let r = lay(g, items: 3)
    assertFrame(frame(r, 0), 0, 0, 100, 100)
    assertFrame(frame(r, 1), 145, 0, 100, 100)
    assertFrame(frame(r, 2), 290, 0, 100, 100)
  }

  func testEdgeSpacing() {
    // Leading fixed 20 and top/bottom flexible 0 in a 100 pt tall group: footprint 120; 3 fit (360), the 4th
    // would need 480. x = 20, 140, 260; centred vertically: y = (100 − 50) / 2 = 25.
    let item = Item(
      size: fixedSize(100, 50),
      edgeSpacing: EdgeSpacing(leading: .fixed(20), top: .flexible(0), bottom: .flexible(0)))
    let r = lay(.horizontal(fixedSize(390, 100), subitems: [.item(item)]), items: 3)
    assertFrame(frame(r, 0), 20, 25, 100, 50)
    assertFrame(frame(r, 1), 140, 25, 100, 50)
    assertFrame(frame(r, 2), 260, 25, 100, 50)
    // Flexible leading and trailing around one item centre it: (390 − 100) / 2 = 145.
    let centred = Item(
      size: fixedSize(100, 50),
      edgeSpacing: EdgeSpacing(leading: .flexible(0), trailing: .flexible(0)))
    let r2 = lay(
      .horizontal(fixedSize(390, 50), repeatingSubitem: .item(centred), count: 1), items: 1)
    assertFrame(frame(r2, 0), 145, 0, 100, 50)
    // Top flexible only pushes it to the bottom: 100 − 50 = 50.
    let bottom = Item(size: fixedSize(100, 50), edgeSpacing: EdgeSpacing(top: .flexible(0)))
    let r3 = lay(
      .horizontal(fixedSize(390, 100), repeatingSubitem: .item(bottom), count: 1), items: 1)
    assertFrame(frame(r3, 0), 0, 50, 100, 50)
  }

  func testRightToLeftFlipsLeadingAndTrailing() {
    // Mirrors x' = 390 − x − w: leading spacing 20 now sits on the right: 390 − 20 − 100 = 270, then 150, 30.
    let item = Item(size: fixedSize(100, 50), edgeSpacing: EdgeSpacing(leading: .fixed(20)))
    let r = lay(.horizontal(fixedSize(390, 50), subitems: [.item(item)]), items: 3, rtl: true)
    assertFrame(frame(r, 0), 270, 0, 100, 50)
    assertFrame(frame(r, 1), 150, 0, 100, 50)
    assertFrame(frame(r, 2), 30, 0, 100, 50)
    // Leading insets flip too: leading 10, trailing 0 → the cell keeps 10 pt on its right.
    let inset = Item(size: fixedSize(100, 50), contentInsets: DirectionalEdgeInsets(leading: 10))
    let r2 = lay(
      .horizontal(fixedSize(390, 50), repeatingSubitem: .item(inset), count: 1), items: 1, rtl: true
    )
    assertFrame(frame(r2, 0), 290, 0, 90, 50)
  }

  func testContentInsetsShrinkTheFrameExceptOnAnEstimatedAxis() {
    let insets = DirectionalEdgeInsets(top: 10, leading: 10, bottom: 10, trailing: 10)
    let fixed = Item(size: fixedSize(100, 100), contentInsets: insets)
    assertFrame(
      frame(lay(.horizontal(fixedSize(390, 100), subitems: [.item(fixed)]), items: 1), 0), 10, 10,
      80, 80)
    // Estimated height: the vertical insets are ignored, the horizontal ones apply; a lint warning says so.
    let est = Item(
      size: LayoutSize(width: .absolute(100), height: .estimated(60)), contentInsets: insets)
    let r = lay(
      .horizontal(
        LayoutSize(width: .absolute(390), height: .estimated(60)), subitems: [.item(est)]), items: 1
    )
    assertFrame(frame(r, 0), 10, 0, 80, 60)
    XCTAssertEqual(
      r.warnings,
      ["sections[0].group.subitems[0].contentInsets: ignored on the estimated height axis"])
  }

  func testUniformAcrossSiblingsGrowsToTheTallest() {
    // Measured 30, 70, 50 → every item 70; the row is 70 tall.
    let item = Item(
      size: LayoutSize(
        width: .fractionalWidth(1.0 / 3.0), height: .uniformAcrossSiblings(estimate: 40)))
    let g = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(40)), repeatingSubitem: .item(item),
      count: 3)
    let heights: [Double] = [30, 70, 50, 20]
    let r = lay(
      g, items: 4,
      sizing: ClosureSizingSource { p, s in Size(width: s.width, height: heights[p.item]) })
    for i in 0..<3 { assertFrame(frame(r, i), 130 * Double(i), 0, 130, 70, "item \(i)") }
    assertFrame(frame(r, 3), 0, 70, 130, 20)
  }

  func testCustomGroup() {
    let g = Group.custom(fixedSize(390, 120)) { _ in
      [Rect(x: 0, y: 0, width: 100, height: 100), Rect(x: 110, y: 10, width: 50, height: 50)]
    }
    let r = lay(g, items: 3)
    assertFrame(frame(r, 0), 0, 0, 100, 100)
    assertFrame(frame(r, 1), 110, 10, 50, 50)
    assertFrame(frame(r, 2), 0, 120, 100, 100)
    XCTAssertEqual(r.contentSize.height, 240)
  }

  func testNestedGroups() {
    // Horizontal 390 × 200: [item ½ × 1] + [vertical ½ × 1 of items 1 × ½ (two fit)].
    let big = Item(size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)))
    let small = Item(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(0.5)))
    let column = Group.vertical(
      LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)),
      subitems: [.item(small)])
    let g = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .absolute(200)),
      subitems: [.item(big), .group(column)])
    let r = lay(g, items: 5)
    assertFrame(frame(r, 0), 0, 0, 195, 200)
    assertFrame(frame(r, 1), 195, 0, 195, 100)
    assertFrame(frame(r, 2), 195, 100, 195, 100)
    assertFrame(frame(r, 3), 0, 200, 195, 200)
    assertFrame(frame(r, 4), 195, 200, 195, 100)
  }

  func testItemAnchoredBadges() {
    // Badge 20 × 20, container anchor top-trailing with fractional offset (0.3, −0.3): the item's top-right
    // corner (100, 0) moved by (6, −6); the badge's own top-right corner goes there → origin (86, −6).
    let badge = SupplementaryItem(
      kind: "badge", size: fixedSize(20, 20),
      containerAnchor: Anchor(
        edges: [.top, .trailing], offset: Point(x: 0.3, y: -0.3), isFractional: true))
    // Item anchor bottom-leading: the badge's bottom-left corner sits on the item's top-right corner.
    let flag = SupplementaryItem(
      kind: "flag", size: fixedSize(20, 10), containerAnchor: Anchor(edges: [.top, .trailing]),
      itemAnchor: Anchor(edges: [.bottom, .leading]))
    let item = Item(size: fixedSize(100, 100), supplementaryItems: [badge, flag])
    let r = lay(.horizontal(fixedSize(390, 120), subitems: [.item(item)]), items: 2)
    let badges = supplementaries(r, kind: "badge")
    XCTAssertEqual(badges.map(\.indexPath.item), [0, 1])
    assertFrame(badges.first?.frame, 86, -6, 20, 20)
    assertFrame(badges.last?.frame, 186, -6, 20, 20)
    assertFrame(supplementaries(r, kind: "flag").first?.frame, 100, -10, 20, 10)
    XCTAssertEqual(badges.first?.zIndex, 1)
  }

  func testEstimatedGroupTakesTheTallestMeasuredItem() {
    let item = Item(size: LayoutSize(width: .absolute(187), height: .estimated(350)))
    var g = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(350)), subitems: [.item(item)])
    g.interItemSpacing = .fixed(1)
    let heights: [Double] = [300, 402, 280, 290]
    let r = lay(
      g, items: 4,
      sizing: ClosureSizingSource { p, s in Size(width: s.width, height: heights[p.item]) })
    assertFrame(frame(r, 0), 0, 0, 187, 300)
    assertFrame(frame(r, 1), 188, 0, 187, 402)
    assertFrame(frame(r, 2), 0, 402, 187, 280)  // row 1 starts below the tallest of row 0
    assertFrame(frame(r, 3), 188, 402, 187, 290)
    XCTAssertEqual(r.contentSize.height, 402 + 290)
  }
}
