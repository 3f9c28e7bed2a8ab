extension PreparedText {
  /// A line found by the greedy breaker, in graphemes.
  struct RawLine {
    var start: Int  // first grapheme
    var end: Int  // one past the last grapheme placed on the line (trailing spaces included)
    var width: Double  // reported width
    var fonts: UInt64
    var reportStart: Int  // first grapheme that counts for the reported start
    var visibleEnd: Int  // one past the last visible grapheme
    var hyphenated = false  // ends at a soft hyphen, which shows a hyphen
    var extentStart: Int? = nil  // where the reported width starts (nil: at reportStart)
    var endAdjustment = 0.0  // the last glyph's: a kerning pair ended, a closing mark's half hung
    var startAdjustment = 0.0  // the first glyph's: the half a trimmed opening mark regains
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
    var tail: Range<Int>? = nil
    if let maxLines = style.maxLines, maxLines > 0, raw.count > maxLines {
      truncated = true
      let t = truncate(raw, maxLines: maxLines, width: width)
      raw = t.lines
      ellipsisOffset = t.ellipsisOffset
      visibleEnd = t.visibleEnd
      tail = t.tail
    }
    var layout = makeLayout(
      raw, width: width, truncated: truncated, visibleEnd: visibleEnd,
      ellipsisOffset: ellipsisOffset)
    layout.truncationTail = tail
    return layout
  }

  /// Number of lines, height, widest line and width of the last line at `width`, and whether
  /// `maxLines` truncated the text, without building line records: the fast path for sizing (no
  /// allocation unless truncation applies). Widths are reported as ``TextLayout`` reports them.
  /// - Throws: ``TypesettingError/invalidWidth(_:)``.
  /// - Complexity: O(s) for s segments (a few steps per line for most texts; O(1) for a text
  ///   that fits on one line).
  @inlinable
  public func measure(width: Double) throws -> (
    lines: Int, height: Double, widest: Double, lastLineWidth: Double, isTruncated: Bool
  ) {
    guard width.isFinite, width > 0 else { throw TypesettingError.invalidWidth(width) }
    // Most short messages fit on one line: three stored numbers answer, in the caller's own
    // code. (Inlined there, this path calls nothing, so a caller that takes the text from an
    // array need not retain and release it around the call: two atomic operations, as many as
    // the rest of a one-line answer costs.)
    if oneLineEnd <= PreparedText.fitLimit(width: width) {
      return (1, oneLineHeight, oneLineWidth, oneLineWidth, false)
    }
    return try measureLines(width: width)
  }

  /// ``measure(width:)`` of a text that does not fit on one line at `width` (a valid width).
  @usableFromInline
  func measureLines(width: Double) throws -> (
    lines: Int, height: Double, widest: Double, lastLineWidth: Double, isTruncated: Bool
  ) {
    let limit = GreedyLines.limit(width: width)
    // (Called through the optional, the index is borrowed: bound to a name, it would be
    // copied and its sums retained.)
    if fast != nil {
      if let r = fast?.measure(self, limit: limit) { return r }
    } else {
      var sink = LineMeasurer<AnyShape>(self)
      findLines(width: width, into: &sink)
      if !sink.passedLimit {
        return (sink.count, sink.height, snap(sink.widest), snap(sink.last), false)
      }
    }
    // Truncation changes the last line: the full path.
    let l = try layout(width: width)
    return (l.lineCount, l.height, l.widest, l.lines.last?.width ?? 0, l.isTruncated)
  }

  /// ``measureLines(width:)`` over the fast index `fast` of a text of `Shape`, compiled for
  /// it: nil when `maxLines` truncates the text.
  @inline(never)
  func measure<Shape: TextShape>(_ fast: FastIndex, limit: Double, _: Shape.Type) -> (
    lines: Int, height: Double, widest: Double, lastLineWidth: Double, isTruncated: Bool
  )? {
    // (Texts of one paragraph whose lines end inside kerning pairs are read through the entry
    // of the others, which the caller then need not tell apart.)
    if Shape.self == UnbrokenShape.self && fast.isKerned {
      return measure(fast, limit: limit, KernedShape.self)
    }
    var sink = LineMeasurer<Shape>(self, fast)
    measure(fast, limit: limit, into: &sink)
    if sink.passedLimit { return nil }
    return (sink.count, sink.height, fast.snap(sink.widest), fast.snap(sink.last), false)
  }

  /// The greedy rule over the fast index into `sink`, compiled for the texts of `Shape`.
  func measure<Shape: TextShape>(
    _ fast: FastIndex, limit: Double, into sink: inout LineMeasurer<Shape>
  ) {
    // (A simple text shows no hyphen: its advance, further into the object, is not read.)
    let rules = fast.rules(
      hyphenAdvance: Shape.simple ? 0 : hyphenAdvance, limit: limit, Shape.self)
    fast.withSums { e in
      var index = PrefixIndex<Shape>(self, fast, e, limit: limit)
      if Shape.simple || sink.tall == 0 {
        rules.run(&index, &sink)
      } else {
        // Lines' fonts are read: the array is lent once, not retained at each line.
        segmentFonts.withUnsafeBufferPointer { fonts in
          sink.fonts = fonts
          rules.run(&index, &sink)
          sink.fonts = UnsafeBufferPointer(start: nil, count: 0)
        }
      }
    }
  }

  /// The lines of the text at `width`, in graphemes; `walking`: through the segment walk even
  /// when the text has a fast index (both find the same lines: a test compares them).
  func breakLines(width: Double, walking: Bool = false) -> [RawLine] {
    var sink = LineCollector(self)
    findLines(width: width, walking: walking, into: &sink)
    return sink.lines
  }

  /// The greedy rule at `width` over the text's fast index, or over its segments walked one by
  /// one when it has none (or `walking`), into `sink`.
  func findLines<Sink: FoundLineSink>(width: Double, walking: Bool = false, into sink: inout Sink)
  {
    if let fast, !walking {
      let limit = GreedyLines.limit(width: width)
      let rules = fast.rules(hyphenAdvance: hyphenAdvance, limit: limit, AnyShape.self)
      fast.withSums { e in
        var index = PrefixIndex<AnyShape>(self, fast, e, limit: limit)
        rules.run(&index, &sink)
      }
    } else {
      var index = SegmentWalk(self)
      GreedyLines(self, width: width).run(&index, &sink)
    }
  }

  /// Counts lines and sums their heights without keeping them; stops past `maxLines`.
  struct LineMeasurer<Shape: TextShape>: FoundLineSink {
    /// The text that measures itself with it, lent to the calls out of line without a retain.
    let lent: Unmanaged<PreparedText>
    /// The fonts of the stack that raise a line box above the strut (bit i: font i; 0 when the
    /// text uses none of them).
    var tall: UInt64
    var strut: Double
    var spacing: Double
    /// More lines than this is truncation (`maxLines`; no limit: `Int.max`).
    var lineLimit: Int
    var count = 0
    var height = 0.0
    var widest = 0.0
    var last = 0.0
    var passedLimit = false
    /// The tall fonts of the last line box found, and its height (lines mostly share them).
    var boxFonts: UInt64 = 0
    var box: Double
    /// The text's segment fonts while it is measured (empty: read through the text).
    var fonts = UnsafeBufferPointer<UInt64>(start: nil, count: 0)

    init(_ text: PreparedText) {
      lent = .passUnretained(text)
      tall = text.lineBoxes.raisingFonts
      strut = text.lineBox(fonts: 0).height
      box = strut
      spacing = text.lineBoxes.spacing
      let maxLines = max(0, text.style.maxLines ?? 0)
      lineLimit = maxLines > 0 ? maxLines : .max
    }

    /// The same numbers as the fast index keeps them (nothing to work out per measure).
    init(_ text: PreparedText, _ index: FastIndex) {
      lent = .passUnretained(text)
      // (The side numbers read only where the flags say they matter.)
      tall = Shape.simple || index.uniformBox ? 0 : UInt64(text.fastSide.tallFonts)
      strut = index.boxHeight
      box = strut
      // (Plain texts have neither line spacing nor `maxLines`.)
      spacing = !Shape.plain && index.spacesLines ? text.fastSide.spacing : 0
      lineLimit = !Shape.plain && index.limitsLines ? text.fastSide.maxLines : .max
    }

    /// The height of the box of a line whose fonts that raise it are `m` (lines mostly share
    /// them: the last box is kept).
    mutating func boxHeight(fonts m: UInt64) -> Double {
      if m != boxFonts {
        boxFonts = m
        box = m == 0 ? strut : lent._withUnsafeGuaranteedRef { $0.lineBoxHeight(fonts: m) }
      }
      return box
    }

    /// The fonts of `line` that raise its box.
    func tallFonts(_ line: FoundLine) -> UInt64 {
      var m: UInt64 = 0
      if line.breakEnd < 0 && !fonts.isEmpty {
        for s in line.first...line.last { m |= fonts[s] }
      } else {
        m = lent._withUnsafeGuaranteedRef {
          $0.lineFonts(
            first: line.first, last: line.last, resume: line.resume, breakEnd: line.breakEnd)
        }
      }
      return m & tall
    }

    mutating func add(_ line: FoundLine) -> Bool {
      if Shape.plain {
        // (No spacing, no line limit.)
        height += Shape.simple || tall == 0 ? strut : boxHeight(fonts: tallFonts(line))
        last = line.width
        // (Not `max`, whose care for NaN costs a few instructions a line: widths are numbers.)
        widest = last > widest ? last : widest
        count &+= 1
        return true
      }
      let h = tall == 0 ? strut : boxHeight(fonts: tallFonts(line))
      height = LineStacking.top(below: height, lines: count, spacing: spacing) + h
      last = line.width
      widest = max(widest, last)
      count += 1
      if count > lineLimit {
        passedLimit = true
        return false
      }
      return true
    }
  }

  /// Collects lines as ``RawLine``s: their graphemes, fonts and visible ends.
  struct LineCollector: FoundLineSink {
    let text: PreparedText
    let collapses: Bool
    var lines: [RawLine] = []

    init(_ text: PreparedText) {
      self.text = text
      let ws = text.style.whiteSpace
      collapses = ws.collapses
    }

    mutating func add(_ line: FoundLine) -> Bool {
      let start = line.resume >= 0 ? line.resume : text.segmentStart(line.first)
      let end = line.breakEnd >= 0 ? line.breakEnd : Int(text.segmentEnd[line.last])
      // The first and last visible graphemes of the segments' contents (without white space
      // collapsing, the line's report starts with its first segment, visible or not).
      var reportStart = -1
      var visibleEnd = start
      for s in line.first...line.last {
        let a = s == line.first ? start : text.segmentStart(s)
        let t = line.breakEnd >= 0 ? line.breakEnd : Int(text.segmentContentEnd[s])
        if a < t, let v = text.visiblePart(a, t, from: 0, to: 0) {
          if reportStart < 0 { reportStart = v.start }
          visibleEnd = v.end
        }
        if !collapses && reportStart < 0 { reportStart = a }
      }
      // (A space split from its marks by the break after it is visible.)
      if line.breakEnd < 0
        && text.segmentFlags[line.last] & PreparedText.SegmentFlag.splitCluster != 0
      {
        visibleEnd = end
      }
      lines.append(
        RawLine(
          start: start, end: end, width: line.width, fonts: text.lineFonts(line),
          reportStart: reportStart >= 0 ? reportStart : start, visibleEnd: visibleEnd,
          hyphenated: line.hyphenated,
          endAdjustment: line.hung
            ? -text.endHang(segment: line.last)
            : line.breakEnd >= 0 || text.endAdjustments.isEmpty
              ? 0 : text.endAdjustment(segment: line.last),
          startAdjustment: line.resume < 0 && line.breakEnd < 0 && line.first > 0
            ? text.startGain(segment: line.first) : 0))
      return true
    }
  }

  /// ``lineFonts(_:)`` of a line given by its parts, called (measuring reads most lines' fonts
  /// from lent segment fonts).
  @inline(never)
  func lineFonts(first: Int, last: Int, resume: Int, breakEnd: Int) -> UInt64 {
    lineFonts(
      FoundLine(
        first: first, last: last, resume: resume, breakEnd: breakEnd, width: 0, hyphenated: false))
  }

  /// The height of ``lineBox(fonts:)``, called (a new line box while measuring: rare).
  @inline(never)
  func lineBoxHeight(fonts m: UInt64) -> Double { lineBox(fonts: m).height }

  /// The fonts a line uses (bit i: font i of the stack): its segments', or its graphemes' for
  /// a part of a segment broken by overflow-wrap.
  func lineFonts(_ line: FoundLine) -> UInt64 {
    var m: UInt64 = 0
    if line.breakEnd >= 0 {
      let from = line.resume >= 0 ? line.resume : segmentStart(line.first)
      for g in from..<line.breakEnd { m |= 1 << UInt64(min(Int(graphemeFont[g]), 63)) }
    } else {
      for s in line.first...line.last { m |= segmentFonts[s] }
    }
    return m
  }
}
