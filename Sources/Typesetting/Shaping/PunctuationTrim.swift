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

  /// Code point indices whose glyph is set half-width.
  static func halved(_ scalars: [UInt32], language: String) -> [Int] {
    var any = false
    // (One comparison for most characters: everything that may be halved is from U+2018 on.)
    for c in scalars
    where c >= 0x2018 && (c <= 0x201D || (c >= 0x3000 && (c <= 0x30FF || c >= 0xFF00))) {
      any = true
      break
    }
    guard any else { return [] }
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

  static let halt: hb_tag_t = Font.tag("halt")
}
