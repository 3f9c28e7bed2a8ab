import CHarfBuzz

/// Shapes runs with `halt` on the code points that text-spacing-trim halves.
///
/// A few halved code points in a run become ranged features (exactly as Chromium asks
/// HarfBuzz); HarfBuzz applies each ranged feature with a pass over the whole buffer, so a run
/// with many of them is shaped twice instead, without and with `halt` everywhere, and each
/// code point takes its advance from the shaping that applies to it. Both ways cost time
/// linear in the run.
struct HaltShaping {
  /// The most ranged `halt` features passed to one HarfBuzz call.
  static let maximumRanges = 16

  /// Keeps, of a run shaped twice, the glyphs each code point takes its advance from: the
  /// plain shaping's for code points not halved, the halved shaping's for the others, merged
  /// in shaping order (clusters rise left to right and fall in a right-to-left run).
  static func merge(
    _ glyphs: inout [ShapedGlyph], plain: Range<Int>, half: Range<Int>, halved: Set<Int>,
    rtl: Bool
  ) {
    let a = glyphs[plain].filter { !halved.contains(Int($0.cluster)) }
    let b = glyphs[half].filter { halved.contains(Int($0.cluster)) }
    var merged: [ShapedGlyph] = []
    merged.reserveCapacity(a.count + b.count)
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      let takeA =
        j == b.count
        || (i < a.count && (rtl ? a[i].cluster > b[j].cluster : a[i].cluster < b[j].cluster))
      if takeA {
        merged.append(a[i])
        i += 1
      } else {
        merged.append(b[j])
        j += 1
      }
    }
    glyphs.replaceSubrange(plain.lowerBound..<half.upperBound, with: merged)
  }
  private var plain: [Double] = []
  private var half: [Double] = []

  mutating func shape(
    _ scalars: [UInt32], run: ShapingRun, halved: ArraySlice<Int>, features: [hb_feature_t],
    size: Double, language: hb_language_t?, shaper: some ShapingEngine, into advances: inout [Double],
    maximumRanges: Int = HaltShaping.maximumRanges
  ) {
    var ranges: [hb_feature_t] = []
    var tooMany = false
    for i in halved {
      if let last = ranges.last, last.end == UInt32(i) {
        ranges[ranges.count - 1].end = UInt32(i + 1)
      } else if ranges.count == maximumRanges {
        tooMany = true
        break
      } else {
        ranges.append(
          hb_feature_t(
            tag: PunctuationTrim.halt, value: 1, start: UInt32(i), end: UInt32(i + 1)))
      }
    }
    if !tooMany {
      shaper.shape(
        scalars, run: run, size: size, language: language,
        features: ranges.isEmpty ? features : features + ranges, into: &advances)
      return
    }
    if plain.count < scalars.count {
      plain = [Double](repeating: 0, count: scalars.count)
      half = plain
    }
    let plainFrom = shaper.glyphs.count
    shaper.shape(
      scalars, run: run, size: size, language: language, features: features, into: &plain)
    let halfFrom = shaper.glyphs.count
    let everywhere = hb_feature_t(tag: PunctuationTrim.halt, value: 1, start: 0, end: UInt32.max)
    shaper.shape(
      scalars, run: run, size: size, language: language, features: features + [everywhere],
      into: &half)
    HaltShaping.merge(
      &shaper.glyphs, plain: plainFrom..<halfFrom, half: halfFrom..<shaper.glyphs.count,
      halved: Set(halved), rtl: run.rtl)
    var next = halved.startIndex
    for k in run.start..<run.end {
      if next < halved.endIndex && halved[next] == k {
        advances[k] += half[k]
        next += 1
      } else {
        advances[k] += plain[k]
      }
      plain[k] = 0
      half[k] = 0
    }
  }
}
