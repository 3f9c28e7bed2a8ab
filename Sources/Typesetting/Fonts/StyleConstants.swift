import CHarfBuzz

/// What a style gives every text: per-font line metrics, the advances of a space (tab stops),
/// an ellipsis and a hyphen. Computed once per style and kept (a few hundred bytes each).
struct StyleConstants {
  var ascent: [Double] = []
  var descent: [Double] = []
  var lineGap: [Double] = []
  var space = 0.0
  var ellipsis = ShapedSnippet()
  var hyphen = ShapedSnippet()

  /// What the constants of a style depend on (not its wrapping, line height or truncation).
  /// (``isKey(of:)`` compares the same fields with a style: a field added here goes there too.)
  struct Key: Hashable {
    var fonts: FontStack
    var size: Double
    var profile: TextStyle.Profile
    var language: String
    var features: [FeatureTag: UInt32]

    init(_ style: TextStyle) {
      fonts = style.fonts
      size = style.size
      profile = style.profile
      language = style.language
      features = style.features
    }

    /// Whether this is `style`'s key (``init(_:)``'s, compared without making it).
    func isKey(of style: TextStyle) -> Bool {
      size == style.size && profile == style.profile && fonts == style.fonts
        && language == style.language && features == style.features
    }
  }

  /// The constants of `style`, worked out with `engine`.
  init(_ style: TextStyle, engine: some ShapingEngine) {
    let fonts = style.fonts.fonts
    (ascent, descent, lineGap) = LineBoxes.metrics(style)
    space = StyleConstants.shapeAlone([0x20], style: style, engine: engine).advance
    ellipsis = StyleConstants.shapeAlone([0x2026], style: style, engine: engine)
    hyphen = StyleConstants.shapeAlone(
      [SoftHyphen.shown(in: fonts)], style: style, engine: engine)
  }

  /// A short string shaped in the first font of the stack that covers it.
  static func shapeAlone(_ scalars: [UInt32], style: TextStyle, engine: some ShapingEngine)
    -> ShapedSnippet
  {
    let fonts = style.fonts.fonts
    let fi = FontSelection.font(for: scalars[...], in: fonts)
    let glyphs = engine.glyphsAlone(
      scalars,
      run: ShapingRun(
        start: 0, end: scalars.count, font: fonts[fi], rtl: false,
        script: HarfBuzzShaper.script(of: scalars[0])), size: style.size,
      language: LanguageTag.harfBuzz(style.language),
      features: HarfBuzzShaper.features(style.features))
    return ShapedSnippet(font: fi, glyphs: glyphs)
  }
}

/// The hyphen a line that ends at a soft hyphen shows: U+2010 HYPHEN when the primary font has
/// it, else U+002D (drawn by the first font of the stack that has it).
package enum SoftHyphen {
  package static func shown(in fonts: [Font]) -> UInt32 {
    fonts[0].covers(0x2010) ? 0x2010 : 0x2D
  }
}
