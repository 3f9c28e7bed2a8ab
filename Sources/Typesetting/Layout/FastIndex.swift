/// Prefix sums over a prepared text's segments: an index that the one greedy rule
/// (``GreedyLines``) reads through ``PrefixIndex``, finding each line's end from a guess (the
/// text's segments per point) instead of walking every segment; a text that fits on one line
/// is answered without touching the arrays at all.
///
/// Built for every text without tabs (whose widths depend on where they fall), with no segment
/// narrower than nothing and, where overflow-wrap breaks words, no grapheme narrower than nothing
/// (negative letter spacing); the rule reads the others through ``SegmentWalk``. Both indices
/// give the same lines (tested on the whole corpus at many widths, and on texts made of soft
/// hyphens, white space inside words and long words at every quarter point of width).
struct FastIndex: @unchecked Sendable {
  // (@unchecked: the sums are written once, in `init`, and only read afterwards.)
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
  // used or not.)
  /// Per segment, between two sentinels: one before the first that ends at minus infinity
  /// (read through ``withSums(_:)``, whose pointer starts after it) and one after the last
  /// that ends at infinity, so that walks along the sums need no bounds. The memory is the
  /// text's, freed with it (``deallocate()``): reading the sums retains nothing.
  let spans: UnsafeMutablePointer<Span>
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
    /// The style has `maxLines` (``Side/maxLines``).
    static let limitsLines: UInt64 = 1 << 40
    /// ``Side/lastContent`` is there (some segment's content ends in white space of the trim set).
    static let hasLastContent: UInt64 = 1 << 41
    /// ``Side/firstVisible`` is there (some segment's content starts in such white space).
    static let hasFirstVisible: UInt64 = 1 << 42
    /// Lines are spaced apart (``Side/spacing``: the Apple profile's line spacing).
    static let spacesLines: UInt64 = 1 << 43
    /// Lines wrap, and none of the side facts applies (side arrays, line spacing, `maxLines`,
    /// closing marks that may hang; lines that end inside kerning pairs but in a text that is
    /// otherwise simple): measuring reads the sums, fonts and forced breaks alone
    /// (``PlainShape``).
    static let isPlain: UInt64 = 1 << 44
    /// Some segment ends inside a kerning pair (``PreparedText/endAdjustment(segment:)``).
    static let hasEndAdjustments: UInt64 = 1 << 45
    /// Plain, of one paragraph and one line box, without soft hyphens or lines that end inside
    /// kerning pairs (``SimpleShape``).
    static let isSimple: UInt64 = 1 << 46
    /// Some segment ends with a closing bracket that may hang (``PreparedText/endHangs``).
    static let hangsClosing: UInt64 = 1 << 47
    /// Simple but for lines that end inside kerning pairs (``KernedShape``, read through
    /// ``UnbrokenShape``'s entry).
    static let isKerned: UInt64 = 1 << 48
  }

  /// Bytes its array holds.
  var arrayBytes: Int { (count + 2) * MemoryLayout<Span>.stride }

  /// Frees the sums (by the text that owns them, as it goes).
  func deallocate() { spans.deallocate() }

  var count: Int { Int(truncatingIfNeeded: bits & 0xffff_ffff) }
  var noForcedBreak: Bool { bits & Flag.noForcedBreak != 0 }
  var snapsWidths: Bool { bits & Flag.snapsWidths != 0 }
  var uniformBox: Bool { bits & Flag.uniformBox != 0 }
  var wraps: Bool { bits & Flag.wraps != 0 }
  var breakWords: Bool { bits & Flag.breakWords != 0 }
  var collapses: Bool { bits & Flag.collapses != 0 }
  var hasSoftHyphens: Bool { bits & Flag.hasSoftHyphens != 0 }
  var limitsLines: Bool { bits & Flag.limitsLines != 0 }
  var hasLastContent: Bool { bits & Flag.hasLastContent != 0 }
  var hasFirstVisible: Bool { bits & Flag.hasFirstVisible != 0 }
  var spacesLines: Bool { bits & Flag.spacesLines != 0 }
  var isPlain: Bool { bits & Flag.isPlain != 0 }
  var isSimple: Bool { bits & Flag.isSimple != 0 }
  var isKerned: Bool { bits & Flag.isKerned != 0 }

  /// What only some texts read (forced breaks, taller line boxes, soft hyphens, line spacing,
  /// white space that reported widths leave out, `maxLines`), kept in ``PreparedText`` apart
  /// from the index: the index's four words are what every measure reads.
  struct Side: Sendable {
    /// Bytes its arrays hold.
    var arrayBytes: Int {
      nextForced.capacity * 4 + lastContent.capacity * 8
        + firstVisible.capacity * 8
    }

    /// Per segment: the first segment at or after it that ends with a forced break (or the
    /// count) — empty when there is none.
    var nextForced: [Int32] = []
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
    /// `maxLines` of the style (0: no limit): more lines than that is truncation, not ours.
    var maxLines = 0
  }

  /// The index of `text`, whose one-line numbers are written to `oneLine` and the rest to `side`
  /// (nil when the text needs the segment walk; `oneLine` and `side` are then left as they are).
  init?(_ text: PreparedText, oneLine: inout OneLine, side: inout Side) {
    let n = text.segmentEnd.count
    // (The count is kept in 32 bits: a text of 2^32 segments, 20 GB or more, takes the walk.)
    guard n <= 0xffff_ffff else { return nil }
    let collapse = text.style.whiteSpace.collapses
    // Breaking a word between graphemes walks their advances, which the segment walk clamps
    // in ways a prefix sum cannot follow when some are negative (negative letter spacing).
    if text.style.overflowWrap != .normal && text.graphemeAdvance.contains(where: { $0 < 0 }) {
      return nil
    }
    guard var sums = Sums(text, count: n, collapse: collapse) else { return nil }
    let nextForced = FastIndex.nextForcedBreaks(text, count: n)
    let lastContentEnd = sums.spans[n].contentEnd
    sums.spans.append(Span(contentEnd: .infinity, end: .infinity))
    self.spans = .allocate(capacity: sums.spans.count)
    self.spans.initialize(from: sums.spans, count: sums.spans.count)
    // (With collapsing, the first visible start of the whole text; the last segment's last
    // visible content end, -1 before any.)
    let reportStart = collapse && n > 0 ? sums.firstSeen : 0
    let singleLineWidth = max(0, (n > 0 ? sums.last : 0) - reportStart)
    let strut = text.lineBox(fonts: 0)
    let all = text.lineBox(fonts: sums.mask)
    let uniformBox = strut == all
    boxHeight = strut.height
    let spacing = text.lineBoxes.spacing
    let maxLines = max(0, text.style.maxLines ?? 0)
    segmentsPerPoint = lastContentEnd > 0 ? Double(n) / lastContentEnd : 0
    bits =
      UInt64(n)
      | FastIndex.flags(
        text, noForcedBreak: nextForced.isEmpty, uniformBox: uniformBox, sums: sums,
        spacing: spacing, maxLines: maxLines)
    side = Side(
      nextForced: nextForced,
      lastContent: sums.lastContent, firstVisible: sums.firstVisible,
      tallFonts: uniformBox ? 0 : UInt32(truncatingIfNeeded: text.lineBoxes.raisingFonts),
      spacing: spacing, maxLines: maxLines)
    oneLine = OneLine(
      contentEnd: nextForced.isEmpty && n > 0 ? lastContentEnd : .infinity,
      width: snap(singleLineWidth), height: all.height)
  }

  /// The prefix sums of a text's segments and what the index keeps beside them.
  struct Sums {
    /// Per segment k, at k + 1: x where its content and its white space end (the first span
    /// is a sentinel).
    var spans: [Span] = []
    /// See ``Side/lastContent`` and ``Side/firstVisible`` (the latter not yet carried forward).
    var lastContent: [Double] = []
    var firstVisible: [Double] = []
    /// The last segment's last visible content end (-1 before any), the first visible start.
    var last = -1.0
    var firstSeen = Double.infinity
    /// The fonts the segments use.
    var mask: UInt64 = 0

    /// The sums of `text`'s `n` segments; nil when one needs the segment walk (a tab, a
    /// negative width, a stack of more than 32 fonts). The side arrays are made only when some
    /// segment needs them (filled in for the segments before it then): most texts need neither.
    init?(_ text: PreparedText, count n: Int, collapse: Bool) {
      if text.endAdjustments.isEmpty && text.startGains.isEmpty {
        self.init(text, count: n, collapse: collapse, LineEdges.AsShaped.self)
      } else {
        self.init(text, count: n, collapse: collapse, LineEdges.Reshaped.self)
      }
    }

    /// ``init(_:count:collapse:)`` compiled for texts whose lines end and start where their
    /// segments do (most) or not (``LineEdges``).
    init?<Edges: LineEdgesKind>(
      _ text: PreparedText, count n: Int, collapse: Bool, _: Edges.Type
    ) {
      spans.reserveCapacity(n + 2)
      spans.append(Span(contentEnd: -.infinity, end: 0))
      var x = 0.0
      var lastIsContentEnd = true
      var firstIsStart = true
      let adjustments = Edges.reshaped ? text.endAdjustments : []
      let gains = Edges.reshaped ? text.startGains : []
      for s in 0..<n {
        let flags = text.segmentFlags[s]
        // A tab's width depends on where it falls: the segment walk places it. The search needs
        // x to grow along the text; negative letter spacing can make a segment narrower than
        // nothing.
        guard flags & PreparedText.SegmentFlag.hasTab == 0, text.segmentContent[s] >= 0,
          text.segmentTrailing[s] >= 0, text.segmentFonts[s] >> 32 == 0
        else { return nil }
        let start = x
        // A line that starts here starts that much before it when it starts wider
        // (``PreparedText/startGain(segment:)``): the span before ends there.
        let lineStart = !Edges.reshaped || gains.isEmpty ? start : start - gains[s]
        let contentEnd = x + text.segmentContent[s]
        // Where a line that ends here ends: its last glyph shaped as the line's end
        // (``LineEndKerning``).
        let lineEnd =
          !Edges.reshaped || adjustments.isEmpty ? contentEnd : contentEnd + adjustments[s]
        let a = Int(s == 0 ? 0 : text.segmentEnd[s - 1])
        let t = Int(text.segmentContentEnd[s])
        // The visible part of the content, as the segment walk finds it: white space of the
        // trim set at either end of it is left out of reported widths.
        var first = Double.infinity
        if a < t && flags & PreparedText.SegmentFlag.plain != 0 {
          first = lineStart
          last = lineEnd
        } else if a < t, let visible = text.visiblePart(a, t, from: start, to: contentEnd) {
          first = visible.startX == start ? lineStart : visible.startX
          // (Where a line's end gains, the visible content ends with the content.)
          last = visible.endX == contentEnd ? lineEnd : visible.endX
        }
        // (A space split from its marks by the break after it counts as visible.)
        if flags & PreparedText.SegmentFlag.splitCluster != 0 {
          last = contentEnd + text.segmentTrailing[s]
        }
        if last != lineEnd && lastIsContentEnd {
          lastIsContentEnd = false
          lastContent.reserveCapacity(n)
          for k in 0..<s { lastContent.append(spans[k + 1].contentEnd) }
        }
        if !lastIsContentEnd { lastContent.append(last) }
        if collapse {
          if first != lineStart && firstIsStart {
            firstIsStart = false
            firstVisible.reserveCapacity(n)
            // (spans[k] is segment k - 1; the first sentinel ends at 0.)
            for k in 0..<s { firstVisible.append(spans[k].end) }
          }
          if !firstIsStart { firstVisible.append(first) }
        }
        firstSeen = min(firstSeen, first)
        x = contentEnd + text.segmentTrailing[s]
        let nextGain = !Edges.reshaped || gains.isEmpty || s + 1 == n ? 0 : gains[s + 1]
        spans.append(Span(contentEnd: lineEnd, end: x - nextGain))
        mask |= text.segmentFonts[s]
      }
      // firstVisible[s]: the first visible start at or after segment s.
      var next = Double.infinity
      for s in stride(from: firstVisible.count - 1, through: 0, by: -1) {
        if firstVisible[s] < next { next = firstVisible[s] }
        firstVisible[s] = next
      }
    }
  }

  /// Per segment, the first segment at or after it that ends with a forced break (or the
  /// count); empty when there is none.
  static func nextForcedBreaks(_ text: PreparedText, count n: Int) -> [Int32] {
    let forced = PreparedText.SegmentFlag.forcedBreak
    guard text.segmentFlags.contains(where: { $0 & forced != 0 }) else { return [] }
    var nextForced = [Int32](filling: Int32(n), count: n)
    var next = Int32(n)
    for s in stride(from: n - 1, through: 0, by: -1) {
      if text.segmentFlags[s] & forced != 0 { next = Int32(s) }
      nextForced[s] = next
    }
    return nextForced
  }

  /// The index's flags (``Flag``) for `text`.
  static func flags(
    _ text: PreparedText, noForcedBreak: Bool, uniformBox: Bool, sums: Sums, spacing: Double,
    maxLines: Int
  ) -> UInt64 {
    let wraps = text.style.whiteSpace.wraps
    var bits: UInt64 = 0
    if noForcedBreak { bits |= Flag.noForcedBreak }
    if text.style.profile == .browser { bits |= Flag.snapsWidths }
    if uniformBox { bits |= Flag.uniformBox }
    if wraps { bits |= Flag.wraps }
    if text.style.overflowWrap != .normal { bits |= Flag.breakWords }
    if text.style.whiteSpace.collapses { bits |= Flag.collapses }
    if text.hasSoftHyphens { bits |= Flag.hasSoftHyphens }
    if maxLines > 0 { bits |= Flag.limitsLines }
    if !sums.lastContent.isEmpty { bits |= Flag.hasLastContent }
    if !sums.firstVisible.isEmpty { bits |= Flag.hasFirstVisible }
    if spacing != 0 { bits |= Flag.spacesLines }
    if !text.endAdjustments.isEmpty { bits |= Flag.hasEndAdjustments }
    if !text.endHangs.isEmpty { bits |= Flag.hangsClosing }
    if wraps && sums.lastContent.isEmpty && sums.firstVisible.isEmpty && spacing == 0
      && maxLines == 0 && text.endHangs.isEmpty
    {
      // (Of the texts whose lines end inside kerning pairs, only those that would be simple
      // are plain: ``KernedShape``.)
      let simple = noForcedBreak && uniformBox && !text.hasSoftHyphens
      if text.endAdjustments.isEmpty {
        bits |= Flag.isPlain
        if simple { bits |= Flag.isSimple }
      } else if simple {
        bits |= Flag.isPlain | Flag.isKerned
      }
    }
    return bits
  }

  /// ``PreparedText/measure(width:)`` of `text` at `limit` (the width plus the fit tolerance),
  /// through the greedy rule compiled for the shape of the text: nil when `maxLines` truncates.
  func measure(_ text: PreparedText, limit: Double) -> (
    lines: Int, height: Double, widest: Double, lastLineWidth: Double, isTruncated: Bool
  )? {
    if isPlain {
      // Most texts (see ``TextShape``).
      if isSimple { return text.measure(self, limit: limit, SimpleShape.self) }
      if noForcedBreak { return text.measure(self, limit: limit, UnbrokenShape.self) }
      return text.measure(self, limit: limit, PlainShape.self)
    }
    return text.measure(self, limit: limit, AnyShape.self)
  }

  /// The greedy rule's options for this text at `limit` (from the index: no style is read),
  /// for texts of `Shape`.
  func rules<Shape: TextShape>(hyphenAdvance: Double, limit: Double, _: Shape.Type) -> GreedyLines {
    GreedyLines(
      limit: limit, wraps: Shape.plain || wraps, breakWords: breakWords,
      hasSoftHyphens: !Shape.simple && hasSoftHyphens,
      hyphenAdvance: hyphenAdvance, hangsClosing: !Shape.plain && bits & Flag.hangsClosing != 0)
  }

  /// `body` with a pointer to the first segment's span (the sentinels at -1 and at the count).
  func withSums<R>(_ body: (UnsafePointer<Span>) -> R) -> R {
    body(spans + 1)
  }

  @inline(__always)
  func snap(_ w: Double) -> Double {
    snapsWidths && w > 0 ? PreparedText.snapToNext64th(w) : w
  }
}

/// Whether a text's lines may end or start other than where its segments do, as the paragraph
/// shaped them (``PreparedText/endAdjustment(segment:)``, ``PreparedText/startGain(segment:)``):
/// the sums are compiled for each case.
protocol LineEdgesKind { static var reshaped: Bool { get } }

enum LineEdges {
  enum AsShaped: LineEdgesKind { static var reshaped: Bool { false } }
  enum Reshaped: LineEdgesKind { static var reshaped: Bool { true } }
}

/// Compile-time facts about the texts an index is read for, so that the compiler drops the
/// branches such texts never take: the one rule, specialised by the compiler rather than copied
/// by hand.
protocol TextShape {
  /// The text's index is plain (``FastIndex/Flag/isPlain``).
  static var plain: Bool { get }
  /// No forced break stops a line (``FastIndex/Flag/noForcedBreak``).
  static var unbroken: Bool { get }
  /// Every line box is the same and no soft hyphen shows (``FastIndex/Flag/uniformBox``,
  /// ``FastIndex/Flag/hasSoftHyphens``).
  static var simple: Bool { get }
  /// A line may end inside a kerning pair (``FastIndex/Flag/hasEndAdjustments``, asked where
  /// this is true): false where the text is known to have none.
  static var kernsAtEnds: Bool { get }
}

/// Plain texts of one paragraph and one line box, without soft hyphens or lines that end
/// inside kerning pairs: most of them.
enum SimpleShape: TextShape {
  static var plain: Bool { true }
  static var unbroken: Bool { true }
  static var simple: Bool { true }
  static var kernsAtEnds: Bool { false }
}

/// Simple texts but for lines that end inside kerning pairs (most Japanese among them).
enum KernedShape: TextShape {
  static var plain: Bool { true }
  static var unbroken: Bool { true }
  static var simple: Bool { true }
  static var kernsAtEnds: Bool { true }
}

/// Plain texts of one paragraph.
enum UnbrokenShape: TextShape {
  static var plain: Bool { true }
  static var unbroken: Bool { true }
  static var simple: Bool { false }
  static var kernsAtEnds: Bool { false }
}

/// Texts whose fast index is plain.
enum PlainShape: TextShape {
  static var plain: Bool { true }
  static var unbroken: Bool { false }
  static var simple: Bool { false }
  static var kernsAtEnds: Bool { false }
}

/// Any text.
enum AnyShape: TextShape {
  static var plain: Bool { false }
  static var unbroken: Bool { false }
  static var simple: Bool { false }
  static var kernsAtEnds: Bool { true }
}

/// A prepared text's ``FastIndex`` as the greedy rule reads it: each line's end found by search
/// from a guess (the text's segments per point), widths from the prefix sums and side arrays.
struct PrefixIndex<Shape: TextShape>: SegmentIndex {
  /// The text, which the caller holds for as long as the index lives: lent to the calls out of
  /// line without a retain (a copy of an `unowned(unsafe)` reference would cost one).
  let lent: Unmanaged<PreparedText>
  /// The first segment's span (the sentinels at -1 and at the count).
  let e: UnsafePointer<FastIndex.Span>
  let count: Int
  /// Segments a line holds, as guessed from the text's average: the same for every line.
  let span: Int
  /// The index's ``FastIndex/Flag``s (read where they are asked, not unpacked at every measure).
  let bits: UInt64
  var noForcedBreak: Bool { bits & FastIndex.Flag.noForcedBreak != 0 }
  var collapses: Bool { bits & FastIndex.Flag.collapses != 0 }
  /// Whether the side arrays of visible ends and starts are there (most texts need neither).
  var hasLastContent: Bool { bits & FastIndex.Flag.hasLastContent != 0 }
  var hasFirstVisible: Bool { bits & FastIndex.Flag.hasFirstVisible != 0 }
  var hasEndAdjustments: Bool { bits & FastIndex.Flag.hasEndAdjustments != 0 }

  /// Valid only inside `index.withSums`, which lends `e`.
  init(
    _ text: PreparedText, _ index: FastIndex, _ e: UnsafePointer<FastIndex.Span>, limit: Double
  ) {
    lent = .passUnretained(text)
    self.e = e
    count = index.count
    span = Int(max(0, min(Double(index.count), limit * index.segmentsPerPoint - 1)))
    bits = index.bits
  }

  /// (Where a line that starts wider starts: the span before ends there.)
  func startLine(at a: Int) -> Double { e[a &- 1].end }


  func lastFitting(from a: Int, to hi: Int, limitX: Double) -> Int {
    // (No soft wraps: the line runs to `hi`.)
    if !Shape.plain && limitX == .infinity { return hi }
    // From the guess, a walk to the last segment that fits: going up, `hi` stops it (or the
    // sentinel after the last segment, when that is `hi`); going down, segment `a - 1`, which
    // ends before the line starts. (The guess is mostly a step or two away: texts are about as
    // dense all along.)
    let unbroken = Shape.unbroken || noForcedBreak
    var g = min(a &+ span, hi)
    if e[g].contentEnd <= limitX {
      while (unbroken || g < hi) && e[g &+ 1].contentEnd <= limitX { g &+= 1 }
    } else {
      repeat { g &-= 1 } while e[g].contentEnd > limitX
    }
    if Shape.kernsAtEnds && hasEndAdjustments {
      // (Most lines: where `g` and the segment after it end, white space included, shows
      // that the paragraph breaks after `g` too, and its line fits; see ``endAdjusted``.)
      if g >= a && e[g].end <= limitX && e[g &+ 1].end > limitX { return g }
      return Self.endAdjusted(lent.takeUnretainedValue(), e, from: a, near: g, to: hi, limitX)
    }
    return g
  }

  /// The last segment that fits, for a text where some lines end inside a kerning pair (the
  /// sums then hold where each such line ends, which may not grow along the text): as
  /// ``SegmentWalk/lastFitting(from:to:limitX:)`` finds it, from `g`, where the search stopped.
  @inline(never)
  static func endAdjusted(
    _ text: PreparedText, _ e: UnsafePointer<FastIndex.Span>, from a: Int, near g: Int,
    to hi: Int, _ limitX: Double
  ) -> Int {
    // The last segment whose content fits as the paragraph shaped it (where a line's end
    // gains, its segment has no trailing white space: its end is its content's), then back
    // while the line, its end shaped on its own, does not fit.
    text.endAdjustments.withUnsafeBufferPointer { adjustment in
      var g = max(g, a &- 1)
      while g < hi {
        let k = g &+ 1
        if (adjustment[k] != 0 ? e[k].end : e[k].contentEnd) > limitX { break }
        g = k
      }
      while g >= a && (adjustment[g] != 0 ? e[g].end : e[g].contentEnd) > limitX { g &-= 1 }
      while g >= a && e[g].contentEnd > limitX { g &-= 1 }
      return g
    }
  }

  func lastBeforeForcedBreak(from a: Int) -> Int {
    Shape.unbroken || noForcedBreak ? count &- 1 : nextForcedBreak(from: a)
  }

  /// (Texts with closing marks that may hang are not plain.)
  static var mayHang: Bool { !Shape.plain }

  /// (Asked only of texts with closing brackets that may hang; the retain of the text it
  /// takes is the least of such a line's cost.)
  func endHang(_ s: Int) -> Double { Self.endHang(lent.takeUnretainedValue(), s) }

  @inline(never)
  static func endHang(_ text: PreparedText, _ s: Int) -> Double { text.endHang(segment: s) }

  /// (Asked only of texts with soft hyphens.)
  func endsWithSoftHyphen(_ s: Int) -> Bool {
    lent._withUnsafeGuaranteedRef { Self.endsWithSoftHyphen($0, s) }
  }

  func nextForcedBreak(from a: Int) -> Int {
    min(lent._withUnsafeGuaranteedRef { Self.nextForced($0, a) }, count &- 1)
  }

  func lastVisibleEnd(from a: Int, through s: Int, base: Double) -> Double {
    !Shape.plain && hasLastContent
      ? lent._withUnsafeGuaranteedRef { Self.lastContent($0, s) } : e[s].contentEnd
  }

  func lineWidth(from a: Int, through g: Int, base: Double, resume: Int) -> Double {
    if Shape.plain && resume < 0 {
      let w = e[g].contentEnd - base
      return w > 0 ? w : 0
    }
    let start: Double
    if resume >= 0 {
      start =
        collapses
        ? lent._withUnsafeGuaranteedRef {
          Self.visibleStart($0, e, segment: a, from: resume, at: base, hasFirstVisible)
        } : base
    } else {
      start = hasFirstVisible ? lent._withUnsafeGuaranteedRef { Self.firstVisible($0, a) } : base
    }
    return max(0, lastVisibleEnd(from: a, through: g, base: base) - start)
  }

  func brokenLine(segment a: Int, limit: Double, base: inout Double, resume: inout Int)
    -> BrokenPart?
  {
    // (`base` and `resume` pass by value: handed on by address, they would live in memory for
    // the whole loop.)
    let step = lent._withUnsafeGuaranteedRef {
      Self.brokenLine($0, e, segment: a, limit: limit, collapses, base: base, resume: resume)
    }
    base = step.base
    resume = step.resume
    return step.part
  }

  // What most lines never ask, out of line and given only what it reads (the loop keeps the
  // index in registers, not on the stack for a call).

  @inline(never)
  static func endsWithSoftHyphen(_ text: PreparedText, _ s: Int) -> Bool {
    text.segmentFlags[s] & PreparedText.SegmentFlag.softHyphen != 0
  }
  @inline(never)
  static func nextForced(_ text: PreparedText, _ a: Int) -> Int { Int(text.fastSide.nextForced[a]) }
  @inline(never)
  static func lastContent(_ text: PreparedText, _ s: Int) -> Double { text.fastSide.lastContent[s] }
  @inline(never)
  static func firstVisible(_ text: PreparedText, _ s: Int) -> Double {
    text.fastSide.firstVisible[s]
  }

  /// Where the reported width of a line starts when it begins inside segment `s`, at grapheme
  /// `from` and x `x` (lines that collapse white space start it at their first visible content).
  @inline(never)
  static func visibleStart(
    _ text: PreparedText, _ e: UnsafePointer<FastIndex.Span>, segment s: Int, from: Int,
    at x: Double, _ hasFirstVisible: Bool
  ) -> Double {
    let t = Int(text.segmentContentEnd[s])
    var g = from
    var x = x
    while g < t && text.graphemeFlags[g] & PreparedText.GraphemeFlag.reportWhitespace != 0 {
      x += text.graphemeAdvance[g]
      g += 1
    }
    if g < t { return x }
    if s + 1 >= text.segmentEnd.count { return .infinity }
    return hasFirstVisible ? firstVisible(text, s + 1) : e[s].end
  }

  @inline(never)
  static func brokenLine(
    _ text: PreparedText, _ e: UnsafePointer<FastIndex.Span>, segment a: Int, limit: Double,
    _ collapses: Bool, base: Double, resume: Int
  ) -> (part: BrokenPart?, base: Double, resume: Int) {
    // (A broken part is measured from its segment's start as the paragraph shaped it: a line
    // that starts wider does not when its first segment is broken.)
    let from = resume < 0 ? e[a &- 1].end + text.startGain(segment: a) : base
    guard
      let part = text.breakInside(
        segment: a, resume: resume, limit: limit, collapses: collapses, nonNegative: true)
    else { return (nil, base, resume) }
    if !part.isRest {
      // (A line that starts inside a ligature starts wider.)
      var next = from + part.startGain + part.advance
      if _slowPath(part.nextStartGain != 0) { next -= part.nextStartGain }
      return (BrokenPart(end: part.end, width: part.width), next, part.end)
    }
    // All that is left fits: the line goes on with it, as wide as its graphemes' advances
    // (which can sum to less than the segment's content; wider when it starts inside a
    // ligature).
    // (From the end of the segment's content as the paragraph shaped it.)
    let contentEnd = text.endAdjustment(segment: a) != 0 ? e[a].end : e[a].contentEnd
    return (nil, contentEnd - part.advance - part.startGain, part.from)
  }
}
