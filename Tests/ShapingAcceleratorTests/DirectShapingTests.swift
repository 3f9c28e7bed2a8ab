@testable import GalleyRecords
import CHarfBuzz
import XCTest

@testable import ShapingAccelerator
@testable import Typesetting

/// Runs shaped without HarfBuzz (``DirectPlan``) must get exactly the advances HarfBuzz gives.
final class DirectShapingTests: XCTestCase {
  override func setUpWithError() throws { try requireVerifiedAccelerator() }

  /// Shapes `text` as one run with a direct shaper (plans decided at first use) and with plain
  /// HarfBuzz; returns both per-character advances and whether the first went direct.
  func shapeBoth(
    _ text: [UInt32], font: Font, script: hb_script_t, language: String = "en",
    features: [hb_feature_t] = [], rtl: Bool = false, direct: AcceleratedShaper, whole: HarfBuzzShaper
  ) -> (direct: [Double], harfBuzz: [Double], wentDirect: Bool) {
    let run = ShapingRun(start: 0, end: text.count, font: font, rtl: rtl, script: script)
    let lang = hb_language_from_string(language, -1)
    var a = [Double](repeating: 0, count: text.count)
    var b = a
    let before = direct.shapingCounts.direct
    direct.glyphs.removeAll()
    whole.glyphs.removeAll()
    direct.shape(text, run: run, size: 16, language: lang, features: features, into: &a)
    whole.shape(text, run: run, size: 16, language: lang, features: features, into: &b)
    // Not the advances alone: the glyphs, their clusters, advances and offsets.
    XCTAssertEqual(direct.glyphs, whole.glyphs, "glyphs of \(text)")
    return (a, b, direct.shapingCounts.direct > before)
  }

  func shapers() -> (direct: AcceleratedShaper, whole: HarfBuzzShaper) {
    let direct = AcceleratedShaper()
    direct.gateAfterUses = 1
    let whole = HarfBuzzShaper()
    return (direct, whole)
  }

  func testCorpusRunsShapeTheSameDirectly() throws {
    let cases = Fixtures.corpus
    let runs = try Typesetter(cacheCapacity: 0, wordCacheCapacity: 0).shapingBaseline(
      cases.map { ($0.text, $0.style) }
    ).items
    XCTAssertGreaterThan(runs.count, 10_000)
    let (direct, whole) = shapers()
    var differ: [String] = []
    // The first pass decides each plan; the second meets every character again.
    for _ in 0..<2 {
      for item in runs {
        let run = ShapingRun(
          start: 0, end: item.text.count, font: item.font, rtl: item.rtl, script: item.script)
        var a = [Double](repeating: 0, count: item.text.count)
        var b = a
        direct.glyphs.removeAll(keepingCapacity: true)
        whole.glyphs.removeAll(keepingCapacity: true)
        direct.shape(
          item.text, run: run, size: 16, language: item.language, features: item.features,
          into: &a)
        whole.shape(
          item.text, run: run, size: 16, language: item.language, features: item.features,
          into: &b)
        if a != b || direct.glyphs != whole.glyphs {
          let text = String(String.UnicodeScalarView(item.text.compactMap(Unicode.Scalar.init)))
          differ.append("\(item.font.name) \(text.debugDescription): \(a) vs \(b)")
        }
      }
    }
    XCTAssertEqual(differ.prefix(5), [])
    XCTAssertEqual(differ.count, 0)
    // Some runs went direct, or the comparison above proved nothing. How many is a benchmark
    // figure (`galley bench`: runsShapedWithoutHarfBuzz), not a correctness floor: a safety fix
    // that leaves more runs to HarfBuzz must not fail this test.
    XCTAssertGreaterThan(direct.shapingCounts.direct, 0)
    print("runs shaped directly: \(direct.shapingCounts.direct) of \(2 * runs.count)")
  }

  /// A shaper meeting a plan whose gate and direct plan its font already has (made by another
  /// shaper: a thread, an earlier typesetter) uses them at once, without the warm-up uses a new
  /// plan waits for; a plan the font has not met still waits.
  func testPlansTheFontKnowsAreUsedAtOnce() throws {
    let font = try Fixtures.library.font(named: "NotoSans-Regular.ttf")
    let text = "Warm plans need no warm-up".unicodeScalars.map(\.value)
    let (first, whole) = shapers()
    XCTAssertTrue(
      shapeBoth(text, font: font, script: HB_SCRIPT_LATIN, direct: first, whole: whole).wentDirect)
    let second = AcceleratedShaper()
    XCTAssertGreaterThan(second.gateAfterUses, 1)
    let known = shapeBoth(text, font: font, script: HB_SCRIPT_LATIN, direct: second, whole: whole)
    XCTAssertTrue(known.wentDirect)
    XCTAssertEqual(known.direct, known.harfBuzz)
    XCTAssertEqual(second.gatedRuns, 1)
    // A language no shaper has shaped this font in: the plan is new, and waits.
    let fresh = shapeBoth(
      text, font: font, script: HB_SCRIPT_LATIN, language: "gd", direct: second, whole: whole)
    XCTAssertFalse(fresh.wentDirect)
    XCTAssertEqual(fresh.direct, fresh.harfBuzz)
  }

  /// Every pair of characters a font shapes directly, side by side (so every kerning pair and
  /// every class pair of the font's pair lookups, or `kern` table, meets its neighbour).
  func checkEveryPair(
    _ name: String, script: hb_script_t, language: String = "en", rtl: Bool = false,
    ranges: [ClosedRange<UInt32>], atLeast: Int = 51, file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    let font = try Fixtures.library.font(named: name)
    let (direct, whole) = shapers()
    // The characters a run may hold on the direct path.
    var chars: [UInt32] = []
    for range in ranges {
      for c in range where font.covers(c) {
        if shapeBoth(
          [c], font: font, script: script, language: language, rtl: rtl, direct: direct,
          whole: whole
        ).wentDirect {
          chars.append(c)
        }
      }
    }
    XCTAssertGreaterThanOrEqual(
      chars.count, atLeast, "\(name): characters on the direct path", file: file, line: line)
    var differ = 0
    var directRuns = 0
    for a in chars {
      // a c0 a c1 a c2 …: every pair (a, c) and (c, a).
      var text: [UInt32] = []
      for c in chars { text += [a, c] }
      let r = shapeBoth(
        text, font: font, script: script, language: language, rtl: rtl, direct: direct, whole: whole
      )
      if r.wentDirect { directRuns += 1 }
      if r.direct != r.harfBuzz {
        differ += 1
        if differ <= 3 {
          let k = zip(r.direct, r.harfBuzz).enumerated().first { $0.element.0 != $0.element.1 }!
          XCTFail(
            "\(name): U+\(String(text[k.offset], radix: 16)) after U+\(String(text[max(0, k.offset - 1)], radix: 16)): "
              + "\(k.element.0) vs HarfBuzz \(k.element.1)", file: file, line: line)
        }
      }
    }
    XCTAssertEqual(differ, 0, name, file: file, line: line)
    // (A run holding a pair a gate keeps a feature on for goes to HarfBuzz: Inter's `calt`
    // for a letter before a bracket, say.)
    XCTAssertGreaterThan(directRuns, chars.count / 10, name, file: file, line: line)
  }

  func testEveryPairOfInter() throws {
    try checkEveryPair(
      "Inter-Regular.otf", script: HB_SCRIPT_LATIN,
      ranges: [0x20...0x24F, 0x2010...0x2044, 0x20AC...0x20AC])
  }

  func testEveryPairOfNotoSans() throws {
    try checkEveryPair(
      "NotoSans-Regular.ttf", script: HB_SCRIPT_LATIN,
      ranges: [0x20...0x24F, 0x370...0x3FF, 0x2010...0x2044])
  }

  func testEveryPairOfDejaVuSans() throws {
    try checkEveryPair(
      "DejaVuSans.ttf", script: HB_SCRIPT_LATIN, ranges: [0x20...0x24F, 0x400...0x45F])
  }

  /// Characters beyond the planes the memos keep (CJK Extension B here) are looked up each
  /// time, gate and direct plan alike, and shape as HarfBuzz shapes them.
  func testCharactersBeyondTheMemoPlanes() throws {
    let (direct, whole) = shapers()
    let cjk = try Fixtures.library.font(named: "NotoSansCJK-Regular.ttc")
    let text: [UInt32] = [0x20BB7, 0x4E00, 0x20BB7, 0x3002]
    XCTAssertTrue(cjk.covers(0x20BB7))
    for _ in 0..<2 {
      let r = shapeBoth(
        text, font: cjk, script: HB_SCRIPT_HAN, language: "ja", direct: direct, whole: whole)
      XCTAssertTrue(r.wentDirect)
      XCTAssertEqual(r.direct, r.harfBuzz)
    }
  }

  /// DejaVu Sans's default script (which Hangul and Common runs get) has a required feature
  /// whose lookup joins N'Ko letters: runs without them go direct, every pair as HarfBuzz
  /// shapes it; N'Ko letters, in its coverage, go to HarfBuzz.
  func testEveryPairOfDejaVuSansInItsDefaultScript() throws {
    try checkEveryPair(
      "DejaVuSans.ttf", script: HB_SCRIPT_HANGUL, language: "ko",
      ranges: [0x20...0x7E, 0xA0...0xFF, 0x2010...0x2026])
    let (direct, whole) = shapers()
    let dejaVu = try Fixtures.library.font(named: "DejaVuSans.ttf")
    for script in [HB_SCRIPT_HANGUL, HB_SCRIPT_COMMON] {
      let spaces = shapeBoth(
        [0x20, 0x2E, 0x20], font: dejaVu, script: script, direct: direct, whole: whole)
      XCTAssertTrue(spaces.wentDirect)
      XCTAssertEqual(spaces.direct, spaces.harfBuzz)
      let nko = shapeBoth(
        [0x7D2, 0x7DE, 0x7CF], font: dejaVu, script: script, direct: direct, whole: whole)
      XCTAssertFalse(nko.wentDirect)
      XCTAssertEqual(nko.direct, nko.harfBuzz)
    }
  }

  /// Thai (and Lao) runs: the Thai shaper applies every feature to the whole run and changes
  /// only SARA AM and marks, so Noto Sans Thai's consonants, vowels that are no marks, digits and
  /// punctuation pair as HarfBuzz shapes them; SARA AM and marks go to HarfBuzz.
  func testEveryPairOfNotoSansThai() throws {
    try checkEveryPair(
      "NotoSansThai-Regular.ttf", script: HB_SCRIPT_THAI, language: "th",
      ranges: [0x20...0x7E, 0xE01...0xE5B])
    let (direct, whole) = shapers()
    let thai = try Fixtures.library.font(named: "NotoSansThai-Regular.ttf")
    for text in ["ทำ", "น้ำ", "สวัสดี", "กรุงเทพ"] {
      let r = shapeBoth(
        text.unicodeScalars.map(\.value), font: thai, script: HB_SCRIPT_THAI, language: "th",
        direct: direct, whole: whole)
      XCTAssertFalse(r.wentDirect, text)
      XCTAssertEqual(r.direct, r.harfBuzz, text)
    }
  }

  /// Hebrew, right to left (as the bidi levels of Hebrew text make it) and left to right: Noto
  /// Sans Hebrew's letters, digits and punctuation pair as HarfBuzz shapes them (kerned in
  /// logical order); characters HarfBuzz mirrors right to left (parentheses, brackets) and
  /// marks go to HarfBuzz, and so do Hebrew runs of a font whose GPOS has no Hebrew script
  /// (HarfBuzz does not position them with it).
  func testEveryPairOfNotoSansHebrew() throws {
    try checkEveryPair(
      "NotoSansHebrew-Regular.ttf", script: HB_SCRIPT_HEBREW, language: "he", rtl: true,
      ranges: [0x20...0x7E, 0x5D0...0x5F4, 0x20AA...0x20AA], atLeast: 32)
    let (direct, whole) = shapers()
    let hebrew = try Fixtures.library.font(named: "NotoSansHebrew-Regular.ttf")
    func shape(_ text: String, _ font: Font) -> (
      direct: [Double], harfBuzz: [Double], wentDirect: Bool
    ) {
      shapeBoth(
        text.unicodeScalars.map(\.value), font: font, script: HB_SCRIPT_HEBREW, language: "he",
        rtl: true, direct: direct, whole: whole)
    }
    let plain = shape("שלום עולם", hebrew)
    XCTAssertTrue(plain.wentDirect)
    XCTAssertEqual(plain.direct, plain.harfBuzz)
    for text in ["(שלום)", "שָׁלוֹם", "a < b"] {
      let r = shape(text, hebrew)
      XCTAssertFalse(r.wentDirect, text)
      XCTAssertEqual(r.direct, r.harfBuzz, text)
    }
    let noto = try Fixtures.library.font(named: "NotoSans-Regular.ttf")
    let latin = shape("AV, 12.", noto)
    XCTAssertFalse(latin.wentDirect)
    XCTAssertEqual(latin.direct, latin.harfBuzz)
    // Left to right, HarfBuzz turns the run around before kerning it.
    let turned = shapeBoth(
      "אבגד".unicodeScalars.map(\.value), font: hebrew, script: HB_SCRIPT_HEBREW, language: "he",
      rtl: false, direct: direct, whole: whole)
    XCTAssertFalse(turned.wentDirect)
    XCTAssertEqual(turned.direct, turned.harfBuzz)
  }

  /// A run right to left after one left to right in the same font, script and language: the
  /// direct plans made for each are told apart (found by fuzzing: a closing brace right to left,
  /// which HarfBuzz mirrors, was shaped with the left-to-right plan).
  func testDirectionIsPartOfADirectPlan() throws {
    let devanagari = try Fixtures.library.font(named: "NotoSansDevanagari-Regular.ttf")
    for order in [[false, true], [true, false]] {
      let (direct, whole) = shapers()
      for rtl in order {
        let r = shapeBoth(
          [0x7D, 0x7D, 0x28], font: devanagari, script: HB_SCRIPT_COMMON, language: "x-bad",
          rtl: rtl, direct: direct, whole: whole)
        XCTAssertEqual(r.wentDirect, !rtl, "rtl \(rtl)")
        XCTAssertEqual(r.direct, r.harfBuzz, "rtl \(rtl)")
      }
    }
  }

  /// Fonts built for the shapers that are not the default one (`Fixtures/gates/make-fonts.py`):
  /// SARA AM, which the Thai shaper splits into a mark and SARA AA, a parenthesis in a
  /// right-to-left Hebrew run, which HarfBuzz mirrors, and a font with a Devanagari table, whose
  /// `half` substitution the Indic shaper applies only to half forms, go to HarfBuzz; the rest
  /// of a Thai or Hebrew run goes direct. (And a chained context applied directly as HarfBuzz
  /// applies it, going on after its input.)
  func testShapersThatChangeCharactersAreLeftToHarfBuzz() throws {
    let (direct, whole) = shapers()
    let thai = try Font(contentsOf: Fixtures.url("gates/thaiam.ttf").path)
    let plain = shapeBoth(
      [0xE01, 0x20, 0x61, 0x62, 0xE32], font: thai, script: HB_SCRIPT_THAI, language: "th",
      direct: direct, whole: whole)
    XCTAssertTrue(plain.wentDirect)
    XCTAssertEqual(plain.direct, plain.harfBuzz)
    let am = shapeBoth(
      [0xE01, 0xE33], font: thai, script: HB_SCRIPT_THAI, language: "th", direct: direct,
      whole: whole)
    XCTAssertFalse(am.wentDirect)
    XCTAssertEqual(am.direct, am.harfBuzz)
    let hebrew = try Font(contentsOf: Fixtures.url("gates/hebrew.ttf").path)
    for (text, goes) in [("\u{5D0}\u{5D1} ab", true), ("\u{5D0}(\u{5D1})", false)] {
      let r = shapeBoth(
        text.unicodeScalars.map(\.value), font: hebrew, script: HB_SCRIPT_HEBREW, language: "he",
        rtl: true, direct: direct, whole: whole)
      XCTAssertEqual(r.wentDirect, goes, text)
      XCTAssertEqual(r.direct, r.harfBuzz, text)
    }
    // Left to right, HarfBuzz turns the run around: `a b` forms the ligature of `b a` (which a
    // feature gate reading the text in its order would have left off).
    let turned = shapeBoth(
      [0x61, 0x62], font: hebrew, script: HB_SCRIPT_HEBREW, language: "he", direct: direct,
      whole: whole)
    XCTAssertFalse(turned.wentDirect)
    XCTAssertEqual(turned.direct, turned.harfBuzz)
    XCTAssertEqual(turned.harfBuzz[0], 0, "the ligature of b a: its advance on b")
    // A chained context that matches and does nothing: HarfBuzz goes on after its input.
    let context = try Font(contentsOf: Fixtures.url("gates/context.ttf").path)
    var advances: [String: [Double]] = [:]
    for text in ["xab", "dab", "b"] {
      let r = shapeBoth(
        text.unicodeScalars.map(\.value), font: context, script: HB_SCRIPT_LATIN,
        direct: direct, whole: whole)
      XCTAssertTrue(r.wentDirect, text)
      XCTAssertEqual(r.direct, r.harfBuzz, text)
      advances[text] = r.direct
    }
    XCTAssertNotEqual(advances["xab"]?[2], advances["dab"]?[2], "b after d a becomes c")
    // A required feature's lookup changing a ligature formed before it.
    let early = try Font(contentsOf: Fixtures.url("gates/early.ttf").path)
    for (text, goes) in [("ab", false), ("ba", true)] {
      let r = shapeBoth(
        text.unicodeScalars.map(\.value), font: early, script: HB_SCRIPT_LATIN, direct: direct,
        whole: whole)
      XCTAssertEqual(r.wentDirect, goes, text)
      XCTAssertEqual(r.direct, r.harfBuzz, text)
    }
    let indic = try Font(contentsOf: Fixtures.url("gates/indic.ttf").path)
    for script in [HB_SCRIPT_DEVANAGARI, HB_SCRIPT_LATIN] {
      let r = shapeBoth(
        [0x61, 0x20, 0x61], font: indic, script: script, language: "hi", direct: direct,
        whole: whole)
      XCTAssertEqual(r.wentDirect, script == HB_SCRIPT_LATIN)
      XCTAssertEqual(r.direct, r.harfBuzz)
    }
  }

  /// The punctuation, digits and spaces of Thai and Hindi text in a Latin font: a Thai run goes
  /// through the Thai shaper, a Devanagari one through HarfBuzz's default shaper when the font
  /// has no Indic table (its GSUB script is `DFLT` or `latn`); both pair as HarfBuzz shapes them.
  /// A font with Devanagari tables takes the Indic shaper: its runs go to HarfBuzz.
  func testLatinFontsInThaiAndDevanagariRuns() throws {
    for name in ["NotoSans-Regular.ttf", "Inter-Regular.otf", "DejaVuSans.ttf"] {
      try checkEveryPair(name, script: HB_SCRIPT_THAI, language: "th", ranges: [0x20...0x7E])
      try checkEveryPair(
        name, script: HB_SCRIPT_DEVANAGARI, language: "hi", ranges: [0x20...0x7E])
    }
    let (direct, whole) = shapers()
    let devanagari = try Fixtures.library.font(named: "NotoSansDevanagari-Regular.ttf")
    for text in ["१२ ३", ", ", "नमस्ते"] {
      let r = shapeBoth(
        text.unicodeScalars.map(\.value), font: devanagari, script: HB_SCRIPT_DEVANAGARI,
        language: "hi", direct: direct, whole: whole)
      XCTAssertFalse(r.wentDirect, text)
      XCTAssertEqual(r.direct, r.harfBuzz, text)
    }
  }

  /// A font with only a `kern` table: HarfBuzz splits each value between the two glyphs.
  func testEveryPairOfNanumGothicFromItsKernTable() throws {
    try checkEveryPair(
      "NanumGothic.ttf", script: HB_SCRIPT_HANGUL, language: "ko",
      ranges: [0x20...0x7E, 0xAC00...0xAC60, 0xB098...0xB0C0, 0x3131...0x3140])
  }

  func testEveryPairOfNotoSansCJK() throws {
    try checkEveryPair(
      "NotoSansCJK-Regular.ttc", script: HB_SCRIPT_HAN, language: "ja",
      ranges: [0x20...0x7E, 0x3000...0x30FF, 0x4E00...0x4E40, 0xFF01...0xFF20])
  }

  func testRunsHarfBuzzMustShapeAreLeftToIt() throws {
    let (direct, whole) = shapers()
    let noto = try Fixtures.library.font(named: "NotoSans-Regular.ttf")
    func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }
    // Warm the plan up, then: a combining mark, a fraction slash, a letter outside the font, and
    // automatic fractions turned on by the user.
    _ = shapeBoth(scalars("Tea"), font: noto, script: HB_SCRIPT_LATIN, direct: direct, whole: whole)
    for (text, features) in [
      ("cafe\u{301}", []), ("1\u{2044}2", []), ("Zoë 日本", []),
      ("1/2", HarfBuzzShaper.features(["frac": 1])),
    ] as [(String, [hb_feature_t])] {
      let r = shapeBoth(
        scalars(text), font: noto, script: HB_SCRIPT_LATIN, features: features, direct: direct,
        whole: whole)
      XCTAssertFalse(r.wentDirect, text)
      XCTAssertEqual(r.direct, r.harfBuzz, text)
    }
    // Small capitals: single substitutions, applied directly.
    let small = shapeBoth(
      scalars("Tea"), font: noto, script: HB_SCRIPT_LATIN, features: HarfBuzzShaper.features(["smcp": 1]),
      direct: direct, whole: whole)
    let plain = shapeBoth(
      scalars("Tea"), font: noto, script: HB_SCRIPT_LATIN, direct: direct, whole: whole)
    XCTAssertTrue(small.wentDirect)
    XCTAssertEqual(small.direct, small.harfBuzz)
    XCTAssertNotEqual(small.direct, plain.direct)
    // Kerning turned off by the user: direct, without kerning.
    let r = shapeBoth(
      scalars("AVATAR"), font: noto, script: HB_SCRIPT_LATIN,
      features: HarfBuzzShaper.features(["kern": 0]), direct: direct, whole: whole)
    XCTAssertTrue(r.wentDirect)
    XCTAssertEqual(r.direct, r.harfBuzz)
    let kerned = shapeBoth(
      scalars("AVATAR"), font: noto, script: HB_SCRIPT_LATIN, direct: direct, whole: whole)
    XCTAssertTrue(kerned.wentDirect)
    XCTAssertEqual(kerned.direct, kerned.harfBuzz)
    XCTAssertLessThan(kerned.direct.reduce(0, +), r.direct.reduce(0, +), "AV and TA kern")
  }

  /// The bitmap-only emoji font: an emoji alone (beyond the Basic Multilingual Plane too) goes
  /// direct, measured as the shaper measures the font after HarfBuzz (the strike's whole-pixel
  /// advance, scaled to the size); sequences its `ccmp` ligatures and contexts turn into one
  /// glyph (ZWJ sequences, skin tones, flags, keycaps, variation selectors) stay with HarfBuzz.
  func testEmojiOfTheBitmapFont() throws {
    let (direct, whole) = shapers()
    let emoji = try Fixtures.library.font(named: "NotoColorEmoji.ttf")
    XCTAssertNotNil(emoji.bitmapStrikePPEM)
    func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }
    var alone = 0
    var wentDirect = 0
    for c in UInt32(0x2600)...0x27BF where emoji.covers(c) {
      let r = shapeBoth([c], font: emoji, script: HB_SCRIPT_COMMON, direct: direct, whole: whole)
      XCTAssertEqual(r.direct, r.harfBuzz, "U+\(String(c, radix: 16))")
      alone += 1
      if r.wentDirect { wentDirect += 1 }
    }
    for c in UInt32(0x1F300)...0x1FAFF where emoji.covers(c) {
      let r = shapeBoth([c], font: emoji, script: HB_SCRIPT_COMMON, direct: direct, whole: whole)
      XCTAssertEqual(r.direct, r.harfBuzz, "U+\(String(c, radix: 16))")
      alone += 1
      if r.wentDirect { wentDirect += 1 }
    }
    XCTAssertGreaterThan(alone, 1000)
    XCTAssertGreaterThan(wentDirect, alone * 8 / 10, "\(wentDirect) of \(alone) alone went direct")
    // In a row, and in a Hangul run (the script of the text around them).
    for script in [HB_SCRIPT_COMMON, HB_SCRIPT_HANGUL] {
      let run = shapeBoth(
        scalars("🚀😀🎉💯"), font: emoji, script: script, direct: direct, whole: whole)
      XCTAssertTrue(run.wentDirect)
      XCTAssertEqual(run.direct, run.harfBuzz)
      XCTAssertGreaterThan(run.direct[0], 0)
    }
    for text in [
      "👩\u{200D}💻", "👍🏽", "🇰🇷", "1\u{FE0F}\u{20E3}", "❤\u{FE0F}", "👨\u{200D}👩\u{200D}👧",
    ] {
      let r = shapeBoth(
        scalars(text), font: emoji, script: HB_SCRIPT_COMMON, direct: direct, whole: whole)
      XCTAssertFalse(r.wentDirect, text)
      XCTAssertEqual(r.direct, r.harfBuzz, text)
    }
  }

  /// Ligatures of lookups that skip nothing a direct run holds are formed directly, as HarfBuzz
  /// forms them: the ligature's advance goes to its first character, the others get none, and
  /// the glyph kerns with its neighbours. Noto Sans (the default stack's first font) and DejaVu
  /// Sans form `ff`, `fi`, `fl`, `ffi`, `ffl`; Inter an arrow.
  func testLigaturesFormedDirectly() throws {
    let (direct, whole) = shapers()
    func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }
    for name in ["NotoSans-Regular.ttf", "DejaVuSans.ttf"] {
      let font = try Fixtures.library.font(named: name)
      _ = shapeBoth(
        scalars("Tea"), font: font, script: HB_SCRIPT_LATIN, direct: direct, whole: whole)
      for text in [
        "office", "fluffy affix", "The first flight", "ff fi fl ffi ffl", "fffi", "f i", "Waffle.",
        "efficient AVAILABLE Toffee",
      ] {
        let r = shapeBoth(
          scalars(text), font: font, script: HB_SCRIPT_LATIN, direct: direct, whole: whole)
        XCTAssertTrue(r.wentDirect, "\(name) \(text)")
        XCTAssertEqual(r.direct, r.harfBuzz, "\(name) \(text)")
      }
      // "office": the ffi ligature's advance on the first f, none on the second f and the i.
      let office = shapeBoth(
        scalars("office"), font: font, script: HB_SCRIPT_LATIN, direct: direct, whole: whole)
      XCTAssertGreaterThan(office.direct[1], 0, name)
      XCTAssertEqual(office.direct[2], 0, name)
      XCTAssertEqual(office.direct[3], 0, name)
    }
  }

  /// Inter's contextual alternates stay on in runs with punctuation they could change, and are
  /// applied directly as HarfBuzz applies them: the arrow ligature, then chained contexts by
  /// coverage that call single substitutions — a multiplication sign between digits,
  /// case-sensitive parentheses and hyphens beside capitals — each seeing what the ones before
  /// it made.
  func testGuardedContextualLookups() throws {
    let (direct, whole) = shapers()
    let inter = try Fixtures.library.font(named: "Inter-Regular.otf")
    func shape(_ s: String) -> (direct: [Double], harfBuzz: [Double], wentDirect: Bool) {
      shapeBoth(
        s.unicodeScalars.map(\.value), font: inter, script: HB_SCRIPT_LATIN, direct: direct,
        whole: whole)
    }
    for text in [
      "3x4", "12 x 3", "(HELLO)", "[A]", "A->(B)", "a->b", "x -> y", "a->b->c", "(A)-[B]-{C}",
      "1x2x3", "H-E-L-L-O", "12:30–13:45",
    ] {
      let r = shape(text)
      XCTAssertTrue(r.wentDirect, text)
      XCTAssertEqual(r.direct, r.harfBuzz, text)
    }
    XCTAssertNotEqual(shape("a->b").harfBuzz, shape("a-b>").harfBuzz, "the arrow is a ligature")
    XCTAssertNotEqual(
      shape("3x4").harfBuzz[1], shape("axb").harfBuzz[1], "x between digits: a multiplication sign")
    for text in [
      "apt-get (see below)", "well-known", "hello world", "e-mail me@home", "(plain) text",
      "x marks the spot", "a - b", "12:30", "x <= y",
    ] {
      let r = shape(text)
      XCTAssertEqual(r.direct, r.harfBuzz, text)
    }
    XCTAssertTrue(shape("apt-get (see below)").wentDirect)
    XCTAssertTrue(shape("hello world").wentDirect)
  }

  /// Small fonts built to tell HarfBuzz's rules apart (`Fixtures/gates/make-fonts.py`): the
  /// order of a lookup's subtables and a class pair of class 0, two kerning lookups adding up, a
  /// pair that moves its second glyph (left to HarfBuzz), a mark and a glyph classed a ligature
  /// (left to HarfBuzz), a fraction lookup shared with a feature that is off, a `kern` table of
  /// format 2 and a variable font. Every text of up to three characters of `abcdx12 ⁄` shapes
  /// the same: glyphs, clusters, advances and offsets.
  func testSmallFontsShapeTheSameDirectly() throws {
    let alphabet: [UInt32] = "abcdx12 \u{2044}".unicodeScalars.map(\.value)
    var texts: [[UInt32]] = alphabet.map { [$0] }
    for a in alphabet {
      for b in alphabet {
        texts.append([a, b])
        for c in alphabet { texts.append([a, b, c]) }
      }
    }
    var wentDirect: [String: Set<String>] = [:]
    var harfBuzzAdvances: [String: [Double]] = [:]
    for name in [
      "pairorder.ttf", "second.ttf", "marks.ttf", "fracshared.ttf", "kern2.ttf", "variable.ttf",
    ] {
      let font = try Font(contentsOf: Fixtures.url("gates/\(name)").path)
      let (direct, whole) = shapers()
      for text in texts {
        let r = shapeBoth(text, font: font, script: HB_SCRIPT_LATIN, direct: direct, whole: whole)
        let s = String(String.UnicodeScalarView(text.compactMap(Unicode.Scalar.init)))
        XCTAssertEqual(r.direct, r.harfBuzz, "\(name) \(s.debugDescription)")
        if r.wentDirect { wentDirect[name, default: []].insert(s) }
        harfBuzzAdvances[name + " " + s] = r.harfBuzz
      }
    }
    // The fonts a user may bring kern as built (HarfBuzz applies them), and every text above
    // came out the same either way: a `kern` table of format 2 (classes) …
    // (HarfBuzz splits a `kern` value between the two glyphs: a c −50 is −25 each.)
    func px(_ units: Double) -> Double { 16 * units / 1000 }
    XCTAssertEqual(harfBuzzAdvances["kern2.ttf ac"], [px(520 - 25), px(540 - 25)])
    XCTAssertEqual(harfBuzzAdvances["kern2.ttf bd"], [px(530 - 5), px(550 - 5)])
    XCTAssertEqual(harfBuzzAdvances["kern2.ttf ab"], [px(520), px(530)])
    // … and a variable font, at its default instance, with GPOS kerning.
    XCTAssertEqual(harfBuzzAdvances["variable.ttf ab"], [px(520 - 40), px(530)])
    // The accelerator reads `kern` subtables of format 0 only: this font goes to HarfBuzz
    // whole; the variable font's default instance kerns directly.
    XCTAssertNil(wentDirect["kern2.ttf"])
    XCTAssertEqual(wentDirect["variable.ttf"]?.contains("ab"), true)
    // Both kerning lookups and the subtables in their order, without HarfBuzz.
    XCTAssertTrue(wentDirect["pairorder.ttf"]?.isSuperset(of: ["ab", "ac", "ca", "dx"]) ?? false)
    // The pair lookup that moves second glyphs covers a and b; c and d kern directly.
    XCTAssertEqual(wentDirect["second.ttf"]?.contains("cd"), true)
    XCTAssertEqual(wentDirect["second.ttf"]?.contains("ab"), false)
    XCTAssertEqual(wentDirect["second.ttf"]?.contains("bc"), false)
    // A mark, and a glyph the kerning lookup skips, go to HarfBuzz; the rest kerns directly.
    XCTAssertEqual(wentDirect["marks.ttf"]?.contains("ad"), true)
    XCTAssertEqual(wentDirect["marks.ttf"]?.contains("ax"), false)
    XCTAssertEqual(wentDirect["marks.ttf"]?.contains("ac"), false)
    // A lookup of `numr` shared with `sups` (off) acts only beside U+2044: "12" goes direct,
    // with the digits' own glyphs.
    XCTAssertEqual(wentDirect["fracshared.ttf"]?.contains("12"), true)
    XCTAssertEqual(wentDirect["fracshared.ttf"]?.contains("1\u{2044}2"), false)
  }
}
