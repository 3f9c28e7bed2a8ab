/// Receives the lines found by ``GreedyBreaker``.
protocol LineSink {
  mutating func add(_ line: PreparedText.RawLine)
}

/// First-fit line breaking over a prepared text's segments, as browsers and TextKit do it:
/// a segment goes on the current line when its content fits (trailing spaces and tabs hang);
/// otherwise the line ends before it; a segment alone on its line that is still too wide is
/// broken between grapheme clusters when `overflow-wrap` allows.
///
/// A struct with mutating methods (no closures) so that the hot loop allocates nothing.
struct GreedyBreaker {
  let p: PreparedText
  let wraps: Bool
  let breakWords: Bool
  let collapse: Bool
  let limit: Double

  /// The line being filled.
  struct LineState {
    var x = 0.0  // pen, trailing white space included
    var lineEmpty = true
    var fonts: UInt64 = 0
    var reportStartX = 0.0
    var hasReportStart = false
    var reportStartG = -1
    var reportEndX = 0.0
    var hasReportEnd = false
    var visibleEnd = 0
    var hyphenAtEnd = false
  }
  var line = LineState()
  var lineStart = 0

  /// The line as it was before its last segment, when that segment ends with a soft hyphen: a
  /// break there shows a hyphen, which must fit too.
  struct Snapshot {
    var segment = -1
    var start = 0
    var line = LineState()
  }
  var beforeHyphenated = Snapshot()

  init(_ p: PreparedText, width: Double) {
    self.p = p
    let ws = p.style.whiteSpace
    wraps = ws == .normal || ws == .preWrap
    breakWords = p.style.overflowWrap != .normal
    collapse = ws == .normal || ws == .nowrap
    limit = width + PreparedText.fitTolerance
    line.hasReportStart = !collapse
  }

  mutating func endLine<S: LineSink>(at end: Int, _ sink: inout S) {
    var w = 0.0
    if line.hasReportEnd {
      w = max(0, line.reportEndX - (line.hasReportStart ? line.reportStartX : 0))
    }
    if line.hyphenAtEnd { w += p.hyphenAdvance }
    sink.add(
      PreparedText.RawLine(
        start: lineStart, end: end, width: w, fonts: line.fonts,
        reportStart: line.reportStartG >= 0 ? line.reportStartG : lineStart,
        visibleEnd: max(line.visibleEnd, lineStart), hyphenated: line.hyphenAtEnd))
    lineStart = end
    line = LineState()
    line.hasReportStart = !collapse
    line.visibleEnd = end
  }

  /// Places graphemes [a, t) of content at the pen.
  @inline(__always)
  mutating func placeContent(_ a: Int, _ t: Int, width contentWidth: Double, plain: Bool) {
    if a < t {
      if plain {
        if !line.hasReportStart {
          line.reportStartX = line.x
          line.hasReportStart = true
        }
        if line.reportStartG < 0 { line.reportStartG = a }
        line.reportEndX = line.x + contentWidth
        line.hasReportEnd = true
        line.visibleEnd = t
      } else {
        placeTrimmed(a, t, width: contentWidth)
      }
    }
    line.x += contentWidth
    line.lineEmpty = false
  }

  /// The slow path: content that starts or ends with white space left out of reported widths.
  mutating func placeTrimmed(_ a: Int, _ t: Int, width contentWidth: Double) {
    if let visible = p.visiblePart(a, t, from: line.x, to: line.x + contentWidth) {
      if !line.hasReportStart {
        line.reportStartX = visible.startX
        line.hasReportStart = true
      }
      if line.reportStartG < 0 { line.reportStartG = visible.start }
      line.reportEndX = visible.endX
      line.hasReportEnd = true
      line.visibleEnd = visible.end
    }
    if !collapse && line.reportStartG < 0 { line.reportStartG = a }
  }

  mutating func run<S: LineSink>(_ sink: inout S) {
    let segCount = p.segmentEnd.count
    guard segCount > 0 else { return }
    let plainFlag = PreparedText.SegmentFlag.plain
    var s = 0
    var partial = -1  // grapheme where a segment broken by overflow-wrap resumes
    var consumed = 0.0  // advance of the part of that segment already placed
    while s < segCount {
      let a = partial >= 0 ? partial : (s == 0 ? 0 : Int(p.segmentEnd[s - 1]))
      let t = Int(p.segmentContentEnd[s])
      let flags = p.segmentFlags[s]
      // What is left of the segment's content (all of it unless overflow-wrap split it).
      let content = partial >= 0 ? max(0, p.segmentContent[s] - consumed) : p.segmentContent[s]
      if !wraps || line.x + content <= limit
        || (line.lineEmpty && (!breakWords || content <= limit || a >= t))
      {
        place(s, from: a, content: content, plain: flags & plainFlag != 0 && partial < 0, &sink)
        partial = -1
        s += 1
        continue
      }
      if !line.lineEmpty {
        let snap = beforeHyphenated
        if line.hyphenAtEnd && snap.segment == s - 1 && !snap.line.lineEmpty
          && line.reportEndX + p.hyphenAdvance > limit
        {
          // The hyphen would not fit: break before the hyphenated segment instead.
          line = snap.line
          endLine(at: snap.start, &sink)
          s = snap.segment
          partial = -1
          continue
        }
        endLine(at: a, &sink)
        continue
      }
      // Alone on its line and still too wide: break between grapheme clusters (overflow-wrap).
      var k = a
      var w = 0.0
      while k < t && (k == a || line.x + w + p.graphemeAdvance[k] <= limit) {
        w += p.graphemeAdvance[k]
        k += 1
      }
      if k >= t {
        place(s, from: a, content: w, plain: false, &sink)
        partial = -1
        s += 1
        continue
      }
      placeContent(a, k, width: w, plain: false)
      for g in a..<k { line.fonts |= 1 << UInt64(min(Int(p.graphemeFont[g]), 63)) }
      line.hyphenAtEnd = false
      endLine(at: k, &sink)
      if partial < 0 { consumed = 0 }
      consumed += w
      partial = k
    }
    if !line.lineEmpty || lineStart < p.graphemeAdvance.count {
      line.hyphenAtEnd = false  // the paragraph ends here: no hyphen
      endLine(at: p.graphemeAdvance.count, &sink)
    }
  }

  /// Puts the rest of segment `s` (content from grapheme `a`, then its trailing white space) on
  /// the current line.
  @inline(__always)
  mutating func place<S: LineSink>(
    _ s: Int, from a: Int, content: Double, plain: Bool, _ sink: inout S
  ) {
    let flags = p.segmentFlags[s]
    if flags & PreparedText.SegmentFlag.softHyphen != 0 {
      beforeHyphenated = Snapshot(segment: s, start: a, line: line)
    }
    placeContent(a, Int(p.segmentContentEnd[s]), width: content, plain: plain)
    line.fonts |= p.segmentFonts[s]
    if flags & PreparedText.SegmentFlag.hasTab != 0 {
      line.x += p.trailingWithTabs(segment: s, position: line.x)
    } else {
      line.x += p.segmentTrailing[s]
    }
    if !collapse && line.reportStartG < 0 { line.reportStartG = a }
    line.hyphenAtEnd = flags & PreparedText.SegmentFlag.softHyphen != 0
    if flags & PreparedText.SegmentFlag.forcedBreak != 0 {
      line.hyphenAtEnd = false
      endLine(at: Int(p.segmentEnd[s]), &sink)
    }
  }
}

extension PreparedText {
  /// Collects lines into an array.
  struct LineCollector: LineSink {
    var lines: [RawLine] = []
    mutating func add(_ line: RawLine) { lines.append(line) }
  }

  /// Counts lines and sums their heights without keeping them.
  struct LineMeasurer: LineSink {
    let p: PreparedText
    var count = 0
    var height = 0.0
    var widest = 0.0
    var last = 0.0
    mutating func add(_ line: RawLine) {
      if count > 0 && p.style.profile == .apple { height += p.style.lineSpacing }
      height += p.lineBox(fonts: line.fonts).height
      last = p.snap(line.width)
      widest = max(widest, last)
      count += 1
    }
  }

  func breakLines(width: Double) -> [RawLine] {
    var sink = LineCollector()
    var breaker = GreedyBreaker(self, width: width)
    breaker.run(&sink)
    return sink.lines
  }

  /// The visible part of graphemes `[a, t)` set from x `start` to x `end`: the white space of
  /// the trim set at either end left out (reported widths leave it out), its start x summed
  /// forward from `start`, its end x taken back from `end` (the segment walk and the fast index
  /// find it alike, to the last bit); nil when all of it is such white space.
  func visiblePart(_ a: Int, _ t: Int, from start: Double, to end: Double) -> (
    start: Int, startX: Double, end: Int, endX: Double
  )? {
    let ws = GraphemeFlag.reportWhitespace
    var lo = a
    var loX = start
    while lo < t && graphemeFlags[lo] & ws != 0 {
      loX += graphemeAdvance[lo]
      lo += 1
    }
    guard lo < t else { return nil }
    var hi = t
    var hiX = end
    while hi > lo && graphemeFlags[hi - 1] & ws != 0 {
      hi -= 1
      hiX -= graphemeAdvance[hi]
    }
    return (lo, loX, hi, hiX)
  }

  /// Width of the trailing white space of a segment that holds tabs, starting at `position`.
  func trailingWithTabs(segment s: Int, position: Double) -> Double {
    var pos = position
    for g in Int(segmentContentEnd[s])..<Int(segmentEnd[s]) {
      pos += graphemeFlags[g] & GraphemeFlag.tab != 0 ? tabAdvance(at: pos) : graphemeAdvance[g]
    }
    return pos - position
  }

  func tabAdvance(at position: Double) -> Double {
    let base = Double(style.tabSize) * spaceAdvance
    guard base > 0 else { return style.letterSpacing }
    var distance = base - position.truncatingRemainder(dividingBy: base)
    if distance < spaceAdvance / 2 { distance += base }
    return distance
  }
}
