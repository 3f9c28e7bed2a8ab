import CHarfBuzz

/// Shapes short sample strings in one font with HarfBuzz: how the estimator's tables
/// (``JoiningForms``, ``KerningPairs``, ``ConjunctPairs``, ``LanguageAdvances``) learn what
/// shaping does to a character, each sample once per font.
package final class SampleShaper {
  package let font: Font
  private let buffer: OpaquePointer
  private let upem: Float

  package init(_ font: Font) {
    self.font = font
    buffer = hb_buffer_create()!
    upem = Float(font.unitsPerEm)
  }

  deinit { hb_buffer_destroy(buffer) }

  /// The glyphs of `text` in the order HarfBuzz gives them (visual): the index in `text` each
  /// came from, and its advance in em. The direction is the script's unless given; `language`
  /// is a canonical tag, "" for none.
  package func glyphs(_ text: [UInt32], rtl: Bool? = nil, language: String = "") -> [(
    cluster: Int, advance: Float
  )] {
    shape(text, rtl: rtl, language: language).map { ($0.cluster, Float($0.units) / upem) }
  }

  /// The advance in em of the glyphs that came from `text[clusters]` (all of `text` by
  /// default).
  package func advance(
    _ text: [UInt32], of clusters: Range<Int>? = nil, rtl: Bool? = nil, language: String = "",
    script: hb_script_t? = nil
  ) -> Float {
    let range = clusters ?? 0..<text.count
    let units = shape(text, rtl: rtl, language: language, script: script).reduce(Int32(0)) {
      range.contains($1.cluster) ? $0 + $1.units : $0
    }
    return Float(units) / upem
  }

  /// The glyphs' clusters and advances in font units.
  private func shape(_ text: [UInt32], rtl: Bool?, language: String, script: hb_script_t? = nil)
    -> [(cluster: Int, units: Int32)]
  {
    hb_buffer_clear_contents(buffer)
    hb_buffer_add_utf32(buffer, text, Int32(text.count), 0, Int32(text.count))
    if let rtl { hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR) }
    if let script { hb_buffer_set_script(buffer, script) }
    if !language.isEmpty {
      language.withCString { hb_buffer_set_language(buffer, hb_language_from_string($0, -1)) }
    }
    hb_buffer_guess_segment_properties(buffer)
    hb_shape(font.hbFont, buffer, nil, 0)
    var n: UInt32 = 0
    let info = hb_buffer_get_glyph_infos(buffer, &n)!
    let pos = hb_buffer_get_glyph_positions(buffer, &n)!
    return (0..<Int(n)).map { (Int(info[$0].cluster), pos[$0].x_advance) }
  }
}
