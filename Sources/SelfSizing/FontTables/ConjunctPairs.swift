import Typesetting

/// How much a Devanagari conjunct changes the width of its two consonants, as HarfBuzz shapes
/// it: a consonant followed by virama and another consonant takes its half form, becomes a reph
/// or a ligature, so that the pair is narrower than its two nominal glyphs. What an estimator
/// adds to nominal advances to guess a Hindi word's width.
///
/// Every pair of consonants of ``consonants`` is shaped once as `c₁ ् c₂`; its value is the
/// shaped width less the two consonants' nominal advances. A consonant and a dependent vowel
/// sign can change width too (र with ु or ू takes a form of its own): each is shaped once as
/// `c v`, less the consonant's nominal advance and the sign's (none for a sign that takes no
/// advance alone: ``CharacterTable/takesNoAdvance(_:)``). Made on first use per font
/// (part of ``Font/estimationTables()``), a few milliseconds for a font that covers Devanagari.
final class ConjunctPairs: Sendable {
  /// The consonants (with their nukta forms), in the order of the table's rows and columns.
  static let consonants: [UInt32] = Array(0x0915...0x0939) + Array(0x0958...0x095F)
  /// The virama that joins two consonants.
  static let virama: UInt32 = 0x094D

  /// The dependent vowel signs, in the order of ``vowels``' columns.
  static let vowelSigns: [UInt32] = Array(0x093E...0x094C) + [0x0962, 0x0963]

  /// The change in em of each pair of consonants, by their indices (``index(_:)``).
  let table: PairTable
  /// The change in em of each consonant (row) and vowel sign (column, ``vowelIndex(_:)``).
  let vowels: PairTable
  /// Whether the font has Devanagari conjuncts at all.
  let isEmpty: Bool

  /// The row or column of `scalar`, or -1 when it is not a consonant.
  static func index(_ scalar: UInt32) -> Int {
    switch scalar {
    case 0x0915...0x0939: return Int(scalar - 0x0915)
    case 0x0958...0x095F: return Int(scalar - 0x0958) + 0x25
    default: return -1
    }
  }

  /// The column of `scalar` in ``vowels``, or -1 when it is not a dependent vowel sign.
  static func vowelIndex(_ scalar: UInt32) -> Int {
    switch scalar {
    case 0x093E...0x094C: return Int(scalar - 0x093E)
    case 0x0962...0x0963: return Int(scalar - 0x0962) + 0x0F
    default: return -1
    }
  }

  init(_ font: Font) {
    let chars = Self.consonants
    let n = chars.count
    let covered = chars.map { font.glyph(for: $0) != nil }
    guard font.glyph(for: Self.virama) != nil, covered.contains(true) else {
      table = PairTable(count: 0)
      vowels = PairTable(count: 0)
      isEmpty = true
      return
    }
    let nominal = chars.map { Float(font.nominalAdvance($0) ?? 0) }
    let shaper = SampleShaper(font)
    let table = PairTable(count: n)
    for a in 0..<n where covered[a] {
      for b in 0..<n where covered[b] {
        let width = shaper.advance([chars[a], Self.virama, chars[b]])
        table[a, b] = width - nominal[a] - nominal[b]
      }
    }
    self.table = table
    // (Square, as pair tables are: the consonants outnumber the signs.)
    let vowels = PairTable(count: n)
    for (k, v) in Self.vowelSigns.enumerated() where font.glyph(for: v) != nil {
      let alone = CharacterTable.takesNoAdvance(v) ? 0 : Float(font.nominalAdvance(v) ?? 0)
      for a in 0..<n where covered[a] {
        vowels[a, k] = shaper.advance([chars[a], v]) - nominal[a] - alone
      }
    }
    self.vowels = vowels
    isEmpty = false
  }
}

