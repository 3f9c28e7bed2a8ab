import CHarfBuzz

/// What an estimator reads of a font to guess widths without shaping, made once per font on
/// first use and shared: nominal advances, and the width changes that shaping makes most often
/// (contextual forms of joining letters, kerning and ligatures of pairs, Devanagari conjuncts),
/// each worked out by HarfBuzz itself. Tables a font has no use for are nil.
package final class EstimationTables: Sendable {
  package let nominal: NominalAdvances
  package let forms: JoiningForms?
  package let pairs: KerningPairs?
  package let conjuncts: ConjunctPairs?
  /// The font's `GPOS` has the `halt` feature, with which the browser profile sets adjacent
  /// fullwidth punctuation half-width (``PunctuationTrim``).
  package let hasHalt: Bool

  init(_ font: Font) {
    nominal = font.nominalAdvances()
    let forms = JoiningForms(font)
    self.forms = forms.isEmpty ? nil : forms
    let pairs = KerningPairs(font)
    self.pairs = pairs.isEmpty ? nil : pairs
    let conjuncts = ConjunctPairs(font)
    self.conjuncts = conjuncts.isEmpty ? nil : conjuncts
    hasHalt = Self.hasFeature(font, table: "GPOS", "halt")
  }

  static func hasFeature(_ font: Font, table: String, _ feature: String) -> Bool {
    font.featureTags(table).contains(Font.tag(feature))
  }
}

extension Font {
  /// What an estimator reads of the font (made on first call, a few milliseconds, then shared):
  /// see ``EstimationTables``.
  package func estimationTables() -> EstimationTables {
    estimationCache.get { EstimationTables(self) }
  }
}
