/// One glyph as shaping placed it: the output of the shaping stage that measuring sums and
/// drawing positions, so that a picture shows the very glyphs that were measured.
package struct ShapedGlyph: Sendable, Equatable {
  /// The glyph id in the low 16 bits, ``kerned`` above it, ``ownAdvance`` in the 15 above.
  @usableFromInline var bits: UInt32
  /// The processed code point the glyph comes from (HarfBuzz's cluster at character level).
  package var cluster: Int32
  /// Advance in points, exactly as measuring added it to the cluster's code point.
  package var advance: Double
  /// Offset of the glyph from its pen position, in points (x right, y up, as HarfBuzz gives it).
  package var offsetX: Float
  package var offsetY: Float

  /// Glyph id in the run's font.
  @inlinable package var id: UInt32 { bits & 0xFFFF }

  /// Whether the glyph's advance is not its own but holds a pair adjustment with a neighbour
  /// (kerning: HarfBuzz marks the pair unsafe to break): a line that ends after it is shaped
  /// again there (``LineEndKerning``).
  @inlinable package var kerned: Bool { bits & 0x1_0000 != 0 }

  /// A ``kerned`` glyph's own advance in font units, kept by shaping (which asked the font for
  /// it) when the glyph is its code point's nominal glyph (no lookup chose it) and the advance
  /// is below 32,767 units: what a line that ends after it gains is then known without asking
  /// the font again (``LineEndKerning/gain(_:of:face:units:)``). Nil otherwise.
  @inlinable package var ownAdvance: Int32? {
    let v = bits >> 17
    return v == 0x7FFF || bits & 0x1_0000 == 0 ? nil : Int32(v)
  }

  @inlinable package init(
    id: UInt32, cluster: Int32, advance: Double, offsetX: Float, offsetY: Float,
    kerned: Bool = false, ownAdvance: Int32? = nil
  ) {
    var bits = id & 0xFFFF
    if kerned {
      let own = ownAdvance.map { $0 >= 0 && $0 < 0x7FFF ? UInt32($0) : 0x7FFF } ?? 0x7FFF
      bits |= 0x1_0000 | own << 17
    }
    self.bits = bits
    self.cluster = cluster
    self.advance = advance
    self.offsetX = offsetX
    self.offsetY = offsetY
  }
}

/// A shaped run: processed code points `[start, end)` in one font and one bidi level, with
/// the glyphs `[glyphStart, glyphEnd)` of ``PreparedText``'s glyph array in the order shaping
/// gave them (left to right on the line: reversed logical order for a right-to-left run).
/// Tabs and forced breaks are runs of their own with no glyph (their width is the layout's).
struct ShapedRun: Sendable, Equatable {
  var start: Int32
  var end: Int32
  var glyphStart: Int32
  var glyphEnd: Int32
  /// Index of the font in the style's stack.
  var font: UInt8
  /// Bidi embedding level (odd: right to left).
  var level: UInt8
}

extension ShapedRun {
  /// The run of `runs` (logical order, covering every code point) that holds code point `c`.
  static func index(containing c: Int, in runs: [ShapedRun]) -> Int {
    runs.withUnsafeBufferPointer { runs in
      var lo = 0
      var hi = runs.count
      while hi - lo > 1 {
        let mid = (lo &+ hi) / 2
        if Int(runs[mid].start) <= c { lo = mid } else { hi = mid }
      }
      return lo
    }
  }
}

/// A short string shaped once per style (the ellipsis of truncation, the hyphen shown at a
/// soft hyphen): its font in the stack and its glyphs.
struct ShapedSnippet: Sendable, Equatable {
  var font: Int = 0
  var glyphs: [ShapedGlyph] = []
  /// Sum of the glyphs' advances (points).
  var advance: Double { glyphs.reduce(0) { $0 + $1.advance } }
}
