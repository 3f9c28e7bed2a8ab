import XCTest

@testable import CompositionalLayout

/// `elements(in:)` and `attributes(at:)` against brute force on a mixed layout.
final class QueryTests: XCTestCase {
  static func mixedLayout() -> LayoutResult {
    let badge = SupplementaryItem(
      kind: "badge", size: fixedSize(16, 16), containerAnchor: Anchor(edges: [.top, .trailing]))
    let small = Item(
      size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(0.5)),
      supplementaryItems: [badge])
    let big = Item(size: LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)))
    let column = Group.vertical(
      LayoutSize(width: .fractionalWidth(0.5), height: .fractionalHeight(1)),
      subitems: [
        .item(Item(size: LayoutSize(width: .fractionalWidth(1), height: .fractionalHeight(0.5))))
      ])
    let mosaic = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .absolute(240)),
      subitems: [.item(big), .group(column)])
    let carousel = Group.horizontal(
      fixedSize(150, 90), subitems: [.item(Item(size: fixedSize(150, 90)))])
    let grid = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .absolute(120)), subitems: [.item(small)])
    let header = BoundarySupplementaryItem(
      kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(44)),
      alignment: .top)
    let background = DecorationItem(kind: "background")
    let sections: [Section] = [
      Section(
        group: mosaic, interGroupSpacing: 4, boundarySupplementaryItems: [header],
        decorationItems: [background]),
      Section(
        group: carousel,
        contentInsets: DirectionalEdgeInsets(top: 8, leading: 16, bottom: 8, trailing: 16),
        interGroupSpacing: 8, orthogonalScrollingBehavior: .continuous,
        boundarySupplementaryItems: [header]),
      Section(group: grid, interGroupSpacing: 2, decorationItems: [background]),
    ]
    let layout = CollectionLayout(configuration: LayoutConfiguration(interSectionSpacing: 12)) {
      i, _ in sections[i % 3]
    }
    return layout.layout(
      itemCounts: [300, 40, 500, 7, 3, 0],
      environment: LayoutEnvironment(containerSize: Size(width: 390, height: 844)))
  }

  func testElementsInRectMatchesBruteForceOnRandomRects() {
    let r = Self.mixedLayout()
    let all = r.allAttributes
    XCTAssertEqual(all.count, r.cells.count + r.supplementaryElements.count)
    var rng = TestRNG(3)
    for k in 0..<400 {
      let rect: Rect
      if k % 4 == 0 {
        // A screen.
        rect = Rect(x: 0, y: rng.double(-500, r.contentSize.height + 500), width: 390, height: 844)
      } else {
        rect = Rect(
          x: rng.double(-200, 2000), y: rng.double(-500, r.contentSize.height + 500),
          width: rng.double(0, 800),
          height: rng.double(0, 3000))
      }
      let fast = r.elements(in: rect)
      let slow = all.filter { $0.frame.intersects(rect) }
      XCTAssertEqual(fast.count, slow.count, "\(rect)")
      XCTAssertEqual(Set(fast), Set(slow), "\(rect)")
    }
    // An empty layout answers nothing.
    let empty = CollectionLayout(
      section: Section(
        group: .horizontal(fixedSize(1, 1), subitems: [.item(Item(size: fixedSize(1, 1)))]))
    )
    .layout(
      itemCounts: [], environment: LayoutEnvironment(containerSize: Size(width: 390, height: 844)))
    XCTAssertEqual(empty.elements(in: Rect(x: 0, y: 0, width: 390, height: 844)), [])
  }

  func testAttributesAtIndexPath() {
    let r = Self.mixedLayout()
    XCTAssertEqual(r.numberOfSections, 6)
    var seen = 0
    for s in 0..<r.numberOfSections {
      for i in 0..<r.numberOfItems(inSection: s) {
        let a = r.attributes(at: ItemPath(section: s, item: i))
        XCTAssertEqual(a?.indexPath, ItemPath(section: s, item: i))
        XCTAssertEqual(a?.category, .cell)
        seen += 1
      }
    }
    XCTAssertEqual(seen, 850)
    XCTAssertNil(r.attributes(at: ItemPath(section: 0, item: 300)))
    XCTAssertNil(r.attributes(at: ItemPath(section: 6, item: 0)))
    XCTAssertNil(r.attributes(at: ItemPath(section: -1, item: 0)))
    // Mosaic: item 0 is the big left tile, items 1 and 2 stack on the right; group 1 starts at 44 + 240 + 4.
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 0))?.frame, 0, 44, 195, 240)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 2))?.frame, 195, 164, 195, 120)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 3))?.frame, 0, 288, 195, 240)
  }

  func testElementsInRectRightToLeftAndHorizontal() {
    let item = Item(
      size: LayoutSize(width: .fractionalWidth(1), height: .absolute(70)),
      supplementaryItems: [
        SupplementaryItem(
          kind: "dot", size: fixedSize(8, 8), containerAnchor: Anchor(edges: [.leading]))
      ])
    let g = Group.vertical(
      LayoutSize(width: .absolute(120), height: .fractionalHeight(1)), subitems: [.item(item)])
    var s = Section(group: g, interGroupSpacing: 6, decorationItems: [DecorationItem(kind: "bg")])
    s.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "side", size: LayoutSize(width: .absolute(30), height: .fractionalHeight(1)),
        alignment: .leading)
    ]
    let layout = CollectionLayout(
      section: s,
      configuration: LayoutConfiguration(scrollDirection: .horizontal, interSectionSpacing: 9))
    var env = LayoutEnvironment(containerSize: Size(width: 390, height: 500))
    env.layoutDirection = .rightToLeft
    let r = layout.layout(itemCounts: [100, 37, 0, 64], environment: env)
    let all = r.allAttributes
    var rng = TestRNG(8)
    for _ in 0..<300 {
      let rect = Rect(
        x: rng.double(-100, r.contentSize.width + 100), y: rng.double(-100, 600),
        width: rng.double(0, 900),
        height: rng.double(0, 400))
      XCTAssertEqual(
        Set(r.elements(in: rect)), Set(all.filter { $0.frame.intersects(rect) }), "\(rect)")
    }
    // Right-to-left with horizontal scrolling: the first group is at the far right of the content.
    let first = r.attributes(at: ItemPath(section: 0, item: 0))!.frame
    XCTAssertEqual(first.maxX, r.contentSize.width - 30, accuracy: 1e-9)
  }
}
