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
    if oneLineEnd <= width + PreparedText.fitTolerance {
      return (1, oneLineHeight, oneLineWidth, oneLineWidth, false)
    }
    return try measureLines(width: width)
  }

  /// ``measure(width:)`` of a text that does not fit on one line at `width` (a valid width).
  @usableFromInline
  func measureLines(width: Double) throws -> (
    lines: Int, height: Double, widest: Double, lastLineWidth: Double, isTruncated: Bool
  ) {
    if let r = fast?.measure(self, width: width) {
      return (r.lines, r.height, r.widest, r.lastLineWidth, false)
    }
    let maxLines = style.maxLines ?? 0
    var sink = LineMeasurer(p: self)
    var breaker = GreedyBreaker(self, width: width)
    breaker.run(&sink)
    if maxLines > 0 && sink.count > maxLines {
      // Truncation changes the last line: the full path.
      let l = try layout(width: width)
      return (l.lineCount, l.height, l.widest, l.lines.last?.width ?? 0, l.isTruncated)
    }
    return (sink.count, sink.height, sink.widest, sink.last, false)
  }
}
