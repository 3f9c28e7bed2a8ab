import CHarfBuzz

/// CSS `text-spacing-trim: normal` (Chromium's default since version 123), the part that changes
/// widths inside a line: adjacent fullwidth punctuation collapses its spacing ("trim-adjacent").
/// A fullwidth opening bracket after an opening bracket, a closing one, a middle dot or U+3000
/// loses its leading half; a closing bracket or comma/full stop before closing punctuation or a
/// middle dot loses its trailing half. The half-width forms come from the font's `halt` feature.
package enum PunctuationTrim {
  package enum Kind { case opening, closing, middle, ideographicSpace, other }

  package static func kind(_ c: UInt32, closingDots: Bool) -> Kind {
    switch c {
    case 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D, 0xFF08,
      0xFF3B, 0xFF5B, 0xFF5F, 0x2018, 0x201C:
      // (Curly quotes are fullwidth only in CJK fonts, the only ones with `halt`.)
      return .opening
    case 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0x301E, 0x301F,
      0xFF09, 0xFF3D, 0xFF5D, 0xFF60, 0x2019, 0x201D:
      return .closing
    case 0x3001, 0x3002, 0xFF0C, 0xFF0E:
      // Japanese and Simplified Chinese set these at the start of the em, like closing marks.
      return closingDots ? .closing : .other
    case 0x30FB, 0xFF1A, 0xFF1B: return .middle
    case 0x3000: return .ideographicSpace
    default: return .other
    }
  }

  /// Whether Japanese and Simplified Chinese conventions apply to `language`: its ideographic
  /// comma and full stop sit at the start of the em, like closing marks (not in Traditional
  /// Chinese or Korean).
  package static func closingDots(language: String) -> Bool {
    let lang = language.lowercased()
    return !(lang.hasPrefix("zh-hant") || lang == "zh-tw" || lang == "zh-hk" || lang.hasPrefix("ko"))
  }

  /// Of two adjacent code points, whether the first loses its trailing half (a closing mark
  /// before closing punctuation or a middle dot) and whether the second loses its leading half
  /// (an opening mark after any fullwidth punctuation).
  package static func trims(_ first: UInt32, _ second: UInt32, closingDots: Bool) -> (
    first: Bool, second: Bool
  ) {
    let p = kind(first, closingDots: closingDots)
    let q = kind(second, closingDots: closingDots)
    return (p == .closing && (q == .closing || q == .middle), q == .opening && p != .other)
  }

  /// Whether `scalars` hold any punctuation this trims (curly quotes, CJK and fullwidth forms).
  static func mayTrim(_ scalars: [UInt32]) -> Bool {
    // (One comparison for most characters: everything that may be halved is from U+2018 on.)
    for c in scalars
    where c >= 0x2018 && (c <= 0x201D || (c >= 0x3000 && (c <= 0x30FF || c >= 0xFF00))) {
      return true
    }
    return false
  }

  /// Code point indices whose glyph is set half-width.
  static func halved(_ scalars: [UInt32], language: String) -> [Int] {
    mayTrim(scalars) ? halvedPairs(scalars, language: language) : []
  }

  /// ``halved(_:language:)`` of a text that ``mayTrim(_:)``.
  static func halvedPairs(_ scalars: [UInt32], language: String) -> [Int] {
    let closingDots = closingDots(language: language)
    var result: [Int] = []
    var previousHalved = false
    for i in scalars.indices.dropFirst() {
      let t = trims(scalars[i - 1], scalars[i], closingDots: closingDots)
      if t.first && !previousHalved { result.append(i - 1) }
      previousHalved = t.second
      if t.second { result.append(i) }
    }
    return result
  }

  /// Per segment, what a line that ends after it may give back when it does not otherwise fit
  /// (`allow-end`): half the advance of the fullwidth closing bracket or quote that ends its
  /// content, set half-width there as `halt` sets it; empty when no segment has one. Measured
  /// in Chromium 156 (Noto Sans CJK, 15 px, in Japanese, Chinese and Korean): "）", "」" and a
  /// fullwidth "”" end a line that fits only so, at 202.5 px for 195 + 15; the ideographic
  /// comma and full stop do not, nor a proportional "”" (as Japanese and Korean set it).
  static func endHangs(
    _ source: SourceText, segments: Segmentation, shaped: ShapedText, size: Double
  ) -> [Double] {
    guard shaped.mayTrim else { return [] }
    let ends = segments.contentEnd
    let advance = segments.graphemeAdvance
    let bounds = source.graphemeStart
    let scalars = source.processed.scalars
    var out: [Double] = []
    for s in 0..<ends.count {
      let g = Int(ends[s]) - 1
      guard g >= (s == 0 ? 0 : Int(segments.end[s - 1])) else { continue }
      let c = Int(bounds[g])
      // (One comparison for most segments: closing marks are U+2019 and above.)
      let scalar = scalars[c]
      guard scalar >= 0x2019, bounds[g + 1] == bounds[g] &+ 1 else { continue }
      // (Fullwidth: its glyph a whole em, as CJK fonts draw these marks.)
      guard kind(scalar, closingDots: false) == .closing, advance[g] >= 0.95 * size,
        !shaped.isHalved(c)
      else { continue }
      if out.isEmpty { out = [Double](repeating: 0, count: ends.count) }
      out[s] = advance[g] / 2
    }
    return out
  }

  /// Per segment, what a line that starts with it gains: what its opening bracket or quote
  /// lost in the paragraph because of the mark before it, which is on the line before
  /// (Chromium shapes a wrapped line's start again without looking back). Measured in Chromium
  /// 156, Noto Sans CJK at 17 px in Chinese: "（" after "”" is 8.5 px in the paragraph and 17
  /// at a line's start; a proportional "“" (13 px) keeps its own width in both. The gain is the
  /// glyph's own advance less its advance in the paragraph; empty when no segment gains.
  static func startGains(
    _ source: SourceText, segments: Segmentation, shaped: ShapedText, fonts: [Font],
    size: Double, language: String
  ) -> [Double] {
    guard shaped.mayTrim, !shaped.halved.isEmpty else { return [] }
    let bounds = source.graphemeStart
    let scalars = source.processed.scalars
    let closingDots = closingDots(language: language)
    var out: [Double] = []
    let ends = segments.end
    let runs = shaped.runs
    let glyphs = shaped.glyphs
    var r = 0  // the run of the code point looked at (segment starts only go forward)
    for s in 1..<max(1, ends.count) {
      let g = Int(ends[s - 1])
      guard g < segments.graphemeAdvance.count else { continue }
      let c = Int(bounds[g])
      guard c > 0, scalars[c] >= 0x2018, bounds[g + 1] == bounds[g] &+ 1,
        trims(scalars[c - 1], scalars[c], closingDots: closingDots).second,
        shaped.isHalved(c)
      else { continue }
      while r + 1 < runs.count && Int(runs[r].end) <= c { r += 1 }
      let run = runs[r]
      let font = fonts[Int(run.font)]
      guard font.bitmapStrikePPEM == nil,
        let glyph = firstGlyph(of: c, in: run, glyphs)
      else { continue }
      let own = font.ownAdvance(of: glyph.id, size: size)
      guard own - glyph.advance > 1e-9 else { continue }
      if out.isEmpty { out = [Double](repeating: 0, count: ends.count) }
      out[s] = own - glyph.advance
    }
    return out
  }

  /// The first glyph of code point `c` in `run`, in the run's glyph order (cluster order left
  /// to right, its reverse right to left): found by bisection, as a text of many such marks
  /// asks often.
  static func firstGlyph(of c: Int, in run: ShapedRun, _ glyphs: [ShapedGlyph]) -> ShapedGlyph? {
    firstGlyphIndex(of: c, in: run, glyphs).map { glyphs[$0] }
  }

  /// The index of ``firstGlyph(of:in:_:)``.
  static func firstGlyphIndex(of c: Int, in run: ShapedRun, _ glyphs: [ShapedGlyph]) -> Int? {
    let rightToLeft = run.level & 1 == 1
    return glyphs.withUnsafeBufferPointer { glyphs in
      var lo = Int(run.glyphStart)
      var hi = Int(run.glyphEnd)
      // The first glyph whose cluster is not before `c` in the run's order.
      while lo < hi {
        let mid = (lo &+ hi) / 2
        let cluster = Int(glyphs[mid].cluster)
        if rightToLeft ? cluster > c : cluster < c { lo = mid &+ 1 } else { hi = mid }
      }
      guard lo < Int(run.glyphEnd), Int(glyphs[lo].cluster) == c else { return nil }
      return lo
    }
  }

  /// Whether code point `c` is in `halved` (text order: a binary search, so that looking at
  /// every segment stays linear in a text of such marks).
  static func isHalved(_ c: Int, in halved: [Int]) -> Bool {
    var lo = 0
    var hi = halved.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if halved[mid] < c { lo = mid + 1 } else { hi = mid }
    }
    return lo < halved.count && halved[lo] == c
  }

  static let halt: hb_tag_t = Font.tag("halt")
}
