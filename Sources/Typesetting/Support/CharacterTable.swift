import CICUShims

/// General-category facts about the Basic Multilingual Plane in one byte per code point, made
/// once: asking Swift's `Unicode.Scalar.Properties` costs tens of nanoseconds a character, which
/// preparing text would otherwise pay several times per character.
package enum CharacterTable {
  /// Nonspacing, spacing and enclosing marks (general categories Mn, Mc, Me).
  package static func isCombiningMark(_ c: UInt32) -> Bool {
    c >= 0x300 && CharacterTable.has(c, CharacterTable.combiningMark)
  }

  /// Whether the engine draws `c` with no advance of its own: a nonspacing or enclosing mark
  /// (general category Mn, Me), or a character that needs no glyph
  /// (``FontSelection/needsNoGlyph(_:)``). For readers that guess widths without shaping.
  package static func takesNoAdvance(_ c: UInt32) -> Bool {
    has(c, nonspacingMark) || FontSelection.isIgnorable(c)
  }

  /// White space that measured line widths leave out at the end of a line: Unicode's
  /// White_Space characters that a line may break after — not the no-break spaces (line-break
  /// class GL: U+00A0, U+2007, U+202F) nor NEXT LINE (class NL) — and the zero width space.
  /// Read from ICU's Unicode data (made once into the table).
  static func isReportWhitespace(_ c: UInt32) -> Bool {
    if c == 0x200B { return true }
    guard UnicodeProperties.isWhiteSpace(c) else { return false }
    let lineBreak = galley_line_break_class(c)
    return lineBreak != CharacterTable.glue && lineBreak != CharacterTable.nextLine
  }

  /// ICU's line-break classes GL (glue: no break on either side) and NL (next line).
  static let glue: Int32 = 12
  static let nextLine: Int32 = 29

  /// Nonspacing, spacing or enclosing mark (Mn, Mc, Me).
  static let combiningMark: UInt8 = 1
  /// Nonspacing or enclosing mark (Mn, Me).
  static let nonspacingMark: UInt8 = 2
  /// Letter or number (L*, N*).
  static let letterOrNumber: UInt8 = 4
  /// Forms a grapheme cluster on its own (``Graphemes/isStandalone(_:)``).
  static let graphemeStandalone: UInt8 = 8
  /// A mark that only extends the character before it (``Graphemes/isPlainMark(_:)``).
  static let plainMark: UInt8 = 16
  /// Alone in a grapheme cluster, takes the primary font (``FontSelection/takesPrimaryFont(_:)``).
  static let primaryFontAlone: UInt8 = 32
  /// White space that measured line widths leave out (``isReportWhitespace(_:)``).
  static let reportWhitespace: UInt8 = 64
  /// Needs no glyph of its own (``FontSelection/needsNoGlyph(_:)``).
  static let ignorable: UInt8 = 128

  /// The flags of every BMP code point (surrogates: none).
  static let bmp: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 0x10000)
    for c in 0..<0x10000 { table[c] = flags(UInt32(c)) }
    return table
  }()

  /// The flags of any code point, from its general category and the grapheme lists.
  static func flags(_ c: UInt32) -> UInt8 {
    guard let s = Unicode.Scalar(c) else { return 0 }
    var grapheme: UInt8 = 0
    if Graphemes.isStandalone(c) { grapheme |= graphemeStandalone }
    if Graphemes.isPlainMark(c) { grapheme |= plainMark }
    if FontSelection.takesPrimaryFont(c) { grapheme |= primaryFontAlone }
    if isReportWhitespace(c) { grapheme |= reportWhitespace }
    if FontSelection.needsNoGlyph(c) { grapheme |= ignorable }
    switch UnicodeProperties.generalCategory(s.value) {
    case .nonspacingMark, .enclosingMark: return grapheme | combiningMark | nonspacingMark
    case .spacingMark: return grapheme | combiningMark
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber:
      return grapheme | letterOrNumber
    default: return grapheme
    }
  }

  /// The flags of lists that hold BMP code points only.
  static let bmpOnlyFlags = graphemeStandalone | plainMark | reportWhitespace

  /// Whether `c` has `flag`.
  static func has(_ c: UInt32, _ flag: UInt8) -> Bool {
    withLookup { $0.has(c, flag) }
  }

  /// The table read in place (a loop over a text's characters reads it once).
  struct Lookup {
    let bmp: UnsafeBufferPointer<UInt8>

    /// Whether `c` has `flag` (beyond the BMP, worked out unless only lists of the BMP have it).
    func has(_ c: UInt32, _ flag: UInt8) -> Bool {
      c < 0x10000
        ? bmp[Int(c)] & flag != 0
        : flag & ~CharacterTable.bmpOnlyFlags != 0 && CharacterTable.flags(c) & flag != 0
    }
  }

  /// Calls `body` with the table.
  static func withLookup<R>(_ body: (Lookup) -> R) -> R {
    bmp.withUnsafeBufferPointer { body(Lookup(bmp: $0)) }
  }
}
