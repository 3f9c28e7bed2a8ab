import Typesetting
import CHarfBuzz
import Foundation

/// Which of a shape plan's substitution features a run may leave off because none of their
/// lookups can change it — the same glyphs and positions, less work for HarfBuzz.
///
/// HarfBuzz 6 tries every lookup of every feature on every glyph it covers: Inter's `ccmp`, for
/// one, holds 476 ligatures of vowels with combining marks, and HarfBuzz tries each of a vowel's
/// ~25 before finding that no mark follows — almost half of Inter's shaping time on plain text.
/// A run with no combining mark cannot be changed by them, so it may be shaped with `ccmp` off.
///
/// For each candidate feature (those HarfBuzz turns on by default for horizontal text) the lookups
/// it adds to the plan are read (``LookupRequirements``): each names glyphs one of which must be
/// present for it to apply. A character blocks the feature when its glyph is one of those. A run
/// may leave a feature off only when
/// - no character of the run blocks it;
/// - every character reaches HarfBuzz's substitutions as its nominal glyph: it is in the font's
///   `cmap`, not a mark, a conjoining jamo or a default-ignorable character, and if it has a
///   canonical decomposition, HarfBuzz's normalizer would compose it back to itself were it to
///   decompose it (HarfBuzz 6 keeps a character the font has whole; the check holds for any
///   normalization mode, and blocks every feature for singletons such as U+212B);
/// - no lookup left on in the plan can make a glyph the feature needs before the feature's lookup
///   looks for it (read from their substitutes and those of the lookups they call; a run's own
///   glyphs are clear of them, so nothing else could bring one in). HarfBuzz applies a stage's
///   lookups in index order, so only earlier lookups (and those of `rvrn` and required features,
///   which may come in a stage before) can feed it; a lookup of another candidate may, when that
///   candidate is off too (``requires``);
/// - for a lookup that needs two glyphs side by side (a ligature, a rule by coverage), no glyph
///   of a pair of sets it needs stands right before one of the other (``pairs``), and no glyph
///   of the run is one a lookup's matching could skip;
/// - the run is left to right, in a script written left to right whose shaper applies every
///   feature to the whole run (``shapesWholeRuns(_:font:)``: no mirroring, no shaper that reads
///   features by syllable), with no user feature on part of the text;
/// - turning the feature off removes only its lookups (checked on the plans themselves, also for
///   each combination used, in both GSUB and GPOS).
///
/// Made once per font and plan properties, shared by all threads (`Font.featureGates`); each
/// shaper keeps what each character it has met blocks. What it saves is measured by `galley
/// bench --only prepare` (docs/PERFORMANCE.md).
/// (A class: runs read it through their plan's entry, and a copy would retain every table.)
final class FeatureGate: Sendable {
  /// The features a run may leave off, by bit: ccmp, locl, rlig, calt, clig, liga, rclt.
  static let candidates: [hb_tag_t] = ["ccmp", "locl", "rlig", "calt", "clig", "liga", "rclt"]
    .map(Font.tag)

  /// Candidates that a run may leave off at all.
  let usable: UInt8
  /// Per candidate: the glyphs one of which its lookups need to apply (empty when not usable).
  let needs: [Set<UInt16>]
  /// Per candidate: the other candidates that must be off with it.
  let requires: [UInt8]
  /// The candidates that need another off with them, by bit.
  let requiring: UInt8
  /// Pairs of glyph sets that must stand side by side (``Analysis/pairs``), all candidates'
  /// in one list, and the candidate (by bit) each belongs to.
  let pairs: [Pair]
  let pairOwners: [UInt8]
  /// The font's GDEF glyph classes (nil when it has none), and whether they could not be read.
  let glyphClasses: ClassDefinition?
  let classesUnreadable: Bool
  /// GSUB and GPOS lookups of the plan, and the lookups each candidate adds (for checking
  /// combinations).
  let planLookups: Set<UInt32>
  let planPositioning: Set<UInt32>
  let lookupsOf: [Set<UInt32>]

  init(
    usable: UInt8, needs: [Set<UInt16>], requires: [UInt8], pairs: [Pair], pairOwners: [UInt8],
    glyphClasses: ClassDefinition?, classesUnreadable: Bool,
    planLookups: Set<UInt32>, planPositioning: Set<UInt32>, lookupsOf: [Set<UInt32>]
  ) {
    self.usable = usable
    self.needs = needs
    self.requires = requires
    self.requiring = requires.enumerated().reduce(0) {
      $0 | ($1.element != 0 ? 1 << UInt8($1.offset) : 0)
    }
    self.pairs = pairs
    self.pairOwners = pairOwners
    self.glyphClasses = glyphClasses
    self.classesUnreadable = classesUnreadable
    self.planLookups = planLookups
    self.planPositioning = planPositioning
    self.lookupsOf = lookupsOf
  }

  /// The candidates a run holding `c` must keep on, by bit (bit 7, never a candidate, is always
  /// set; all bits when the character may change on its way to the substitutions).
  func blocks(_ c: UInt32, font: Font) -> UInt8 {
    guard c != 0x2044, let glyph = font.glyph(for: c), glyph <= 0xFFFF,
      FeatureGate.reachesShapingAsItself(c, font: font)
    else { return 0xFF }
    var b: UInt8 = ~usable
    for (k, n) in needs.enumerated() where n.contains(UInt16(glyph)) { b |= 1 << UInt8(k) }
    // A glyph classed a ligature or a mark may be skipped by a lookup's matching, which would
    // bring its neighbours side by side: pairs cannot tell.
    if !pairs.isEmpty
      && (classesUnreadable || (glyphClasses?.class(UInt16(glyph)) ?? 0) >= 2)
    {
      b |= pairOwners.reduce(0, |)
    }
    return b
  }

  /// Which pair sets `c`'s glyph is in: bit 8 + 2r for the first set of pair r, 9 + 2r for
  /// its second (the low byte is left for ``blocks(_:font:)``).
  func pairBits(_ c: UInt32, font: Font) -> UInt64 {
    guard !pairs.isEmpty, let g = font.glyph(for: c), g <= 0xFFFF else { return 0 }
    var bits: UInt64 = 0
    for (r, pair) in pairs.enumerated() {
      if pair.first.contains(UInt16(g)) { bits |= 1 << UInt64(8 + 2 * r) }
      if pair.second.contains(UInt16(g)) { bits |= 2 << UInt64(8 + 2 * r) }
    }
    return bits
  }

  /// The candidates two adjacent characters keep on through pairs (from their ``pairBits``).
  func pairKeeps(_ before: UInt64, _ after: UInt64) -> UInt8 {
    var hits = before & (after >> 1) & 0x5555_5555_5555_5500
    var keep: UInt8 = 0
    while hits != 0 {
      keep |= pairOwners[(hits.trailingZeroBitCount - 8) >> 1]
      hits &= hits - 1
    }
    return keep
  }

  /// The candidates `text` may leave off (0 when none).
  func offMask(_ text: UnsafeBufferPointer<UInt32>, font: Font) -> UInt8 {
    var keep: UInt8 = ~usable
    var previous: UInt64 = 0
    for c in text {
      keep |= blocks(c, font: font)
      let bits = pairBits(c, font: font)
      if previous != 0 && bits != 0 { keep |= pairKeeps(previous, bits) }
      previous = bits
    }
    return off(keeping: keep)
  }

  /// The candidates left off when those of `keep` stay on (and those that need one of them).
  func off(keeping keep: UInt8) -> UInt8 {
    let mask = ~keep
    return mask & requiring == 0 ? mask : FeatureGate.closed(mask, requires: requires)
  }

  /// `mask` less every candidate that needs one outside it off too (repeatedly).
  static func closed(_ mask: UInt8, requires: [UInt8]) -> UInt8 {
    var mask = mask
    var changed = true
    while changed {
      changed = false
      for k in 0..<requires.count where mask >> UInt8(k) & 1 != 0 && requires[k] & ~mask != 0 {
        mask &= ~(1 << UInt8(k))
        changed = true
      }
    }
    return mask
  }

  /// `base` with the candidates of `mask` turned off.
  static func features(_ base: [hb_feature_t], off mask: UInt8) -> [hb_feature_t] {
    var result = base
    for (k, tag) in candidates.enumerated() where mask >> UInt8(k) & 1 != 0 {
      result.append(hb_feature_t(tag: tag, value: 0, start: 0, end: UInt32.max))
    }
    return result
  }

  /// Whether the plan for `mask` applies exactly the plan's lookups less those of the candidates
  /// turned off (and the same GPOS lookups): a feature may share a lookup with one left on, or
  /// freeing its mask bit may let another feature in.
  func isExact(_ variant: OpaquePointer, mask: UInt8) -> Bool {
    var expected = planLookups
    for k in 0..<lookupsOf.count where mask >> UInt8(k) & 1 != 0 {
      expected.subtract(lookupsOf[k])
    }
    return FeatureGate.lookups(variant, "GSUB") == expected
      && FeatureGate.lookups(variant, "GPOS") == planPositioning
  }

  static func lookups(_ plan: OpaquePointer, _ table: String) -> Set<UInt32> {
    FeatureGate.collectingLookups { hb_ot_shape_plan_collect_lookups(plan, Font.tag(table), $0) }
  }

  /// The lookup indices `fill` puts in a HarfBuzz set.
  static func collectingLookups(_ fill: (OpaquePointer) -> Void) -> Set<UInt32> {
    let set = hb_set_create()!
    defer { hb_set_destroy(set) }
    fill(set)
    var result = Set<UInt32>()
    var v: hb_codepoint_t = UInt32.max
    while hb_set_next(set, &v) != 0 { result.insert(v) }
    return result
  }

  /// The Hangul shaper's features, whose masks it sets only on conjoining jamo.
  static let jamoFeatures: [hb_tag_t] = ["ljmo", "vjmo", "tjmo"].map(Font.tag)

  /// HarfBuzz's automatic fraction features, whose masks it sets only around U+2044.
  static let fractionFeatures: [hb_tag_t] = ["frac", "numr", "dnom"].map(Font.tag)

  /// Whether HarfBuzz shapes runs of `props` in `font` with a shaper that applies every feature
  /// to the whole run and leaves every character that reaches shaping as itself
  /// (``reachesShapingAsItself(_:font:)``) as it is: the default and Hangul shapers
  /// (``appliesFeaturesToWholeRuns(script:)``); the Thai one (Thai and Lao), which only splits SARA AM (which does
  /// not reach shaping as itself) and moves or replaces marks; the Hebrew one in a font whose
  /// GPOS has a Hebrew script; and the Indic one's scripts when
  /// the font has no table for them, for which HarfBuzz takes its default shaper (their GSUB
  /// script is then `DFLT` or `latn`) — the punctuation and digits of Hindi text, say, in a
  /// Latin font.
  static func shapesWholeRuns(_ props: hb_segment_properties_t, font: Font) -> Bool {
    if appliesFeaturesToWholeRuns(script: props.script) { return true }
    switch props.script {
    case HB_SCRIPT_THAI, HB_SCRIPT_LAO:
      return true
    case HB_SCRIPT_HEBREW:
      // The Hebrew shaper composes and reorders marks only, but positions with GPOS only when
      // the font's GPOS has a Hebrew script (a Latin font's punctuation in Hebrew text gets no
      // kerning: left to HarfBuzz).
      return chosenScript(props, font: font, table: "GPOS") == Font.tag("hebr")
    case HB_SCRIPT_BENGALI, HB_SCRIPT_DEVANAGARI, HB_SCRIPT_GUJARATI, HB_SCRIPT_GURMUKHI,
      HB_SCRIPT_KANNADA, HB_SCRIPT_MALAYALAM, HB_SCRIPT_ORIYA, HB_SCRIPT_TAMIL, HB_SCRIPT_TELUGU:
      let chosen = chosenScript(props, font: font, table: "GSUB")
      return chosen == Font.tag("DFLT") || chosen == Font.tag("latn")
    default:
      return false
    }
  }

  /// The script of `table` that HarfBuzz picks for `props` in `font`, as it picks it.
  static func chosenScript(_ props: hb_segment_properties_t, font: Font, table: String) -> hb_tag_t
  {
    var scripts = [hb_tag_t](repeating: 0, count: 3)
    var languages = [hb_tag_t](repeating: 0, count: 3)
    var scriptCount = UInt32(scripts.count)
    var languageCount = UInt32(languages.count)
    hb_ot_tags_from_script_and_language(
      props.script, props.language, &scriptCount, &scripts, &languageCount, &languages)
    var index: UInt32 = 0
    var chosen: hb_tag_t = 0
    _ = hb_ot_layout_table_select_script(
      hb_font_get_face(font.hbFont), Font.tag(table), scriptCount, &scripts, &index, &chosen)
    return chosen
  }

  /// Scripts shaped by HarfBuzz's default shaper (or the Hangul one), which apply every feature
  /// to the whole run.
  static func appliesFeaturesToWholeRuns(script: hb_script_t) -> Bool {
    switch script {
    case HB_SCRIPT_LATIN, HB_SCRIPT_CYRILLIC, HB_SCRIPT_GREEK, HB_SCRIPT_HAN, HB_SCRIPT_HIRAGANA,
      HB_SCRIPT_KATAKANA, HB_SCRIPT_HANGUL, HB_SCRIPT_BOPOMOFO, HB_SCRIPT_COMMON,
      HB_SCRIPT_INHERITED, HB_SCRIPT_UNKNOWN, HB_SCRIPT_ARMENIAN, HB_SCRIPT_GEORGIAN:
      return true
    default:
      return false
    }
  }

  /// Works out the gate for `plan` (made with `props` and `features` for `font`), or nil when no
  /// feature can ever be left off.
  static func make(
    font: Font, plan: OpaquePointer, props: hb_segment_properties_t, features: [hb_feature_t]
  ) -> FeatureGate? {
    // (Left to right only in scripts written left to right: HarfBuzz turns a Hebrew run around
    // before its lookups, so pairs side by side in the text are not in the buffer.)
    guard props.direction == HB_DIRECTION_LTR,
      hb_script_get_horizontal_direction(props.script) != HB_DIRECTION_RTL,
      shapesWholeRuns(props, font: font),
      features.allSatisfy({ $0.start == 0 && $0.end == UInt32.max }),
      !features.contains(where: { fractionFeatures.contains($0.tag) })
    else { return nil }
    let face = hb_font_get_face(font.hbFont)
    // Apple's layout tables replace GSUB when present.
    if font.hasAppleLayoutTables { return nil }
    let planLookups = lookups(plan, "GSUB")
    let planPositioning = lookups(plan, "GPOS")
    var lookupsOf: [Set<UInt32>] = []
    let facts = font.featureGates.fontFacts(font)
    for (k, tag) in candidates.enumerated() {
      guard facts.featureTags.contains(tag), facts.ownLookups >> UInt8(k) & 1 != 0,
        !features.contains(where: { $0.tag == tag })
      else {
        lookupsOf.append([])
        continue
      }
      var props = props
      let variant = (features + [hb_feature_t(tag: tag, value: 0, start: 0, end: UInt32.max)])
        .withUnsafeBufferPointer { f in
          hb_shape_plan_create_cached(face, &props, f.baseAddress, UInt32(f.count), nil)!
        }
      defer { hb_shape_plan_destroy(variant) }
      let left = lookups(variant, "GSUB")
      guard left.isSubset(of: planLookups), lookups(variant, "GPOS") == planPositioning else {
        lookupsOf.append([])
        continue
      }
      lookupsOf.append(planLookups.subtracting(left))
    }
    guard lookupsOf.contains(where: { !$0.isEmpty }) else { return nil }
    let analysis = font.gateAnalysis(planLookups: planLookups, lookupsOf: lookupsOf)
    guard analysis.usable != 0 else { return nil }
    var pairs: [Pair] = []
    var owners: [UInt8] = []
    for (k, list) in analysis.pairs.enumerated() {
      pairs += list
      owners += list.map { _ in 1 << UInt8(k) }
    }
    return FeatureGate(
      usable: analysis.usable, needs: analysis.needs, requires: analysis.requires,
      pairs: pairs, pairOwners: owners, glyphClasses: facts.glyphClasses,
      classesUnreadable: facts.classesUnreadable,
      planLookups: planLookups,
      planPositioning: planPositioning, lookupsOf: lookupsOf)
  }
}
