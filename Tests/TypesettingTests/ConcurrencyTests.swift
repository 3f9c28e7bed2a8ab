import Dispatch
import Foundation
import Typesetting
import XCTest

/// Prepared text and fonts are shared across threads; measuring on many threads gives exactly
/// the results of one.
final class ConcurrencyTests: XCTestCase {
  func measureAll(_ cases: [TextCase], threads: Int, typesetter: Typesetter) -> [TextLayout?] {
    let results = UnsafeMutableBufferPointer<TextLayout?>.allocate(capacity: cases.count)
    results.initialize(repeating: nil)
    defer {
      results.deinitialize()
      results.deallocate()
    }
    let box = Box(results)
    DispatchQueue.concurrentPerform(iterations: threads) { t in
      var i = t
      while i < cases.count {
        let c = cases[i]
        box.set(i, try? typesetter.prepare(c.text, style: c.style).layout(width: c.width))
        i += threads
      }
    }
    return Array(results)
  }

  final class Box: @unchecked Sendable {
    // @unchecked: each index is written by one thread only, read after all have finished.
    let b: UnsafeMutableBufferPointer<TextLayout?>
    init(_ b: UnsafeMutableBufferPointer<TextLayout?>) { self.b = b }
    func set(_ i: Int, _ v: TextLayout?) { b[i] = v }
  }

  func testOneTwoAndEightThreadsAgree() throws {
    let cases = try Fixtures.jsonLines("corpus.jsonl").map {
      try TextCase(json: $0, library: Fixtures.library)
    }
    let one = measureAll(cases, threads: 1, typesetter: Typesetter(cacheCapacity: 0))
    XCTAssertEqual(one.compactMap { $0 }.count, cases.count)
    for threads in [2, 8] {
      // A shared cache too: threads race to fill it.
      let many = measureAll(cases, threads: threads, typesetter: Typesetter(cacheCapacity: 256))
      XCTAssertEqual(many, one, "\(threads) threads")
    }
  }

  func testTaskGroupAgrees() async throws {
    let cases = try Array(
      Fixtures.jsonLines("corpus.jsonl").prefix(600).map {
        try TextCase(json: $0, library: Fixtures.library)
      })
    let serial = cases.map {
      try? Typesetter.shared.prepare($0.text, style: $0.style).layout(width: $0.width)
    }
    let parallel = await withTaskGroup(of: (Int, TextLayout?).self) { group in
      for (i, c) in cases.enumerated() {
        group.addTask {
          (i, try? Typesetter.shared.prepare(c.text, style: c.style).layout(width: c.width))
        }
      }
      var out = [TextLayout?](repeating: nil, count: cases.count)
      for await (i, l) in group { out[i] = l }
      return out
    }
    XCTAssertEqual(parallel, serial)
  }

  func testCacheStaysBounded() throws {
    let typesetter = Typesetter(cacheCapacity: 100)
    let style = try Fixtures.style(["NotoSans-Regular.ttf"], size: 15)
    for i in 0..<1000 { _ = try typesetter.prepare("message number \(i)", style: style) }
    XCTAssertEqual(typesetter.cachedCount, 100)
  }
}

/// The optional word cache (shaping word by word) gives the same layouts as whole-run shaping on
/// the corpus, save for kerning across spaces; it must agree on line starts for nearly every case.
final class WordCacheTests: XCTestCase {
  func testWordCacheAgreesWithWholeRunShaping() throws {
    let cases = try Fixtures.jsonLines("corpus.jsonl").map {
      try TextCase(json: $0, library: Fixtures.library)
    }
    let whole = Typesetter(cacheCapacity: 0)
    let words = Typesetter(cacheCapacity: 0, wordCacheCapacity: 20_000)
    var same = 0
    for c in cases {
      let a = try whole.prepare(c.text, style: c.style).layout(width: c.width)
      let b = try words.prepare(c.text, style: c.style).layout(width: c.width)
      if a.lines.map(\.start) == b.lines.map(\.start) && abs(a.widest - b.widest) < 0.05 {
        same += 1
      }
    }
    XCTAssertGreaterThanOrEqual(
      Double(same) / Double(cases.count), 0.995, "\(same) of \(cases.count)")
  }
}
