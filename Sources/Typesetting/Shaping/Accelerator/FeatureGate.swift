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
/// shaper keeps what each character it has met blocks. On the conformance corpus `prepare` is
/// ~3% faster (HarfBuzz's instructions −20%); on its Latin-only texts ~14% (`galley bench --only
/// prepare` prints both, with and without gates, from the same run).
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
  @inline(__always)
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
  @inline(__always)
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
    if ["morx", "mort"].contains(where: font.hasTable) { return nil }
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

  /// The part of a gate that depends only on the font and the lookups: the glyphs each
  /// candidate needs, and which candidates no other lookup of the plan can feed.
  struct Analysis: Sendable {
    let usable: UInt8
    let needs: [Set<UInt16>]
    /// Per candidate: pairs of glyph sets, a glyph of the first right before one of the second,
    /// one of which its lookups that need two glyphs side by side need to apply.
    let pairs: [[Pair]]

    /// Per candidate: the other candidates that must be off with it (their lookups could make
    /// a glyph it needs, were they on).
    let requires: [UInt8]

    /// The most pairs a gate tells apart (two bits each in a 64-bit mask per character, above
    /// the byte of what the character blocks alone).
    static let maximumPairs = 28

    init(font: Font, planLookups: Set<UInt32>, lookupsOf: [Set<UInt32>]) {
      let facts = font.featureGates.fontFacts(font)
      let reader = facts.reader
      let work = LookupRequirements.Work()
      var known: UInt8 = 0
      var needs: [Set<UInt16>] = []
      var pairs: [[Pair]] = []
      var requires = [UInt8](repeating: 0, count: lookupsOf.count)
      // Which candidates read their lookups that need two glyphs side by side as pairs (each
      // candidate all of them, or none), while the pairs fit in a gate: first those whose
      // single glyphs would block the most text (Inter's `calt` needs a hyphen, say, where
      // its pairs need a hyphen next to a capital; its `ccmp` needs a mark either way).
      var pairedLookups: [UInt32: [Pair]] = [:]
      // Each lookup's single requirement, read once for both passes (nil: cannot be told).
      var requirementOf: [UInt32: [UInt16]?] = [:]
      if let reader {
        var options: [(weight: Int, found: [UInt32: [Pair]], distinct: Int)] = []
        for lookups in lookupsOf {
          var found: [UInt32: [Pair]] = [:]
          var distinct: [Pair] = []
          var single: [UInt16]? = []
          let others = planLookups.subtracting(lookups).subtracting(facts.fractionOnly)
          for l in lookups.sorted() {
            let r = reader.requirement(ofLookup: Int(l), work: work)
            requirementOf[l] = .some(r)
            if let r {
              single? += r
            } else {
              single = nil
            }
            let before = others.filter { $0 < l || facts.earlyLookups.contains($0) }.sorted()
            guard let list = reader.adjacentPairs(ofLookup: Int(l), work: work),
              Analysis.sideBySide(l, after: before, reader: reader, work: work)
            else { continue }
            let pairs = list.map { Pair(first: Set($0.first), second: Set($0.second)) }
            found[l] = pairs
            for p in pairs where distinct.count <= Analysis.maximumPairs && !distinct.contains(p) {
              distinct.append(p)
            }
          }
          let weight = single.map { reader.weight(of: Array(Set($0))) } ?? Int.max
          options.append((weight, found, distinct.count))
        }
        var room = Analysis.maximumPairs
        for option in options.sorted(by: { $0.weight > $1.weight })
        where option.distinct > 0 && option.distinct <= room {
          room -= option.distinct
          pairedLookups.merge(option.found) { a, _ in a }
        }
      }
      for (k, lookups) in lookupsOf.enumerated() {
        var need = Set<UInt16>()
        var mine: [Pair] = []
        var ok = !lookups.isEmpty && reader != nil
        if let reader {
          let others = planLookups.subtracting(lookups).subtracting(facts.fractionOnly).sorted()
          // Per lookup: the glyphs whose coming in could let it apply.
          var needOf: [(lookup: UInt32, need: Set<UInt16>)] = []
          for l in lookups.sorted() where ok {
            if let found = pairedLookups[l] {
              var all = Set<UInt16>()
              for pair in found {
                all.formUnion(pair.first)
                all.formUnion(pair.second)
                if !mine.contains(pair) { mine.append(pair) }
              }
              needOf.append((l, all))
            } else if let r = requirementOf[l] ?? reader.requirement(ofLookup: Int(l), work: work) {
              need.formUnion(r)
              needOf.append((l, Set(r)))
            } else {
              ok = false
            }
          }
          // The lookups left on must not be able to make a glyph the candidate needs (a run's
          // own glyphs are clear of them, so nothing else could bring one in) — before the
          // candidate's lookup looks for it. HarfBuzz applies a stage's lookups in the order of
          // their indices, each over the whole run, and the default and Hangul shapers have one
          // stage after `rvrn`'s: so a lookup can feed only those after it, and `rvrn`'s every
          // one. A lookup of another candidate may feed it if that candidate is off too: then,
          // in lookup order, none of the lookups of either can apply, so none brings anything in.
          for other in others where ok {
            let fed = needOf.filter { other < $0.lookup || facts.earlyLookups.contains(other) }
            guard !fed.isEmpty else { continue }
            guard let made = reader.outputs(ofLookup: Int(other), work: work) else {
              ok = false
              continue
            }
            guard made.contains(where: { g in fed.contains { $0.need.contains(g) } }) else {
              continue
            }
            if let owner = lookupsOf.firstIndex(where: { $0.contains(other) }) {
              requires[k] |= 1 << UInt8(owner)
            } else {
              ok = false
            }
          }
        }
        if ok { known |= 1 << UInt8(k) }
        needs.append(ok ? need : [])
        pairs.append(ok ? mine : [])
      }
      // A candidate that needs another off that can never be off cannot be off either.
      let usable = FeatureGate.closed(known, requires: requires)
      for k in pairs.indices where usable >> UInt8(k) & 1 == 0 {
        pairs[k] = []
        needs[k] = []
      }
      self.usable = usable
      self.needs = needs
      self.pairs = pairs
      self.requires = requires
    }

    /// Whether the glyphs of lookup `l` that are side by side in the run stay side by side up
    /// to it: no lookup before it can delete a glyph, and, when `l` skips some glyphs (marks,
    /// ligatures), none can bring any glyph in at all (it could be one that `l` skips).
    static func sideBySide(
      _ l: UInt32, after before: [UInt32], reader: LookupRequirements,
      work: LookupRequirements.Work
    ) -> Bool {
      guard let flags = reader.flags(ofLookup: Int(l)) else { return false }
      for other in before {
        guard reader.deletes(ofLookup: Int(other), work: work) == false else { return false }
        if flags & ~1 != 0 {
          guard let made = reader.outputs(ofLookup: Int(other), work: work), made.isEmpty else {
            return false
          }
        }
      }
      return true
    }
  }

  /// Two sets of glyphs, one of each needed side by side (first, then second).
  struct Pair: Sendable, Equatable {
    let first: Set<UInt16>
    let second: Set<UInt16>
  }

  /// What gates need to know of a font whatever the plan: the GSUB reader (weighing the glyphs
  /// of common characters as likely), the GSUB features the font has, and which candidates have
  /// lookups of their own.
  struct FontFacts: Sendable {
    let reader: LookupRequirements?
    /// The GDEF glyph classes (nil when the font has none).
    let glyphClasses: ClassDefinition?
    let classesUnreadable: Bool
    let featureTags: Set<hb_tag_t>
    /// Bit k: no lookup of candidate k (in any script or language) belongs to another feature
    /// too. A shared lookup still runs with the candidate off — under the other feature's mask
    /// (which may cover only some glyphs: `numr`, `ljmo`), in another stage (`rvrn` applies its
    /// lookups before a pause, and again later with the candidate), or picking another
    /// alternate (the mask's value changes) — so leaving the candidate off would not remove it.
    let ownLookups: UInt8
    /// Lookups of `rvrn` and of required features, which HarfBuzz may apply in a stage of their
    /// own before all others.
    let earlyLookups: Set<UInt32>
    /// Whether GSUB has feature variations (lookups swapped under some axis values).
    let hasFeatureVariations: Bool

    /// The lookups of `features` in `table` (GSUB unless said), in any script and language.
    static func collect(
      _ face: OpaquePointer, _ features: [hb_tag_t], table: String = "GSUB"
    ) -> Set<UInt32> {
      FeatureGate.collectingLookups { set in
        (features + [0]).withUnsafeBufferPointer { f in
          hb_ot_layout_collect_lookups(face, Font.tag(table), nil, nil, f.baseAddress, set)
        }
      }
    }

    /// The GSUB lookups of every script's and language's required feature.
    static func requiredFeatureLookups(_ face: OpaquePointer) -> Set<UInt32> {
      let gsub = Font.tag("GSUB")
      var result = Set<UInt32>()
      var scriptCount = hb_ot_layout_table_get_script_tags(face, gsub, 0, nil, nil)
      scriptCount = min(scriptCount, 1024)
      for s in 0..<scriptCount {
        let languages = min(hb_ot_layout_script_get_language_tags(face, gsub, s, 0, nil, nil), 1024)
        for l in [UInt32(0xFFFF)] + Array(0..<languages) {
          var feature: UInt32 = 0
          var tag: hb_tag_t = 0
          guard hb_ot_layout_language_get_required_feature(face, gsub, s, l, &feature, &tag) != 0
          else { continue }
          var lookups = [UInt32](repeating: 0, count: 1024)
          var start: UInt32 = 0
          while true {
            var n = UInt32(lookups.count)
            _ = hb_ot_layout_feature_get_lookups(face, gsub, feature, start, &n, &lookups)
            result.formUnion(lookups.prefix(Int(n)))
            if n < UInt32(lookups.count) { break }
            start += n
          }
        }
      }
      return result
    }

    /// Lookups that only HarfBuzz's automatic fractions use (`frac`, `numr`, `dnom`): every plan
    /// has them, but they act only beside U+2044 FRACTION SLASH (which blocks every candidate),
    /// unless a user feature turns one on (then no run is gated).
    let fractionOnly: Set<UInt32>

    init(font: Font) {
      let face = hb_font_get_face(font.hbFont)
      let glyphCount = min(Int(hb_face_get_glyph_count(face)), 0x10000)
      var weight = [Int](repeating: 1, count: glyphCount)
      for c in UInt32(0x20)...0x24F {
        if let g = font.glyph(for: c), Int(g) < glyphCount {
          weight[Int(g)] = max(weight[Int(g)], FeatureGate.likelihood(c))
        }
      }
      for c in UInt32(0x3000)...0x303F {
        if let g = font.glyph(for: c), Int(g) < glyphCount {
          weight[Int(g)] = max(weight[Int(g)], FeatureGate.likelihood(c))
        }
      }
      let bytes = font.tableBytes("GSUB").data
      reader = LookupRequirements(gsub: bytes, weights: weight)
      let gdef = font.tableBytes("GDEF")
      glyphClasses = gdef.offset(0, 4).flatMap { ClassDefinition(gdef, at: $0) }
      // (A class table that cannot be read: every glyph might be skipped.)
      classesUnreadable = gdef.offset(0, 4) != nil && glyphClasses == nil
      var tags = [hb_tag_t](repeating: 0, count: 4096)
      var count = UInt32(tags.count)
      _ = hb_ot_layout_table_get_feature_tags(face, Font.tag("GSUB"), 0, &count, &tags)
      let all = Set(tags.prefix(Int(count)))
      featureTags = all
      // Feature variations swap a feature's lookups for others under some axis values: not read
      // here, so such a font is never gated (nor one with more features than read above).
      let variations =
        bytes.count >= 14 && bytes[2] == 0 && bytes[3] >= 1
        && bytes[10...13].contains { $0 != 0 }
      var own: UInt8 = 0
      var fractionOnly = Set<UInt32>()
      if !variations && count < UInt32(tags.count) {
        func collect(_ features: [hb_tag_t]) -> Set<UInt32> { FontFacts.collect(face!, features) }
        for (k, tag) in FeatureGate.candidates.enumerated() where all.contains(tag) {
          let mine = collect([tag])
          let others = collect(all.filter { $0 != tag }.sorted())
          if !mine.isEmpty && mine.isDisjoint(with: others) { own |= 1 << UInt8(k) }
        }
        let fractions = FeatureGate.fractionFeatures
        fractionOnly = collect(fractions).subtracting(
          collect(all.filter { !fractions.contains($0) }.sorted()))
      }
      // `rvrn`'s lookups and those of every language system's required feature: HarfBuzz
      // may apply them in the first stage, before all others.
      let early = FontFacts.collect(face!, [Font.tag("rvrn")])
        .union(FontFacts.requiredFeatureLookups(face!))
      self.hasFeatureVariations = variations
      ownLookups = own
      earlyLookups = early
      self.fractionOnly = fractionOnly
    }
  }

  /// How often a character comes in running text, roughly per 100,000 characters of chat, for
  /// choosing which glyphs to require: a set's weight is the sum of its glyphs', so it stands for
  /// how likely a run is to hold one of them. The space outweighs whole classes of punctuation
  /// (Inter's `calt` rules each name a set of 16 spaces and one of 46 brackets and dashes: the
  /// brackets are the rarer requirement), and `x` is rarer than `e`.
  static func likelihood(_ c: UInt32) -> Int {
    switch c {
    case 0x20: return 18_000
    case 0x61...0x7A: return letterFrequency[Int(c - 0x61)]
    case 0x41...0x5A: return max(letterFrequency[Int(c - 0x41)] / 10, 10)
    case 0x30...0x39: return 300
    case 0x2C, 0x2E: return 1_000
    case 0x21, 0x22, 0x27, 0x2D, 0x3F: return 200
    case 0x21...0x7E: return 50
    case 0x3000...0x303F, 0xFF00...0xFFEF: return 50
    case 0xA0...0x24F: return 20
    default: return 1
    }
  }

  /// English letters a to z per 100,000 characters of text.
  private static let letterFrequency = [
    6_500, 1_200, 2_200, 3_400, 10_000, 1_800, 1_600, 4_900, 5_600, 120, 620, 3_200, 2_000, 5_400,
    6_000, 1_500, 75, 4_800, 5_000, 7_300, 2_200, 780, 1_900, 120, 1_600, 60,
  ]

  /// Whether HarfBuzz hands `c` to the substitutions as its nominal glyph whatever surrounds it
  /// (given that the run holds no marks): not a mark, jamo, control or default-ignorable
  /// character, nor the Thai and Lao SARA AM (which the Thai shaper splits), and not changed by
  /// the normalizer — a canonical decomposition must compose back to `c` step by step through
  /// glyphs the font has.
  static func reachesShapingAsItself(_ c: UInt32, font: Font) -> Bool {
    switch c {
    case 0..<0x20, 0x7F...0x9F, 0xAD, 0x34F, 0x61C, 0xE33, 0xEB3, 0x1100...0x11FF, 0x115F...0x1160,
      0x17B4...0x17B5, 0x180B...0x180F, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F,
      0x3130...0x318F, 0xA960...0xA97F, 0xD7B0...0xD7FF, 0xD800...0xDFFF, 0xFE00...0xFE0F,
      0xFEFF, 0xFFA0, 0xFFF0...0xFFF8:
      return false
    default:
      break
    }
    let funcs = hb_unicode_funcs_get_default()
    switch hb_unicode_general_category(funcs, c) {
    case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK, HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK,
      HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK, HB_UNICODE_GENERAL_CATEGORY_CONTROL,
      HB_UNICODE_GENERAL_CATEGORY_FORMAT, HB_UNICODE_GENERAL_CATEGORY_SURROGATE,
      HB_UNICODE_GENERAL_CATEGORY_UNASSIGNED:
      return false
    default:
      return roundTrips(c, font: font)
    }
  }

  private static func roundTrips(_ x: UInt32, font: Font) -> Bool {
    let funcs = hb_unicode_funcs_get_default()
    var a: hb_codepoint_t = 0
    var b: hb_codepoint_t = 0
    guard hb_unicode_decompose(funcs, x, &a, &b) != 0 else { return font.covers(x) }
    // A singleton decomposition is never composed back.
    guard b != 0 else { return false }
    // Without a glyph for the mark HarfBuzz leaves `x` whole.
    guard font.covers(b) else { return font.covers(x) }
    var composed: hb_codepoint_t = 0
    guard font.covers(x), hb_unicode_compose(funcs, a, b, &composed) != 0, composed == x else {
      return false
    }
    return roundTrips(a, font: font)
  }
}

/// Gates, analyses and direct plans of one font, made once and shared by every thread.
final class FeatureGates: @unchecked Sendable {
  // @unchecked: the dictionaries are read and written only under `lock`.
  private let lock = Lock()
  private var gates: [Key: FeatureGate?] = [:]
  private var analyses: [AnalysisKey: FeatureGate.Analysis] = [:]
  private var directPlans: [Key: DirectPlan?] = [:]
  private var facts: FeatureGate.FontFacts?

  func fontFacts(_ font: Font) -> FeatureGate.FontFacts {
    lock.lock()
    defer { lock.unlock() }
    if let facts { return facts }
    let made = FeatureGate.FontFacts(font: font)
    facts = made
    return made
  }

  struct Key: Hashable {
    var script: UInt32
    /// (Direct plans differ by direction: right to left, characters HarfBuzz mirrors are left to
    /// it.)
    var direction: UInt32
    var language: UInt
    var features: [UInt64]
  }

  struct AnalysisKey: Hashable {
    var planLookups: Set<UInt32>
    var lookupsOf: [Set<UInt32>]
  }

  func gate(_ key: Key, make: () -> FeatureGate?) -> FeatureGate? {
    cached(\.gates, key, limit: 4096, make: make)
  }

  func directPlan(_ key: Key, make: () -> DirectPlan?) -> DirectPlan? {
    cached(\.directPlans, key, limit: 4096, make: make)
  }

  /// The gate under `key` if one was made already (by any thread): `.some(nil)` when the plan
  /// has none, nil when it was never asked for.
  func knownGate(_ key: Key) -> FeatureGate?? {
    lock.lock()
    defer { lock.unlock() }
    return gates[key]
  }

  /// The direct plan under `key` if one was made already, as ``knownGate(_:)``.
  func knownDirectPlan(_ key: Key) -> DirectPlan?? {
    lock.lock()
    defer { lock.unlock() }
    return directPlans[key]
  }

  func analysis(_ key: AnalysisKey, make: () -> FeatureGate.Analysis) -> FeatureGate.Analysis {
    cached(\.analyses, key, limit: 256, make: make)
  }

  /// The value under `key` in `table`, made outside the lock when missing (two threads may both
  /// make it; the results are equal); the table is emptied once it holds `limit` entries.
  private func cached<K: Hashable, V>(
    _ table: ReferenceWritableKeyPath<FeatureGates, [K: V]>, _ key: K, limit: Int,
    make: () -> V
  ) -> V {
    lock.lock()
    if let known = self[keyPath: table][key] {
      lock.unlock()
      return known
    }
    lock.unlock()
    let made = make()
    lock.lock()
    if self[keyPath: table].count > limit { self[keyPath: table].removeAll() }
    self[keyPath: table][key] = made
    lock.unlock()
    return made
  }
}

extension Font {
  func gateAnalysis(planLookups: Set<UInt32>, lookupsOf: [Set<UInt32>]) -> FeatureGate.Analysis {
    featureGates.analysis(.init(planLookups: planLookups, lookupsOf: lookupsOf)) {
      FeatureGate.Analysis(font: self, planLookups: planLookups, lookupsOf: lookupsOf)
    }
  }
}
