extension PreparedText {
  /// A line found by the greedy breaker, in graphemes.
  struct RawLine {
    var start: Int  // first grapheme
    var end: Int  // one past the last grapheme placed on the line (trailing spaces included)
    var width: Double  // reported width
    var fonts: UInt64
    var reportStart: Int  // first grapheme that counts for the reported start
    var visibleEnd: Int  // one past the last visible grapheme
  }

  /// Lays the text out in lines no wider than `width` (greedy, as browsers and TextKit do).
  ///
  /// - Throws: ``TypesettingError/invalidWidth(_:)`` for a NaN, infinite, zero or negative width.
  /// - Complexity: O(s + l) for s segments and l lines; pure arithmetic, no shaping.
  public func layout(width: Double) throws -> TextLayout {
    guard width.isFinite, width > 0 else { throw TypesettingError.invalidWidth(width) }
    var raw = breakLines(width: width)
    var truncated = false
    var ellipsisOffset: Double? = nil
    var visibleEnd = Int(source[source.count - 1])
    if let maxLines = style.maxLines, maxLines > 0, raw.count > maxLines {
      truncated = true
      let t = truncate(raw, maxLines: maxLines, width: width)
      raw = t.lines
      ellipsisOffset = t.ellipsisOffset
      visibleEnd = t.visibleEnd
    }
    return makeLayout(
      raw, width: width, truncated: truncated, visibleEnd: visibleEnd,
      ellipsisOffset: ellipsisOffset)
  }

  /// Number of lines and height at `width`, without building line records.
  /// - Complexity: O(s) for s segments.
  public func measure(width: Double) throws -> (lines: Int, height: Double, widest: Double) {
    let l = try layout(width: width)
    return (l.lineCount, l.height, l.widest)
  }

  // MARK: - Greedy breaking

  @inline(__always)
  private func isFlag(_ g: Int, _ flag: UInt8) -> Bool { graphemeFlags[g] & flag != 0 }

  func tabAdvance(at position: Double) -> Double {
    let base = Double(style.tabSize) * spaceAdvance
    guard base > 0 else { return style.letterSpacing }
    var distance = base - position.truncatingRemainder(dividingBy: base)
    if distance < spaceAdvance / 2 { distance += base }
    return distance
  }

  /// Width of the trailing white space of a segment that holds tabs, starting at `position`:
  /// the part up to the last tab (which does not hang) and the hanging rest.
  func trailingWithTabs(segment s: Int, position: Double) -> (fixed: Double, hanging: Double) {
    var pos = position
    var fixedEnd = position
    for g in Int(segmentContentEnd[s])..<Int(segmentEnd[s]) {
      if isFlag(g, GraphemeFlag.tab) {
        pos += tabAdvance(at: pos)
        fixedEnd = pos
      } else {
        pos += graphemeAdvance[g]
      }
    }
    return (fixedEnd - position, pos - fixedEnd)
  }

  func breakLines(width: Double) -> [RawLine] {
    let wraps = style.whiteSpace == .normal || style.whiteSpace == .preWrap
    let breakWords = style.overflowWrap != .normal
    let collapse = style.whiteSpace == .normal || style.whiteSpace == .nowrap
    // Positions snap to 1/64 px in Chromium; a tolerance below that absorbs float noise.
    let limit = width + 1.0 / 512.0
    var lines: [RawLine] = []
    let segCount = segmentEnd.count
    if segCount == 0 { return lines }

    var x = 0.0
    var lineStart = 0
    var lineEmpty = true
    var fonts: UInt64 = 0
    var reportStartX: Double? = collapse ? nil : 0
    var reportStartG = -1
    var reportEndX: Double? = nil
    var visibleEnd = 0
    var hyphenAtEnd = false

    func endLine(at end: Int) {
      var w = 0.0
      if let e = reportEndX { w = max(0, e - (reportStartX ?? 0)) }
      if hyphenAtEnd { w += hyphenAdvance }
      lines.append(
        RawLine(
          start: lineStart, end: end, width: w, fonts: fonts,
          reportStart: reportStartG >= 0 ? reportStartG : lineStart,
          visibleEnd: max(visibleEnd, lineStart)))
      x = 0
      lineStart = end
      lineEmpty = true
      fonts = 0
      reportStartX = collapse ? nil : 0
      reportStartG = -1
      reportEndX = nil
      visibleEnd = end
      hyphenAtEnd = false
    }

    /// Places graphemes [a, t) of content at x, updating report positions.
    func placeContent(_ a: Int, _ t: Int, width contentWidth: Double) {
      if a < t {
        // Reported extent: skip white space at both ends (usually none).
        var lo = a
        var loX = x
        while lo < t && isFlag(lo, GraphemeFlag.reportWhitespace) {
          loX += graphemeAdvance[lo]
          lo += 1
        }
        if lo < t {
          var hi = t
          var hiX = x + contentWidth
          while hi > lo && isFlag(hi - 1, GraphemeFlag.reportWhitespace) {
            hi -= 1
            hiX -= graphemeAdvance[hi]
          }
          if reportStartX == nil { reportStartX = loX }
          if reportStartG < 0 { reportStartG = lo }
          reportEndX = hiX
          visibleEnd = hi
        }
        if !collapse && reportStartG < 0 { reportStartG = a }
      }
      x += contentWidth
      lineEmpty = false
    }

    var s = 0
    var partial = -1  // grapheme where a segment broken by overflow-wrap resumes
    var consumed = 0.0  // advance of the part of that segment already placed
    while s < segCount {
      let a = partial >= 0 ? partial : (s == 0 ? 0 : Int(segmentEnd[s - 1]))
      let t = Int(segmentContentEnd[s])
      let e = Int(segmentEnd[s])
      let flags = segmentFlags[s]
      // What is left of the segment's content (all of it unless overflow-wrap split it).
      let content = partial >= 0 ? max(0, segmentContent[s] - consumed) : segmentContent[s]
      var fixedTrail = 0.0
      var hangTrail = segmentTrailing[s]
      if flags & SegmentFlag.hasTab != 0 {
        (fixedTrail, hangTrail) = trailingWithTabs(segment: s, position: x + content)
      }
      // Trailing spaces and tabs hang: only the content has to fit.
      let fits = x + content <= limit
      if !wraps || fits || (lineEmpty && !breakWords) {
        placeContent(a, t, width: content)
        fonts |= segmentFonts[s]
        x += fixedTrail + hangTrail
        if reportStartG < 0 && !collapse { reportStartG = a }
        hyphenAtEnd = flags & SegmentFlag.softHyphen != 0
        if flags & SegmentFlag.forcedBreak != 0 {
          hyphenAtEnd = false
          endLine(at: e)
        }
        partial = -1
        s += 1
        continue
      }
      if !lineEmpty {
        endLine(at: a)
        continue
      }
      // Alone on its line and still too wide: break between grapheme clusters (overflow-wrap).
      if content <= limit || a >= t {
        // There is no content to break: place it anyway.
        placeContent(a, t, width: content)
        fonts |= segmentFonts[s]
        x += fixedTrail + hangTrail
        if flags & SegmentFlag.forcedBreak != 0 { endLine(at: e) }
        partial = -1
        s += 1
        continue
      }
      var k = a
      var w = 0.0
      while k < t && (k == a || x + w + graphemeAdvance[k] <= limit) {
        w += graphemeAdvance[k]
        k += 1
      }
      if k >= t {
        // Everything fits once the trailing part is ignored.
        placeContent(a, t, width: w)
        fonts |= segmentFonts[s]
        x += fixedTrail + hangTrail
        if flags & SegmentFlag.forcedBreak != 0 { endLine(at: e) }
        partial = -1
        s += 1
        continue
      }
      placeContent(a, k, width: w)
      for g in a..<k { fonts |= 1 << UInt64(min(Int(graphemeFont[g]), 63)) }
      hyphenAtEnd = false
      endLine(at: k)
      if partial < 0 { consumed = 0 }
      consumed += w
      partial = k
    }
    if !lineEmpty || lineStart < graphemeAdvance.count { endLine(at: graphemeAdvance.count) }
    return lines
  }
}
