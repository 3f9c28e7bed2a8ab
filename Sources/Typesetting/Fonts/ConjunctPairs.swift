import CHarfBuzz

/// How much a Devanagari conjunct changes the width of its two consonants, as HarfBuzz shapes
/// it: a consonant followed by virama and another consonant takes its half form, becomes a reph
/// or a ligature, so that the pair is narrower than its two nominal glyphs. What an estimator
/// adds to nominal advances to guess a Hindi word's width.
///
/// Every pair of consonants of ``consonants`` is shaped once as `c₁ ् c₂`; its value is the
/// shaped width less the two consonants' nominal advances. Made on first use per font
/// (part of ``Font/estimationTables()``), a few milliseconds for a font that covers Devanagari.
package final class ConjunctPairs: @unchecked Sendable {
  // @unchecked: `values` is written once in `init` and only read afterwards.
  /// The consonants (with their nukta forms), in the order of the table's rows and columns.
  package static let consonants: [UInt32] = Array(0x0915...0x0939) + Array(0x0958...0x095F)
  /// The virama that joins two consonants.
  package static let virama: UInt32 = 0x094D

  /// Row-major: the change in em of pair (row, column). (The object's own memory, freed with
  /// it: read per character without a retain.)
  package let values: UnsafeMutablePointer<Float>
  /// Rows (and columns) of the table.
  package let count: Int
  /// Whether the font has Devanagari conjuncts at all.
  package let isEmpty: Bool

  /// The row or column of `scalar`, or -1 when it is not a consonant.
  @inline(__always)
  package static func index(_ scalar: UInt32) -> Int {
    switch scalar {
    case 0x0915...0x0939: return Int(scalar - 0x0915)
    case 0x0958...0x095F: return Int(scalar - 0x0958) + 0x25
    default: return -1
    }
  }

  /// The change in em when consonant `a`, virama and consonant `b` make a conjunct.
  @inline(__always)
  package subscript(a: Int, b: Int) -> Float { values[a &* count &+ b] }

  init(_ font: Font) {
    let chars = Self.consonants
    let n = chars.count
    count = n
    let covered = chars.map { font.glyph(for: $0) != nil }
    guard font.glyph(for: Self.virama) != nil, covered.contains(true) else {
      values = .allocate(capacity: 1)
      values.initialize(to: 0)
      isEmpty = true
      return
    }
    let upem = Float(font.unitsPerEm)
    let nominal = chars.map { Float(font.nominalAdvance($0) ?? 0) }
    let buffer = hb_buffer_create()!
    defer { hb_buffer_destroy(buffer) }
    var values = [Float](repeating: 0, count: n * n)
    for a in 0..<n where covered[a] {
      for b in 0..<n where covered[b] {
        let text = [chars[a], Self.virama, chars[b]]
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf32(buffer, text, 3, 0, 3)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font.hbFont, buffer, nil, 0)
        var g: UInt32 = 0
        let pos = hb_buffer_get_glyph_positions(buffer, &g)!
        var sum: Int32 = 0
        for i in 0..<Int(g) { sum += pos[i].x_advance }
        values[a * n + b] = Float(sum) / upem - nominal[a] - nominal[b]
      }
    }
    self.values = .allocate(capacity: values.count)
    self.values.initialize(from: values, count: values.count)
    isEmpty = false
  }

  deinit { values.deallocate() }
}

