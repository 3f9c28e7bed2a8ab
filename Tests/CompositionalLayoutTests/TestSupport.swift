import XCTest

@testable import CompositionalLayout

/// Asserts a frame equals [x, y, w, h] to 1e-9.
func assertFrame(
  _ frame: Rect?, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ message: String = "",
  file: StaticString = #filePath, line: UInt = #line
) {
  guard let frame else {
    XCTFail("missing frame \(message)", file: file, line: line)
    return
  }
  let ok =
    abs(frame.minX - x) < 1e-9 && abs(frame.minY - y) < 1e-9 && abs(frame.width - w) < 1e-9
    && abs(frame.height - h) < 1e-9
  XCTAssertTrue(ok, "\(frame) != [\(x), \(y), \(w), \(h)] \(message)", file: file, line: line)
}

/// Shorthand for an absolute size.
func fixedSize(_ w: Double, _ h: Double) -> LayoutSize {
  LayoutSize(width: .absolute(w), height: .absolute(h))
}

/// A deterministic generator for property tests.
struct TestRNG {
  var state: UInt64
  init(_ seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func double(_ lo: Double, _ hi: Double) -> Double {
    lo + (hi - lo) * Double(next() % 1_000_000) / 1_000_000
  }
  mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// The supplementary elements of a kind in a result.
func supplementaries(_ r: LayoutResult, kind: String) -> [LayoutAttributes] {
  r.supplementaryElements.filter { $0.kind == kind }
}
