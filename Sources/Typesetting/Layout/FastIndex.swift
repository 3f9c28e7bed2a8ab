/// Prefix sums over a prepared text's segments, so that measuring at a width finds each line's
/// end by a search instead of walking every segment, and a text that fits on one line is
/// answered without touching the arrays at all.
///
/// Built only for texts without tabs or soft hyphens, whose content holds no white space that
/// reported widths leave out (zero-width spaces aside), and with no segment narrower than
/// nothing; others take the segment walk of ``GreedyBreaker``. Both give the same lines (tested
/// on the whole corpus at many widths).
struct FastIndex: Sendable {
  /// What the search reads of a segment: 16 bytes, four to a cache line.
  struct Span {
    /// x at the end of the segment's content.
    var contentEnd: Double
    /// x at the end of the segment, trailing white space included.
    var end: Double
  }

  let spans: [Span]
  /// Per segment: x at the end of the last non-empty content up to it — empty when every
  /// segment has content (it is then the segment's own content end).
  let lastContent: [Double]
  /// Per segment: the first segment at or after it that ends with a forced break (or the
  /// count) — empty when there is none.
  let nextForced: [Int32]
  /// Per segment: the fonts it uses (bit i: font i of the stack) — empty when every line box is
  /// the same.
  let fonts: [UInt32]
  /// No forced break anywhere: one line whenever the content fits.
  let noForcedBreak: Bool
  /// x at the end of the whole text's content, and of its last non-empty content.
  let totalContentEnd: Double
  let totalLastContentEnd: Double
  /// Every line box is the same (fixed line height, or no font taller than the strut).
  let uniformBox: Bool
  let boxHeight: Double
  let wraps: Bool
  let breakWords: Bool
  let spacing: Double
  /// The browser profile snaps reported widths to 1/64 px.
  let snapsWidths: Bool
  /// Height of a single line holding every segment (for the one-line answer).
  let singleLineHeight: Double
  /// Segments per point of line, on average (to guess where a line ends).
  let segmentsPerPoint: Double

  init?(_ p: PreparedText) {
    let n = p.segmentEnd.count
    var spans: [Span] = []
    var lastContent: [Double] = []  // (or -1 before any content)
    var fonts: [UInt32] = []
    spans.reserveCapacity(n)
    lastContent.reserveCapacity(n)
    fonts.reserveCapacity(n)
    var x = 0.0
    var last = -1.0
    var mask: UInt64 = 0
    var allContent = true
    for s in 0..<n {
      let flags = p.segmentFlags[s]
      if flags & (PreparedText.SegmentFlag.hasTab | PreparedText.SegmentFlag.softHyphen) != 0 {
        return nil
      }
      // The search needs x to grow along the text; negative letter spacing can make a segment
      // narrower than nothing.
      if p.segmentContent[s] < 0 || p.segmentTrailing[s] < 0 { return nil }
      var hasContent = p.segmentContentEnd[s] > (s == 0 ? 0 : p.segmentEnd[s - 1])
      if hasContent && flags & PreparedText.SegmentFlag.plain == 0 {
        // White space inside the content that reported widths leave out: harmless when it has
        // no width (a zero-width space), and then a segment made only of it has no content.
        var visible = false
        for g in Int(s == 0 ? 0 : p.segmentEnd[s - 1])..<Int(p.segmentContentEnd[s]) {
          if p.graphemeFlags[g] & PreparedText.GraphemeFlag.reportWhitespace == 0 {
            visible = true
          } else if p.graphemeAdvance[g] != 0 {
            return nil
          }
        }
        hasContent = visible
      }
      if !hasContent { allContent = false }
      let contentEnd = x + p.segmentContent[s]
      if hasContent { last = contentEnd }
      x = contentEnd + p.segmentTrailing[s]
      // (A stack of more than 32 fonts takes the segment walk.)
      guard p.segmentFonts[s] >> 32 == 0 else { return nil }
      spans.append(Span(contentEnd: contentEnd, end: x))
      lastContent.append(last)
      fonts.append(UInt32(p.segmentFonts[s]))
      mask |= p.segmentFonts[s]
    }
    noForcedBreak = !p.segmentFlags.contains { $0 & PreparedText.SegmentFlag.forcedBreak != 0 }
    var nextForced: [Int32] = []
    if !noForcedBreak {
      nextForced = [Int32](repeating: Int32(n), count: n)
      var next = Int32(n)
      for s in stride(from: n - 1, through: 0, by: -1) {
        if p.segmentFlags[s] & PreparedText.SegmentFlag.forcedBreak != 0 { next = Int32(s) }
        nextForced[s] = next
      }
    }
    self.spans = spans
    self.nextForced = nextForced
    self.lastContent = allContent ? [] : lastContent
    totalContentEnd = spans.last?.contentEnd ?? 0
    totalLastContentEnd = max(0, lastContent.last ?? 0)
    let strut = p.lineBox(fonts: 0)
    let all = p.lineBox(fonts: mask)
    uniformBox = strut == all
    self.fonts = uniformBox ? [] : fonts
    boxHeight = strut.height
    let ws = p.style.whiteSpace
    wraps = ws == .normal || ws == .preWrap
    breakWords = p.style.overflowWrap != .normal
    spacing = p.style.profile == .apple ? p.style.lineSpacing : 0
    snapsWidths = p.style.profile == .browser
    singleLineHeight = all.height
    let total = spans.last?.end ?? 0
    segmentsPerPoint = total > 0 ? Double(n) / total : 0
  }

  /// The last index in `[lo, hi]` whose content ends at most at `limitX`, given that `lo`'s does:
  /// gallop from `lo`, then bisect.
  @inline(__always)
  static func search(_ e: UnsafeBufferPointer<Span>, from lo: Int, to hi: Int, _ limitX: Double)
    -> Int
  {
    var lo = lo
    var step = 1
    while lo + step <= hi && e[lo + step].contentEnd <= limitX {
      lo += step
      step <<= 1
    }
    var up = min(hi, lo + step - 1)
    while lo < up {
      let mid = (lo + up + 1) >> 1
      if e[mid].contentEnd <= limitX { lo = mid } else { up = mid - 1 }
    }
    return lo
  }

  @inline(__always)
  func snap(_ w: Double) -> Double {
    snapsWidths && w > 0 ? PreparedText.snapToNext64th(w) : w
  }

  /// Lines, height and widest line at `width`, or nil when a segment needs breaking between
  /// graphemes (the caller then walks the segments).
  func measure(_ p: PreparedText, width: Double) -> (
    lines: Int, height: Double, widest: Double, lastLineWidth: Double
  )? {
    let limit = width + GreedyBreaker.fitTolerance
    // Most short messages fit on one line: answer that from three stored numbers.
    if noForcedBreak && totalContentEnd <= limit && !spans.isEmpty {
      let w = snap(totalLastContentEnd)
      return (1, singleLineHeight, w, w)
    }
    return spans.withUnsafeBufferPointer { e in
      let n = e.count
      var lines = 0
      var height = 0.0
      // Widths are snapped once at the end: snapping never changes which is widest.
      var widest = 0.0
      var last = 0.0
      var a = 0
      var base = 0.0
      // Segments a line holds, as guessed from the text's average: the same for every line.
      let span = Int(max(0, min(Double(n), limit * segmentsPerPoint - 0.5)))
      while a < n {
        let limitX = base + limit
        let hi = noForcedBreak ? n - 1 : min(Int(nextForced[a]), n - 1)
        var s: Int
        if !wraps {
          // No soft wraps: the line runs to the next forced break, however wide.
          s = hi
        } else if e[a].contentEnd > limitX {
          if breakWords && p.segmentContent[a] > 0 { return nil }
          s = a
        } else {
          // The last segment in [a, hi] whose content ends within the line. Segments are of
          // similar widths, so guess from the text's average and step to the answer; gallop and
          // bisect when the guess is far off.
          var g = min(a + span, hi)
          if e[g].contentEnd <= limitX {
            var steps = 0
            while g < hi && e[g + 1].contentEnd <= limitX && steps < 3 {
              g += 1
              steps += 1
            }
            if steps == 3 && g < hi && e[g + 1].contentEnd <= limitX {
              g = FastIndex.search(e, from: g, to: hi, limitX)
            }
          } else {
            var steps = 0
            while g > a && e[g].contentEnd > limitX && steps < 3 {
              g -= 1
              steps += 1
            }
            if e[g].contentEnd > limitX { g = FastIndex.search(e, from: a, to: g, limitX) }
          }
          s = g
        }
        if lines > 0 { height += spacing }
        if uniformBox {
          height += boxHeight
        } else {
          var m: UInt32 = 0
          for k in a...s { m |= fonts[k] }
          height += p.lineBox(fonts: UInt64(m)).height
        }
        last = max(0, (lastContent.isEmpty ? e[s].contentEnd : lastContent[s]) - base)
        widest = max(widest, last)
        lines += 1
        a = s + 1
        base = e[s].end
      }
      return (lines, height, snap(widest), snap(last))
    }
  }
}
