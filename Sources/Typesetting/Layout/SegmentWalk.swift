/// A prepared text's segments as the greedy rule reads them when it has no ``FastIndex``:
/// positions are summed segment by segment from each line's start (x = 0 there), so that a
/// tab's width follows from where it falls on its line, and negative widths (negative letter
/// spacing) stop a line at the first segment that does not fit, as a walk does.
struct SegmentWalk: SegmentIndex {
  let text: PreparedText
  let collapses: Bool
  /// Per segment on the current line: x at its content's end and at its end.
  private var contentEnds: [Double]
  private var ends: [Double]
  /// The current line's first segment, and the content width it starts with when the line
  /// begins inside it (after a part broken by overflow-wrap), else nil.
  private var first = 0
  private var firstContent: Double? = nil
  /// The grapheme where the first segment resumes, and how much of its content broken parts
  /// took before (-1 and 0 when it starts at its start).
  private var resumedAt = -1
  private var consumed = 0.0
  /// The last answer of ``lastBeforeForcedBreak(from:)`` (lines only move forward).
  private var forcedFrom = -1
  private var forced = 0

  init(_ text: PreparedText) {
    self.text = text
    let ws = text.style.whiteSpace
    collapses = ws.collapses
    contentEnds = [Double](repeating: 0, count: text.segmentEnd.count)
    ends = contentEnds
  }

  var count: Int { text.segmentEnd.count }

  mutating func startLine(at a: Int) -> Double {
    if a != first {
      firstContent = nil
      resumedAt = -1
      consumed = 0
    }
    first = a
    // (A line that starts wider: ``PreparedText/startGain(segment:)``.)
    place(a, at: text.startGain(segment: a))
    return 0
  }

  /// Sets the positions of segment `s`, whose content starts at `x`.
  private mutating func place(_ s: Int, at x: Double) {
    let content = s == first ? (firstContent ?? text.segmentContent[s]) : text.segmentContent[s]
    let contentEnd = x + content
    contentEnds[s] = contentEnd
    if text.segmentFlags[s] & PreparedText.SegmentFlag.hasTab != 0 {
      ends[s] = contentEnd + text.trailingWithTabs(segment: s, position: contentEnd)
    } else {
      ends[s] = contentEnd + text.segmentTrailing[s]
    }
  }

  mutating func lastFitting(from a: Int, to hi: Int, limitX: Double) -> Int {
    guard contentEnds[a] <= limitX else { return a - 1 }
    var s = a + 1
    while s <= hi {
      place(s, at: ends[s - 1])
      if contentEnds[s] > limitX { break }
      s += 1
    }
    if text.endAdjustments.isEmpty { return s - 1 }
    // A line that ends where its last glyph kerns with the next loses that kerning
    // (``PreparedText/endAdjustment(segment:)``): while the line so shaped does not fit, the
    // break before is taken.
    var g = s - 1
    while g >= a && contentEnds[g] + text.endAdjustment(segment: g) > limitX { g -= 1 }
    return g
  }

  mutating func lastBeforeForcedBreak(from a: Int) -> Int {
    if forcedFrom < 0 || a > forced {
      var s = a
      while s < count - 1 && text.segmentFlags[s] & PreparedText.SegmentFlag.forcedBreak == 0 {
        s += 1
      }
      forced = s
    }
    forcedFrom = a
    return forced
  }

  func endsWithSoftHyphen(_ s: Int) -> Bool {
    text.segmentFlags[s] & PreparedText.SegmentFlag.softHyphen != 0
  }

  static var mayHang: Bool { true }
  func endHang(_ s: Int) -> Double { text.endHang(segment: s) }

  /// The visible part of segment `s`'s content on the current line (x from the line's start).
  private func visible(_ s: Int) -> (startX: Double, endX: Double)? {
    let a = s == first && resumedAt >= 0 ? resumedAt : text.segmentStart(s)
    let t = Int(text.segmentContentEnd[s])
    guard a < t else { return nil }
    let start = s == first ? 0 : ends[s - 1]
    if text.segmentFlags[s] & PreparedText.SegmentFlag.plain != 0 {
      return (start, contentEnds[s])
    }
    guard let v = text.visiblePart(a, t, from: start, to: contentEnds[s]) else { return nil }
    return (v.startX, v.endX)
  }

  func lastVisibleEnd(from a: Int, through s: Int, base: Double) -> Double {
    // (A space split from its marks by the break after it counts as visible; the marks, in
    // the next segment, are visible too: only the last segment's counts.)
    if text.segmentFlags[s] & PreparedText.SegmentFlag.splitCluster != 0 { return ends[s] }
    var k = s
    while k >= a {
      if let v = visible(k) { return v.endX }
      k -= 1
    }
    return -.infinity
  }

  func lineWidth(from a: Int, through g: Int, base: Double, resume: Int) -> Double {
    var startX = 0.0
    if collapses {
      var k = a
      while k <= g && visible(k) == nil { k += 1 }
      guard k <= g, let v = visible(k) else { return 0 }
      startX = v.startX
    }
    let end = lastVisibleEnd(from: a, through: g, base: base)
    guard end != -.infinity else { return 0 }
    return max(0, end + text.endAdjustment(segment: g) - startX)
  }

  mutating func brokenLine(segment a: Int, limit: Double, base: inout Double, resume: inout Int)
    -> BrokenPart?
  {
    guard
      let part = text.breakInside(
        segment: a, resume: resume, limit: limit, collapses: collapses, nonNegative: false)
    else { return nil }
    if !part.isRest {
      // The rest starts the next line, as wide as the segment's content less what was taken.
      consumed += part.advance
      resume = part.end
      resumedAt = part.end
      // (Wider when it starts inside a ligature.)
      firstContent = max(0, text.segmentContent[a] - consumed) + part.nextStartGain
      place(a, at: 0)
      return BrokenPart(end: part.end, width: part.width)
    }
    // All that is left fits: the line goes on with it, as wide as its graphemes' advances
    // (wider when it starts inside a ligature).
    resume = part.from
    resumedAt = part.from
    firstContent = part.advance + part.startGain
    place(a, at: 0)
    return nil
  }
}

/// A part of a segment's content that overflow-wrap breaks between graphemes
/// (``PreparedText/breakInside(segment:resume:limit:collapses:nonNegative:)``): graphemes
/// `[from, end)`, their advance in the paragraph, the part's reported width, whether it is all
/// that is left of the content, and what a part that starts inside a ligature gains there
/// (``LigatureSplits``).
struct BrokenInside {
  var from: Int
  var end: Int
  var advance: Double
  var width: Double
  var isRest: Bool
  var startGain = 0.0
  /// What the part after it gains at its start: it ends inside a ligature, and the next starts
  /// with the ligature's rest (``LigatureSplits/Split/startGain``; 0 for other parts).
  var nextStartGain = 0.0
}

extension PreparedText {
  /// The first grapheme of segment `s`.
  func segmentStart(_ s: Int) -> Int { s == 0 ? 0 : Int(segmentEnd[s - 1]) }

  /// Whether grapheme `g` (after the first) starts a segment, `segmentEnds` being one past each
  /// segment's last grapheme.
  static func startsSegment(_ g: Int, segmentEnds: [Int32]) -> Bool {
    var lo = 0
    var hi = segmentEnds.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if Int(segmentEnds[mid]) < g { lo = mid + 1 } else { hi = mid }
    }
    return lo < segmentEnds.count && Int(segmentEnds[lo]) == g
  }

  /// The next part of segment `s`'s content, from grapheme `resume` (-1: its start), when it is
  /// broken between grapheme clusters (overflow-wrap): at least one grapheme, then as many as
  /// fit within `limit`. Gives where it starts and ends, its advance, its reported width, and
  /// whether it is the rest of the content (all that is left fits); nil when nothing is left.
  /// A part that starts inside a ligature starts wider: its first graphemes are as wide as on
  /// their own, `startGain` more than in the paragraph (``LigatureSplits``; 0 for other parts;
  /// `width` includes it).
  /// `nonNegative`: no grapheme advance is negative (sums then only grow, and four can be
  /// tried at a time).
  func breakInside(
    segment s: Int, resume: Int, limit: Double, collapses: Bool, nonNegative: Bool
  ) -> BrokenInside? {
    let from = resume >= 0 ? resume : segmentStart(s)
    let t = Int(segmentContentEnd[s])
    guard from < t else { return nil }
    if _slowPath(graphemeFlags[from] & GraphemeFlag.ligatureTail != 0) {
      return partAfterLigatureStart(
        segment: s, from: from, t: t, limit: limit, collapses: collapses, nonNegative: nonNegative)
    }
    return part(
      segment: s, from: from, t: t, limit: limit, collapses: collapses, nonNegative: nonNegative)
  }

  /// ``breakInside(segment:resume:limit:collapses:nonNegative:)``'s part when it starts inside a
  /// ligature: as wide as its first graphemes on their own make it.
  @inline(never)
  private func partAfterLigatureStart(
    segment s: Int, from: Int, t: Int, limit: Double, collapses: Bool, nonNegative: Bool
  ) -> BrokenInside {
    let gain = ligatureStartGain(from)
    var part = part(
      segment: s, from: from, t: t, limit: limit - gain, collapses: collapses,
      nonNegative: nonNegative)
    part.startGain = gain
    part.width += gain
    return part
  }

  /// The part of segment `s`'s content `[from, t)` from `from` (where no ligature splits it)
  /// that fits within `limit`: ``breakInside(segment:resume:limit:collapses:nonNegative:)``.
  private func part(
    segment s: Int, from: Int, t: Int, limit: Double, collapses: Bool, nonNegative: Bool
  ) -> BrokenInside {
    // Advances alone first (the long words this breaks run to dozens of graphemes).
    let (k, w) = graphemeAdvance.withUnsafeBufferPointer { advance -> (Int, Double) in
      var k = from
      var w = 0.0
      if k < t {
        w = advance[k]
        k += 1
      }
      // Four at a time while the fourth fits: with no negative advance the sums grow, so the
      // three before it fit too.
      while nonNegative && k &+ 4 <= t {
        let w4 = w + advance[k] + advance[k &+ 1] + advance[k &+ 2] + advance[k &+ 3]
        if w4 > limit { break }
        w = w4
        k &+= 4
      }
      while k < t {
        let next = w + advance[k]
        if next > limit { break }
        w = next
        k += 1
      }
      return (k, w)
    }
    // Where the line's end, shaped on its own, may differ from the paragraph: after a kerned
    // grapheme, inside a ligature, or at the end of the segment where that end gains.
    let special = graphemeFlags.withUnsafeBufferPointer { flags in
      k < t
        ? k > from && flags[k &- 1] & GraphemeFlag.kernedEnd != 0
          || (flags[k] | (k &+ 1 < t ? flags[k &+ 1] : 0)) & GraphemeFlag.ligatureTail != 0
        : !endAdjustments.isEmpty && endAdjustments[s] > 0
    }
    if _slowPath(special) {
      return endInsideWord(segment: s, from: from, end: k, t: t, advance: w, limit: limit, collapses)
    }
    return widthInside(segment: s, from: from, end: k, t: t, advance: w, gain: 0, collapses)
  }

  /// ``breakInside(segment:resume:limit:collapses:nonNegative:)``'s part `[from, end)`
  /// when the line's end, shaped on its own, may be wider or narrower than in the paragraph:
  /// the grapheme that does not fit starts a ligature (a break inside it is tried first, its end
  /// shaped on its own, ``LigatureSplits``), or the last that fits is kerned with the next
  /// (``lineEndGain(before:)``; at the segment's end, ``endAdjustment(segment:)``); when the end
  /// so shaped does not fit, the break before is taken.
  @inline(never)
  private func endInsideWord(
    segment s: Int, from: Int, end k: Int, t: Int, advance w: Double, limit: Double,
    _ collapses: Bool
  ) -> BrokenInside {
    // An end shaped again from x `safe` to x `end` (from the line's start) fits as Chromium
    // checks it: in its layout units (1/64 px, positions rounded up), without the tolerance of
    // positions.
    func units(_ x: Double) -> Double { PreparedText.upTo64th(x) }
    let lineEnd = units(limit - PreparedText.fitTolerance)
    func fits(from safe: Double, to end: Double) -> Bool { end - safe <= lineEnd - units(safe) }
    var (end, advance) = (k, w)
    let tail = GraphemeFlag.ligatureTail
    if k < t && (graphemeFlags[k] & tail != 0 || k &+ 1 < t && graphemeFlags[k &+ 1] & tail != 0) {
      // The ligature the line's end falls in (its first grapheme came first on the line, and
      // its others start where it does) or that starts after the line's last grapheme:
      // Chromium's candidate is the ligature's last grapheme, then each break before it.
      let h = graphemeFlags[k] & tail != 0 ? ligatureHead(of: k) : k
      if h >= from {
        let before = w - graphemeAdvance[h..<k].reduce(0, +)
        let last = min(ligatureEnd(after: h), t) - 1
        var chosen: (end: Int, split: LigatureSplits.Split)? = nil
        var b = last
        while b > h && chosen == nil {
          if let split = ligatureSplit(b),
            fits(from: before, to: before + graphemeAdvance[h..<b].reduce(0, +) + split.endGain)
          {
            chosen = (b, split)
          }
          b -= 1
        }
        // (None fits and the ligature starts the line: the line holds the candidate.)
        if chosen == nil && h == from, let split = ligatureSplit(last) { chosen = (last, split) }
        if let (b, split) = chosen {
          var part = widthInside(
            segment: s, from: from, end: b, t: t,
            advance: before + graphemeAdvance[h..<b].reduce(0, +), gain: split.endGain, collapses)
          part.nextStartGain = split.startGain
          return part
        }
        // Else the line ends before the ligature.
        if h > from { (end, advance) = (h, before) }
      }
    }
    // (All that is left fits, but for what the segment's end gains: ``LineEndKerning``.)
    var gain = end >= t ? endAdjustment(segment: s) : lineEndGain(before: end)
    while gain > 0 && !fits(from: advance - graphemeAdvance[end - 1], to: advance + gain)
      && end - 1 > from
    {
      end -= 1
      advance = graphemeAdvance[from..<end].reduce(0, +)
      gain = lineEndGain(before: end)
    }
    return widthInside(segment: s, from: from, end: end, t: t, advance: advance, gain: gain, collapses)
  }

  /// ``breakInside(segment:resume:limit:collapses:nonNegative:)``'s part `[from, end)` of
  /// segment `s` (whose content ends at `t`), `advance` wide in the paragraph and `gain` wider
  /// at its end: its reported width.
  private func widthInside(
    segment s: Int, from: Int, end k: Int, t: Int, advance w: Double, gain: Double,
    _ collapses: Bool
  ) -> BrokenInside {
    // Content without white space of the trim set is visible from end to end; otherwise the
    // visible part's start is summed forward and its end taken back from the part's advance.
    var width = w
    if segmentFlags[s] & SegmentFlag.plain == 0 {
      width = 0
      if let visible = visiblePart(from, k, from: 0, to: w) {
        width = max(0, visible.endX - (collapses ? visible.startX : 0))
      }
    }
    return BrokenInside(from: from, end: k, advance: w, width: width + gain, isRest: k >= t)
  }

  /// The visible part of graphemes `[a, t)` set from x `start` to x `end`: the white space of
  /// the trim set at either end left out (reported widths leave it out), its start x summed
  /// forward from `start`, its end x taken back from `end`; nil when all of it is such white
  /// space.
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

  /// The advance of a tab at `position` on its line (``TabStops``).
  func tabAdvance(at position: Double) -> Double {
    TabStops.advance(
      at: position, space: spaceAdvance, tabSize: style.tabSize,
      letterSpacing: style.letterSpacing)
  }
}
