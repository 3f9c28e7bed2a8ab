import XCTest

@testable import CompositionalLayout

/// Counts and work bounded whatever a spec or a batch asks (issue 39).
final class LayoutBoundsTests: XCTestCase {
  static let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844), displayScale: 3)

  /// Overlapping pairs, counted and listed, against every pair compared (the rule written out
  /// plainly): random frames of random sizes, many touching, many nested, many tiny.
  func testOverlapsAgreeWithComparingEveryPair() {
    var rng = SystemRandomNumberGenerator()
    for round in 0..<40 {
      let n = Int.random(in: 0...120, using: &rng)
      let grid = [1.0, 10, 0.5].randomElement(using: &rng)!
      let frames: [Rect] = (0..<n).map { _ in
        func v(_ r: ClosedRange<Int>) -> Double { Double(Int.random(in: r, using: &rng)) * grid }
        return Rect(x: v(0...20), y: v(0...40), width: v(0...8), height: v(0...8))
      }
      let group = Group.custom(LayoutSize(width: .fractionalWidth(1), height: .absolute(10))) { _ in
        frames
      }
      let section = Section(group: group)
      for vertical in [true, false] {
        var configuration = LayoutConfiguration()
        configuration.scrollDirection = vertical ? .vertical : .horizontal
        let result = CollectionLayout(section: section, configuration: configuration).layout(
          itemCounts: [n], environment: Self.env)
        // Every pair, in the order the listing promises: by the earlier cell along the scroll
        // axis (then by its index), then by the later one.
        let cells = result.cells
        func start(_ r: Rect) -> Double { vertical ? r.minY : r.minX }
        let order = cells.indices.filter { cells[$0].frame.width > 1e-9 && cells[$0].frame.height > 1e-9 }
          .sorted { (start(cells[$0].frame), $0) < (start(cells[$1].frame), $1) }
        var pairs: [[Int]] = []
        for (k, i) in order.enumerated() {
          for j in order[(k + 1)...] {
            let a = cells[i].frame
            let b = cells[j].frame
            let w = min(a.maxX, b.maxX) - max(a.minX, b.minX)
            let h = min(a.maxY, b.maxY) - max(a.minY, b.minY)
            if w > 1e-9 && h > 1e-9 { pairs.append([cells[i].indexPath.item, cells[j].indexPath.item]) }
          }
        }
        let limit = Int.random(in: 0...30, using: &rng)
        let found = result.overlappingCells(listing: limit)
        XCTAssertEqual(found.count, pairs.count, "round \(round)")
        XCTAssertEqual(found.first.map { [$0.0.item, $0.1.item] }, Array(pairs.prefix(limit)), "round \(round)")
      }
    }
  }

  /// Regression: the sweep compared every pair of a row (10k cells: 1.5 s, 1M: never ended).
  /// A row of 200,000 cells now costs what sorting it does: checked by its answer here and
  /// by its time in Scripts/hostile-probes.
  func testARowOfCellsHasNoOverlaps() {
    var section = Section(
      group: .horizontal(
        LayoutSize(width: .absolute(10), height: .absolute(10)),
        subitems: [.item(Item(size: LayoutSize(width: .absolute(10), height: .absolute(10))))]))
    section.orthogonalScrollingBehavior = .continuous
    let result = CollectionLayout(section: section).layout(itemCounts: [200_000], environment: Self.env)
    XCTAssertEqual(result.cells.count, 200_000)
    let found = result.overlappingCells(listing: 5)
    XCTAssertEqual(found.count, 0)
    XCTAssertTrue(found.first.isEmpty)
  }

  /// Regression: an updates file of 60 bytes could ask a reloaded section for 100M items (24 GB).
  func testABatchCannotAskForMoreItemsThanALayoutHolds() {
    let most = CollectionLayout.maximumItems
    XCTAssertThrowsError(
      try BatchMapping(BatchUpdate(reloadSections: [0], itemCounts: [100_000_000]), counts: [3])
    ) { error in
      XCTAssertEqual(
        error as? BatchError,
        BatchError("itemCounts", "more than \(most) items in all after the batch"))
    }
    XCTAssertNoThrow(
      try BatchMapping(BatchUpdate(reloadSections: [0], itemCounts: [most]), counts: [3]))
    XCTAssertThrowsError(
      try BatchMapping(
        BatchUpdate(insertItems: [ItemPath(section: 0, item: 0)]), counts: [most]))
  }
}
