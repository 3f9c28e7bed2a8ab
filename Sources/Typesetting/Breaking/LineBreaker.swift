/// Line-break opportunities of a text, as a public API (the typesetter uses the same rules).
///
/// ```swift
/// let offsets = try LineBreaker.opportunities(in: "Hello world", rules: .unicode)
/// // [6, 11]: after "Hello " and at the end
/// ```
public enum LineBreaker {
  /// Which rules decide where lines may break.
  public enum Rules: Sendable {
    /// UAX #14 exactly as ICU implements it (mandatory breaks included).
    case unicode
    /// UAX #14 tailored as Chromium tailors it (see ``TextStyle/Profile/browser``); mandatory
    /// breaks come only from line feeds.
    case browser
  }

  /// Offsets (in code points, ascending) where a line may end: after each opportunity, and at
  /// the end of the text.
  /// - Complexity: O(n).
  public static func opportunities(
    in text: String, language: String = "", rules: Rules = .browser,
    wordBreak: TextStyle.WordBreak = .normal
  ) throws -> [Int] {
    let scalars = text.unicodeScalars.map(\.value)
    guard !scalars.isEmpty else { return [] }
    switch rules {
    case .unicode:
      let b = try BreakOpportunities.icuBoundaries(
        scalars, locale: language.isEmpty ? "en" : LanguageTag.canonical(language))
      return (1...scalars.count).filter { b[$0] }
    case .browser:
      let soft = try BreakOpportunities.compute(
        scalars, locale: BreakOpportunities.locale(LanguageTag.canonical(language)),
        wordBreak: wordBreak)
      var result: [Int] = []
      for i in 1..<scalars.count where soft[i] || scalars[i - 1] == 0x0A { result.append(i) }
      result.append(scalars.count)
      return result
    }
  }

  /// The Unicode version of the line-breaking data (ICU's).
  public static var unicodeVersion: String { BreakOpportunities.unicodeVersion }
}
