import CHarfBuzz

/// What one thread uses to prepare texts, one text at a time: a shaping engine, the stages'
/// scratch arrays, and memos of the styles and language met (found here, they take no lock).
/// ``Typesetter`` keeps a pool of them.
final class PreparationWorker {
  let shaper: any ShapingEngine
  let scratch = Scratch()

  /// The style of the last text prepared here and its constants, and those of the styles met
  /// before (a worker belongs to one typesetter).
  var lastStyleConstants: (StyleConstants.Key, StyleConstants)? = nil
  var styleConstants: [StyleConstants.Key: StyleConstants] = [:]
  /// The most styles' constants kept (the conformance corpus has 366 styles).
  static let keptStyles = 1024

  /// What a style's language gives shaping and line breaking: the HarfBuzz language of its
  /// canonical tag and the ICU line-break locale.
  struct LanguageInfo {
    var language: String
    var harfBuzz: hb_language_t?
    var breakLocale: String
  }
  private var lastLanguage: LanguageInfo?

  init(shaper: any ShapingEngine) {
    self.shaper = shaper
  }

  /// The glyphs of `text` shaped on its own as one left-to-right run of `font` and `script`
  /// in the style's size and features (for a line's end shaped again: ``LineEndKerning``).
  func shapeAlone(
    _ text: [UInt32], font: Font, script: hb_script_t, style: TextStyle, language: hb_language_t?
  ) -> [ShapedGlyph] {
    shaper.glyphsAlone(
      text, run: ShapingRun(start: 0, end: text.count, font: font, rtl: false, script: script),
      size: style.size, language: language, features: HarfBuzzShaper.features(style.features))
  }

  /// The language facts of `language`, worked out once per language met in a row (most texts
  /// of a batch share one).
  func languageInfo(_ language: String) -> LanguageInfo {
    if let last = lastLanguage, last.language == language { return last }
    let info = LanguageInfo(
      language: language, harfBuzz: LanguageTag.harfBuzz(language),
      breakLocale: BreakOpportunities.locale(LanguageTag.canonical(language)))
    lastLanguage = info
    return info
  }
}
