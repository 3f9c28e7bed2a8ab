import Typesetting

/// The script group a text belongs to, for reports by script: the script of most of its
/// letters, or `mixed` when none has four fifths of them.
public enum ScriptGroup: String, CaseIterable, Sendable {
  case latin, korean, japaneseChinese, arabic, hebrew, thai, devanagari, cyrillic, emoji, mixed,
    none

  /// The group of `text`: its letters and digits counted by Unicode's Script property (ICU's
  /// data; marks and skin tones go with the character they are drawn on), emoji by
  /// Extended_Pictographic and Regional_Indicator beyond Latin-1 (whose © and ® are text
  /// signs); spaces, punctuation, symbols of no script and characters drawn as nothing are not
  /// counted.
  public static func of(_ text: String) -> ScriptGroup {
    var counts = [ScriptGroup: Int]()
    var total = 0
    var base: ScriptGroup? = nil
    for s in text.unicodeScalars {
      let c = s.value
      let g: ScriptGroup?
      switch group(c) {
      case .some(let own): g = own
      case nil where drawnOnItsBase(c): g = base
      case nil: g = nil
      }
      base = g
      guard let g else { continue }
      counts[g, default: 0] += 1
      total += 1
    }
    guard total > 0, let top = counts.max(by: { $0.value < $1.value }) else { return .none }
    return top.value * 5 >= total * 4 ? top.key : .mixed
  }

  /// The group of a character by its own properties (nil: none, or a mark).
  static func group(_ c: UInt32) -> ScriptGroup? {
    if c > 0xFF && (UnicodeProperties.isExtendedPictographic(c)
      || UnicodeProperties.isRegionalIndicator(c))
    {
      return .emoji
    }
    switch UnicodeProperties.script(c) {
    case .latin: return .latin
    case .hangul: return .korean
    case .han, .hiragana, .katakana: return .japaneseChinese
    case .arabic: return .arabic
    case .hebrew: return .hebrew
    case .thai: return .thai
    case .devanagari: return .devanagari
    case .cyrillic: return .cyrillic
    case .common, .inherited, nil: return nil
    }
  }

  /// A mark of no script of its own (Inherited; not a joiner or a variation selector, which are
  /// drawn as nothing) or a skin tone: counted with the character before it.
  static func drawnOnItsBase(_ c: UInt32) -> Bool {
    UnicodeProperties.isEmojiModifier(c)
      || UnicodeProperties.script(c) == .inherited && !UnicodeProperties.isDefaultIgnorable(c)
  }
}
