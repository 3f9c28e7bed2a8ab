import Typesetting
import CHarfBuzz
import Foundation

extension FeatureGate {
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
      let gsub = font.tableBytes("GSUB")
      reader = LookupRequirements(gsub: gsub, weights: weight)
      let gdef = font.tableBytes("GDEF")
      glyphClasses = gdef.offset(0, 4).flatMap { ClassDefinition(gdef, at: $0) }
      // (A class table that cannot be read: every glyph might be skipped.)
      classesUnreadable = gdef.offset(0, 4) != nil && glyphClasses == nil
      let all = font.featureTags("GSUB")
      featureTags = all
      // Feature variations swap a feature's lookups for others under some axis values: not read
      // here, so such a font is never gated.
      // (GSUB 1.1 and later: a feature variations offset at byte 10.)
      let variations = (gsub.u16(2) ?? 0) >= 1 && (gsub.u32(10) ?? 0) != 0
      var own: UInt8 = 0
      var fractionOnly = Set<UInt32>()
      if !variations {
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
}
