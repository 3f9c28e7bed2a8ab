import Typesetting
/// Pair kerning read from a font, to apply without HarfBuzz where HarfBuzz would do nothing else
/// (``DirectShaping``): GPOS pair-adjustment lookups that change only the first glyph's advance
/// and x placement, or the `kern` table of a font without GPOS.
///
/// Each adjustment is what HarfBuzz 6 applies to two adjacent glyphs with no mark between them:
/// - GPOS lookups (in any order: each adds to the first glyph's advance only, and which rule
///   matches depends only on the two glyphs): of a lookup's subtables, the first that takes the
///   pair — a format 1 subtable when it covers the first glyph and lists the second; a format 2
///   subtable when it covers the first glyph and both classes are in its matrix (a zero value
///   then still stops the search);
/// - the `kern` table (version 0, one horizontal format 0 subtable): the pair's value is split,
///   the first glyph taking half (rounded down) and the second the rest.
struct PairKerning: Sendable {
  /// A pair adjustment subtable. (A struct, not an enum with payloads: those keep their case
  /// in the spare bits of the arrays' pointers, which leak checkers cannot follow.)
  struct Subtable: Sendable {
    let coverage: Coverage
    /// Format 1: per first-glyph coverage index, the second glyphs and values in the font's
    /// order (empty for format 2).
    let sets: [[(second: UInt16, value: Int16, placement: Int16)]]
    /// Format 2: the class matrix (nil for format 1).
    let classes: ClassMatrix?
  }

  struct ClassMatrix: Sendable {
    let first: ClassDefinition
    let second: ClassDefinition
    let count1: Int
    let count2: Int
    let values: [Int16]
    /// The first glyph's x placements (empty when the records have none).
    let placements: [Int16]
  }

  /// GPOS lookups, each a list of subtables.
  private let lookups: [[Subtable]]
  /// `kern` subtables: pairs keyed `left << 16 | right`, in the font's order.
  private let kernTables: [[(key: UInt32, value: Int16)]]

  var isEmpty: Bool { lookups.isEmpty && kernTables.isEmpty }

  init(lookups: [[Subtable]], kernTables: [[(key: UInt32, value: Int16)]]) {
    self.lookups = lookups
    self.kernTables = kernTables
  }

  /// The adjustments of the first and second glyph's advances and of the first glyph's x
  /// placement (its offset), in font units.
  func adjustment(_ a: UInt16, _ b: UInt16) -> (first: Int32, second: Int32, placement: Int32) {
    var first: Int32 = 0
    var second: Int32 = 0
    var placement: Int32 = 0
    for lookup in lookups {
      subtables: for sub in lookup {
        guard let k = sub.coverage.index(a) else { continue }
        if let m = sub.classes {
          let c1 = Int(m.first.class(a))
          let c2 = Int(m.second.class(b))
          guard c1 < m.count1 && c2 < m.count2 else { continue }
          if !m.values.isEmpty { first += Int32(m.values[c1 * m.count2 + c2]) }
          if !m.placements.isEmpty { placement += Int32(m.placements[c1 * m.count2 + c2]) }
          break subtables
        }
        guard k < sub.sets.count else { continue }
        let set = sub.sets[k]
        if let found = harfBuzzSearch(set.count, { searchOrder(b, set[$0].second) }) {
          first += Int32(set[found].value)
          placement += Int32(set[found].placement)
          break subtables
        }
      }
    }
    let key = UInt32(a) << 16 | UInt32(b)
    for table in kernTables {
      if let found = harfBuzzSearch(table.count, { searchOrder(key, table[$0].key) }) {
        let kern = Int32(table[found].value)
        let half = kern >> 1
        first += half
        second += kern - half
      }
    }
    return (first, second, placement)
  }

  /// A GPOS pair-adjustment subtable whose only effects are on the first glyph's horizontal
  /// advance and x placement (no value for the second glyph, no y placement, no device
  /// tables), or nil.
  static func subtable(
    _ t: TableBytes, at sub: Int, work: LookupRequirements.Work
  ) -> Subtable? {
    guard let format = t.u16(sub), let cov = t.offset(sub, 2),
      let coverage = Coverage(t, at: cov), work.spend(coverage.size),
      let format1 = t.u16(sub + 4),
      let format2 = t.u16(sub + 6), format2 == 0, format1 & 0xFFF2 == 0
    else { return nil }
    let size = format1.nonzeroBitCount
    // Where the x advance sits in a value record (after the x placement), if it has one; the
    // x placement comes first.
    let advance: Int? = format1 & 4 != 0 ? (format1 & 1).nonzeroBitCount : nil
    let placement: Int? = format1 & 1 != 0 ? 0 : nil
    switch format {
    case 1:
      guard let count = t.u16(sub + 8) else { return nil }
      var sets: [[(second: UInt16, value: Int16, placement: Int16)]] = []
      for k in 0..<Int(count) {
        guard let set = t.offset(sub, 10 + 2 * k), let n = t.u16(set),
          set + 2 + Int(n) * 2 * (1 + size) <= t.data.count, work.spend(Int(n))
        else { return nil }
        sets.append(
          (0..<Int(n)).map { j in
            let record = set + 2 + j * 2 * (1 + size)
            let value = advance.map { t.i16(record + 2 + 2 * $0)! } ?? 0
            let moved = placement.map { t.i16(record + 2 + 2 * $0)! } ?? 0
            return (t.u16(record)!, value, moved)
          })
      }
      return Subtable(coverage: coverage, sets: sets, classes: nil)
    case 2:
      guard let d1 = t.offset(sub, 8), let d2 = t.offset(sub, 10),
        let def1 = ClassDefinition(t, at: d1), let def2 = ClassDefinition(t, at: d2),
        let count1 = t.u16(sub + 12), let count2 = t.u16(sub + 14)
      else { return nil }
      let cells = Int(count1) * Int(count2)
      guard sub + 16 + cells * 2 * size <= t.data.count else { return nil }
      // No x advance in the records: every cell adds 0 (and none is stored: a matrix of empty
      // records takes no room in the font, but would here).
      var values: [Int16] = []
      if let advance {
        guard work.spend(cells) else { return nil }
        values = (0..<cells).map { k in t.i16(sub + 16 + k * 2 * size + 2 * advance)! }
      }
      var placements: [Int16] = []
      if let placement {
        guard work.spend(cells) else { return nil }
        placements = (0..<cells).map { k in t.i16(sub + 16 + k * 2 * size + 2 * placement)! }
      }
      return Subtable(
        coverage: coverage, sets: [],
        classes: ClassMatrix(
          first: def1, second: def2, count1: Int(count1), count2: Int(count2), values: values,
          placements: placements))
    default:
      return nil
    }
  }

  /// The pairs of a `kern` table (version 0) made of one horizontal format 0 subtable, or nil
  /// when it holds anything else: more subtables (whose 16-bit lengths HarfBuzz reads its own
  /// way), another format, vertical, cross-stream, minimum or override kerning, or Apple's
  /// version.
  static func kernTables(_ t: TableBytes) -> [[(key: UInt32, value: Int16)]]? {
    // Table: version, count; subtable: version, length, format (high byte) and flags.
    guard t.u16(0) == 0, t.u16(2) == 1, t.u16(8) == 0x0001, let n = t.u16(10),
      18 + 6 * Int(n) <= t.data.count
    else { return nil }
    return [
      (0..<Int(n)).map { k in
        let p = 18 + 6 * k
        return (t.u32(p)!, t.i16(p + 4)!)
      }
    ]
  }
}
