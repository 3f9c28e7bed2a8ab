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

  /// Feature gates are worked out once per font and plan and shared by every thread: eight
  /// threads meeting fresh fonts at once (each making, or waiting for, the same gates) give the
  /// layouts of shaping every run with all of its features.
  func testFeatureGatesMadeOnEightThreadsAtOnce() throws {
    let library = FontLibrary(directory: Fixtures.fontsDir)
    let cases = try Fixtures.jsonLines("corpus.jsonl").prefix(1200).map {
      try TextCase(json: $0, library: library)
    }
    let whole = measureAll(
      cases, threads: 1, typesetter: Typesetter(cacheCapacity: 0, shaping: .harfBuzz))
    let gated = measureAll(cases, threads: 8, typesetter: Typesetter(cacheCapacity: 0))
    XCTAssertEqual(whole.compactMap { $0 }.count, cases.count)
    XCTAssertTrue(ConcurrencyTests.bytes(gated) == ConcurrencyTests.bytes(whole))
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

/// The word cache (shaping word by word, each word checked with HarfBuzz's unsafe-to-concat flags)
/// gives exactly the layouts of whole-run shaping on the corpus: same line starts, same widths.
final class WordCacheTests: XCTestCase {
  /// (The word cache is part of the accelerator.)
  override func setUpWithError() throws { try requireVerifiedAccelerator() }

  /// The cases whose layouts through `words` differ from whole-run shaping's (line starts,
  /// widths, height), over two passes: the first fills the cache, the second is served from it.
  func differences(_ cases: [TextCase], through words: Typesetter) throws -> [String] {
    let whole = Typesetter(cacheCapacity: 0, wordCacheCapacity: 0)
    var differ: [String] = []
    for pass in 0..<2 {
      for c in cases {
        let a = try whole.prepare(c.text, style: c.style).layout(width: c.width)
        let b = try words.prepare(c.text, style: c.style).layout(width: c.width)
        if a.lines.map(\.start) != b.lines.map(\.start)
          || a.lines.map(\.width) != b.lines.map(\.width) || a.height != b.height
        {
          differ.append("\(pass): \(c.id)")
        }
      }
    }
    return differ
  }

  func testWordCacheAgreesWithWholeRunShaping() throws {
    let cases = try Fixtures.jsonLines("corpus.jsonl").map {
      try TextCase(json: $0, library: Fixtures.library)
    }
    let words = Typesetter(cacheCapacity: 0, wordCacheCapacity: 20_000)
    XCTAssertEqual(try differences(cases, through: words), [])
    XCTAssertGreaterThan(words.wordCacheCount, 1000)
  }

  /// Runs the word cache gives up on half-way (a word too long to cache, a junction that is not
  /// safe) leave nothing behind for the next run; spaces next to kerning and ligature-prone
  /// letters, features, and words cut by script changes still give whole-run results.
  func testHostileRunsThroughTheWordCache() throws {
    let stack = try Fixtures.library.defaultStack()
    let words = Typesetter(cacheCapacity: 0, wordCacheCapacity: 100)
    let whole = Typesetter(cacheCapacity: 0, wordCacheCapacity: 0)
    let long = String(repeating: "a", count: 60)
    let texts = [
      "hi " + long + " 漢字", "hi " + long + " 漢字 hi", "AV To Ta fi ffl 1 x 2 Wa Yo",
      "x " + long + long + " y 가나 다라", "a  b   c\u{00A0}d", "مرحبا hello مرحبا",
      "श्री मान् x", "🙂 a 🙂 b", String(repeating: "word ", count: 200),
    ]
    for features: [FeatureTag: UInt32] in [[:], ["liga": 0], ["kern": 0, "ss01": 1]] {
      var style = TextStyle(fonts: stack, size: 16)
      style.features = features
      for _ in 0..<2 {
        for t in texts {
          let a = try whole.prepare(t, style: style).layout(width: 120)
          let b = try words.prepare(t, style: style).layout(width: 120)
          XCTAssertEqual(a.lines.map(\.start), b.lines.map(\.start), t)
          XCTAssertEqual(a.lines.map(\.width), b.lines.map(\.width), t)
        }
      }
    }
  }

  /// Inter raises hyphens, brackets, colons, arrows and "x" beside capitals, looking across
  /// spaces ("A - B"): runs with those characters are shaped whole, the others word by word,
  /// and either way the result is whole-run shaping's, first from an empty cache, then from a
  /// full one. Words shaped in one run are found in the next.
  func testSpaceContextLookupsKeepTheirRunsWhole() throws {
    let style = TextStyle(
      fonts: try Fixtures.library.stack(["Inter-Regular.otf", "NotoSansCJK-Regular.ttc"]),
      size: 15)
    let texts = [
      "A - B", "HELLO (WORLD) x AGAIN", "a -> b and A -> B", "TIME : NOW", "2 x 3 = 6 X 4",
      "NEW \u{2014} OLD", "A+B = C", "[WIP] FIX * BUG", "plain words only here",
      "plain words only here again", "MIXED case - Words (here) x", "日本語 A - B 日本語",
    ]
    let words = Typesetter(cacheCapacity: 0, wordCacheCapacity: 1000)
    let whole = Typesetter(cacheCapacity: 0, wordCacheCapacity: 0)
    for _ in 0..<2 {
      for t in texts {
        let a = try whole.prepare(t, style: style)
        let b = try words.prepare(t, style: style)
        for width in [40.0, 80, 1000] {
          let la = try a.layout(width: width)
          let lb = try b.layout(width: width)
          XCTAssertEqual(la.lines.map(\.start), lb.lines.map(\.start), t)
          XCTAssertEqual(la.lines.map(\.width), lb.lines.map(\.width), t)
        }
      }
    }
    XCTAssertGreaterThan(words.wordCacheCount, 5)
  }

  /// A cache far too small for the words it sees (16 words, 128 code points) is emptied and
  /// filled again over and over; results stay whole-run shaping's.
  func testTinyWordCacheRefillsWithoutChangingResults() throws {
    let cases = try Fixtures.jsonLines("corpus.jsonl").prefix(400).map {
      try TextCase(json: $0, library: Fixtures.library)
    }
    let tiny = Typesetter(cacheCapacity: 0, wordCacheCapacity: 16)
    XCTAssertEqual(try differences(cases, through: tiny), [])
    XCTAssertLessThanOrEqual(tiny.wordCacheCount, 16)
    XCTAssertGreaterThan(tiny.wordCacheCount, 0)
  }

  /// Inter's plan splits at spaces except in runs holding the characters its space-context
  /// lookup rewrites (brackets, hyphens, colons, arrows, "x"…), right-to-left runs, and runs
  /// with characters the font lacks; Noto Sans splits everywhere.
  func testWhichRunsSplitAtSpaces() throws {
    func split(_ name: String) throws -> (SpaceSplit, Font) {
      let font = try Fixtures.library.font(named: name)
      let buffer = hb_buffer_create()!
      defer { hb_buffer_destroy(buffer) }
      hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
      hb_buffer_set_script(buffer, HB_SCRIPT_LATIN)
      var props = hb_segment_properties_t()
      hb_buffer_get_segment_properties(buffer, &props)
      let plan = hb_shape_plan_create_cached(hb_font_get_face(font.hbFont), &props, nil, 0, nil)!
      defer { hb_shape_plan_destroy(plan) }
      return (SpaceSplit(plan: plan, font: font), font)
    }
    func run(_ s: String) -> ArraySlice<UInt32> { ArraySlice(s.unicodeScalars.map(\.value)) }
    let (inter, interFont) = try split("Inter-Regular.otf")
    XCTAssertTrue(inter.splits)
    XCTAssertTrue(inter.allows(run("plain words only"), font: interFont, rtl: false))
    XCTAssertFalse(inter.allows(run("plain words only"), font: interFont, rtl: true))
    for guarded in ["A - B", "(A) B", "A: B", "a -> b", "2 x 3", "A [B]", "A \u{2014} B"] {
      XCTAssertFalse(inter.allows(run(guarded), font: interFont, rtl: false), guarded)
    }
    XCTAssertFalse(
      inter.allows(run("A \u{219B} B"), font: interFont, rtl: false), "not in the font")
    let (noto, notoFont) = try split("NotoSans-Regular.ttf")
    XCTAssertTrue(noto.allows(run("A - B (C) x"), font: notoFont, rtl: false))
  }
}
