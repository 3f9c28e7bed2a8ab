import Typesetting

/// What an estimator reads of a font to guess widths without shaping, made once per font on
/// first use and shared: nominal advances, and the width changes that shaping makes most often
/// (contextual forms of joining letters, kerning and ligatures of pairs, Devanagari conjuncts),
/// each worked out by HarfBuzz itself. Tables a font has no use for are nil.
final class EstimationTables: Sendable {
  let nominal: NominalAdvances
  let forms: JoiningForms?
  let pairs: KerningPairs?
  let conjuncts: ConjunctPairs?
  /// The font's `GPOS` has the `halt` feature, with which the browser profile sets adjacent
  /// fullwidth punctuation half-width (``PunctuationTrim``).
  let hasHalt: Bool
  /// The advances it may choose by language, per language asked (see
  /// ``Font/languageAdvances(language:)``).
  let languages = LanguageAdvancesCache()

  init(_ font: Font) {
    nominal = font.nominalAdvances()
    let forms = JoiningForms(font)
    self.forms = forms.isEmpty ? nil : forms
    let pairs = KerningPairs(font)
    self.pairs = pairs.isEmpty ? nil : pairs
    let conjuncts = ConjunctPairs(font)
    self.conjuncts = conjuncts.isEmpty ? nil : conjuncts
    hasHalt = font.hasFeature("halt", in: "GPOS")
  }
}

extension Font {
  /// What an estimator reads of the font (made on first call, a few milliseconds, then kept
  /// with the font): see ``EstimationTables``.
  func estimationTables() -> EstimationTables {
    estimatorTables { EstimationTables(self) }
  }
}
