import CICUShims

/// Unicode character properties from ICU's data, for the engine's per-character table and for
/// readers that model text without shaping it (the estimator's character classes): the same
/// data the engine's line breaking and bidi read, so that no reader keeps its own list of
/// ranges or another version of Unicode.
package enum UnicodeProperties {
  /// East_Asian_Width Wide or Fullwidth: drawn on a full em (ideographs, kana, Hangul,
  /// fullwidth forms, emoji with emoji presentation).
  package static func isWide(_ c: UInt32) -> Bool { galley_is_wide(c) != 0 }

  /// The scripts that readers group texts by, with ICU's UScriptCode numbers.
  package enum Script: Int32, Sendable {
    case common = 0, inherited = 1, arabic = 2, cyrillic = 8, devanagari = 10, han = 17
    case hangul = 18, hebrew = 19, hiragana = 20, katakana = 22, latin = 25, thai = 38
  }

  /// Unicode's Script of `c`, when it is one of ``Script``'s (nil: another script).
  package static func script(_ c: UInt32) -> Script? { Script(rawValue: galley_script(c)) }

  /// Whether `c` has a script of its own (not Common or Inherited) other than `other`'s, which
  /// has one too: a mark that starts a script run of its own after its base.
  package static func hasOtherScript(_ c: UInt32, than other: UInt32) -> Bool {
    // (The script table itemization reads: a lookup, not a call into ICU.)
    let s = ScriptTable.script(of: c)
    guard !HarfBuzzShaper.isCommonOrInherited(s) else { return false }
    let t = ScriptTable.script(of: other)
    return !HarfBuzzShaper.isCommonOrInherited(t) && t != s
  }

  /// Default_Ignorable_Code_Point: drawn as nothing (joiners, variation selectors, …).
  package static func isDefaultIgnorable(_ c: UInt32) -> Bool {
    galley_is_default_ignorable(c) != 0
  }

  /// Regional_Indicator: a letter of a flag's pair.
  package static func isRegionalIndicator(_ c: UInt32) -> Bool {
    galley_is_regional_indicator(c) != 0
  }

  /// The Hangul script (syllables, jamo, compatibility jamo).
  package static func isHangul(_ c: UInt32) -> Bool { script(c) == .hangul }

  /// A Hangul jamo: conjoining (Hangul_Syllable_Type L, V or T) or of the Compatibility Jamo
  /// block.
  package static func isJamo(_ c: UInt32) -> Bool { galley_is_jamo(c) != 0 }

  /// Hangul_Syllable_Type: how a Hangul character joins into a syllable.
  package enum HangulSyllableType: Int32 {
    case notApplicable = 0, leadingJamo, vowelJamo, trailingJamo, lvSyllable, lvtSyllable
  }

  package static func hangulSyllableType(_ c: UInt32) -> HangulSyllableType {
    HangulSyllableType(rawValue: galley_hangul_syllable_type(c)) ?? .notApplicable
  }

  /// Emoji_Presentation: shown as a colour emoji without a variation selector.
  package static func isEmojiPresentation(_ c: UInt32) -> Bool {
    galley_is_emoji_presentation(c) != 0
  }

  /// Extended_Pictographic: a pictograph, emoji or not yet (what emoji sequences are made of).
  package static func isExtendedPictographic(_ c: UInt32) -> Bool {
    galley_is_extended_pictographic(c) != 0
  }

  /// Emoji_Modifier: a skin tone, drawn on the emoji before it.
  package static func isEmojiModifier(_ c: UInt32) -> Bool { galley_is_emoji_modifier(c) != 0 }

  /// Emoji_Modifier_Base: an emoji a skin tone applies to.
  /// Unicode's Joining_Type (ICU's `UJoiningType`: 1 join causing, 2 dual joining, 3 left
  /// joining, 4 right joining, 5 transparent; 0 non joining).
  package static func joiningType(_ c: UInt32) -> Int32 { galley_joining_type(c) }

  package static func isEmojiModifierBase(_ c: UInt32) -> Bool {
    galley_is_emoji_modifier_base(c) != 0
  }

  /// General_Category, numbered as ICU numbers it (`UCharCategory`).
  package enum GeneralCategory: Int32 {
    case unassigned = 0, uppercaseLetter, lowercaseLetter, titlecaseLetter, modifierLetter
    case otherLetter, nonspacingMark, enclosingMark, spacingMark, decimalNumber, letterNumber
    case otherNumber, spaceSeparator, lineSeparator, paragraphSeparator, control, format
    case privateUse, surrogate, dashPunctuation, openPunctuation, closePunctuation
    case connectorPunctuation, otherPunctuation, mathSymbol, currencySymbol, modifierSymbol
    case otherSymbol, initialPunctuation, finalPunctuation
  }

  package static func generalCategory(_ c: UInt32) -> GeneralCategory {
    GeneralCategory(rawValue: galley_char_type(c)) ?? .unassigned
  }

  /// White_Space.
  package static func isWhiteSpace(_ c: UInt32) -> Bool { galley_is_white_space(c) != 0 }
}
