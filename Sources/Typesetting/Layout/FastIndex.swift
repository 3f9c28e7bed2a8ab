/// Prefix sums over a prepared text's segments, so that measuring at a width finds each line's
/// end from a guess (the text's segments per point) instead of walking every segment, and a
/// text that fits on one line is answered without touching the arrays at all.
///
/// Built for every text without tabs (whose widths depend on where they fall), with no segment
/// narrower than nothing and, where overflow-wrap breaks words, no grapheme narrower than nothing
/// (negative letter spacing); others take the segment walk of ``GreedyBreaker``, and so do
/// widths at which `maxLines` truncates. Both give the same lines, soft hyphens, white space
/// inside words and words broken by overflow-wrap included (tested on the whole corpus at many
/// widths, and on texts made of those at every quarter point of width).
struct FastIndex: Sendable {
  /// What the search reads of a segment: 16 bytes, four to a cache line.
  struct Span {
    /// x at the end of the segment's content.
    var contentEnd: Double
    /// x at the end of the segment, trailing white space included.
    var end: Double
  }

  /// What ``PreparedText`` answers a text that fits on one line from (kept there, next to the
  /// object's header, and not here: measuring reads no more of the object than it must).
  struct OneLine {
    /// x at the end of the whole text's content when one line can hold it all (no forced
    /// break, not empty); infinity otherwise.
    var contentEnd = Double.infinity
    /// Reported width (snapped as the profile snaps it) and height of the text on that line.
    var width = 0.0
    var height = 0.0
  }

  // What measuring reads: four words, which a call passes in registers. (An index of more
  // words is copied out of the text onto the stack at every measure, every field of it read,
  // used or not: 476 instructions and 5.5 first-level cache misses per measure then, 467 and
  // 5.2 with these four.)
  /// Per segment, between two sentinels: one before the first that ends at minus infinity
  /// (read through ``withSums(_:)``, whose pointer starts after it) and one after the last
  /// that ends at infinity, so that walks along the sums need no bounds.
  let spans: [Span]
  /// The number of segments in the low 32 bits (read here, the search's first address is
  /// known as soon as the object is: it does not wait for the count in the array's header),
  /// the flags of ``Flag`` above them.
  let bits: UInt64
  let boxHeight: Double
  /// Segments per point of content, on average (to guess where a line ends).
  let segmentsPerPoint: Double

  enum Flag {
    /// No forced break anywhere: one line whenever the content fits.
    static let noForcedBreak: UInt64 = 1 << 32
    /// The browser profile snaps reported widths to 1/64 px.
    static let snapsWidths: UInt64 = 1 << 33
    /// Every line box is the same (fixed line height, or no font taller than the strut).
    static let uniformBox: UInt64 = 1 << 34
    /// Lines wrap at soft wrap opportunities (white space normal or pre-wrap).
    static let wraps: UInt64 = 1 << 35
    /// overflow-wrap breaks words too wide for the line between graphemes.
    static let breakWords: UInt64 = 1 << 36
    /// White space collapses (reported widths start at a line's first visible content).
    static let collapses: UInt64 = 1 << 37
    /// Some segment's content ends with a soft hyphen (shown when a line breaks after it).
    static let hasSoftHyphens: UInt64 = 1 << 38
    /// Lines wrap, and no soft hyphen, line spacing or side array of visible content is there:
    /// the plain loop of ``measureSimply(_:limit:)`` applies (forced breaks, taller line boxes
    /// and words broken by overflow-wrap included).
    static let isSimple: UInt64 = 1 << 39
    /// The style has `maxLines` (``Side/maxLines``).
    static let limitsLines: UInt64 = 1 << 40
  }

  /// Bytes its array holds.
  var arrayBytes: Int { spans.capacity * MemoryLayout<Span>.stride }

  var count: Int { Int(truncatingIfNeeded: bits & 0xffff_ffff) }
  var noForcedBreak: Bool { bits & Flag.noForcedBreak != 0 }
  var snapsWidths: Bool { bits & Flag.snapsWidths != 0 }
  var uniformBox: Bool { bits & Flag.uniformBox != 0 }
  var wraps: Bool { bits & Flag.wraps != 0 }
  var breakWords: Bool { bits & Flag.breakWords != 0 }
  var collapses: Bool { bits & Flag.collapses != 0 }
  var hasSoftHyphens: Bool { bits & Flag.hasSoftHyphens != 0 }
  var isSimple: Bool { bits & Flag.isSimple != 0 }
  var limitsLines: Bool { bits & Flag.limitsLines != 0 }

  /// What only some texts read (forced breaks, taller line boxes, soft hyphens, line spacing,
  /// white space that reported widths leave out, `maxLines`), kept in ``PreparedText`` apart
  /// from the index: the index's four words are what every measure reads.
  struct Side: Sendable {
    /// Bytes its arrays hold.
    var arrayBytes: Int {
      nextForced.capacity * 4 + fonts.capacity * 4 + lastContent.capacity * 8
        + firstVisible.capacity * 8
    }

    /// Per segment: the first segment at or after it that ends with a forced break (or the
    /// count) — empty when there is none.
    var nextForced: [Int32] = []
    /// Per segment: the fonts it uses that raise a line box above the strut (bit i: font i of
    /// the stack; the others leave it as it is) — empty when every line box is the same.
    var fonts: [UInt32] = []
    /// Per segment: x at the end of the last visible content up to it (white space that
    /// reported widths leave out is not visible; -1 before any) — empty when that is always
    /// the segment's own content end.
    var lastContent: [Double] = []
    /// Per segment, when lines collapse white space: x where the first visible content at or
    /// after the segment's start begins (the reported width of a line starts there; infinity
    /// when there is none) — empty when that is always the segment's start.
    var firstVisible: [Double] = []
    /// The fonts of the stack that raise a line box above the strut.
    var tallFonts: UInt32 = 0
    var spacing = 0.0
    var hyphenAdvance = 0.0
    /// `maxLines` of the style (0: no limit): more lines than that is truncation, not ours.
    var maxLines = 0
  }

  /// The index of `p`, whose one-line numbers are written to `oneLine` and the rest to `side`
  /// (nil when the text needs the segment walk; `oneLine` and `side` are then left as they are).
  init?(_ p: PreparedText, oneLine: inout OneLine, side: inout Side) {
    let n = p.segmentEnd.count
    // (The count is kept in 32 bits: a text of 2^32 segments, 20 GB or more, takes the walk.)
    guard n <= 0xffff_ffff else { return nil }
    // (Index k + 1 for segment k: the first span is a sentinel.)
    var spans: [Span] = []
    spans.reserveCapacity(n + 2)
    spans.append(Span(contentEnd: -.infinity, end: 0))
    // The side arrays are made only when some segment needs them (filled in for the segments
    // before it then): most texts need neither.
    var lastContent: [Double] = []
    var firstVisible: [Double] = []
    var x = 0.0
    var last = -1.0
    var firstSeen = Double.infinity
    var mask: UInt64 = 0
    var lastIsContentEnd = true
    var firstIsStart = true
    var softHyphens = false
    let whiteSpace = p.style.whiteSpace
    let collapse = whiteSpace == .normal || whiteSpace == .nowrap
    // Breaking a word between graphemes walks their advances, which the segment walk clamps
    // in ways a prefix sum cannot follow when some are negative (negative letter spacing).
    if p.style.overflowWrap != .normal && p.graphemeAdvance.contains(where: { $0 < 0 }) {
      return nil
    }
    for s in 0..<n {
      let flags = p.segmentFlags[s]
      // A tab's width depends on where it falls: the segment walk places it.
      if flags & PreparedText.SegmentFlag.hasTab != 0 { return nil }
      if flags & PreparedText.SegmentFlag.softHyphen != 0 { softHyphens = true }
      // The search needs x to grow along the text; negative letter spacing can make a segment
      // narrower than nothing.
      if p.segmentContent[s] < 0 || p.segmentTrailing[s] < 0 { return nil }
      // (A stack of more than 32 fonts takes the segment walk.)
      guard p.segmentFonts[s] >> 32 == 0 else { return nil }
      let start = x
      let contentEnd = x + p.segmentContent[s]
      let a = Int(s == 0 ? 0 : p.segmentEnd[s - 1])
      let t = Int(p.segmentContentEnd[s])
      // The visible part of the content, as the segment walk finds it: white space of the trim
      // set at either end of it is left out of reported widths.
      var first = Double.infinity
      if a < t && flags & PreparedText.SegmentFlag.plain != 0 {
        first = start
        last = contentEnd
      } else if a < t, let visible = p.visiblePart(a, t, from: start, to: contentEnd) {
        first = visible.startX
        last = visible.endX
      }
      if last != contentEnd && lastIsContentEnd {
        lastIsContentEnd = false
        lastContent.reserveCapacity(n)
        for k in 0..<s { lastContent.append(spans[k + 1].contentEnd) }
      }
      if !lastIsContentEnd { lastContent.append(last) }
      if collapse {
        if first != start && firstIsStart {
          firstIsStart = false
          firstVisible.reserveCapacity(n)
          // (spans[k] is segment k - 1; the first sentinel ends at 0.)
          for k in 0..<s { firstVisible.append(spans[k].end) }
        }
        if !firstIsStart { firstVisible.append(first) }
      }
      firstSeen = min(firstSeen, first)
      x = contentEnd + p.segmentTrailing[s]
      spans.append(Span(contentEnd: contentEnd, end: x))
      mask |= p.segmentFonts[s]
    }
    // firstVisible[s]: the first visible start at or after segment s.
    var next = Double.infinity
    for s in stride(from: firstVisible.count - 1, through: 0, by: -1) {
      if firstVisible[s] < next { next = firstVisible[s] }
      firstVisible[s] = next
    }
    let noForcedBreak = !p.segmentFlags.contains {
      $0 & PreparedText.SegmentFlag.forcedBreak != 0
    }
    var nextForced: [Int32] = []
    if !noForcedBreak {
      nextForced = [Int32](filling: Int32(n), count: n)
      var next = Int32(n)
      for s in stride(from: n - 1, through: 0, by: -1) {
        if p.segmentFlags[s] & PreparedText.SegmentFlag.forcedBreak != 0 { next = Int32(s) }
        nextForced[s] = next
      }
    }
    let lastContentEnd = spans[n].contentEnd
    spans.append(Span(contentEnd: .infinity, end: .infinity))
    self.spans = spans
    // (With collapsing, the first visible start of the whole text; the last segment's last
    // visible content end, -1 before any.)
    let reportStart = collapse && n > 0 ? firstSeen : 0
    let singleLineWidth = max(0, (n > 0 ? last : 0) - reportStart)
    let strut = p.lineBox(fonts: 0)
    let all = p.lineBox(fonts: mask)
    let uniformBox = strut == all
    var tall: UInt32 = 0
    if !uniformBox {
      for f in 0..<min(32, p.fontAscent.count) where p.raisesLineBox(font: f) { tall |= 1 << f }
    }
    boxHeight = strut.height
    let wraps = whiteSpace == .normal || whiteSpace == .preWrap
    let spacing = p.style.profile == .apple ? p.style.lineSpacing : 0
    let snapsWidths = p.style.profile == .browser
    let maxLines = max(0, p.style.maxLines ?? 0)
    segmentsPerPoint = lastContentEnd > 0 ? Double(n) / lastContentEnd : 0
    let isSimple =
      wraps && !softHyphens && spacing == 0 && lastContent.isEmpty && firstVisible.isEmpty
    var bits = UInt64(n)
    if noForcedBreak { bits |= Flag.noForcedBreak }
    if snapsWidths { bits |= Flag.snapsWidths }
    if uniformBox { bits |= Flag.uniformBox }
    if wraps { bits |= Flag.wraps }
    if p.style.overflowWrap != .normal { bits |= Flag.breakWords }
    if collapse { bits |= Flag.collapses }
    if softHyphens { bits |= Flag.hasSoftHyphens }
    if isSimple { bits |= Flag.isSimple }
    if maxLines > 0 { bits |= Flag.limitsLines }
    self.bits = bits
    side = Side(
      nextForced: nextForced,
      fonts: uniformBox ? [] : p.segmentFonts.map { UInt32(truncatingIfNeeded: $0) & tall },
      lastContent: lastContent, firstVisible: firstVisible, tallFonts: tall, spacing: spacing,
      hyphenAdvance: p.hyphenAdvance, maxLines: maxLines)
    oneLine = OneLine(
      contentEnd: noForcedBreak && n > 0 ? lastContentEnd : .infinity,
      width: snap(singleLineWidth), height: all.height)
  }

  /// `body` with a pointer to the first segment's span (the sentinels at -1 and at the count).
  @inline(__always)
  func withSums<R>(_ body: (UnsafePointer<Span>) -> R) -> R {
    spans.withUnsafeBufferPointer { body($0.baseAddress.unsafelyUnwrapped + 1) }
  }

  /// The last segment in `[a, hi]` whose content ends within `limitX` (`a` when none does), for
  /// the general loop of ``measure(_:width:)``: a few steps from the guess, or gallop and
  /// bisect when the guess is far off.
  @inline(__always)
  static func lastFitting(
    _ e: UnsafePointer<Span>, from a: Int, to hi: Int, guess: Int, _ limitX: Double
  ) -> Int {
    var g = min(guess, hi)
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
    return g
  }

  /// The last index in `[lo, hi]` whose content ends at most at `limitX`, given that `lo`'s does:
  /// gallop from `lo`, then bisect.
  @inline(__always)
  static func search(_ e: UnsafePointer<Span>, from lo: Int, to hi: Int, _ limitX: Double)
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

  /// ``measure(_:width:)`` for a simple text (see ``isSimple``): nil when `maxLines` truncates.
  @inline(__always)
  func measureSimply(_ p: PreparedText, limit: Double) -> (
    lines: Int, height: Double, widest: Double, lastLineWidth: Double
  )? {
    withSums { e in
      let n = count
      let span = Int(max(0, min(Double(n), limit * segmentsPerPoint - 1)))
      // (More lines than this is truncation: `maxLines`, or no limit.)
      let lineLimit = limitsLines ? p.fastSide.maxLines : Int.max
      let breakWords = self.breakWords
      let boxHeight = self.boxHeight
      var lines = 0
      var height = 0.0
      var widest = 0.0
      var last = 0.0
      var a = 0
      var base = 0.0
      if noForcedBreak && uniformBox {
        // The most common case, in a loop of its own: no forced break to stop at, no font to
        // look at (nor a limit on lines but at the end: more lines than `maxLines` is nil
        // either way).
        while a < n {
          let limitX = base + limit
          // The line's end: from the guess, a walk to the last segment that fits (the
          // sentinels stop it; segments before `a` end before `base`).
          var g = min(a &+ span, n &- 1)
          if e[g].contentEnd <= limitX {
            while e[g &+ 1].contentEnd <= limitX { g &+= 1 }
          } else {
            repeat { g &-= 1 } while e[g].contentEnd > limitX
            if g < a {
              // The line's first segment does not fit: alone on its line, or broken between
              // graphemes by the loop below (which goes on from here).
              if breakWords { break }
              g = a
            }
          }
          height += boxHeight
          last = e[g].contentEnd - base
          widest = last > widest ? last : widest
          lines &+= 1
          a = g &+ 1
          base = e[g].end
        }
        if a == n {
          if lines > lineLimit { return nil }
          return (lines, height, snap(widest), snap(last))
        }
      }
      // The other cases, each in a copy of the loop of its own (the flags are constants in
      // each: 4% fewer instructions than one copy that tests them).
      let state = (a: a, base: base, lines: lines, height: height, widest: widest, last: last)
      switch (noForcedBreak, uniformBox) {
      case (true, true):
        return simpleLoop(e, p, limit, span, lineLimit, state, forced: false, uniform: true)
      case (true, false):
        return simpleLoop(e, p, limit, span, lineLimit, state, forced: false, uniform: false)
      case (false, true):
        return simpleLoop(e, p, limit, span, lineLimit, state, forced: true, uniform: true)
      case (false, false):
        return simpleLoop(e, p, limit, span, lineLimit, state, forced: true, uniform: false)
      }
    }
  }

  /// The plain loop of ``measureSimply(_:limit:)`` from `state` (the line that starts at
  /// segment `a`, at x `base`, after `lines` lines): forced breaks when `forced`, one line box
  /// for all when `uniform`, and words too wide for the line broken between graphemes.
  @inline(__always)
  func simpleLoop(
    _ e: UnsafePointer<Span>, _ p: PreparedText, _ limit: Double, _ span: Int,
    _ lineLimit: Int,
    _ state: (a: Int, base: Double, lines: Int, height: Double, widest: Double, last: Double),
    forced: Bool, uniform: Bool
  ) -> (lines: Int, height: Double, widest: Double, lastLineWidth: Double)? {
    let n = count
    let breakWords = self.breakWords
    let boxHeight = self.boxHeight
    var (a, base, lines, height, widest, last) = state
    // Where the reported width of the line starts (not `base` after a broken segment).
    var start = base
    // The fonts of the last line box found (that raise it), and its height.
    var boxFonts: UInt32 = 0
    var box = boxHeight
    // The grapheme where segment `a` resumes when overflow-wrap broke it (-1: its start).
    var resume = -1
    // The last segment a line may reach: the next forced break at or after `a` (looked up again
    // only when a line ends at it), or the last segment.
    var hi = n &- 1
    if forced && a < n { hi = min(Int(p.fastSide.nextForced[a]), n &- 1) }
    while a < n {
      var limitX = base + limit
      if breakWords && e[a].contentEnd > limitX {
        // Alone on its line and too wide: broken between graphemes.
        if let part = brokenLine(p, e, segment: a, limit: limit, base: &base, resume: &resume) {
          height += part.fonts == 0 ? boxHeight : p.lineBox(fonts: part.fonts).height
          last = part.width
          widest = last > widest ? last : widest
          lines &+= 1
          if lines > lineLimit { return nil }
          continue
        }
        limitX = base + limit
      }
      if resume >= 0 {
        start = collapses ? visibleStart(p, e, segment: a, from: resume, at: base) : base
        resume = -1
      }
      var g = min(a &+ span, hi)
      if e[g].contentEnd <= limitX {
        // (Without forced breaks the sentinel stops the walk.)
        while (!forced || g < hi) && e[g &+ 1].contentEnd <= limitX { g &+= 1 }
      } else {
        repeat { g &-= 1 } while e[g].contentEnd > limitX
        // (The line's first segment, too wide, and not to be broken or no more breakable: alone
        // on its line.)
        if g < a { g = a }
      }
      if uniform {
        height += boxHeight
      } else {
        var m: UInt32 = 0
        for k in a...g { m |= p.fastSide.fonts[k] }
        if m != boxFonts {
          // (Lines mostly use the same fonts: their box is found once.)
          boxFonts = m
          box = m == 0 ? boxHeight : p.lineBox(fonts: UInt64(m)).height
        }
        height += box
      }
      last = max(0, e[g].contentEnd - start)
      widest = last > widest ? last : widest
      lines &+= 1
      if lines > lineLimit { return nil }
      a = g &+ 1
      base = e[g].end
      start = base
      if forced && g == hi && a < n { hi = min(Int(p.fastSide.nextForced[a]), n &- 1) }
    }
    return (lines, height, snap(widest), snap(last))
  }

  /// The next line of segment `a`, too wide for a line that starts at `base` (at grapheme
  /// `resume` of it when that is not -1), when overflow-wrap breaks it between graphemes as the
  /// segment walk does: the reported width and tall fonts of a part that fills a line (`base`
  /// and `resume` then move past it), or nil when no part does — all that is left of the
  /// segment's graphemes fits (their advances can sum to less than the segment's; `base` and
  /// `resume` are then set for the line that goes on after them, as the segment walk measures
  /// them), or nothing of it is left to break.
  @inline(__always)
  func brokenLine(
    _ p: PreparedText, _ e: UnsafePointer<Span>, segment a: Int, limit: Double,
    base: inout Double, resume: inout Int
  ) -> (width: Double, fonts: UInt64)? {
    let from = resume >= 0 ? resume : (a == 0 ? 0 : Int(p.segmentEnd[a &- 1]))
    let contentEnd = Int(p.segmentContentEnd[a])
    guard from < contentEnd else { return nil }
    let part = breakInside(p, segment: a, from: from, limit: limit)
    if part.end < contentEnd {
      base += part.advance
      resume = part.end
      return (part.width, part.fonts)
    }
    base = e[a].contentEnd - part.advance
    resume = from
    return nil
  }

  /// The first line of segment `s`'s content from grapheme `from` when it is broken between
  /// grapheme clusters, as the segment walk breaks it (at least one grapheme, then as many as
  /// fit): the grapheme after it, its advance, its reported width and the fonts that raise its
  /// line box (only when line boxes differ). The end is the content's end when all of it fits.
  func breakInside(_ p: PreparedText, segment s: Int, from: Int, limit: Double) -> (
    end: Int, advance: Double, width: Double, fonts: UInt64
  ) {
    let t = Int(p.segmentContentEnd[s])
    // Advances alone first (the long words this breaks run to dozens of graphemes), summed in
    // the segment walk's order so that the same graphemes fit.
    let (k, w) = p.graphemeAdvance.withUnsafeBufferPointer { advance -> (Int, Double) in
      var k = from
      var w = 0.0
      if k < t {
        w = advance[k]
        k += 1
      }
      // Four at a time while the fourth fits: no advance is negative here (the index is not
      // built then), so the sums grow and the three before it fit too.
      while k &+ 4 <= t {
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
    // Content without white space of the trim set is visible from end to end; otherwise the
    // visible part is found as the segment walk finds it (its start summed forward, its end
    // taken back from the part's advance), to the last bit.
    var width = w
    if p.segmentFlags[s] & PreparedText.SegmentFlag.plain == 0 {
      width = 0
      if let visible = p.visiblePart(from, k, from: 0, to: w) {
        width = max(0, visible.endX - (collapses ? visible.startX : 0))
      }
    }
    var fonts: UInt64 = 0
    // (Only when the segment has a font that raises line boxes: its graphemes' are among its.)
    if !uniformBox && p.fastSide.fonts[s] != 0 {
      for g in from..<k { fonts |= 1 << UInt64(min(Int(p.graphemeFont[g]), 63)) }
      fonts &= UInt64(p.fastSide.tallFonts)
    }
    return (k, w, width, fonts)
  }

  /// Where the reported width of a line starts when it begins inside segment `s`, at grapheme
  /// `from` and x `x` (lines that collapse white space start it at their first visible content).
  func visibleStart(
    _ p: PreparedText, _ e: UnsafePointer<Span>, segment s: Int, from: Int, at x: Double
  ) -> Double {
    let t = Int(p.segmentContentEnd[s])
    var g = from
    var x = x
    while g < t && p.graphemeFlags[g] & PreparedText.GraphemeFlag.reportWhitespace != 0 {
      x += p.graphemeAdvance[g]
      g += 1
    }
    if g < t { return x }
    if s + 1 >= count { return .infinity }
    return p.fastSide.firstVisible.isEmpty ? e[s].end : p.fastSide.firstVisible[s + 1]
  }

  /// Lines, height, widest line and last line's width at `width`, or nil when `maxLines`
  /// truncates (the caller then walks the segments). (A text that fits on one line is answered
  /// before this, from ``PreparedText``'s one-line numbers; searching gives the same.)
  @inline(__always)
  func measure(_ p: PreparedText, width: Double) -> (
    lines: Int, height: Double, widest: Double, lastLineWidth: Double
  )? {
    // (Capped far beyond any text's content, so that no line's limit is infinite: the walks
    // along the sums stop at the sentinels only below it.)
    let limit = min(width + PreparedText.fitTolerance, 0x1p900)
    if isSimple, let r = measureSimply(p, limit: limit) { return r }
    // (The general loop reads the side numbers of the text: a copy of them, once.)
    let side = p.fastSide
    let maxLines = side.maxLines
    return withSums { e in
      let n = count
      if n == 0 { return (0, 0, 0, 0) }
      var lines = 0
      var height = 0.0
      // Widths are snapped once at the end: snapping never changes which is widest.
      var widest = 0.0
      var last = 0.0
      var a = 0
      var base = 0.0
      // The grapheme where segment `a` resumes when overflow-wrap broke it (-1: its start).
      var resume = -1
      // Segments a line holds, as guessed from the text's average: the same for every line.
      let span = Int(max(0, min(Double(n), limit * segmentsPerPoint - 1)))
      while a < n {
        var limitX = base + limit
        let hi = noForcedBreak ? n - 1 : min(Int(side.nextForced[a]), n - 1)
        var s: Int
        if wraps && breakWords && e[a].contentEnd > limitX {
          // Alone on its line and too wide: overflow-wrap breaks it between graphemes.
          if let part = brokenLine(p, e, segment: a, limit: limit, base: &base, resume: &resume) {
            if lines > 0 { height += side.spacing }
            height += part.fonts == 0 ? boxHeight : p.lineBox(fonts: part.fonts).height
            last = part.width
            widest = max(widest, last)
            lines += 1
            if lines > maxLines && maxLines > 0 { return nil }
            continue
          }
          limitX = base + limit
        }
        if !wraps {
          // No soft wraps: the line runs to the next forced break, however wide.
          s = hi
        } else if e[a].contentEnd > limitX {
          s = a
        } else {
          s = FastIndex.lastFitting(e, from: a, to: hi, guess: a + span, limitX)
        }
        var hyphen = 0.0
        if hasSoftHyphens && s < hi && p.segmentFlags[s] & PreparedText.SegmentFlag.softHyphen != 0
        {
          // The line breaks after a soft hyphen, which shows: it must fit too, or the line ends
          // before that segment (showing the hyphen of the one before, if it has one).
          let end = max(
            0, (side.lastContent.isEmpty ? e[s].contentEnd : side.lastContent[s]) - base
          )
          if s > a && end + side.hyphenAdvance > limit {
            s -= 1
            if p.segmentFlags[s] & PreparedText.SegmentFlag.softHyphen != 0 {
              hyphen = side.hyphenAdvance
            }
          } else {
            hyphen = side.hyphenAdvance
          }
        }
        if lines > 0 { height += side.spacing }
        var m: UInt32 = 0
        if !uniformBox {
          for k in a...s { m |= side.fonts[k] }
        }
        height += m == 0 ? boxHeight : p.lineBox(fonts: UInt64(m)).height
        let start: Double
        if resume >= 0 {
          start = collapses ? visibleStart(p, e, segment: a, from: resume, at: base) : base
          resume = -1
        } else {
          start = side.firstVisible.isEmpty ? base : side.firstVisible[a]
        }
        last =
          max(
            0,
            (side.lastContent.isEmpty ? e[s].contentEnd : side.lastContent[s]) - start)
          + hyphen
        widest = max(widest, last)
        lines += 1
        if lines > maxLines && maxLines > 0 { return nil }
        a = s + 1
        base = e[s].end
      }
      return (lines, height, snap(widest), snap(last))
    }
  }
}
