/// The pairs of cells of a layout whose frames overlap by more than a rounding error (1e-9 pt
/// on both axes): what a measured size larger than its slot does (a `count` group resized to
/// equal slots, say). How many there are, and the first few.
public struct CellOverlaps: Sendable {
  /// The number of overlapping pairs.
  public var count: Int
  /// The first pairs, in the order of the cells along the scroll axis (the earlier cell of a
  /// pair first, pairs by their earlier cell, then by their later one).
  public var first: [(ItemPath, ItemPath)]
}

extension LayoutResult {
  /// The cells whose frames overlap: their number, and the first `limit` pairs.
  ///
  /// Cells are taken in order along the scroll axis; a cell's candidates are the later cells
  /// that start before it ends there (a range of that order). How many of them also overlap
  /// it across the other axis is counted for every cell at once, offline, with two binary
  /// indexed trees over the cross-axis starts and ends; only the cells that have partners are
  /// then searched, until `limit` pairs are found. So one row of a million cells, where every
  /// cell is a candidate of every other, takes seconds, not hours.
  /// - Complexity: O(n log n + limit · n).
  public func overlappingCells(listing limit: Int) -> CellOverlaps {
    let eps = 1e-9
    let vertical = scrollDirection == .vertical
    // (Cells with no extent overlap nothing.)
    var frames: [(s: Double, e: Double, a: Double, b: Double, cell: Int)] = []
    frames.reserveCapacity(cells.count)
    for (i, c) in cells.enumerated() where c.frame.width > eps && c.frame.height > eps {
      let f = c.frame
      frames.append(
        vertical
          ? (f.minY, f.maxY, f.minX, f.maxX, i) : (f.minX, f.maxX, f.minY, f.maxY, i))
    }
    frames.sort { ($0.s, $0.cell) < ($1.s, $1.cell) }
    let n = frames.count
    // The candidates of position k: positions k+1 ..< end[k] (they start before it ends).
    let starts = frames.map(\.s)
    let end = frames.indices.map { k in
      max(k + 1, Self.firstIndex(in: starts, notBelow: frames[k].e - eps))
    }
    // Candidates that miss k across the axis: those starting at or after its end, and those
    // ending at or before its start (no candidate is both: each spans more than eps).
    let startsAtOrAfter = Self.countInRanges(
      values: frames.map(\.a), ranges: end.indices.map { ($0 + 1, end[$0]) },
      thresholds: frames.map { $0.b - eps }, atOrAbove: true)
    let endsAtOrBefore = Self.countInRanges(
      values: frames.map(\.b), ranges: end.indices.map { ($0 + 1, end[$0]) },
      thresholds: frames.map { $0.a + eps }, atOrAbove: false)
    var total = 0
    var first: [(ItemPath, ItemPath)] = []
    for k in 0..<n {
      let partners = (end[k] - k - 1) - startsAtOrAfter[k] - endsAtOrBefore[k]
      total += partners
      guard partners > 0, first.count < limit else { continue }
      let r = frames[k]
      var found = 0
      for p in (k + 1)..<end[k] where found < partners && first.count < limit {
        let o = frames[p]
        if o.a < r.b - eps && o.b > r.a + eps {
          first.append((cells[r.cell].indexPath, cells[o.cell].indexPath))
          found += 1
        }
      }
    }
    return CellOverlaps(count: total, first: first)
  }

  /// The first index of the ascending `values` whose value is at least `x` (`values.count`
  /// when none is).
  private static func firstIndex(in values: [Double], notBelow x: Double) -> Int {
    firstIndex(in: values) { $0 >= x }
  }

  /// The first index of the ascending `values` at which `isPast` holds, it holding from there
  /// on (`values.count` when it never does): a binary search.
  private static func firstIndex(in values: [Double], where isPast: (Double) -> Bool) -> Int {
    var lo = 0
    var hi = values.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if isPast(values[mid]) { hi = mid } else { lo = mid + 1 }
    }
    return lo
  }

  /// For each query k: how many of `values[ranges[k]]` are at or above (or, with `atOrAbove`
  /// false, at or below) `thresholds[k]`. Offline: prefix counts at each range end, minus those
  /// at its start, read while the values are added to a tree over their ranks in order.
  /// - Complexity: O((n + q) log n).
  private static func countInRanges(
    values: [Double], ranges: [(Int, Int)], thresholds: [Double], atOrAbove: Bool
  ) -> [Int] {
    let sorted = values.sorted()
    // Rank of a value: its place among the sorted values (ties share the first).
    func rank(_ x: Double) -> Int { firstIndex(in: sorted, notBelow: x) }
    // How many of the values added so far are below x (above: the rest), or at most x.
    // (Counts in the lengths' tree: whole numbers below 2^53 add up exactly.)
    func counted(_ tree: FenwickTree, _ added: Int, _ x: Double) -> Int {
      if atOrAbove { return added - Int(tree.prefixSum(rank(x))) }
      // At or below x: ranked before the first value greater than x.
      return Int(tree.prefixSum(firstIndex(in: sorted) { $0 > x }))
    }
    // Queries by the prefix length they read: +1 at a range's end, -1 at its start.
    var byPrefix = [[(query: Int, sign: Int)]](repeating: [], count: values.count + 1)
    for (k, r) in ranges.enumerated() where r.0 < r.1 {
      byPrefix[r.1].append((k, 1))
      byPrefix[r.0].append((k, -1))
    }
    var out = [Int](repeating: 0, count: ranges.count)
    var tree = FenwickTree([Double](repeating: 0, count: sorted.count))
    for p in 0...values.count {
      for q in byPrefix[p] { out[q.query] += q.sign * counted(tree, p, thresholds[q.query]) }
      if p < values.count { tree.add(1, at: rank(values[p])) }
    }
    return out
  }
}
