/// A binary indexed tree of lengths: prefix sums, point updates and offset search in O(log n), 8 bytes a value.
package struct FenwickTree: Sendable {
  /// 1-based partial sums; `tree[0]` is unused.
  private var tree: [Double]

  /// Builds the tree from values.
  /// - Complexity: O(n).
  package init(_ values: [Double] = []) {
    tree = [0] + values
    let n = values.count
    if n > 0 {
      for i in 1...n {
        let parent = i + (i & -i)
        if parent <= n { tree[parent] += tree[i] }
      }
    }
  }

  /// The number of values.
  package var count: Int { tree.count - 1 }

  /// The value at `index`.
  /// - Complexity: O(log n).
  package subscript(index: Int) -> Double {
    let i = index + 1
    var sum = tree[i]
    let stop = i - (i & -i)
    var j = i - 1
    while j > stop {
      sum -= tree[j]
      j -= j & -j
    }
    return sum
  }

  /// The sum of the first `n` values.
  /// - Complexity: O(log n).
  package func prefixSum(_ n: Int) -> Double {
    var i = n
    var s = 0.0
    while i > 0 {
      s += tree[i]
      i &= i - 1
    }
    return s
  }

  /// The sum of all values.
  /// - Complexity: O(log n).
  package var total: Double { prefixSum(count) }

  /// Adds `delta` to the value at `index`.
  /// - Complexity: O(log n).
  package mutating func add(_ delta: Double, at index: Int) {
    var i = index + 1
    let n = count
    while i <= n {
      tree[i] += delta
      i += i & -i
    }
  }

  /// Sets the value at `index`.
  /// - Complexity: O(log n).
  package mutating func set(_ value: Double, at index: Int) {
    add(value - self[index], at: index)
  }

  /// Appends a value.
  /// - Complexity: O(log n) amortized.
  package mutating func append(_ value: Double) {
    let i = tree.count
    // tree[i] covers (i - lowbit(i), i].
    let low = i - (i & -i)
    tree.append(value + prefixSum(i - 1) - prefixSum(low))
  }

  /// The first index whose running sum passes `offset`: the smallest i with `prefixSum(i + 1) > offset`,
  /// or `count` when the offset is past the end.
  /// - Complexity: O(log n).
  package func index(containing offset: Double) -> Int {
    let n = count
    var pos = 0
    var rest = offset
    var step = 1
    while step <= n { step <<= 1 }
    step >>= 1
    while step > 0 {
      let next = pos + step
      if next <= n && tree[next] <= rest {
        pos = next
        rest -= tree[next]
      }
      step >>= 1
    }
    return pos
  }

  /// The first index whose running sum reaches `target`: the smallest i with `prefixSum(i + 1) >= target`,
  /// or `count` when the total is below it.
  /// - Complexity: O(log n).
  package func index(reaching target: Double) -> Int {
    let n = count
    var pos = 0
    var rest = target
    var step = 1
    while step <= n { step <<= 1 }
    step >>= 1
    while step > 0 {
      let next = pos + step
      if next <= n && tree[next] < rest {
        pos = next
        rest -= tree[next]
      }
      step >>= 1
    }
    return pos
  }

  /// Bytes held.
  package var byteCount: Int { tree.capacity * MemoryLayout<Double>.stride }
}
