import CHarfBuzz
import GalleyRecords
import XCTest

@testable import ShapingAccelerator
@testable import Typesetting

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
    let cases = Fixtures.corpus
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
    let cases = Array(Fixtures.corpus.prefix(400))
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

  /// The characters next to a run that can change its shaping are Unicode's joining ones
  /// (Joining_Type, what HarfBuzz's joining shapers read), the zero width non-joiner and marks:
  /// a Psalter Pahlavi letter joins (dual joining), a Thaana letter or an Arabic-Indic digit
  /// does not.
  func testCharactersThatJoinAcrossRunsAreUnicodesJoiningOnes() {
    let joining: [UInt32] = [
      0x0628, 0x0710, 0x07CA, 0x1820, 0xA840, 0x10B80, 0x1E900, 0x0640, 0x200D,
    ]
    let notJoining: [UInt32] = [0x0780, 0x0660, 0x060C, 0x0041, 0x05D0, 0x0E01]
    for c in joining { XCTAssertTrue(AcceleratedShaper.joinsAcross(c), "U+\(String(c, radix: 16))") }
    for c in notJoining { XCTAssertFalse(AcceleratedShaper.joinsAcross(c), "U+\(String(c, radix: 16))") }
    XCTAssertTrue(AcceleratedShaper.joinsAcross(0x200C))  // the non-joiner stops joining
    XCTAssertTrue(AcceleratedShaper.joinsAcross(0x0301))  // a mark is transparent
    XCTAssertTrue(AcceleratedShaper.joinsAcross(0x064E))  // an Arabic vowel sign
  }
}
