/// Elements sorted by their start along the scroll axis with a running maximum of their ends, so that a range
/// query is two binary searches plus a scan of the candidates.
struct SpatialIndex: Sendable {
  /// An empty index.
  init() {}
  private(set) var starts: [Double] = []
  private(set) var runningMaxEnd: [Double] = []
  private(set) var refs: [Int32] = []

  /// Builds the index over `ids`, each with a start and an end along the scroll axis.
  /// - Complexity: O(n) when already sorted by start, O(n log n) otherwise.
  init(ids: [Int32], start: (Int) -> Double, end: (Int) -> Double) {
    var order = ids
    let count = ids.count
    var sorted = true
    var previous = -Double.infinity
    for i in 0..<count {
      let s = start(Int(order[i]))
      if s < previous {
        sorted = false
        break
      }
      previous = s
    }
    if !sorted { order.sort { start(Int($0)) < start(Int($1)) } }
    starts.reserveCapacity(count)
    runningMaxEnd.reserveCapacity(count)
    var m = -Double.infinity
    for r in order {
      starts.append(start(Int(r)))
      m = Swift.max(m, end(Int(r)))
      runningMaxEnd.append(m)
    }
    refs = order
  }

  /// Calls `body` with every ref whose [start, end] may meet [lo, hi] (the caller filters exactly).
  /// - Complexity: O(log n + k) where k counts the candidates between the two bounds.
  func forEachCandidate(lo: Double, hi: Double, _ body: (Int) -> Void) {
    // First position whose running max end reaches lo.
    var a = 0
    var b = runningMaxEnd.count
    while a < b {
      let mid = (a + b) >> 1
      if runningMaxEnd[mid] < lo { a = mid + 1 } else { b = mid }
    }
    let first = a
    // First position whose start is beyond hi.
    a = first
    b = starts.count
    while a < b {
      let mid = (a + b) >> 1
      if starts[mid] <= hi { a = mid + 1 } else { b = mid }
    }
    var i = first
    while i < a {
      body(Int(refs[i]))
      i += 1
    }
  }

  /// Bytes held.
  var byteCount: Int { starts.capacity * 8 + runningMaxEnd.capacity * 8 + refs.capacity * 4 }
}
