extension PreparedText {
  /// Turns greedy lines into line boxes: metrics, heights, offsets in the original text.
  func makeLayout(
    _ raw: [RawLine], width: Double, truncated: Bool, visibleEnd: Int, ellipsisOffset: Double?
  ) -> TextLayout {
    var lines: [TextLayout.Line] = []
    lines.reserveCapacity(raw.count)
    var top = 0.0
    var widest = 0.0
    for (i, r) in raw.enumerated() {
      let (a, d, h) = lineBox(fonts: r.fonts)
      top = LineStacking.top(below: top, lines: i, spacing: lineBoxes.spacing)
      var startG = min(r.reportStart, graphemeAdvance.count)
      // A line that starts inside a Unicode grapheme cluster: the cluster counts on the line
      // before (where its wider part is), so the line starts with the next cluster — unless
      // the line holds nothing but the rest of that cluster (a mark alone on a line too narrow
      // for more): then it starts where it starts, so that no two lines share a start.
      var next = startG
      while next < graphemeAdvance.count && graphemeFlags[next] & GraphemeFlag.continuation != 0 {
        next += 1
      }
      if next < r.end { startG = next }
      // The first line starts at the start of the text, whatever white space opens it.
      let startScalar = i == 0 ? 0 : Int(source[Int(graphemeStart[startG])])
      let endScalar = Int(source[Int(graphemeStart[min(r.visibleEnd, graphemeAdvance.count)])])
      lines.append(
        TextLayout.Line(
          start: startScalar, startUTF16: Int(utf16Offsets[startScalar]), end: endScalar,
          width: snap(r.width), ascent: a, descent: d, top: top, height: h, baseline: top + a,
          graphemes: r.start..<max(r.start, r.visibleEnd),
          extentStart: r.extentStart ?? min(r.reportStart, graphemeAdvance.count),
          hyphenated: r.hyphenated, endAdjustment: r.endAdjustment,
          startAdjustment: r.startAdjustment))
      top += h
      widest = max(widest, snap(r.width))
    }
    return TextLayout(
      width: width, lines: lines, height: top, widest: widest, isTruncated: truncated,
      visibleRange: 0..<visibleEnd, ellipsisOffset: ellipsisOffset)
  }
}

extension PreparedText {
  /// Where each line of `layout` (a layout of this text) starts, in `Character`s of the text:
  /// one pass over the text up to the last line start, made only when asked (a line that
  /// starts inside a `Character` — the rest of a cluster alone on a line — gets that
  /// `Character`'s offset).
  public func lineStartCharacters(_ layout: TextLayout) -> [Int] {
    let lines = layout.lines
    var out: [Int] = []
    out.reserveCapacity(lines.count)
    var scalar = 0
    var character = 0
    for ch in text {
      let next = scalar + ch.unicodeScalars.count
      while out.count < lines.count && lines[out.count].start < next { out.append(character) }
      if out.count == lines.count { break }
      scalar = next
      character += 1
    }
    while out.count < lines.count { out.append(character) }
    return out
  }

  /// Line widths as the profile reports them: Chromium snaps the end of a run to the next 1/64 px
  /// (measured: a width of exactly 238 px is reported as 238.015625); Apple reports exact values.
  func snap(_ w: Double) -> Double {
    guard style.profile == .browser, w > 0 else { return w }
    return PreparedText.snapToNext64th(w)
  }

  /// `w` (> 0) up to the next 1/64 (a value already on a 1/64 step goes one step further).
  @inline(__always)
  static func snapToNext64th(_ w: Double) -> Double {
    let v = w * 64 + 1e-4
    // From 2^52 on every Double is whole already.
    guard v < 0x1p52 else { return (v + 1) / 64 }
    return (floorWithoutLibm(v) + 1) / 64
  }

  /// `x` (≥ 0) rounded up to a 1/64 step (Chromium's layout units).
  static func upTo64th(_ x: Double) -> Double {
    let v = x * 64
    guard v < 0x1p52 else { return x }
    let whole = floorWithoutLibm(v)
    return (whole == v ? whole : whole + 1) / 64
  }

  /// The floor of `v` (0 ≤ v < 2^52) without a call into libm or a checked conversion: adding
  /// 2^52 rounds it to the nearest whole number (exactly: Doubles there are one apart), which
  /// is one too many when it rounded up.
  static func floorWithoutLibm(_ v: Double) -> Double {
    let nearest = (v + 0x1p52) - 0x1p52
    return nearest > v ? nearest - 1 : nearest
  }
}

extension PreparedText {
  /// Ascent, descent and height of a line box that uses the fonts in the mask (bit i: font i):
  /// the style's rule (``LineBoxes``).
  func lineBox(fonts mask: UInt64) -> (ascent: Double, descent: Double, height: Double) {
    lineBoxes.box(fonts: mask)
  }
}
