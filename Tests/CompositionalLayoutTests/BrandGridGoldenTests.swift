@testable import GalleyRecords
import Foundation
import XCTest

@testable import CompositionalLayout

/// Golden (b): a brand grid, 3 rows × 3 columns per page, group paging, under a 40 pt header; its height follows
/// the rows that exist. Worked out by hand.
///
/// Container 390 wide; section insets top 8, leading 15, bottom 8, trailing 15 → content width 360.
/// Item: fractionalWidth(1/3) × estimated(50) → 120 wide. Row: horizontal, fractionalWidth(1) × estimated(50),
/// repeatingCount 3 (iOS 16, not resized): 3 × 120 = 360 fits. Page: vertical, fractionalWidth(1) × estimated(150),
/// repeatingCount 3 rows with 8 pt fixed spacing. interGroupSpacing 10 between pages.
/// Header: fractionalWidth(1) × 40 at x = 15, y = 0; content starts at 40 + 8 = 48.
/// Measured heights by item: 60 70 65 | 80 62 61 | 55 58 90 | 64 60 63 → row heights (max of the row's items):
/// row0 70, row1 80, row2 90, row3 64. Row tops inside a page: 0, 70 + 8 = 78, 78 + 80 + 8 = 166.
/// The next section (one 390 × 100 item) starts right at the grid's end.
final class BrandGridGoldenTests: XCTestCase {
  static let heights: [Double] = [60, 70, 65, 80, 62, 61, 55, 58, 90, 64, 60, 63]

  static func layout() -> CollectionLayout {
    let item = Item(size: LayoutSize(width: .fractionalWidth(1.0 / 3.0), height: .estimated(50)))
    let row = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(50)), repeatingSubitem: .item(item),
      count: 3)
    var page = Group.vertical(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(150)),
      repeatingSubitem: .group(row), count: 3)
    page.interItemSpacing = .fixed(8)
    var grid = Section(
      group: page,
      contentInsets: DirectionalEdgeInsets(top: 8, leading: 15, bottom: 8, trailing: 15),
      interGroupSpacing: 10, orthogonalScrollingBehavior: .groupPaging)
    grid.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(40)),
        alignment: .top)
    ]
    let next = Section(
      group: .horizontal(fixedSize(390, 100), subitems: [.item(Item(size: fixedSize(390, 100)))]))
    let sections = [grid, next]
    return CollectionLayout { i, _ in sections[i] }
  }

  /// Section 0's expected height for `n` items: 48 + tallest page + 8.
  static func expectedExtent(_ n: Int) -> Double {
    switch n {
    case 0: return 40 + 8 + 0 + 8  // header and insets only: 56
    case 1: return 48 + 60 + 8  // one row holding item 0 (60): 116
    case 3: return 48 + 70 + 8  // row0 = max(60, 70, 65): 126
    case 4, 6: return 48 + (70 + 8 + 80) + 8  // row1 = 80 whether it holds 1 or 3 items: 214
    // Page 0 full (256); page 1 (row3: 64) is lower: 312.
    case 9, 12: return 48 + (70 + 8 + 80 + 8 + 90) + 8
    default: fatalError("no hand-computed value for \(n)")
    }
  }

  func run(_ n: Int) -> LayoutResult {
    let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844), displayScale: 3)
    var sizing = SelfSizingLayout(layout: Self.layout(), itemCounts: [n, 1], environment: env)
    _ = sizing.measureAll { path, proposed in
      XCTAssertEqual(proposed.width, 120, accuracy: 1e-9)
      XCTAssertTrue(proposed.heightIsEstimated)
      return Size(width: proposed.width, height: path.section == 0 ? Self.heights[path.item] : 100)
    }
    return sizing.result
  }

  func testHeightFollowsTheRowsThatExist() {
    for n in [0, 1, 3, 4, 6, 9, 12] {
      let r = run(n)
      let extent = Self.expectedExtent(n)
      assertFrame(r.sectionFrames[0], 0, 0, 390, extent, "n = \(n)")
      assertFrame(
        supplementaries(r, kind: "header").first?.frame, 15, 0, 360, 40, "header, n = \(n)")
      // The next section starts right below.
      assertFrame(
        r.attributes(at: ItemPath(section: 1, item: 0))?.frame, 0, extent, 390, 100,
        "next, n = \(n)")
      XCTAssertEqual(r.contentSize.height, extent + 100, "n = \(n)")
      // Every item: page p = i / 9, row = (i % 9) / 3, column = i % 3; x = 15 + 370p + 120c, y = 48 + rowTop.
      let rowTops: [Double] = [0, 78, 166]
      for i in 0..<n {
        let p = Double(i / 9)
        let x = 15 + 370 * p + 120 * Double(i % 3)
        let y = 48 + rowTops[(i % 9) / 3]
        assertFrame(
          r.attributes(at: ItemPath(section: 0, item: i))?.frame, x, y, 120, Self.heights[i],
          "n = \(n), item \(i)")
      }
    }
  }

  func testGroupPagingOffsets() {
    // n = 12: pages at x = 15 and 15 + 360 + 10 = 385; content width 15 + 360 + 10 + 360 + 15 = 760;
    // group paging rests each page's leading edge on the leading inset: offsets 0 and 385 − 15 = 370
    // (= 760 − 390, the largest offset).
    let r = run(12)
    XCTAssertEqual(r.orthogonalSections.first?.contentWidth, 760)
    XCTAssertEqual(r.orthogonalSections.first?.pageOffsets, [0, 370])
    // n = 9: one page, content width 15 + 360 + 15 = 390: nothing to scroll.
    XCTAssertEqual(run(9).orthogonalSections.first?.pageOffsets, [0])
  }

  func testSameThroughJSONItemSizes() throws {
    // The 4-item case through the JSON form, with the measured heights as itemSizes.
    let spec = """
      {"container": {"width": 390, "height": 844, "scale": 3},
       "sections": [
        {"items": 4,
         "group": {"axis": "vertical", "repeatingCount": 3, "interItemSpacing": {"fixed": 8},
                   "size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 150}},
                   "subitems": [{"group": {"axis": "horizontal", "repeatingCount": 3,
                      "size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 50}},
                      "subitems": [{"item": {"size": {"width": {"fractionalWidth": 0.3333333333333333}, "height": {"estimated": 50}}}}]}}]},
         "contentInsets": {"top": 8, "leading": 15, "bottom": 8, "trailing": 15},
         "interGroupSpacing": 10, "orthogonalScrollingBehavior": "groupPaging",
         "boundarySupplementaryItems": [{"kind": "header", "alignment": "top",
            "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 40}}}],
         "itemSizes": [{"index": 0, "height": 60}, {"index": 1, "height": 70}, {"index": 2, "height": 65},
                       {"index": 3, "height": 80}]},
        {"items": 1, "group": {"axis": "horizontal", "size": {"width": {"absolute": 390}, "height": {"absolute": 100}},
                  "subitems": [{"item": {"size": {"width": {"absolute": 390}, "height": {"absolute": 100}}}}]}}
       ]}
      """
    let r = try LayoutSpec(json: Data(spec.utf8)).layoutResult()
    assertFrame(r.attributes(at: ItemPath(section: 1, item: 0))?.frame, 0, 214, 390, 100)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 3))?.frame, 15, 48 + 78, 120, 80)
    // The lint reports the estimated sizes inside an orthogonal section.
    XCTAssertTrue(r.warnings.contains { $0.contains("orthogonally scrolling") }, "\(r.warnings)")
  }
}
