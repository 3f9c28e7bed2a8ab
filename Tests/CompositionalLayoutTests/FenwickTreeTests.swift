import XCTest

@testable import CompositionalLayout

/// The Fenwick tree against naive prefix sums.
final class FenwickTreeTests: XCTestCase {
  func testRandomUpdatesMatchNaivePrefixSums() {
    var rng = TestRNG(99)
    for n in [0, 1, 2, 3, 7, 8, 9, 100, 1000] {
      var naive = (0..<n).map { _ in Double(rng.int(100)) }
      var tree = FenwickTree(naive)
      for _ in 0..<300 {
        if n > 0 {
          let i = rng.int(n)
          let v = Double(rng.int(100)) / 4
          tree.set(v, at: i)
          naive[i] = v
        }
        let k = n == 0 ? 0 : rng.int(n + 1)
        XCTAssertEqual(tree.prefixSum(k), naive[0..<k].reduce(0, +), accuracy: 1e-9)
      }
      XCTAssertEqual(tree.total, naive.reduce(0, +), accuracy: 1e-9)
      for i in 0..<n { XCTAssertEqual(tree[i], naive[i]) }
    }
  }

  func testIndexContainingMatchesALinearScan() {
    var rng = TestRNG(1)
    var values = (0..<500).map { _ in Double(rng.int(5)) }  // zeros included
    var tree = FenwickTree(values)
    for round in 0..<600 {
      if round % 3 == 0 {
        let i = rng.int(values.count)
        values[i] = Double(rng.int(5))
        tree.set(values[i], at: i)
      }
      let offset = rng.double(-5, values.reduce(0, +) + 5)
      var running = 0.0
      var expected = values.count
      for (i, v) in values.enumerated() {
        running += v
        if running > offset {
          expected = i
          break
        }
      }
      XCTAssertEqual(tree.index(containing: offset), expected, "offset \(offset)")
    }
  }

  func testAppendMatchesBuild() {
    var rng = TestRNG(4)
    let values = (0..<777).map { _ in Double(rng.int(50)) }
    var grown = FenwickTree()
    for v in values { grown.append(v) }
    let built = FenwickTree(values)
    for k in stride(from: 0, through: 777, by: 7) {
      XCTAssertEqual(grown.prefixSum(k), built.prefixSum(k), accuracy: 1e-9)
    }
  }

  func testIndexReachingMatchesALinearScan() {
    var rng = TestRNG(12)
    let values = (0..<300).map { _ in Double(rng.int(4)) }
    let tree = FenwickTree(values)
    for _ in 0..<400 {
      let target = rng.double(-2, values.reduce(0, +) + 2)
      var running = 0.0
      var expected = values.count
      for (i, v) in values.enumerated() {
        running += v
        if running >= target {
          expected = i
          break
        }
      }
      XCTAssertEqual(tree.index(reaching: target), expected, "target \(target)")
    }
  }

  func testDequeMatchesNaiveUnderPrependAppendAndSet() {
    var rng = TestRNG(77)
    var naive = (0..<50).map { _ in Double(rng.int(6)) }
    var deque = FenwickDeque(naive)
    for round in 0..<2000 {
      switch rng.int(4) {
      case 0:
        let v = Double(rng.int(6))
        deque.prepend(v)
        naive.insert(v, at: 0)
      case 1:
        let v = Double(rng.int(6))
        deque.append(v)
        naive.append(v)
      default:
        let i = rng.int(naive.count)
        let v = Double(rng.int(6))
        deque.set(v, at: i)
        naive[i] = v
      }
      XCTAssertEqual(deque.count, naive.count)
      let n = rng.int(naive.count + 1)
      XCTAssertEqual(
        deque.prefixSum(n), naive[0..<n].reduce(0, +), accuracy: 1e-9, "round \(round)")
      let i = rng.int(naive.count)
      XCTAssertEqual(deque[i], naive[i], accuracy: 1e-9)
      let offset = rng.double(-3, naive.reduce(0, +) + 3)
      var running = 0.0
      var expected = naive.count
      for (j, v) in naive.enumerated() {
        running += v
        if running > offset {
          expected = j
          break
        }
      }
      XCTAssertEqual(deque.index(containing: offset), expected, "round \(round), offset \(offset)")
    }
  }
}
