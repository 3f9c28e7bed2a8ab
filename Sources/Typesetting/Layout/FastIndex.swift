/// Prefix sums over a prepared text's segments, so that measuring at a width finds each line's
/// end by binary search instead of walking every segment.
///
/// Built only for texts whose segments are *plain* (no tabs, no soft hyphens, no white space to
/// trim inside the content) and none narrower than nothing; others take the segment walk of ``GreedyBreaker``. Both give the same lines (tested).
final class FastIndex: Sendable {
  /// x at the end of segment s, trailing white space included.
  let endX: [Double]
  /// x at the end of the content of segment s.
  let contentEndX: [Double]
  /// x at the end of the last non-empty content up to segment s (or -1 before any).
  let lastContentEndX: [Double]
  /// The first segment at or after s that ends with a forced break (or the segment count).
  let nextForced: [Int32]
  /// Every line box is the same (fixed line height, or no font taller than the strut).
  let uniformBox: Bool
  let boxHeight: Double
  let wraps: Bool
  let breakWords: Bool
  let spacing: Double

  init?(_ p: PreparedText) {
    let n = p.segmentEnd.count
    var endX = [Double](repeating: 0, count: n)
    var contentEndX = [Double](repeating: 0, count: n)
    var lastContentEndX = [Double](repeating: -1, count: n)
    var nextForced = [Int32](repeating: Int32(n), count: n)
    var x = 0.0
    var last = -1.0
    var mask: UInt64 = 0
    for s in 0..<n {
      let flags = p.segmentFlags[s]
      if flags & (PreparedText.SegmentFlag.hasTab | PreparedText.SegmentFlag.softHyphen) != 0 {
        return nil
      }
      // The binary search needs x to grow along the text; negative letter spacing can make a
      // segment narrower than nothing.
      if p.segmentContent[s] < 0 || p.segmentTrailing[s] < 0 { return nil }
      let hasContent = p.segmentContentEnd[s] > (s == 0 ? 0 : p.segmentEnd[s - 1])
      if hasContent && flags & PreparedText.SegmentFlag.plain == 0 { return nil }
      contentEndX[s] = x + p.segmentContent[s]
      if hasContent { last = contentEndX[s] }
      lastContentEndX[s] = last
      x = contentEndX[s] + p.segmentTrailing[s]
      endX[s] = x
      mask |= p.segmentFonts[s]
    }
    var next = Int32(n)
    for s in stride(from: n - 1, through: 0, by: -1) {
      if p.segmentFlags[s] & PreparedText.SegmentFlag.forcedBreak != 0 { next = Int32(s) }
      nextForced[s] = next
    }
    self.endX = endX
    self.contentEndX = contentEndX
    self.lastContentEndX = lastContentEndX
    self.nextForced = nextForced
    let strut = p.lineBox(fonts: 0)
    let all = p.lineBox(fonts: mask)
    uniformBox = strut == all
    boxHeight = strut.height
    let ws = p.style.whiteSpace
    wraps = ws == .normal || ws == .preWrap
    breakWords = p.style.overflowWrap != .normal
    spacing = p.style.profile == .apple ? p.style.lineSpacing : 0
  }

  /// Lines, height and widest line at `width`, or nil when a segment needs breaking between
  /// graphemes (the caller then walks the segments).
  func measure(_ p: PreparedText, width: Double) -> (lines: Int, height: Double, widest: Double)? {
    let n = endX.count
    let limit = width + 1.0 / 512.0
    var lines = 0
    var height = 0.0
    var widest = 0.0
    var a = 0
    var base = 0.0
    return contentEndX.withUnsafeBufferPointer { contentEnd in
      while a < n {
        let limitX = base + limit
        let hi = min(Int(nextForced[a]), n - 1)
        var s: Int
        if !wraps {
          // No soft wraps: the line runs to the next forced break, however wide.
          s = hi
        } else if contentEnd[a] > limitX {
          if breakWords && p.segmentContent[a] > 0 { return nil }
          s = a
        } else {
          // The last segment in [a, hi] whose content ends within the line.
          var lo = a
          var up = hi
          while lo < up {
            let mid = (lo + up + 1) >> 1
            if contentEnd[mid] <= limitX { lo = mid } else { up = mid - 1 }
          }
          s = lo
        }
        if lines > 0 { height += spacing }
        if uniformBox {
          height += boxHeight
        } else {
          var m: UInt64 = 0
          for k in a...s { m |= p.segmentFonts[k] }
          height += p.lineBox(fonts: m).height
        }
        let w = max(0, lastContentEndX[s] - base)
        widest = max(widest, p.snap(w))
        lines += 1
        a = s + 1
        base = endX[s]
      }
      return (lines, height, widest)
    }
  }
}
