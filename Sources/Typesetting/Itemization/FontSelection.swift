import CHarfBuzz

/// Chooses a font of the stack for each grapheme cluster, as Chromium's font fallback does: the
/// first font that has every visible code point of the cluster, in the stack's order whatever
/// the cluster's default presentation; a variation selector asks for a presentation, so a
/// cluster with VS16 tries the colour fonts of the stack first, one with VS15 the others first.
enum FontSelection {
  /// Code points that need no glyph of their own (``needsNoGlyph(_:)``, read from
  /// ``CharacterTable`` in the BMP; beyond it asked directly, not through every flag the table
  /// would work out for it).
  static func isIgnorable(_ c: UInt32) -> Bool {
    c < 0x10000 ? c >= 0xAD && CharacterTable.has(c, CharacterTable.ignorable) : needsNoGlyph(c)
  }

  /// Whether `c` needs no glyph of its own: Unicode's Default_Ignorable_Code_Point (ICU's
  /// data), which HarfBuzz hides — except the Hangul fillers
  /// and the shorthand format controls, which it keeps visible (U+115F, U+1160, U+3164, U+FFA0,
  /// U+1BCA0–U+1BCA3) — and the line and paragraph separators, which end lines before shaping.
  static func needsNoGlyph(_ c: UInt32) -> Bool {
    switch c {
    case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x1BCA0...0x1BCA3: return false
    case 0x2028, 0x2029: return true
    default: return UnicodeProperties.isDefaultIgnorable(c)
    }
  }

  /// The presentation a cluster's variation selector asks for: colour (VS16, U+FE0F), not
  /// colour (VS15, U+FE0E), or nil when it has neither. Chromium's fallback tries the fonts of
  /// that presentation first (`FontFallbackPriority::kEmojiEmojiWithVS` and
  /// `kEmojiTextWithVS`); without a selector it takes the stack in order.
  static func presentationAsked(_ cluster: UnsafeBufferPointer<UInt32>) -> Bool? {
    for c in cluster.dropFirst() {
      if c == 0xFE0F { return true }
      if c == 0xFE0E { return false }
    }
    return nil
  }

  /// The index in `fonts` of the font for `cluster`.
  static func font(for cluster: ArraySlice<UInt32>, in fonts: [Font]) -> Int {
    cluster.withUnsafeBufferPointer { font(for: $0, in: fonts) }
  }

  /// Whether a code point alone in its cluster takes the primary font whatever the fonts cover:
  /// one that needs no glyph, a joiner, a line feed or a tab.
  static func takesPrimaryFont(_ c: UInt32) -> Bool {
    // (From the definition, not the table: the table is made from this.)
    needsNoGlyph(c) || c == 0x200D || c == 0x0A || c == 0x09
  }

  /// The index in `fonts` of the font for `cluster` (read in place: no reference counting per
  /// cluster).
  static func font(for cluster: UnsafeBufferPointer<UInt32>, in fonts: [Font]) -> Int {
    CharacterTable.withLookup { font(for: cluster, in: fonts, table: $0) }
  }

  /// ``font(for:in:)`` given the character table (a loop over clusters reads it once).
  static func font(
    for cluster: UnsafeBufferPointer<UInt32>, in fonts: [Font], table: CharacterTable.Lookup
  ) -> Int {
    choice(for: cluster, in: fonts, table: table).font
  }

  /// The index in `fonts` of the font for `cluster`, and whether that font has all of it (when
  /// none has, the first font with its base character, else the primary: the missing-glyph box
  /// unless system fallback finds it another).
  static func choice(
    for cluster: UnsafeBufferPointer<UInt32>, in fonts: [Font], table: CharacterTable.Lookup
  ) -> (font: Int, covered: Bool) {
    // Most clusters are one character of the BMP: the first font that has it (the general rule
    // below, in a few bit tests).
    if cluster.count == 1, let c = cluster.first, c < 0x10000 {
      if table.has(c, CharacterTable.primaryFontAlone) {
        return (0, true)
      }
      let direct = fonts.withUnsafeBufferPointer { f -> Int? in
        for i in 0..<f.count where f[i].covers(c) { return i }
        return nil
      }
      if let direct { return (direct, true) }
    }
    return choice(ofCluster: cluster, in: fonts)
  }

  /// ``choice(for:in:table:)`` for any other cluster.
  private static func choice(ofCluster cluster: UnsafeBufferPointer<UInt32>, in fonts: [Font])
    -> (font: Int, covered: Bool)
  {
    if let colour = presentationAsked(cluster) {
      for (i, f) in fonts.enumerated() where f.hasColorGlyphs == colour && covers(f, cluster) {
        return (i, true)
      }
    }
    for (i, f) in fonts.enumerated() where covers(f, cluster) { return (i, true) }
    // HarfBuzz composes and decomposes canonically where the font has the result.
    for (i, f) in fonts.enumerated() where coversNormalized(f, cluster) { return (i, true) }
    // Nothing covers every code point: the first font with the base character, else the primary.
    if let first = cluster.first(where: { !isIgnorable($0) }) {
      for (i, f) in fonts.enumerated() where f.covers(first) { return (i, false) }
    }
    return (0, false)
  }

  /// Whether `font` shapes `cluster` with no missing glyph once HarfBuzz's normalizer has
  /// worked (hb-ot-shape-normalize.cc): a character the font lacks is decomposed canonically
  /// into ones it has, and a mark it lacks is composed with the character before it where the
  /// font has the composition (U+0061 U+0300 in a font with only U+00E0).
  static func coversNormalized(_ font: Font, _ cluster: UnsafeBufferPointer<UInt32>) -> Bool {
    let unicode = hb_unicode_funcs_get_default()
    var chars: [UInt32] = []
    func decompose(_ c: UInt32) {
      var a: hb_codepoint_t = 0
      var b: hb_codepoint_t = 0
      if !font.covers(c), hb_unicode_decompose(unicode, c, &a, &b) != 0 {
        decompose(a)
        if b != 0 { decompose(b) }
      } else {
        chars.append(c)
      }
    }
    for c in cluster where !isIgnorable(c) && c != 0x200D { decompose(c) }
    var starter: UInt32? = nil
    for c in chars {
      var composed: hb_codepoint_t = 0
      if let s = starter, !font.covers(c), hb_unicode_compose(unicode, s, c, &composed) != 0,
        font.covers(composed)
      {
        starter = composed
        continue
      }
      if !font.covers(c) { return false }
      if starter == nil || UnicodeProperties.generalCategory(c) != .nonspacingMark { starter = c }
    }
    return !chars.isEmpty
  }

  /// Whether `font` has all of `cluster`, directly or through HarfBuzz's normalizer.
  static func shapes(_ font: Font, _ cluster: UnsafeBufferPointer<UInt32>) -> Bool {
    covers(font, cluster) || coversNormalized(font, cluster)
  }

  static func covers(_ font: Font, _ cluster: UnsafeBufferPointer<UInt32>) -> Bool {
    for c in cluster where !isIgnorable(c) && c != 0x200D && c != 0x0A && c != 0x09 {
      if !font.covers(c) { return false }
    }
    return true
  }
}
