import XCTest

@testable import CompositionalLayout

/// Lint warnings name the path of the offending description.
final class LintTests: XCTestCase {
  let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844))

  func warnings(_ section: Section) -> [String] {
    CollectionLayout(section: section).layout(itemCounts: [4], environment: env).warnings
  }

  func testCleanLayoutHasNoWarnings() {
    XCTAssertEqual(
      warnings(
        Section(
          group: .horizontal(fixedSize(390, 50), subitems: [.item(Item(size: fixedSize(100, 50)))]))
      ), [])
  }

  func testFractionalHeightInsideAnEstimatedGroup() {
    let item = Item(size: LayoutSize(width: .absolute(100), height: .fractionalHeight(1)))
    let g = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(80)), subitems: [.item(item)])
    XCTAssertEqual(
      warnings(Section(group: g)),
      [
        "sections[0].group.subitems[0].size.height: fractionalHeight inside a group with an estimated height (resolved against the estimate)"
      ])
  }

  func testRepeatedItemsThatDoNotFit() {
    let g = Group.horizontal(
      fixedSize(390, 50),
      subitems: [.item(Item(size: fixedSize(300, 50))), .item(Item(size: fixedSize(200, 50)))])
    XCTAssertEqual(
      warnings(Section(group: g)),
      [
        "sections[0].group.subitems[1]: does not fit after the subitems before it (500 > 390 pt); it is never placed"
      ])
    let tooWide = Group.horizontal(
      fixedSize(390, 50), subitems: [.item(Item(size: fixedSize(400, 50)))])
    XCTAssertEqual(
      warnings(Section(group: tooWide)),
      [
        "sections[0].group.subitems[0]: 400 pt does not fit the group's width of 390 pt; it overflows"
      ])
  }

  func testEstimatedSizesInAnOrthogonalSection() {
    let item = Item(size: LayoutSize(width: .absolute(100), height: .estimated(50)))
    let g = Group.horizontal(
      LayoutSize(width: .absolute(100), height: .estimated(50)), subitems: [.item(item)])
    XCTAssertEqual(
      warnings(Section(group: g, orthogonalScrollingBehavior: .paging)),
      [
        "sections[0].group.size.height: estimated size in an orthogonally scrolling section (self-sizing there is unreliable in UIKit)"
      ])
  }

  func testInsetsOnAnEstimatedWidth() {
    let item = Item(
      size: LayoutSize(width: .estimated(80), height: .absolute(50)),
      contentInsets: DirectionalEdgeInsets(leading: 4))
    let g = Group.horizontal(fixedSize(390, 50), subitems: [.item(item)])
    XCTAssertEqual(
      warnings(Section(group: g)),
      ["sections[0].group.subitems[0].contentInsets: ignored on the estimated width axis"])
  }
}
