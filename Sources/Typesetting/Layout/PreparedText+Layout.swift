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

  /// Number of lines, height and widest line at `width`, without building line records: the
  /// fast path for sizing (no allocation). Truncation by `maxLines` is applied.
  /// - Throws: ``TypesettingError/invalidWidth(_:)``.
  /// - Complexity: O(s) for s segments.
  public func measure(width: Double) throws -> (lines: Int, height: Double, widest: Double) {
    guard width.isFinite, width > 0 else { throw TypesettingError.invalidWidth(width) }
    if let fast, !fast.truncates, let result = fast.measure(self, width: width) { return result }
    if let m = style.maxLines, m > 0 {
      // Truncation changes the last line; take the full path when it may apply.
      let l = try layout(width: width)
      return (l.lineCount, l.height, l.widest)
    }
    var sink = LineMeasurer(p: self)
    var breaker = GreedyBreaker(self, width: width)
    breaker.run(&sink)
    return (sink.count, sink.height, sink.widest)
  }
}
