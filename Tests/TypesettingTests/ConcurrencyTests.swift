@testable import GalleyRecords
import CHarfBuzz
import Dispatch
import Foundation
import XCTest

@testable import Typesetting

/// Prepared text and fonts are shared across threads; measuring on many threads gives exactly
/// the results of one — compared byte for byte (every Double by its bit pattern), not by `==`.
final class ConcurrencyTests: XCTestCase {
  /// Measures every case on `threads` OS threads (real threads, not GCD iterations that a
  /// two-core machine would run two at a time), case i on thread i % threads.
  func measureAll(_ cases: [TextCase], threads: Int, typesetter: Typesetter) -> [TextLayout?] {
    let results = UnsafeMutableBufferPointer<TextLayout?>.allocate(capacity: cases.count)
    results.initialize(repeating: nil)
    defer {
      results.deinitialize()
      results.deallocate()
    }
    let box = Box(results)
    let done = DispatchGroup()
    for t in 0..<threads {
      done.enter()
      let thread = Thread {
        var i = t
        while i < cases.count {
          let c = cases[i]
          box.set(i, try? typesetter.prepare(c.text, style: c.style).layout(width: c.width))
          i += threads
        }
        done.leave()
      }
      thread.start()
    }
    done.wait()
    return Array(results)
  }

  final class Box: @unchecked Sendable {
    // @unchecked: each index is written by one thread only, read after all have finished.
    let b: UnsafeMutableBufferPointer<TextLayout?>
    init(_ b: UnsafeMutableBufferPointer<TextLayout?>) { self.b = b }
    func set(_ i: Int, _ v: TextLayout?) { b[i] = v }
  }

  /// Every field of every layout as bytes: Doubles by bit pattern, so that -0.0 and 0.0, or two
  /// NaNs, could never pass for equal.
  static func bytes(_ layouts: [TextLayout?]) -> [UInt8] {
    var out: [UInt8] = []
    func put(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
    func put(_ d: Double) { put(d.bitPattern) }
    func put(_ i: Int) { put(UInt64(bitPattern: Int64(i))) }
    for layout in layouts {
      guard let l = layout else {
        put(UInt64.max)
        continue
      }
      put(l.lineCount)
      put(l.width)
      put(l.height)
      put(l.widest)
      put(l.isTruncated ? 1 : 0)
      put(l.visibleRange.lowerBound)
      put(l.visibleRange.upperBound)
      put(l.ellipsisOffset ?? -1)
      for line in l.lines {
        for i in [line.start, line.startUTF16, line.end] { put(i) }
        for d in [line.width, line.ascent, line.descent, line.top, line.height, line.baseline] {
          put(d)
        }
      }
    }
    return out
  }

  static let corpus: [TextCase] = {
    (try? Fixtures.jsonLines("corpus.jsonl").map {
      try TextCase(json: $0, library: Fixtures.library)
    })
      ?? []
  }()

  func testOneTwoAndEightThreadsGiveIdenticalBytes() throws {
    let cases = ConcurrencyTests.corpus
    XCTAssertEqual(cases.count, 3000)
    let one = measureAll(cases, threads: 1, typesetter: Typesetter(cacheCapacity: 0))
    XCTAssertEqual(one.compactMap { $0 }.count, cases.count)
    let reference = ConcurrencyTests.bytes(one)
    for threads in [2, 8] {
      // A shared cache too: threads race to fill it, and a small one makes them race to evict.
      for capacity in [0, 16, 256] {
        let many = measureAll(
          cases, threads: threads, typesetter: Typesetter(cacheCapacity: capacity))
        XCTAssertEqual(many, one, "\(threads) threads, cache \(capacity)")
        XCTAssertTrue(
          ConcurrencyTests.bytes(many) == reference, "\(threads) threads, cache \(capacity)")
      }
    }
  }

  /// A shaper keeps the constants (line metrics, space, ellipsis and hyphen advances) of up to
  /// 1,024 styles and then starts again: texts in 1,100 styles, twice round on one typesetter
  /// (and on two threads, each shaper filling and emptying its own), give the layouts of a
  /// typesetter that meets each style for the first time.
  func testStyleConstantsKeptPerShaperPastTheirLimit() throws {
    let base = ConcurrencyTests.corpus.filter { $0.style.maxLines == nil }.prefix(50)
    XCTAssertEqual(base.count, 50)
    var cases: [TextCase] = []
    for k in 0..<1100 {
      var c = base[base.startIndex + k % base.count]
      c.style.size = 9 + Double(k) / 64
      c.width = 120 + Double(k % 7) * 20
      cases.append(c)
    }
    let fresh = cases.map {
      try? Typesetter(cacheCapacity: 0).prepare($0.text, style: $0.style).layout(width: $0.width)
    }
    XCTAssertEqual(fresh.compactMap { $0 }.count, cases.count)
    let reference = ConcurrencyTests.bytes(fresh)
    for threads in [1, 2] {
      let typesetter = Typesetter(cacheCapacity: 0)
      for round in 0..<2 {
        let again = measureAll(cases, threads: threads, typesetter: typesetter)
        XCTAssertTrue(
          ConcurrencyTests.bytes(again) == reference, "\(threads) threads, round \(round)")
      }
    }
  }

  /// A shaper finds its last style's constants by comparing the style with the last key
  /// (``StyleConstants/Key/isKey(of:)``), not by making a key: the comparison answers as equal
  /// keys do, for styles that differ in each field a key holds and in fields it does not.
  func testTheLastStyleIsFoundAsItsKeyWouldFindIt() throws {
    let base = TextStyle(fonts: try Fixtures.library.stack(["DejaVuSans.ttf"]), size: 17)
    var styles = [base]
    func variant(_ change: (inout TextStyle) -> Void) {
      var s = base
      change(&s)
      styles.append(s)
    }
    variant { $0.fonts = (try? Fixtures.library.stack(["NotoSans-Regular.ttf"])) ?? $0.fonts }
    variant { $0.size = 18 }
    variant { $0.profile = .apple }
    variant { $0.language = "ja" }
    variant { $0.features = [FeatureTag(validating: "liga")!: 0] }
    variant { $0.whiteSpace = .normal }
    variant { $0.lineHeight = .points(30) }
    variant { $0.maxLines = 2 }
    XCTAssertEqual(Set(styles.map(StyleConstants.Key.init)).count, 6)
    for a in styles {
      for b in styles {
        XCTAssertEqual(
          StyleConstants.Key(a).isKey(of: b), StyleConstants.Key(a) == StyleConstants.Key(b))
      }
    }
  }

  func testTaskGroupGivesIdenticalBytes() async throws {
    let cases = ConcurrencyTests.corpus
    let serial = cases.map {
      try? Typesetter(cacheCapacity: 0).prepare($0.text, style: $0.style).layout(width: $0.width)
    }
    // The process-wide typesetter (its 2048-entry cache shared with every other test) and a
    // private one with a tiny cache.
    for typesetter in [Typesetter.shared, Typesetter(cacheCapacity: 8)] {
      let parallel = await withTaskGroup(of: (Int, TextLayout?).self) { group in
        for (i, c) in cases.enumerated() {
          group.addTask {
            (i, try? typesetter.prepare(c.text, style: c.style).layout(width: c.width))
          }
        }
        var out = [TextLayout?](repeating: nil, count: cases.count)
        for await (i, l) in group { out[i] = l }
        return out
      }
      XCTAssertEqual(parallel.compactMap { $0 }.count, cases.count)
      XCTAssertTrue(ConcurrencyTests.bytes(parallel) == ConcurrencyTests.bytes(serial))
    }
  }

  func testCacheStaysBounded() throws {
    let typesetter = Typesetter(cacheCapacity: 100)
    let style = try Fixtures.style(["NotoSans-Regular.ttf"], size: 15)
    for i in 0..<1000 { _ = try typesetter.prepare("message number \(i)", style: style) }
    XCTAssertEqual(typesetter.cachedCount, 100)
  }
}
