import Typesetting

/// How much a pair of adjacent characters of a font changes their width, as HarfBuzz shapes it
/// (kerning, mostly; a ligature where one forms): what an estimator adds to nominal advances to
/// guess a Latin, Greek or Cyrillic word's width within a small fraction of a point.
///
/// Covers the characters of ``characters`` (ASCII, the Latin-1 letters, the Russian and Hebrew
/// alphabets, Arabic-Indic digits, Thai): each left-to-right one is shaped once followed by every other
/// (`a b₁ a b₂ a …`), and a pair's value is the change to the first character's advance; a row
/// where glyphs merge, and every Hebrew pair, is shaped pair by pair instead, the value then
/// being the pair's whole change. Made on first use per font
/// (part of ``Font/estimationTables()``), a few milliseconds.
final class KerningPairs: @unchecked Sendable {
  // @unchecked: `rows` is written once in `init` and only read afterwards.
  /// The characters a table covers, in the order of its rows and columns.
  static let characters: [UInt32] =
    Array(0x21...0x7E) + Array(0xC0...0xFF) + [0x401] + Array(0x410...0x44F) + [0x451]
    + Array(0x660...0x669) + Array(0x6F0...0x6F9) + thai + Array(0x5D0...0x5EA)
  /// The Thai characters that take an advance (consonants, vowels written on the line, signs
  /// and digits; not the marks above and below).
  private static let thai: [UInt32] =
    Array(0xE01...0xE30) + [0xE32, 0xE33] + Array(0xE3F...0xE46) + Array(0xE4F...0xE5B)
  /// Where the right-to-left characters (Hebrew) begin in ``characters``: a pair is only ever
  /// made of two of one direction (the others fall in separate runs).
  private static let firstRightToLeft = characters.firstIndex(of: 0x5D0)!

  /// Code points below this may be covered.
  static let indexLimit = 0xE5C

  /// Per code point below ``indexLimit``: its row in the table, or -1. (This memory and the
  /// table's are the object's own, freed with it: read per character without a retain.)
  let rows: UnsafeMutablePointer<Int16>
  /// The change in em of each pair, by the characters' indices (``index(_:)``).
  let table: PairTable
  /// Whether any pair changes width (fonts without kerning: none).
  let isEmpty: Bool

  /// The row or column of `scalar` in the table, or -1 when it is not covered.
  func index(_ scalar: UInt32) -> Int {
    kerningPairIndex(scalar, rows: rows, limit: Self.indexLimit)
  }

  init(_ font: Font) {
    let chars = Self.characters
    let n = chars.count
    let table = PairTable(count: n)
    rows = .allocate(capacity: Self.indexLimit)
    rows.initialize(repeating: -1, count: Self.indexLimit)
    for (i, c) in chars.enumerated() { rows[Int(c)] = Int16(i) }
    let covered = chars.map { font.glyph(for: $0) != nil }
    let nominal = chars.map { Float(font.nominalAdvance($0) ?? 0) }
    let shaper = SampleShaper(font)
    let rtl = Self.firstRightToLeft
    var any = false
    // Right to left: each pair shaped alone (its glyphs come out in visual order).
    for a in rtl..<n where covered[a] {
      for b in rtl..<n where covered[b] {
        let total = shaper.glyphs([chars[a], chars[b]], rtl: true).reduce(0) { $0 + $1.advance }
        let v = total - nominal[a] - nominal[b]
        table[a, b] = v
        if v != 0 { any = true }
      }
    }
    let columns = (0..<rtl).filter { covered[$0] }
    for a in 0..<rtl where covered[a] {
      var text: [UInt32] = []
      text.reserveCapacity(2 * columns.count + 1)
      for b in columns {
        text.append(chars[a])
        text.append(chars[b])
      }
      text.append(chars[a])
      let glyphs = shaper.glyphs(text, rtl: false)
      if glyphs.count == text.count {
        for (k, b) in columns.enumerated() {
          let v = glyphs[2 * k].advance - nominal[a]
          table[a, b] = v
          if v != 0 { any = true }
        }
      } else {
        // Some pair of the row merges (a ligature): each pair shaped alone.
        for b in columns {
          let total = shaper.glyphs([chars[a], chars[b]], rtl: false).reduce(0) { $0 + $1.advance }
          let v = total - nominal[a] - nominal[b]
          table[a, b] = v
          if v != 0 { any = true }
        }
      }
    }
    self.table = table
    isEmpty = !any
  }

  deinit { rows.deallocate() }
}


/// ``KerningPairs/index(_:)`` over a table's `rows` read out of it (below `limit`). (Open to
/// the estimator, and inlinable: asked of every character there, a call would spill its
/// loop's state.)
func kerningPairIndex(_ scalar: UInt32, rows: UnsafeMutablePointer<Int16>, limit: Int)
  -> Int
{
  scalar < UInt32(limit) ? Int(rows[Int(scalar)]) : -1
}
