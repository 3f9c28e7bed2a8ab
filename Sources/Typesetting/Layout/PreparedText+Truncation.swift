extension PreparedText {
  /// Keeps `maxLines` lines and puts an ellipsis on the last one, at its end, middle or start.
  /// `tail`: for truncation at the start or middle, the graphemes shown after the ellipsis.
  func truncate(_ raw: [RawLine], maxLines: Int, width: Double) -> (
    lines: [RawLine], ellipsisOffset: Double, visibleEnd: Int, tail: Range<Int>?
  ) {
    var lines = Array(raw.prefix(maxLines))
    var last = lines[maxLines - 1]
    let total = graphemeAdvance.count
    let room = max(0, width - ellipsisAdvance)
    func visible(_ g: Int) -> Bool {
      graphemeFlags[g] & (GraphemeFlag.forcedBreak | GraphemeFlag.reportWhitespace) == 0
    }
    switch style.truncation {
    case .end:
      // As much of the last line as fits beside the ellipsis, without trailing white space.
      var w = 0.0
      var k = last.start
      var lastVisibleEnd = last.start
      var lastVisibleW = 0.0
      while k < last.end && graphemeFlags[k] & GraphemeFlag.forcedBreak == 0
        && w + graphemeAdvance[k] <= room + 1e-9
      {
        w += graphemeAdvance[k]
        k += 1
        if visible(k - 1) {
          lastVisibleEnd = k
          lastVisibleW = w
        }
      }
      last.end = lastVisibleEnd
      last.visibleEnd = lastVisibleEnd
      last.width = max(0, lastVisibleW + ellipsisAdvance)  // (negative letter spacing)
      last.hyphenated = false
      last.endAdjustment = 0
      last.extentStart = last.start
      lines[maxLines - 1] = last
      let end = Int(source[Int(graphemeStart[lastVisibleEnd])])
      return (lines, lastVisibleW, end, nil)
    case .start, .middle:
      // The last line shows the head (middle) or nothing (start) of its text, the ellipsis, and
      // the tail of the whole paragraph.
      let headShare = style.truncation == .middle ? room / 2 : 0
      var head = 0.0
      var k = last.start
      while k < total && graphemeFlags[k] & GraphemeFlag.forcedBreak == 0
        && head + graphemeAdvance[k] <= headShare + 1e-9
      {
        head += graphemeAdvance[k]
        k += 1
      }
      var tail = 0.0
      var j = total
      while j > k && tail + graphemeAdvance[j - 1] <= room - head + 1e-9
        && graphemeFlags[j - 1] & GraphemeFlag.forcedBreak == 0
      {
        tail += graphemeAdvance[j - 1]
        j -= 1
      }
      last.end = total
      last.visibleEnd = k
      last.width = max(0, head + ellipsisAdvance + tail)
      last.hyphenated = false
      last.endAdjustment = 0
      last.extentStart = last.start
      lines[maxLines - 1] = last
      let end = Int(source[Int(graphemeStart[k])])
      return (lines, head, end, j..<total)
    }
  }
}
