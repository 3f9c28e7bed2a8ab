/// Prefix sums over a sequence that grows at both ends, each end in O(log n): a Fenwick tree for the part
/// prepended (stored reversed) and one for the rest.
package struct FenwickDeque: Sendable {
  /// The prepended values, the one at index 0 last.
  private var front = FenwickTree()
  /// The original values and those appended.
  private var back: FenwickTree

  /// Builds the sequence from values.
  /// - Complexity: O(n).
  package init(_ values: [Double] = []) { back = FenwickTree(values) }

  /// The number of values.
  package var count: Int { front.count + back.count }

  /// The value at `index`.
  /// - Complexity: O(log n).
  package subscript(index: Int) -> Double {
    let h = front.count
    return index < h ? front[h - 1 - index] : back[index - h]
  }

  /// The sum of the first `n` values.
  /// - Complexity: O(log n).
  package func prefixSum(_ n: Int) -> Double {
    let h = front.count
    if n <= h { return front.total - front.prefixSum(h - n) }
    return front.total + back.prefixSum(n - h)
  }

  /// The sum of all values.
  /// - Complexity: O(log n).
  package var total: Double { front.total + back.total }

  /// Sets the value at `index`.
  /// - Complexity: O(log n).
  package mutating func set(_ value: Double, at index: Int) {
    let h = front.count
    if index < h { front.set(value, at: h - 1 - index) } else { back.set(value, at: index - h) }
  }

  /// Appends a value at the end.
  /// - Complexity: O(log n) amortized.
  package mutating func append(_ value: Double) { back.append(value) }

  /// Inserts a value before the first one (it becomes index 0).
  /// - Complexity: O(log n) amortized.
  package mutating func prepend(_ value: Double) { front.append(value) }

  /// The first index whose running sum passes `offset` (the smallest i with `prefixSum(i + 1) > offset`), 0 for
  /// an offset before the start, `count` past the end.
  /// - Complexity: O(log n).
  package func index(containing offset: Double) -> Int {
    let h = front.count
    let frontTotal = front.total
    if offset >= frontTotal { return h + back.index(containing: offset - frontTotal) }
    // prefixSum(i + 1) = frontTotal − front.prefixSum(h − i − 1) > offset
    //   ⟺ front.prefixSum(m) < frontTotal − offset with m = h − i − 1; the largest such m is the first
    //   index whose running sum reaches frontTotal − offset.
    let m = front.index(reaching: frontTotal - offset)
    return Swift.max(0, h - 1 - m)
  }

  /// Bytes held.
  package var byteCount: Int { front.byteCount + back.byteCount }
}
