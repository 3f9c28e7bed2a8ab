import Typesetting

/// The advances of a font's joining letters (Arabic, Syriac, N'Ko and the like) in each of their
/// contextual forms, as HarfBuzz shapes them: what an estimator needs to guess the width of a
/// cursive word without shaping it. A letter's nominal glyph is its isolated form, often much
/// wider than the initial and medial forms that most letters of a word take.
///
/// Each form is shaped once, in the font, with zero width joiners standing in for neighbours
/// (`ZWJ c ZWJ` for the medial form, and so on); which letters join, and on which sides, is the
/// Unicode joining type (from ICU). The lam–alef ligatures are shaped the same way. Made on first
/// use per font (part of ``Font/estimationTables()``).
final class JoiningForms: @unchecked Sendable {
  // @unchecked: `letters` is written once in `init` and only read afterwards.
  /// A joining letter's advances in em.
  struct Letter: Sendable {
    var isolated: Float
    var initial: Float
    var medial: Float
    var final: Float
    /// It joins the letter after it (dual joining or join causing); every letter here joins the
    /// one before it.
    var joinsNext: Bool
  }

  /// The code points whose letters may join (Arabic, Syriac, Arabic Supplement, Thaana, N'Ko,
  /// Samaritan, Mandaic, Syriac Supplement, Arabic Extended-B and -A).
  static let range: ClosedRange<UInt32> = 0x0600...0x08FF

  /// Per code point of ``range``: its letter, or nil when it does not join or the font does
  /// not cover it. (Memory of its own, freed with it: read per character without a retain.)
  let letters: UnsafeMutablePointer<Letter?>
  /// The lam–alef ligatures (lam U+0644 then the alef `key`): advances in em, alone and after
  /// a joining letter.
  let lamAlef: [UInt32: (isolated: Float, final: Float)]

  /// The kerning in em between a letter that does not join the next one (alef, dal, reh,
  /// waw…) and the letter after it, when that one stands alone (`isolated`) and when a letter
  /// after it joins it (`initial`), by ``pairKey(_:_:)``; pairs without kerning are absent.
  let kerns: [UInt64: (isolated: Float, initial: Float)]

  /// Whether the font has no joining letter (most fonts).
  let isEmpty: Bool

  /// The key of pair `a`, `b` in ``kerns``.
  static func pairKey(_ a: UInt32, _ b: UInt32) -> UInt64 { UInt64(a) << 32 | UInt64(b) }

  /// The letter of `scalar`, if it joins and the font covers it.
  func letter(_ scalar: UInt32) -> Letter? {
    Self.range.contains(scalar) ? letters[Int(scalar &- Self.range.lowerBound)] : nil
  }

  init(_ font: Font) {
    let shaper = SampleShaper(font)
    let zwj: UInt32 = 0x200D
    /// The advance in em of the glyphs that `text[range]` became (ZWJs and their glyphs aside).
    func advance(_ text: [UInt32], of range: Range<Int>) -> Float {
      shaper.advance(text, of: range)
    }
    var letters: [Letter?] = []
    var coversLam = false
    for cp in Self.range {
      let type = UnicodeProperties.joiningType(cp)
      // Dual joining (2), join causing (1: tatweel) and right joining (4) letters: the
      // left-joining type (3) has no letter in these blocks.
      guard type == 1 || type == 2 || type == 4, font.glyph(for: cp) != nil else {
        letters.append(nil)
        continue
      }
      if cp == 0x0644 { coversLam = true }
      let both = type != 4
      let isolated = advance([cp], of: 0..<1)
      let final = advance([zwj, cp], of: 1..<2)
      letters.append(
        Letter(
          isolated: isolated, initial: both ? advance([cp, zwj], of: 0..<1) : isolated,
          medial: both ? advance([zwj, cp, zwj], of: 1..<2) : final, final: final,
          joinsNext: both))
    }
    var lamAlef: [UInt32: (isolated: Float, final: Float)] = [:]
    if coversLam {
      for alef: UInt32 in [0x0622, 0x0623, 0x0625, 0x0627] where font.glyph(for: alef) != nil {
        lamAlef[alef] = (advance([0x0644, alef], of: 0..<2), advance([zwj, 0x0644, alef], of: 1..<3))
      }
    }
    // Kerning after a right-joining letter, for the letters of the Arabic block and its
    // extension for Persian and Urdu: `a b` (and `a b ـ`, b initial) against each shaped alone.
    var kerns: [UInt64: (isolated: Float, initial: Float)] = [:]
    let common = (Array(0x0621...0x064A) + Array(0x0671...0x06D3)).filter {
      letters[Int($0 - Self.range.lowerBound)] != nil
    }
    var alone: [UInt32: Float] = [:]
    var beforeTatweel: [UInt32: Float] = [:]
    for b in common {
      alone[b] = shaper.advance([b])
      beforeTatweel[b] = shaper.advance([b, 0x0640])
    }
    for a in common where letters[Int(a - Self.range.lowerBound)]?.joinsNext == false {
      for b in common {
        let isolated = shaper.advance([a, b]) - alone[a]! - alone[b]!
        let joinsNext = letters[Int(b - Self.range.lowerBound)]?.joinsNext == true
        let initial =
          joinsNext ? shaper.advance([a, b, 0x0640]) - alone[a]! - beforeTatweel[b]! : isolated
        if abs(isolated) > 1e-6 || abs(initial) > 1e-6 {
          kerns[Self.pairKey(a, b)] = (isolated, initial)
        }
      }
    }
    self.kerns = kerns
    self.letters = .allocate(capacity: letters.count)
    self.letters.initialize(from: letters, count: letters.count)
    self.lamAlef = lamAlef
    isEmpty = !letters.contains { $0 != nil }
  }

  deinit { letters.deallocate() }
}

