@testable import GalleyRecords
import CHarfBuzz
import GalleyBench
import XCTest

@testable import ShapingAccelerator
@testable import Typesetting

/// Leaving off features that cannot change a run (``FeatureGate``) must give HarfBuzz's glyphs,
/// clusters and positions exactly as shaping with every feature does.
final class FeatureGateTests: XCTestCase {
  override func setUpWithError() throws { try requireVerifiedAccelerator() }

  /// The corpus's runs (as `prepare` shapes them).
  func corpusRuns() -> [ShapingBaseline.Item] {
    let cases =
      Fixtures.corpus
    let baseline = try? Typesetter(cacheCapacity: 0, wordCacheCapacity: 0).shapingBaseline(
      cases.map { ($0.text, $0.style) })
    return baseline?.items ?? []
  }

  /// Shapes every run with and without gates; returns the runs that differ, and how many runs
  /// the gated shaper shaped with features left off.
  func compare(_ runs: [ShapingBaseline.Item], passes: Int = 2, gateAfterUses: Int = 32) -> (
    differ: [String], gated: Int
  ) {
    let gated = AcceleratedShaper()
    gated.gateAfterUses = gateAfterUses
    let whole = HarfBuzzShaper()
    var differ: [String] = []
    // The first pass lets each plan reach the uses after which its gate is worked out.
    for _ in 0..<passes {
      for item in runs {
        let run = ShapingRun(
          start: 0, end: item.text.count, font: item.font, rtl: item.rtl, script: item.script)
        let a = gated.harfBuzzGlyphs(
          item.text, 0, item.text.count, run: run, language: item.language,
          features: item.features)
        let b = whole.harfBuzzGlyphs(
          item.text, 0, item.text.count, run: run, language: item.language,
          features: item.features)
        if a != b {
          let text = String(
            String.UnicodeScalarView(item.text.compactMap(Unicode.Scalar.init)))
          differ.append("\(item.font.name) \(text.debugDescription): \(a) vs \(b)")
        }
      }
    }
    return (differ, gated.gatedRuns)
  }

  func testCorpusRunsShapeTheSameWithGates() {
    let runs = corpusRuns()
    XCTAssertGreaterThan(runs.count, 10_000)
    // Gates from each plan's first use; the second pass meets every character again.
    let (differ, gated) = compare(runs, passes: 2, gateAfterUses: 1)
    XCTAssertEqual(differ.prefix(5), [])
    XCTAssertEqual(differ.count, 0)
    // Gates must really be used: Inter's runs without marks leave ccmp off, for one.
    let inter = runs.filter { $0.font.name == "Inter-Regular.otf" && !$0.rtl }.count
    XCTAssertGreaterThan(gated, inter, "gated \(gated) of \(runs.count) runs (twice)")
  }

  /// Runs made of every character each bundled font maps, shuffled into groups of eight (with
  /// letters, digits and spaces between), so that gates are tried with every glyph.
  func testEveryCharacterOfEveryFontShapesTheSame() throws {
    let library = Fixtures.library
    var generator = SplitMix(state: 7)
    let scripts: [hb_script_t] = [
      HB_SCRIPT_LATIN, HB_SCRIPT_COMMON, HB_SCRIPT_HAN, HB_SCRIPT_HANGUL,
    ]
    var runs: [ShapingBaseline.Item] = []
    for name in [
      "Inter-Regular.otf", "NotoSans-Regular.ttf", "DejaVuSans.ttf", "NanumGothic.ttf",
      "NotoSansCJK-Regular.ttc",
    ] {
      let font = try library.font(named: name)
      let face = hb_font_get_face(font.hbFont)
      let set = hb_set_create()!
      defer { hb_set_destroy(set) }
      hb_face_collect_unicodes(face, set)
      var all: [UInt32] = []
      var c: hb_codepoint_t = UInt32.max
      while hb_set_next(set, &c) != 0 { all.append(c) }
      // CJK: a sample of its 44k characters, every one of the rest.
      if all.count > 6000 {
        all.shuffle(using: &generator)
        all = Array(all.prefix(6000))
      }
      let filler: [UInt32] = Array("aeio nstAEIO 0123".unicodeScalars.map(\.value))
      for round in 0..<2 {
        all.shuffle(using: &generator)
        var k = 0
        while k < all.count {
          var text: [UInt32] = []
          for c in all[k..<min(k + 8, all.count)] {
            text.append(c)
            text.append(filler[Int(generator.next() % UInt64(filler.count))])
          }
          k += 8
          let script = scripts[(k / 8 + round) % scripts.count]
          runs.append(
            .init(
              text: text, font: font, rtl: false, script: script,
              language: hb_language_from_string(round == 0 ? "en" : "ja", -1), features: []))
        }
      }
    }
    let (differ, gated) = compare(runs, passes: 1, gateAfterUses: 1)
    XCTAssertEqual(differ.prefix(5), [])
    XCTAssertEqual(differ.count, 0)
    XCTAssertGreaterThan(gated, runs.count / 10)
  }

  /// Characters the normalizer changes, marks, ligatures, case-sensitive punctuation, arrows,
  /// fractions: what the gates must keep features on for.
  func testHardCasesShapeTheSame() throws {
    let texts = [
      "a\u{301} e\u{308}\u{301} o\u{328}\u{304}", "áéíóú ǘ ǭ Å Ω ﬁ ﬂ", "i\u{307} j\u{301} İi",
      "A\u{20DD} B\u{20DE}", "-> <- => <= <=> --> ---", "(A) [B] {C} H:M 12:30 A-B", "x 2 x 3",
      "1/2 1⁄2 3⁄4", "a\u{200D}b a\u{200C}b a\u{00AD}b", "ﬃ ffi ff fl", "Ǆ ǅ ǆ Ĳ ĳ", "가\u{11A8} 한글",
      "e\u{FE0F} a\u{FE00}", "\u{2126} \u{212A} \u{212B}", "— – − ‒ ‐ ‑",
    ]
    let library = Fixtures.library
    var runs: [ShapingBaseline.Item] = []
    for name in [
      "Inter-Regular.otf", "NotoSans-Regular.ttf", "DejaVuSans.ttf", "NotoSansCJK-Regular.ttc",
    ] {
      let font = try library.font(named: name)
      for text in texts {
        for script in [HB_SCRIPT_LATIN, HB_SCRIPT_COMMON] {
          for language in ["en", "tr", "nl"] {
            runs.append(
              .init(
                text: text.unicodeScalars.map(\.value), font: font, rtl: false, script: script,
                language: hb_language_from_string(language, -1), features: []))
          }
        }
      }
    }
    // Gates from the first use of each plan.
    let (differ, gated) = compare(runs, passes: 1, gateAfterUses: 1)
    XCTAssertEqual(differ, [])
    XCTAssertGreaterThan(gated, 0)
  }

  /// A candidate whose lookup another feature shares must stay on: the shared lookup would still
  /// run with the candidate off, but differently — under `numr`'s mask (only beside U+2044),
  /// once instead of twice (`rvrn` applies it in a stage of its own first), or picking another
  /// alternate (`salt` = 2 with `calt`'s bit). And a lookup of the automatic fractions may make
  /// a glyph a candidate needs, but only beside U+2044, which keeps every candidate on. Fonts made
  /// by `Fixtures/gates/make-fonts.py`.
  func testLookupsSharedWithAnotherFeatureKeepTheCandidateOn() throws {
    var runs: [ShapingBaseline.Item] = []
    for name in ["frac.ttf", "rvrn.ttf", "alt.ttf", "fraction.ttf"] {
      let font = try Font(contentsOf: Fixtures.url("gates/\(name)").path)
      for text in ["a", "ab", "x a", "a x", "1\u{2044}2 a", "b c d", "1\u{2044}x", "1x", "2x 1"] {
        for features in [[:], ["salt": 2], ["salt": 1], ["numr": 1]] as [[FeatureTag: UInt32]] {
          runs.append(
            .init(
              text: text.unicodeScalars.map(\.value), font: font, rtl: false,
              script: HB_SCRIPT_LATIN, language: hb_language_from_string("en", -1),
              features: HarfBuzzShaper.features(features)))
        }
      }
    }
    let (differ, _) = compare(runs, passes: 1, gateAfterUses: 1)
    XCTAssertEqual(differ, [])
  }

  /// The requirement read for Inter's `ccmp` ligatures is their second glyph (a combining mark),
  /// not their first (a vowel): a plain word leaves `ccmp` off, a word with a mark keeps it on.
  func testInterLeavesCcmpOffOnlyWithoutMarks() throws {
    let font = try Fixtures.library.font(named: "Inter-Regular.otf")
    var props = hb_segment_properties_t()
    props.direction = HB_DIRECTION_LTR
    props.script = HB_SCRIPT_LATIN
    props.language = hb_language_from_string("en", -1)
    let plan = hb_shape_plan_create_cached(hb_font_get_face(font.hbFont), &props, nil, 0, nil)!
    defer { hb_shape_plan_destroy(plan) }
    let gate = try XCTUnwrap(FeatureGate.make(font: font, plan: plan, props: props, features: []))
    func off(_ s: String) -> UInt8 {
      let text = s.unicodeScalars.map(\.value)
      return text.withUnsafeBufferPointer { gate.offMask($0, font: font) }
    }
    let ccmp: UInt8 = 1
    XCTAssertEqual(off("Hello there, a quiet evening") & ccmp, ccmp)
    XCTAssertEqual(off("Caf\u{E9} au lait") & ccmp, ccmp)
    XCTAssertEqual(off("Cafe\u{301} au lait"), 0)
    XCTAssertEqual(off("\u{212B}"), 0)
  }

  /// The gate a font's default plan gets for `script` and `language`.
  func defaultGate(_ name: String, script: hb_script_t, language: String) throws -> (
    FeatureGate, Font
  ) {
    let font = try Fixtures.library.font(named: name)
    var props = hb_segment_properties_t()
    props.direction = HB_DIRECTION_LTR
    props.script = script
    props.language = hb_language_from_string(language, -1)
    let plan = hb_shape_plan_create_cached(hb_font_get_face(font.hbFont), &props, nil, 0, nil)!
    defer { hb_shape_plan_destroy(plan) }
    return (
      try XCTUnwrap(FeatureGate.make(font: font, plan: plan, props: props, features: [])), font
    )
  }

  /// DejaVu Sans's `ccmp` rules by class start at `i` and `j` (which need a mark after them) or
  /// at a mark: read rule set by rule set, `i` needs nothing and only the marks block.
  func testRuleSetsNameTheirOwnRequirements() throws {
    let (gate, font) = try defaultGate("DejaVuSans.ttf", script: HB_SCRIPT_LATIN, language: "en")
    func off(_ s: String) -> UInt8 {
      let text = s.unicodeScalars.map(\.value)
      return text.withUnsafeBufferPointer { gate.offMask($0, font: font) }
    }
    let ccmp: UInt8 = 1
    XCTAssertEqual(off("a quiet night in July") & ccmp, ccmp)
    XCTAssertEqual(off("i\u{301}"), 0)
  }

  /// Noto Sans CJK's `calt` and `locl` lookups come after its `ccmp` lookups, which could make
  /// glyphs they need: they may be left off with `ccmp` off too. And `ccmp` may be left off
  /// alone, as no later lookup can feed it (HarfBuzz applies a stage's lookups in index order).
  func testLookupOrderFreesLaterFeatures() throws {
    let (gate, font) = try defaultGate(
      "NotoSansCJK-Regular.ttc", script: HB_SCRIPT_HAN, language: "ja")
    let ccmp: UInt8 = 1
    let locl: UInt8 = 2
    let calt: UInt8 = 8
    XCTAssertEqual(gate.usable & (ccmp | locl | calt), ccmp | locl | calt)
    let text = "日本語のテキスト".unicodeScalars.map(\.value)
    let mask = text.withUnsafeBufferPointer { gate.offMask($0, font: font) }
    XCTAssertEqual(mask & (ccmp | locl | calt), ccmp | locl | calt)
    // Korean: the space has a localized form (so `locl` stays on), and `ccmp`, whose lookups
    // come first, is still left off.
    let (korean, cjk) = try defaultGate(
      "NotoSansCJK-Regular.ttc", script: HB_SCRIPT_HANGUL, language: "ko")
    let hangul = "한국어 텍스트".unicodeScalars.map(\.value)
    let koreanMask = hangul.withUnsafeBufferPointer { korean.offMask($0, font: cjk) }
    XCTAssertEqual(koreanMask & (ccmp | locl), ccmp)
    // A candidate that needs another off is kept on when that one must stay on.
    XCTAssertEqual(FeatureGate.closed(0b11, requires: [0, 0b1]), 0b11)
    XCTAssertEqual(FeatureGate.closed(0b10, requires: [0, 0b1]), 0)
    XCTAssertEqual(FeatureGate.closed(0b110, requires: [0, 0b100, 0b10]), 0b110)
  }

  /// Noto Sans's `liga` needs an `f` right before `f`, `i` or `l`: "for", "of" and "if" leave it
  /// off, "office" and "fly" keep it on; so does every text HarfBuzz would ligate (the corpus
  /// and character tests above compare the glyphs).
  func testLigaturesNeedTheirTwoGlyphsSideBySide() throws {
    let (gate, font) = try defaultGate(
      "NotoSans-Regular.ttf", script: HB_SCRIPT_LATIN, language: "en")
    XCTAssertFalse(gate.pairs.isEmpty)
    func off(_ s: String) -> UInt8 {
      let text = s.unicodeScalars.map(\.value)
      return text.withUnsafeBufferPointer { gate.offMask($0, font: font) }
    }
    let liga: UInt8 = 1 << 5
    XCTAssertEqual(off("for a friend of mine") & liga, liga)
    XCTAssertEqual(off("if it is") & liga, liga)
    XCTAssertEqual(off("the office") & liga, 0)
    XCTAssertEqual(off("a fly") & liga, 0)
    XCTAssertEqual(off("f l i") & liga, liga)
  }
}
