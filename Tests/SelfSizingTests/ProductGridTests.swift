import CompositionalLayout
import Foundation
import SelfSizing
import Typesetting
import XCTest

/// The brand-grid and product-grid cases of the layout work, driven by real product-card texts
/// measured with the text engine instead of given sizes.
final class ProductGridTests: XCTestCase {
  static let titles = Fixtures.productTitles()

  func card(_ i: Int, width: Double, badge: Bool) throws -> ProductCardCell {
    let (title, lang) = ProductGridTests.titles[i % ProductGridTests.titles.count]
    var style = TextStyle(fonts: try Fixtures.library.defaultStack(), size: 15)
    style.language = lang
    var c = ProductCardCell(width: width, title: title, titleStyle: style)
    c.price = "\(39 + i),000원"
    if i % 2 == 0 { c.originalPrice = "\(52 + i),000원" }
    if badge && i % 3 == 0 { c.badge = "오늘 마감" }
    return c
  }

  /// 3 rows × 3 columns per page, group paging, under a 40 pt header; the section's height follows
  /// the rows that exist, whatever their measured heights.
  func testBrandGridHeightFollowsMeasuredRows() throws {
    let item = Item(size: LayoutSize(width: .fractionalWidth(1.0 / 3.0), height: .estimated(50)))
    let row = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(50)), repeatingSubitem: .item(item),
      count: 3)
    var page = Group.vertical(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(150)),
      repeatingSubitem: .group(row),
      count: 3)
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
      group: .horizontal(
        LayoutSize(width: .absolute(390), height: .absolute(100)),
        subitems: [.item(Item(size: LayoutSize(width: .absolute(390), height: .absolute(100))))]))
    let sections = [grid, next]
    let layout = CollectionLayout { i, _ in sections[i] }
    let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844), displayScale: 3)
    for n in [0, 1, 3, 4, 6, 9, 12] {
      var heights: [Double] = []
      for i in 0..<n {
        heights.append(
          try CellSizer.shared.measure(try card(i, width: 120, badge: true)).size.height)
      }
      var sizing = SelfSizingLayout(layout: layout, itemCounts: [n, 1], environment: env)
      _ = sizing.measureAll { path, proposed in
        guard path.section == 0 else { return Size(width: 390, height: 100) }
        var c = try! self.card(path.item, width: proposed.width, badge: true)
        c.width = proposed.width
        let m = try! CellSizer.shared.measure(c)
        return Size(width: m.size.width, height: m.size.height)
      }
      let r = sizing.result
      // Rows of the first page that exist, each as tall as its tallest card.
      var rows: [Double] = []
      for rowStart in stride(from: 0, to: min(n, 9), by: 3) {
        rows.append(heights[rowStart..<min(n, rowStart + 3)].max()!)
      }
      var tallestPage = rows.reduce(0, +) + 8 * Double(max(0, rows.count - 1))
      if n > 9 {
        let second = heights[9..<n].max()!
        tallestPage = max(tallestPage, second)
      }
      let extent = 40 + 8 + tallestPage + 8
      XCTAssertEqual(r.sectionFrames[0].height, extent, accuracy: 1e-9, "n = \(n)")
      let nextFrame = r.attributes(at: ItemPath(section: 1, item: 0))!.frame
      XCTAssertEqual(
        nextFrame.minY, extent, accuracy: 1e-9, "the next section starts right below, n = \(n)")
      for i in 0..<n {
        XCTAssertEqual(
          r.attributes(at: ItemPath(section: 0, item: i))!.frame.height, heights[i], accuracy: 1e-9)
      }
    }
  }

  /// Two 187-wide cards per row (1 pt apart) under a 200 pt header; rows follow the measured cards.
  func testProductGridWithMeasuredCards() throws {
    let item = Item(size: LayoutSize(width: .absolute(187), height: .estimated(350)))
    var rowGroup = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(350)), subitems: [.item(item)])
    rowGroup.interItemSpacing = .fixed(1)
    var section = Section(group: rowGroup)
    section.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(200)),
        alignment: .top)
    ]
    let only = section
    let layout = CollectionLayout { _, _ in only }
    let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844), displayScale: 3)
    let n = 30
    let heights = try (0..<n).map {
      try CellSizer.shared.measure(try card($0, width: 187, badge: true)).size.height
    }
    XCTAssertGreaterThan(Set(heights).count, 1, "real titles give cards of different heights")
    var sizing = SelfSizingLayout(layout: layout, itemCounts: [n], environment: env)
    _ = sizing.measureAll { path, proposed in
      XCTAssertEqual(proposed.width, 187)
      return Size(width: 187, height: heights[path.item])
    }
    let r = sizing.result
    var y = 200.0
    for rowStart in stride(from: 0, to: n, by: 2) {
      let a = r.attributes(at: ItemPath(section: 0, item: rowStart))!.frame
      let b = r.attributes(at: ItemPath(section: 0, item: rowStart + 1))!.frame
      XCTAssertEqual(a.minX, 0)
      XCTAssertEqual(b.minX, 188)
      XCTAssertEqual(a.minY, y, accuracy: 1e-9, "row \(rowStart / 2)")
      XCTAssertEqual(b.minY, y, accuracy: 1e-9)
      y += max(heights[rowStart], heights[rowStart + 1])
    }
    XCTAssertEqual(r.contentSize.height, y, accuracy: 1e-9)
  }
}
