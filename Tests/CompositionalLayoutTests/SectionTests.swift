import XCTest

@testable import CompositionalLayout

/// Section and configuration semantics, worked out by hand. Container 390 × 844.
final class SectionTests: XCTestCase {
  let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844), displayScale: 3)

  func column(_ itemHeight: Double) -> Group {
    .vertical(
      LayoutSize(width: .fractionalWidth(1), height: .absolute(itemHeight)),
      subitems: [
        .item(Item(size: LayoutSize(width: .fractionalWidth(1), height: .absolute(itemHeight))))
      ])
  }

  func testPinnedHeadersStickWithinTheirSection() {
    // Each section: 40 pt pinned header + 10 × 100 pt items → extent 1040; section 1 spans 1040…2080.
    var s = Section(group: column(100))
    s.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(40)),
        alignment: .top,
        pinToVisibleBounds: true)
    ]
    let r = CollectionLayout(section: s).layout(itemCounts: [10, 10], environment: env)
    func pinned(_ y: Double) -> [Double] {
      r.pinnedElements(visibleRect: Rect(x: 0, y: y, width: 390, height: 844)).map(\.frame.minY)
    }
    XCTAssertEqual(pinned(0), [0, 1040])  // at rest
    XCTAssertEqual(pinned(500), [500, 1040])  // header 0 follows the top
    XCTAssertEqual(pinned(1020), [1000, 1040])  // pushed up by its section's end: 1040 − 40
    XCTAssertEqual(pinned(1500), [1000, 1500])  // header 1 pinned
    // The unpinned frames stay in the attributes.
    XCTAssertEqual(supplementaries(r, kind: "header").map(\.frame.minY), [0, 1040])
  }

  func testPinnedHeaderRightToLeftHorizontal() {
    // Horizontal scrolling, right to left: each section is a 40 pt leading header + 5 × 100 pt columns = 540 wide;
    // two sections → content 1080; mirrored, section 0 spans 540…1080 with its header at 1040…1080.
    let item = Item(size: LayoutSize(width: .absolute(100), height: .fractionalHeight(1)))
    var s = Section(
      group: .horizontal(
        LayoutSize(width: .absolute(100), height: .fractionalHeight(1)), subitems: [.item(item)]))
    s.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .absolute(40), height: .fractionalHeight(1)),
        alignment: .leading,
        pinToVisibleBounds: true)
    ]
    var e = env
    e.layoutDirection = .rightToLeft
    let r = CollectionLayout(
      section: s, configuration: LayoutConfiguration(scrollDirection: .horizontal)
    )
    .layout(itemCounts: [5, 5], environment: e)
    XCTAssertEqual(r.contentSize.width, 1080)
    XCTAssertEqual(supplementaries(r, kind: "header").map(\.frame.minX), [1040, 500])
    // Visible 390 wide ending at x = 900 (scrolled from the right end by 180): header 0 sticks to 900 − 40.
    let pinned = r.pinnedElements(visibleRect: Rect(x: 510, y: 0, width: 390, height: 844)).map(
      \.frame.minX)
    XCTAssertEqual(pinned, [860, 500])
    // Scrolled far: header 0 stops at its section's left end (540); header 1 follows the right edge (400 − 40).
    XCTAssertEqual(
      r.pinnedElements(visibleRect: Rect(x: 10, y: 0, width: 390, height: 844)).map(\.frame.minX),
      [540, 360])
  }

  func testPinnedFooterSticksToTheBottom() {
    // 10 × 100 items then a 30 pt footer at 1000; visible 0…844 → footer at 844 − 30 = 814.
    var s = Section(group: column(100))
    s.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "footer", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(30)),
        alignment: .bottom,
        pinToVisibleBounds: true)
    ]
    let r = CollectionLayout(section: s).layout(itemCounts: [10], environment: env)
    assertFrame(supplementaries(r, kind: "footer").first?.frame, 0, 1000, 390, 30)
    assertFrame(
      r.pinnedElements(visibleRect: Rect(x: 0, y: 0, width: 390, height: 844)).first?.frame, 0, 814,
      390, 30)
    assertFrame(
      r.pinnedElements(visibleRect: Rect(x: 0, y: 500, width: 390, height: 844)).first?.frame, 0,
      1000, 390, 30)
  }

  /// 300 × 100 groups, 4 items, insets leading/trailing 16, interGroupSpacing 10: groups at x = 16, 326, 636, 946;
  /// content width 16 + 4 · 300 + 3 · 10 + 16 = 1262; the largest offset 1262 − 390 = 872.
  func orthogonal(_ b: OrthogonalScrollingBehavior) -> LayoutResult {
    let g = Group.horizontal(
      fixedSize(300, 100), subitems: [.item(Item(size: fixedSize(300, 100)))])
    let s = Section(
      group: g, contentInsets: DirectionalEdgeInsets(leading: 16, trailing: 16),
      interGroupSpacing: 10,
      orthogonalScrollingBehavior: b)
    return CollectionLayout(section: s).layout(itemCounts: [4], environment: env)
  }

  func testOrthogonalPageOffsetsForEveryBehaviour() {
    let expected: [OrthogonalScrollingBehavior: [Double]] = [
      .continuous: [],
      // Leading edges minus the leading inset: 0, 310, 620, 930 → the last clamped to 872.
      .continuousGroupLeadingBoundary: [0, 310, 620, 872],
      .groupPaging: [0, 310, 620, 872],
      // Multiples of the visible width below 872, then 872.
      .paging: [0, 390, 780, 872],
      // Group centres (166, 476, 786, 1096) minus half the width (195).
      .groupPagingCentered: [-29, 281, 591, 901],
    ]
    for b in OrthogonalScrollingBehavior.allCases where b != .none {
      let r = orthogonal(b)
      XCTAssertEqual(r.orthogonalSections.first?.contentWidth, 1262, "\(b)")
      XCTAssertEqual(r.orthogonalSections.first?.pageOffsets, expected[b], "\(b)")
      XCTAssertEqual(r.orthogonalSections.first?.behavior, b)
      for i in 0..<4 {
        assertFrame(
          r.attributes(at: ItemPath(section: 0, item: i))?.frame, 16 + 310 * Double(i), 0, 300, 100,
          "\(b) \(i)")
      }
      XCTAssertEqual(r.contentSize.height, 100)
    }
    // Not orthogonal: the groups stack vertically and there is no scroll info.
    let none = orthogonal(.none)
    XCTAssertTrue(none.orthogonalSections.isEmpty)
    // y = 3 · (100 + 10).
    assertFrame(none.attributes(at: ItemPath(section: 0, item: 3))?.frame, 16, 330, 300, 100)
  }

  func testBackgroundDecorationCoversTheSectionBelowTheItems() {
    // Header 50, insets 10 all round, 2 items of 100 → extent 50 + 10 + 200 + 10 = 270; background inset 5.
    var s = Section(
      group: column(100),
      contentInsets: DirectionalEdgeInsets(top: 10, leading: 10, bottom: 10, trailing: 10))
    s.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(50)),
        alignment: .top)
    ]
    s.decorationItems = [
      DecorationItem(
        kind: "background",
        contentInsets: DirectionalEdgeInsets(top: 5, leading: 5, bottom: 5, trailing: 5))
    ]
    let r = CollectionLayout(section: s).layout(itemCounts: [2], environment: env)
    // Header resolves against the content width 370 and sits at the leading inset.
    assertFrame(supplementaries(r, kind: "header").first?.frame, 10, 0, 370, 50)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 0))?.frame, 10, 60, 370, 100)
    let bg = supplementaries(r, kind: "background").first
    assertFrame(bg?.frame, 5, 5, 380, 260)
    XCTAssertEqual(bg?.category, .decoration)
    XCTAssertLessThan(bg?.zIndex ?? 0, 0)
  }

  func testHeadersCanIgnoreTheSectionInsets() {
    // supplementariesFollowContentInsets = false: the header spans the full 390 pt from x = 0.
    var s = Section(
      group: column(100),
      contentInsets: DirectionalEdgeInsets(top: 10, leading: 10, bottom: 10, trailing: 10))
    s.supplementariesFollowContentInsets = false
    s.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(50)),
        alignment: .top),
      BoundarySupplementaryItem(kind: "tag", size: fixedSize(60, 20), alignment: .bottomTrailing),
    ]
    let r = CollectionLayout(section: s).layout(itemCounts: [1], environment: env)
    assertFrame(supplementaries(r, kind: "header").first?.frame, 0, 0, 390, 50)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 0))?.frame, 10, 60, 370, 100)
    // The footer-aligned tag follows the bottom inset: 50 + 10 + 100 + 10 = 170, at the trailing edge 390 − 60.
    assertFrame(supplementaries(r, kind: "tag").first?.frame, 330, 170, 60, 20)
  }

  func testHeaderThatDoesNotExtendTheBoundaryOverlapsTheContent() {
    var s = Section(group: column(100))
    s.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "overlay", size: LayoutSize(width: .absolute(100), height: .absolute(30)),
        alignment: .topTrailing,
        offset: Point(x: -8, y: 8), extendsBoundary: false)
    ]
    let r = CollectionLayout(section: s).layout(itemCounts: [2], environment: env)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 0))?.frame, 0, 0, 390, 100)
    assertFrame(supplementaries(r, kind: "overlay").first?.frame, 390 - 100 - 8, 8, 100, 30)
    XCTAssertEqual(r.contentSize.height, 200)
  }

  func testGlobalHeaderFooterAndInterSectionSpacing() {
    // Global header 60, section 0 (2 × 100), 20 spacing, section 1 (1 × 100), global footer 40.
    let config = LayoutConfiguration(
      interSectionSpacing: 20,
      boundarySupplementaryItems: [
        BoundarySupplementaryItem(
          kind: "top", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(60)),
          alignment: .top),
        BoundarySupplementaryItem(
          kind: "bottom", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(40)),
          alignment: .bottom),
      ])
    let r = CollectionLayout(section: Section(group: column(100)), configuration: config).layout(
      itemCounts: [2, 1], environment: env)
    assertFrame(supplementaries(r, kind: "top").first?.frame, 0, 0, 390, 60)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 1))?.frame, 0, 160, 390, 100)
    // y = 60 + 200 + 20.
    assertFrame(r.attributes(at: ItemPath(section: 1, item: 0))?.frame, 0, 280, 390, 100)
    assertFrame(supplementaries(r, kind: "bottom").first?.frame, 0, 380, 390, 40)
    XCTAssertEqual(r.contentSize, Size(width: 390, height: 420))
    XCTAssertEqual(supplementaries(r, kind: "top").first?.scope, .global)
  }

  func testHorizontalScrollDirection() {
    // Groups 100 × fractionalHeight(1) = 844 tall, holding 200 pt items: 4 fit (800), 5 would need 1000.
    let item = Item(size: LayoutSize(width: .fractionalWidth(1), height: .absolute(200)))
    let g = Group.vertical(
      LayoutSize(width: .absolute(100), height: .fractionalHeight(1)), subitems: [.item(item)])
    let r = CollectionLayout(
      section: Section(group: g, interGroupSpacing: 10),
      configuration: LayoutConfiguration(scrollDirection: .horizontal)
    )
    .layout(itemCounts: [6], environment: env)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 3))?.frame, 0, 600, 100, 200)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 4))?.frame, 110, 0, 100, 200)
    XCTAssertEqual(r.contentSize, Size(width: 210, height: 844))
    // elements(in:) works along x.
    XCTAssertEqual(
      r.elements(in: Rect(x: 105, y: 0, width: 10, height: 844)).map(\.indexPath.item).sorted(),
      [4, 5])
  }

  func testOrthogonalSectionInAHorizontalLayoutScrollsVertically() {
    // Groups 100 × 300 flow down from the top inset 20 with 10 between: y = 20, 330, 640, 950; the scrollable
    // extent 20 + 4 · 300 + 3 · 10 + 20 = 1270 against 844 visible → largest offset 426; group paging rests at
    // 0, 310, then 620 and 930 clamp to 426.
    let g = Group.horizontal(
      fixedSize(100, 300), subitems: [.item(Item(size: fixedSize(100, 300)))])
    let s = Section(
      group: g, contentInsets: DirectionalEdgeInsets(top: 20, bottom: 20), interGroupSpacing: 10,
      orthogonalScrollingBehavior: .groupPaging)
    let r = CollectionLayout(
      section: s, configuration: LayoutConfiguration(scrollDirection: .horizontal)
    )
    .layout(itemCounts: [4], environment: env)
    XCTAssertEqual(r.orthogonalSections.first?.contentWidth, 1270)
    XCTAssertEqual(r.orthogonalSections.first?.visibleWidth, 844)
    XCTAssertEqual(r.orthogonalSections.first?.pageOffsets, [0, 310, 426])
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 2))?.frame, 0, 640, 100, 300)
    XCTAssertEqual(r.contentSize, Size(width: 100, height: 844))
  }

  func testBoundaryItemsInAHorizontalLayout() {
    // Leading header 50 wide (before the content along x), trailing footer 30 wide (after), a top-aligned tag
    // beside the content (at its start, not extending). Columns of 4 × 200 pt items: 6 items → columns at
    // x = 50 and 150; content ends at 250; footer 250…280.
    let item = Item(size: LayoutSize(width: .fractionalWidth(1), height: .absolute(200)))
    var s = Section(
      group: .vertical(
        LayoutSize(width: .absolute(100), height: .fractionalHeight(1)), subitems: [.item(item)]))
    s.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .absolute(50), height: .fractionalHeight(1)),
        alignment: .leading),
      BoundarySupplementaryItem(
        kind: "footer", size: LayoutSize(width: .absolute(30), height: .fractionalHeight(1)),
        alignment: .trailing),
      BoundarySupplementaryItem(kind: "tag", size: fixedSize(80, 20), alignment: .top),
    ]
    let r = CollectionLayout(
      section: s, configuration: LayoutConfiguration(scrollDirection: .horizontal)
    )
    .layout(itemCounts: [6], environment: env)
    assertFrame(supplementaries(r, kind: "header").first?.frame, 0, 0, 50, 844)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 0))?.frame, 50, 0, 100, 200)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 5))?.frame, 150, 200, 100, 200)
    assertFrame(supplementaries(r, kind: "footer").first?.frame, 250, 0, 30, 844)
    assertFrame(supplementaries(r, kind: "tag").first?.frame, 50, 0, 80, 20)
    XCTAssertEqual(r.contentSize, Size(width: 280, height: 844))
  }

  func testSectionProviderSeesTheEnvironment() {
    // Two columns normally, one at accessibility sizes; the provider also gets the section index.
    let layout = CollectionLayout { index, env in
      let columns = env.contentSizeCategory.isAccessibilityCategory ? 1 : 2
      let item = Item(
        size: LayoutSize(
          width: .fractionalWidth(1.0 / Double(columns)), height: .absolute(50 + 10 * Double(index))
        ))
      return Section(
        group: .horizontal(
          LayoutSize(width: .fractionalWidth(1), height: .absolute(50 + 10 * Double(index))),
          subitems: [.item(item)]))
    }
    var e = env
    let normal = layout.layout(itemCounts: [2, 2], environment: e)
    assertFrame(normal.attributes(at: ItemPath(section: 0, item: 1))?.frame, 195, 0, 195, 50)
    assertFrame(normal.attributes(at: ItemPath(section: 1, item: 1))?.frame, 195, 50, 195, 60)
    e.contentSizeCategory = .accessibilityLarge
    let large = layout.layout(itemCounts: [2, 2], environment: e)
    assertFrame(large.attributes(at: ItemPath(section: 0, item: 1))?.frame, 0, 50, 390, 50)
    assertFrame(large.attributes(at: ItemPath(section: 1, item: 0))?.frame, 0, 100, 390, 60)
  }

  func testContainerInsetsNarrowTheContent() {
    var e = env
    e.containerInsets = DirectionalEdgeInsets(leading: 20, trailing: 30)
    let r = CollectionLayout(section: Section(group: column(100))).layout(
      itemCounts: [1], environment: e)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 0))?.frame, 20, 0, 340, 100)
  }

  func testVisualDescription() {
    let r = orthogonal(.groupPaging)
    let text = r.visualDescription(section: 0)
    XCTAssertTrue(text.hasPrefix("section 0 frame [0, 0, 390, 100] items 4\n"), text)
    XCTAssertTrue(
      text.contains("orthogonal groupPaging contentWidth 1262 pageOffsets [0, 310, 620, 872]"), text
    )
    XCTAssertTrue(text.contains("cell [0, 1] [326, 0, 300, 100]"), text)
    // The sketch: 40 columns of 9.75 pt. Cell 0 covers columns round(16 / 9.75) = 2 up to round(316 / 9.75) = 32
    // (exclusive): "[", 28 "=", "]"; column 32 is empty; cell 1 starts at round(326 / 9.75) = 33 and runs off
    // the right edge, so it has no closing bracket.
    XCTAssertTrue(
      text.contains("  |..[" + String(repeating: "=", count: 28) + "].[======| y=0\n"), text)
    XCTAssertEqual(r.visualDescription(section: 3), "no section 3\n")
  }
}
