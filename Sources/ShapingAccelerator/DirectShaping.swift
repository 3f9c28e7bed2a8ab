import Typesetting
import CHarfBuzz

/// What shaping a run needs when HarfBuzz would only map each character to its nominal glyph,
/// advance it and kern pairs: then ``AcceleratedShaper`` does that itself, with the same numbers.
///
/// HarfBuzz's fixed cost per run (buffer set-up, normalization, masks, the lookup machinery)
/// outweighs the work a short Latin or Hangul run needs. A plan qualifies when
/// - it is left to right in a script written left to right, or right to left in Hebrew, in a
///   script whose shaper applies every feature to the whole run and leaves characters as they
///   are (``FeatureGate/shapesWholeRuns(_:font:)``), with features on
///   the whole text and no automatic fraction turned on by the user, in a font without Apple
///   layout tables (a bitmap-only font, such as Noto Color Emoji, has no kerning and is
///   measured in its strike's pixels, as the shaper measures it after HarfBuzz);
/// - it substitutes glyph for glyph at most: its GSUB lookups are single substitutions (a
///   localized form, say, whatever the neighbours), or those of the automatic fractions (which
///   act only beside U+2044, never part of such a run) or, for Hangul, of the jamo features
///   (which act only on conjoining jamo, never part of one either) — usually a plan that
///   ``FeatureGate`` left the other default substitutions off — or, after all of those,
///   ligatures and chained contexts by coverage that a run can be shown not to set off
///   (``LookupGuard``; a run that may set one off goes to HarfBuzz), or ligatures formed here
///   as HarfBuzz forms them (Noto Sans's and DejaVu Sans's `fi`, `ffl`…, Inter's arrows);
/// - each GPOS lookup either adjusts pairs through the first glyph's advance only
///   (``PairKerning``), or can be told to do nothing to a run: a run holds no glyph of its
///   coverage (the glyphs at which it would start to match: marks for mark attachment, the first
///   input glyph of contextual kerning);
/// - kerning from a `kern` table is read only in a font without GPOS (where HarfBuzz uses it);
///   a font with both must kern through GPOS for the plan.
///
/// and a run qualifies when each of its characters reaches the lookups as its nominal glyph
/// (``FeatureGate/reachesShapingAsItself(_:font:)``), which after its substitutions is no glyph
/// of the blocked coverages and is classed a base glyph (or not classed) in GDEF, so that no
/// lookup skips it.
final class DirectPlan: Sendable {
  /// GSUB single substitutions, lookup by lookup.
  let substitutions: [[SingleSubstitution]]
  let kerning: PairKerning
  /// GSUB lookups the plan applies after its single substitutions that a run must not set off
  /// (ligatures, chained contexts by coverage): a run in which one may goes to HarfBuzz.
  let guarded: LookupGuard
  /// Glyphs some GPOS lookup of the plan other than pair kerning could act on (a bit per id).
  let blocked: [UInt64]
  /// The font's GDEF glyph classes (nil when it has none: HarfBuzz then calls every non-mark a
  /// base glyph).
  let glyphClasses: ClassDefinition?
  /// Glyphs (a bit per id) at which an early lookup of the plan (`rvrn`'s, a required
  /// feature's) could apply; empty when it has none.
  let earlyCoverage: [UInt64]
  /// The plan shapes right-to-left runs (whose characters with a mirrored form HarfBuzz
  /// replaces by it: such a run goes to HarfBuzz).
  let rightToLeft: Bool
  /// Advances are in units of which this many make the font size: the font's units per em, or
  /// for a bitmap-only font 64 × its strike's pixels per em (advances in 1/64 strike pixels).
  let advanceUnitsPerEm: Double

  init(
    substitutions: [[SingleSubstitution]], kerning: PairKerning, guarded: LookupGuard,
    blocked: [UInt64], earlyCoverage: [UInt64], glyphClasses: ClassDefinition?,
    advanceUnitsPerEm: Double, rightToLeft: Bool
  ) {
    self.rightToLeft = rightToLeft
    self.substitutions = substitutions
    self.kerning = kerning
    self.guarded = guarded
    self.blocked = blocked
    self.earlyCoverage = earlyCoverage
    self.glyphClasses = glyphClasses
    self.advanceUnitsPerEm = advanceUnitsPerEm
  }

  /// The glyph and advance (in ``advanceUnitsPerEm``) of `c` in a run this plan shapes, or nil
  /// when a run holding `c` must go to HarfBuzz.
  func glyph(_ c: UInt32, font: Font) -> (glyph: UInt16, advance: Int32)? {
    guard c != 0x2044, let g = font.glyph(for: c), g <= 0xFFFF,
      FeatureGate.reachesShapingAsItself(c, font: font),
      !rightToLeft || hb_unicode_mirroring(hb_unicode_funcs_get_default(), c) == c
    else { return nil }
    var glyph = UInt16(g)
    // (Whenever an early lookup applies, it sees the glyph as it is then.)
    guard !inEarlyReach(glyph) else { return nil }
    for lookup in substitutions {
      // Every glyph on the way is a base glyph (or not classed), so that no lookup's flags
      // make it skip one.
      guard (glyphClasses?.class(glyph) ?? 0) <= 1 else { return nil }
      // The first subtable that covers the glyph substitutes it.
      for sub in lookup {
        if let other = sub.substitute(glyph) {
          glyph = other
          break
        }
      }
      guard !inEarlyReach(glyph) else { return nil }
    }
    guard !isBlocked(glyph), (glyphClasses?.class(glyph) ?? 0) <= 1,
      let advance = advance(of: glyph, font: font)
    else { return nil }
    return (glyph, advance)
  }

  /// Whether an early lookup of the plan could apply at `g`.
  private func inEarlyReach(_ g: UInt16) -> Bool {
    !earlyCoverage.isEmpty && earlyCoverage[Int(g) >> 6] & (1 << UInt64(g & 63)) != 0
  }

  /// Whether a positioning lookup of the plan other than pair kerning could act on `g`.
  private func isBlocked(_ g: UInt16) -> Bool {
    blocked[Int(g) >> 6] & (1 << UInt64(g & 63)) != 0
  }

  /// The advance of `glyph` (in ``advanceUnitsPerEm``), or nil when it cannot be packed.
  func advance(of glyph: UInt16, font: Font) -> Int32? {
    let advance = hb_font_get_glyph_h_advance(font.hbFont, UInt32(glyph))
    if font.bitmapStrikePPEM != nil {
      // As the shaper measures bitmap-only fonts: the strike's whole-pixel advance (FreeType's
      // 1/64 pixels), none for a glyph HarfBuzz gives none.
      let pixels = Int(glyph) < font.bitmapAdvances.count ? font.bitmapAdvances[Int(glyph)] : 0
      let units = advance == 0 ? 0 : pixels * 64
      guard units == units.rounded(), abs(units) < 1_000_000_000 else { return nil }
      return Int32(units)
    }
    return advance
  }

  /// Applies the guarded lookups to the packed glyphs of a run (``DirectShaper``'s form: bit 62
  /// set, the glyph in bits 32–47, the advance in the low 32 bits) in the plan's order, as
  /// HarfBuzz applies them: those the plan applies directly form their ligatures (the glyph
  /// takes the place of its components, with its own advance; `clusters` keeps the character
  /// each glyph comes from) or make their chained contexts' single substitutions, every other
  /// lookup must be shown to change nothing. Returns the number of glyphs left, or nil when the
  /// run must go to HarfBuzz (a lookup may change it that is not applied here, or a glyph made
  /// is a mark, or one a positioning lookup could act on).
  func applyGuarded(
    _ packed: UnsafeMutablePointer<UInt64>, count n: Int, clusters: UnsafeMutablePointer<Int32>,
    font: Font
  ) -> Int? {
    for k in 0..<n { clusters[k] = Int32(k) }
    var count = n
    // A glyph a lookup made, packed, or nil when it must be left to HarfBuzz.
    // (An early lookup HarfBuzz applies in the same stage, a required `calt`, say, may see it.)
    func made(_ g: UInt16) -> UInt64? {
      guard !isBlocked(g), !inEarlyReach(g), (glyphClasses?.class(g) ?? 0) != 3,
        let advance = advance(of: g, font: font)
      else { return nil }
      return 1 << 63 | 1 << 62 | UInt64(g) << 32 | UInt64(UInt32(bitPattern: advance))
    }
    for l in guarded.lookups.indices {
      guard guarded.appliesDirectly[l] else {
        if guarded.mayApply(lookup: l, packed, count: count) { return nil }
        continue
      }
      if case .chain = guarded.lookups[l].first {
        // In place, left to right: a context's glyphs before the position are those made
        // already, those after it not yet; HarfBuzz goes on after the context's input.
        var k = 0
        while k < count {
          guard let context = guarded.context(lookup: l, at: k, packed, count: count) else {
            k += 1
            continue
          }
          for call in context.calls {
            let at = k + call.index
            let g = UInt16(truncatingIfNeeded: packed[at] >> 32)
            // The first subtable that covers the glyph substitutes it.
            guard let singles = guarded.singles[call.lookup],
              let other = singles.lazy.compactMap({ $0.substitute(g) }).first
            else { continue }
            guard let packedOther = made(other) else { return nil }
            packed[at] = packedOther
          }
          k += context.length
        }
        continue
      }
      // Left to right, each ligature's components taken out of the search (HarfBuzz goes on
      // after the ligature it formed).
      var out = 0
      var k = 0
      while k < count {
        if let formed = guarded.ligature(lookup: l, at: k, packed, count: count) {
          guard let packedLigature = made(formed.glyph) else { return nil }
          packed[out] = packedLigature
          clusters[out] = clusters[k]
          k += formed.length
        } else {
          packed[out] = packed[k]
          clusters[out] = clusters[k]
          k += 1
        }
        out += 1
      }
      count = out
    }
    return count
  }

  /// The direct plan for `plan` (made with `props` and `features` for `font`), or nil when it
  /// does more than direct shaping reproduces.
  static func make(
    font: Font, plan: OpaquePointer, props: hb_segment_properties_t, features: [hb_feature_t]
  ) -> DirectPlan? {
    // Right to left: Hebrew (in logical order: HarfBuzz applies lookups in the script's own
    // direction), with characters HarfBuzz would mirror left to it. (Left to right, HarfBuzz
    // turns a Hebrew run around first, unless it holds digits and no letters: left to it.)
    let rightToLeft = props.direction == HB_DIRECTION_RTL
    guard
      rightToLeft
        ? props.script == HB_SCRIPT_HEBREW
        : hb_script_get_horizontal_direction(props.script) != HB_DIRECTION_RTL,
      FeatureGate.shapesWholeRuns(props, font: font),
      features.allSatisfy({ $0.start == 0 && $0.end == UInt32.max }),
      !features.contains(where: {
        (FeatureGate.fractionFeatures + FeatureGate.jamoFeatures).contains($0.tag)
      }),
      !font.hasAppleLayoutTables
    else { return nil }
    // How much reading the plan may do: a hostile font can point many lookups at one huge
    // table; past this, no direct plan.
    let work = LookupRequirements.Work()
    let facts = font.featureGates.fontFacts(font)
    guard let left = leftLookups(font: font, plan: plan, props: props, features: features, facts: facts),
      let substituting = Substituting(font: font, left: left, early: facts.earlyLookups, work: work),
      let positioning = Positioning(font: font, plan: plan, work: work),
      let kernTables = kernTables(
        font: font, features: features, positioning: positioning.lookupIndices)
    else { return nil }
    let gdef = font.tableBytes("GDEF")
    let classes = gdef.offset(0, 4).flatMap { ClassDefinition(gdef, at: $0) }
    if gdef.offset(0, 4) != nil && classes == nil { return nil }
    let kerning = PairKerning(lookups: positioning.lookups, kernTables: kernTables)
    var unitsPerEm = Double(font.unitsPerEm)
    if let ppem = font.bitmapStrikePPEM {
      // A bitmap-only font is measured in its strike's pixels, kerning left out (as the shaper
      // measures it after HarfBuzz).
      guard ppem > 0, kerning.isEmpty, !font.bitmapAdvances.isEmpty else { return nil }
      unitsPerEm = Double(ppem) * 64
    }
    // Ligatures are formed, and chained contexts' single substitutions made, directly by lookups
    // that skip nothing a direct run holds (marks aside, which it holds none of), when no lookup
    // after them skips ligatures (IgnoreLigatures: a ligature glyph is one in GDEF, or for
    // HarfBuzz when the font has no classes).
    let skipsLigatures = (substituting.guardedFlags.reduce(0, |) | positioning.pairFlags) & 0x4 != 0
    let allowed = substituting.guardedFlags.map { !skipsLigatures && $0 & ~0x8 == 0 }
    return DirectPlan(
      substitutions: substituting.substitutions, kerning: kerning,
      guarded: LookupGuard(
        lookups: substituting.guarded, flagsAllow: allowed, singles: substituting.called),
      blocked: positioning.blocked, earlyCoverage: substituting.earlyCoverage,
      glyphClasses: classes, advanceUnitsPerEm: unitsPerEm, rightToLeft: rightToLeft)
  }

  /// The GSUB lookups of `plan` a direct run may meet: those left once the automatic fractions
  /// (and, for Hangul, the jamo features) are off — those act only beside U+2044 (or on
  /// conjoining jamo), never in a direct run. Nil when turning them off changes more than that,
  /// or the plan has what direct shaping leaves to HarfBuzz (feature variations, `rtlm`).
  static func leftLookups(
    font: Font, plan: OpaquePointer, props: hb_segment_properties_t, features: [hb_feature_t],
    facts: FeatureGate.FontFacts
  ) -> Set<UInt32>? {
    let face = hb_font_get_face(font.hbFont)
    let substitutingAll = FeatureGate.lookups(plan, "GSUB")
    var masked = FeatureGate.fractionFeatures
    if props.script == HB_SCRIPT_HANGUL { masked += FeatureGate.jamoFeatures }
    var props = props
    let without = (features + masked.map { hb_feature_t(tag: $0, value: 0, start: 0, end: .max) })
      .withUnsafeBufferPointer { f in
        hb_shape_plan_create_cached(face, &props, f.baseAddress, UInt32(f.count), nil)!
      }
    let left = FeatureGate.lookups(without, "GSUB")
    let leftPositioning = FeatureGate.lookups(without, "GPOS")
    hb_shape_plan_destroy(without)
    guard left.isSubset(of: substitutingAll),
      leftPositioning == FeatureGate.lookups(plan, "GPOS")
    else { return nil }
    guard left.isEmpty || !facts.hasFeatureVariations else { return nil }
    // HarfBuzz applies `rtlm` only to the characters it did not replace by their mirror (a mask,
    // not the whole run): a plan that has its lookups is left to it.
    if props.direction == HB_DIRECTION_RTL
      && !FeatureGate.FontFacts.collect(face!, [Font.tag("rtlm")]).isDisjoint(with: left)
    {
      return nil
    }
    return left
  }

  /// What a direct plan does of its GSUB lookups.
  struct Substituting {
    /// `rvrn`'s and the required features' lookups, which HarfBuzz may apply before all
    /// others, act only where a glyph of their coverage stands (DejaVu Sans's default script,
    /// say, always joins N'Ko letters): a run whose characters never take such a glyph, before
    /// or after any substitution, is out of their reach. A character that may goes to HarfBuzz.
    var earlyCoverage: [UInt64] = []
    /// Single substitutions (each glyph to another whatever surrounds it), in lookup order —
    /// all in one stage.
    var substitutions: [[SingleSubstitution]] = []
    /// The other lookups' rules, and their flags.
    var guarded: [[LookupGuard.Rule]] = []
    var guardedFlags: [UInt16] = []
    /// The single substitutions chained contexts call (flags that skip nothing a run holds).
    var called: [UInt16: [SingleSubstitution]] = [:]

    /// Reads the lookups `left` (those in `early` by their coverage); nil when one does more
    /// than direct shaping reproduces.
    init?(font: Font, left: Set<UInt32>, early earlyLookups: Set<UInt32>, work: LookupRequirements.Work) {
      guard !left.isEmpty else { return }
      let early = left.intersection(earlyLookups)
      let gsub = font.tableBytes("GSUB")
      guard let list = gsub.offset(0, 8), let count = gsub.u16(list) else { return nil }
      if !early.isEmpty { earlyCoverage = [UInt64](repeating: 0, count: 1024) }
      for index in early.sorted() {
        guard index < count, let at = gsub.offset(list, 2 + 2 * Int(index)),
          let subtables = DirectPlan.subtables(gsub, lookup: at, extension: 7),
          DirectPlan.sane(gsub, lookup: at)
        else { return nil }
        for sub in subtables {
          guard let start = DirectPlan.firstSubstitutionCoverage(gsub, type: sub.type, at: sub.at),
            let coverage = Coverage(gsub, at: start), work.spend(coverage.size)
          else { return nil }
          coverage.add(to: &earlyCoverage)
        }
      }
      for index in left.subtracting(early).sorted() {
        guard index < count, let at = gsub.offset(list, 2 + 2 * Int(index)),
          let subtables = DirectPlan.subtables(gsub, lookup: at, extension: 7),
          let flags = gsub.u16(at + 2), flags & 0x2 == 0, DirectPlan.sane(gsub, lookup: at)
        else { return nil }
        if subtables.allSatisfy({ $0.type == 1 }) {
          // A single substitution after a guarded lookup would change what that one saw.
          guard guarded.isEmpty else { return nil }
          let singles = subtables.compactMap { SingleSubstitution(gsub, at: $0.at, work: work) }
          guard singles.count == subtables.count else { return nil }
          substitutions.append(singles)
        } else {
          guard let rules = LookupGuard.rules(gsub, subtables: subtables, work: work) else {
            return nil
          }
          guarded.append(rules)
          guardedFlags.append(flags)
          for lookup in LookupGuard.calledLookups(rules) where called[lookup] == nil {
            if let singles = DirectPlan.singleSubstitutions(gsub, lookup: lookup, work: work) {
              called[lookup] = singles
            }
          }
        }
      }
    }
  }

  /// What a direct plan does of its GPOS lookups: pair kerning of the first glyph's advance
  /// (which skips no base glyph), read; the glyphs any other lookup covers, blocked.
  struct Positioning {
    let lookupIndices: [UInt32]
    var lookups: [[PairKerning.Subtable]] = []
    var pairFlags: UInt16 = 0
    var blocked = [UInt64](repeating: 0, count: 1024)

    init?(font: Font, plan: OpaquePointer, work: LookupRequirements.Work) {
      lookupIndices = FeatureGate.lookups(plan, "GPOS").sorted()
      guard !lookupIndices.isEmpty else { return }
      let gpos = font.tableBytes("GPOS")
      guard let list = gpos.offset(0, 8), let count = gpos.u16(list) else { return nil }
      for index in lookupIndices {
        guard index < count, let at = gpos.offset(list, 2 + 2 * Int(index)),
          let subtables = DirectPlan.subtables(gpos, lookup: at), let flags = gpos.u16(at + 2),
          DirectPlan.sane(gpos, lookup: at)
        else { return nil }
        if flags & 0x2 == 0 {
          let pairs = subtables.compactMap {
            $0.type == 2 ? PairKerning.subtable(gpos, at: $0.at, work: work) : nil
          }
          if pairs.count == subtables.count {
            lookups.append(pairs)
            pairFlags |= flags
            continue
          }
        }
        for sub in subtables {
          guard let start = DirectPlan.firstCoverage(gpos, type: sub.type, at: sub.at),
            let coverage = Coverage(gpos, at: start), work.spend(coverage.size)
          else { return nil }
          coverage.add(to: &blocked)
        }
      }
    }
  }

  /// The `kern` table's pairs HarfBuzz applies: all of them when the font has no GPOS (unless
  /// kerning is turned off: then no direct plan); none when the plan's script and language have
  /// a GPOS `kern` feature (sure when the plan has a lookup that only `kern` features use;
  /// else no direct plan).
  static func kernTables(font: Font, features: [hb_feature_t], positioning: [UInt32])
    -> [[(key: UInt32, value: Int16)]]?
  {
    let kern = font.tableBytes("kern")
    guard !kern.data.isEmpty else { return [] }
    if font.tableBytes("GPOS").data.isEmpty {
      guard !features.contains(where: { $0.tag == Font.tag("kern") }),
        let tables = PairKerning.kernTables(kern)
      else { return nil }
      return tables
    }
    let face = hb_font_get_face(font.hbFont)
    func collect(_ tags: [hb_tag_t]) -> Set<UInt32> {
      FeatureGate.FontFacts.collect(face!, tags, table: "GPOS")
    }
    let kernTag = Font.tag("kern")
    let kernOnly = collect([kernTag]).subtracting(
      collect(font.featureTags("GPOS").filter { $0 != kernTag }.sorted()))
    guard positioning.contains(where: kernOnly.contains) else { return nil }
    return []
  }

  /// Whether the lookup at `at` has the fields HarfBuzz's sanitizer checks (a lookup flagged
  /// to use a mark filtering set must hold its index; one that does not is neutered, and would
  /// do nothing in HarfBuzz).
  private static func sane(_ t: TableBytes, lookup at: Int) -> Bool {
    guard let flags = t.u16(at + 2), let count = t.u16(at + 4) else { return false }
    return flags & 0x10 == 0 || t.u16(at + 6 + 2 * Int(count)) != nil
  }

  /// The type and position of each subtable of the lookup at `at`, extensions (lookup type
  /// `extension`: 9 in GPOS, 7 in GSUB) unwrapped.
  private static func subtables(
    _ t: TableBytes, lookup at: Int, extension: UInt16 = 9
  ) -> [(type: Int, at: Int)]? {
    guard let type = t.u16(at), let count = t.u16(at + 4) else { return nil }
    var result: [(type: Int, at: Int)] = []
    for k in 0..<Int(count) {
      guard var sub = t.offset(at, 6 + 2 * k) else { return nil }
      var kind = Int(type)
      if type == `extension` {
        guard t.u16(sub) == 1, let real = t.u16(sub + 2), real != `extension`,
          let o = t.u32(sub + 4),
          o != 0, sub + Int(o) < t.data.count
        else { return nil }
        kind = Int(real)
        sub += Int(o)
      }
      result.append((kind, sub))
    }
    return result
  }

  /// The subtables of GSUB lookup `index` when it is single substitutions only, with flags that
  /// skip nothing a direct run holds; nil otherwise.
  private static func singleSubstitutions(
    _ gsub: TableBytes, lookup index: UInt16, work: LookupRequirements.Work
  ) -> [SingleSubstitution]? {
    guard let list = gsub.offset(0, 8), let count = gsub.u16(list), index < count,
      let at = gsub.offset(list, 2 + 2 * Int(index)),
      let subtables = Self.subtables(gsub, lookup: at, extension: 7),
      let flags = gsub.u16(at + 2), flags & ~0x8 == 0, Self.sane(gsub, lookup: at)
    else { return nil }
    var singles: [SingleSubstitution] = []
    for sub in subtables {
      guard sub.type == 1, let single = SingleSubstitution(gsub, at: sub.at, work: work) else {
        return nil
      }
      singles.append(single)
    }
    return singles
  }

  /// Where the coverage of the first input glyph of a GSUB subtable is (nil for a format not
  /// read): a lookup applies only at a glyph of it.
  private static func firstSubstitutionCoverage(_ t: TableBytes, type: Int, at sub: Int) -> Int? {
    guard let format = t.u16(sub) else { return nil }
    switch (type, format) {
    case (1, 1...2), (2...4, 1), (5...6, 1...2), (8, 1):
      return t.offset(sub, 2)
    case (5, 3):
      // Format, glyph count, substitution count, then the input coverages.
      return t.offset(sub, 6)
    case (6, 3):
      // Format, backtrack coverages, then the input coverages.
      guard let back = t.u16(sub + 2) else { return nil }
      return t.offset(sub, 4 + 2 * Int(back) + 2)
    default:
      return nil
    }
  }

  /// Where the coverage of the glyph a GPOS subtable starts matching at lies, or nil for a type
  /// or format not known.
  private static func firstCoverage(_ t: TableBytes, type: Int, at sub: Int) -> Int? {
    guard let format = t.u16(sub) else { return nil }
    switch (type, format) {
    case (1...2, 1...2), (3...6, 1), (7...8, 1...2):
      return t.offset(sub, 2)
    case (7, 3):
      // Format, glyph count, lookup count, then the input coverages.
      return t.offset(sub, 6)
    case (8, 3):
      // Format, backtrack coverages, then the input coverages.
      guard let back = t.u16(sub + 2) else { return nil }
      return t.offset(sub, 4 + 2 * Int(back) + 2)
    default:
      return nil
    }
  }
}
