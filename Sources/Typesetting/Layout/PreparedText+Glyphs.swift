/// Glyphs to draw: one font, one direction, positioned on one line of a ``TextLayout``.
public struct GlyphRun: Sendable {
  /// The font the glyphs come from.
  public let font: Font
  /// Font size in points.
  public let size: Double
  /// Glyph ids, in visual order (left to right).
  public let glyphs: [UInt32]
  /// Each glyph's origin x, from the line's left edge, points.
  public let x: [Double]
  /// Each glyph's origin y, from the baseline (up is negative), points.
  public let y: [Double]
  /// How far each glyph moves the pen, points (its measured advance, letter spacing included).
  public let advances: [Double]
  /// The line the run is on (index into `TextLayout.lines`).
  public let line: Int
  /// The line's baseline, from the top of the paragraph.
  public let baseline: Double
  /// Whether the run is right-to-left.
  public let isRightToLeft: Bool
  /// Pen position where the run starts, from the line's left edge, points.
  public let origin: Double
  /// How far the run moves the pen, points: its glyphs' advances, or a tab's width.
  public let width: Double
}

extension PreparedText {
  /// Whether the paragraph's base direction is right-to-left (lines then align to the right).
  public var isRightToLeft: Bool { paragraphLevel & 1 == 1 }

  /// The glyphs of every line of `layout`, in visual order: what a renderer draws (see
  /// ``glyphRuns(forLine:of:)``).
  public func glyphRuns(_ layout: TextLayout) -> [GlyphRun] {
    layout.lines.indices.flatMap { glyphRuns(forLine: $0, of: layout) }
  }

  /// The glyphs of line `index` of `layout` in visual order, cut from the glyphs this text was
  /// measured with: the same advances, tab widths, letter spacing, hyphen and ellipsis, so that
  /// the pen's extent over the runs is the line's measured width. Runs go from the line's first
  /// counted grapheme to its last visible one (hanging white space is not drawn).
  /// - Complexity: O(g log n) for the line's g glyphs; no shaping.
  public func glyphRuns(forLine index: Int, of layout: TextLayout) -> [GlyphRun] {
    let line = layout.lines[index]
    let truncatedHere = layout.isTruncated && index == layout.lines.count - 1
    // (Truncation measures a tab as its grapheme's advance, not up to a tab stop.)
    var pieces = linePieces(line, tabsAtStops: !truncatedHere)
    if truncatedHere {
      pieces.append(.snippet(ellipsis, level: paragraphLevel))
      if let tail = layout.truncationTail {
        pieces += logicalPieces(graphemes: tail, lineStart: tail.lowerBound, tabsAtStops: false)
      }
    } else if line.hyphenated {
      let level = pieces.last?.level ?? paragraphLevel
      pieces.append(.snippet(hyphen, level: level))
    }
    // The last glyph of a line that ends inside a kerning pair, as the line's end shapes it
    // (found here for a line overflow-wrap ends inside a word: layout does not keep it).
    var endDelta = line.endAdjustment
    if endDelta == 0 && !truncatedHere && !line.graphemes.isEmpty
      && endsInsideSegment(line.graphemes.upperBound)
    {
      endDelta = lineEndGain(before: line.graphemes.upperBound)
    }
    let endAdjust: (cluster: Int, delta: Double)? =
      truncatedHere || endDelta == 0 || line.graphemes.isEmpty
      ? nil : (Int(graphemeStart[line.graphemes.upperBound - 1]), endDelta)
    // The first glyph of a line that starts with an opening mark trimmed in the paragraph, as
    // the line's start shapes it: whole.
    let startAdjust: (cluster: Int, delta: Double)? =
      line.startAdjustment == 0 || line.graphemes.isEmpty
      ? nil : (Int(graphemeStart[line.graphemes.lowerBound]), line.startAdjustment)
    // A line that overflow-wrap ends or starts inside a ligature: that end or start shaped on
    // its own, as layout measured it (``LigatureSplits``).
    let ligatures = truncatedHere || line.graphemes.isEmpty ? nil : ligaturePieces(line)
    var pen = 0.0
    var out: [GlyphRun] = []
    for piece in LineOrder.visual(pieces, levels: pieces.map(\.level)) {
      let run = place(
        piece, pen: pen, line: index, baseline: line.baseline, endAdjust: endAdjust,
        startAdjust: startAdjust, ligatures: ligatures)
      pen += run.width
      out.append(run)
    }
    return out
  }

  /// Whether a line that ends before grapheme `k` ends inside a segment (overflow-wrap broke
  /// a word there), not at a segment's end.
  func endsInsideSegment(_ k: Int) -> Bool {
    k < graphemeCount && !PreparedText.startsSegment(k, segmentEnds: segmentEnd)
  }

  /// The glyphs a line that starts or ends inside a ligature draws there (``LigatureSplits``):
  /// the start's graphemes shaped on their own, and the end's, which replace the ligature.
  struct LigaturePieces {
    var start: [ShapedGlyph] = []
    var end: (cluster: Int, glyphs: [ShapedGlyph])? = nil

    /// `glyphs` (code points `[from, to)` of a left-to-right run) with the pieces in place.
    func apply(to glyphs: inout [ShapedGlyph], start from: Int, end to: Int) {
      if let end, let k = glyphs.firstIndex(where: { Int($0.cluster) == end.cluster }) {
        glyphs.replaceSubrange(k...k, with: end.glyphs)
      }
      if let first = start.first, Int(first.cluster) >= from, Int(first.cluster) < to {
        glyphs.insert(contentsOf: start, at: 0)
      }
    }
  }

  /// The ligature pieces of `line`, nil when it neither starts nor ends inside a ligature.
  func ligaturePieces(_ line: TextLayout.Line) -> LigaturePieces? {
    let first = line.graphemes.lowerBound
    let last = line.graphemes.upperBound
    var pieces = LigaturePieces()
    if isLigatureTail(first) {
      pieces.start = shapedAlone(graphemes: first..<min(ligatureEnd(after: first), last))
    }
    if isLigatureTail(last) {
      let head = max(ligatureHead(of: last), first)
      pieces.end = (Int(graphemeStart[head]), shapedAlone(graphemes: head..<last))
    }
    return pieces.start.isEmpty && pieces.end == nil ? nil : pieces
  }

  /// A stretch of one line as drawing sees it, in logical order.
  enum LinePiece {
    /// Code points `[start, end)` of shaped run `run`.
    case glyphs(run: Int, start: Int, end: Int, level: UInt8)
    /// A tab, as wide as the layout made it.
    case tab(width: Double, level: UInt8)
    case snippet(ShapedSnippet, level: UInt8)

    var level: UInt8 {
      switch self {
      case .glyphs(_, _, _, let level), .tab(_, let level), .snippet(_, let level): level
      }
    }
  }

  /// The pieces of a line's graphemes from its first counted one to its last visible one.
  func linePieces(_ line: TextLayout.Line, tabsAtStops: Bool) -> [LinePiece] {
    let from = max(line.extentStart, line.graphemes.lowerBound)
    return logicalPieces(
      graphemes: from..<max(from, line.graphemes.upperBound), lineStart: line.graphemes.lowerBound,
      tabsAtStops: tabsAtStops)
  }

  /// Graphemes `graphemes` cut at shaped runs. Tabs get the width the layout gives them: up to
  /// the next tab stop from their pen position on a line that starts at grapheme `lineStart`,
  /// or (`tabsAtStops` false) their grapheme's advance.
  func logicalPieces(graphemes: Range<Int>, lineStart: Int, tabsAtStops: Bool) -> [LinePiece] {
    guard !graphemes.isEmpty else { return [] }
    // Pen positions from the line's start, as the breaker found them (tabs depend on them).
    var tabWidth: [Int: Double] = [:]
    if segmentFlags.contains(where: { $0 & SegmentFlag.hasTab != 0 }) {
      var x = 0.0
      for g in lineStart..<graphemes.upperBound {
        var w = graphemeAdvance[g]
        if graphemeFlags[g] & GraphemeFlag.tab != 0 {
          if tabsAtStops { w = tabAdvance(at: x) }
          tabWidth[g] = w
        }
        x += w
      }
    }
    let a = Int(graphemeStart[graphemes.lowerBound])
    let b = Int(graphemeStart[graphemes.upperBound])
    var pieces: [LinePiece] = []
    var r = runIndex(containing: a)
    while r < runs.count && Int(runs[r].start) < b {
      let run = runs[r]
      let lo = max(a, Int(run.start))
      let hi = min(b, Int(run.end))
      if run.glyphEnd > run.glyphStart {
        pieces.append(.glyphs(run: r, start: lo, end: hi, level: run.level))
      } else if scalars[lo] == 0x09 {
        pieces.append(.tab(width: tabWidth[grapheme(containing: lo)] ?? 0, level: run.level))
      }
      r += 1
    }
    return pieces
  }

  /// Positions a piece's glyphs from pen x `pen`.
  private func place(
    _ piece: LinePiece, pen: Double, line: Int, baseline: Double,
    endAdjust: (cluster: Int, delta: Double)? = nil,
    startAdjust: (cluster: Int, delta: Double)? = nil,
    ligatures: LigaturePieces? = nil
  ) -> GlyphRun {
    let fonts = style.fonts.fonts
    switch piece {
    case .tab(let width, let level):
      return GlyphRun(
        font: fonts[0], size: style.size, glyphs: [], x: [], y: [], advances: [], line: line,
        baseline: baseline, isRightToLeft: level & 1 == 1, origin: pen, width: width)
    case .snippet(let snippet, let level):
      return positioned(
        snippet.glyphs[...], font: fonts[snippet.font], extra: nil, pen: pen, line: line,
        baseline: baseline, rtl: level & 1 == 1)
    case .glyphs(let r, let start, let end, let level):
      let run = runs[r]
      let all = glyphs[Int(run.glyphStart)..<Int(run.glyphEnd)]
      var mine = all.filter { Int($0.cluster) >= start && Int($0.cluster) < end }
      if let ligatures { ligatures.apply(to: &mine, start: start, end: end) }
      if let e = endAdjust, let k = mine.lastIndex(where: { Int($0.cluster) == e.cluster }) {
        mine[k].advance += e.delta
      }
      // (Its half given back: moved right and widened by it, as `halt` had moved and narrowed
      // it.)
      if let e = startAdjust, let k = mine.firstIndex(where: { Int($0.cluster) == e.cluster }) {
        mine[k].advance += e.delta
        mine[k].offsetX += Float(e.delta)
      }
      let extra = style.letterSpacing == 0 ? nil : spacing(of: mine, start: start, end: end)
      return positioned(
        mine[...], font: fonts[Int(run.font)], extra: extra, pen: pen, line: line,
        baseline: baseline, rtl: level & 1 == 1)
    }
  }

  /// Letter spacing per glyph of `glyphs` (code points `[start, end)`), and after the last:
  /// each grapheme's spacing goes to its last glyph in shaping order, or to the glyph of the
  /// nearest earlier code point when it has none (a ligature's second part).
  private func spacing(of glyphs: [ShapedGlyph], start: Int, end: Int) -> [Double] {
    var extra = [Double](repeating: 0, count: glyphs.count + 1)
    let first = grapheme(containing: start)
    let last = grapheme(containing: end - 1)
    var owner = [Int](repeating: -1, count: last - first + 1)
    for (k, g) in glyphs.enumerated() { owner[grapheme(containing: Int(g.cluster)) - first] = k }
    var carried = glyphs.count  // no glyph yet: after the last
    for g in first...last {
      if owner[g - first] >= 0 { carried = owner[g - first] }
      if graphemeFlags[g] & GraphemeFlag.forcedBreak == 0 {
        extra[carried] += style.letterSpacing
      }
    }
    return extra
  }

  private func positioned(
    _ glyphs: ArraySlice<ShapedGlyph>, font: Font, extra: [Double]?, pen start: Double,
    line: Int, baseline: Double, rtl: Bool
  ) -> GlyphRun {
    var pen = start
    var ids: [UInt32] = []
    var xs: [Double] = []
    var ys: [Double] = []
    var advances: [Double] = []
    for (k, g) in glyphs.enumerated() {
      ids.append(g.id)
      xs.append(pen + Double(g.offsetX))
      ys.append(-Double(g.offsetY))
      let advance = g.advance + (extra?[k] ?? 0)
      advances.append(advance)
      pen += advance
    }
    pen += extra?.last ?? 0
    return GlyphRun(
      font: font, size: style.size, glyphs: ids, x: xs, y: ys, advances: advances, line: line,
      baseline: baseline, isRightToLeft: rtl, origin: start, width: pen - start)
  }

  /// The shaped run that holds processed code point `c`.
  func runIndex(containing c: Int) -> Int { ShapedRun.index(containing: c, in: runs) }

  /// The grapheme that holds processed code point `c`.
  func grapheme(containing c: Int) -> Int {
    var lo = 0
    var hi = graphemeAdvance.count
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if Int(graphemeStart[mid]) <= c { lo = mid } else { hi = mid }
    }
    return lo
  }
}

/// The visual order of a line's pieces (UAX #9 rule L2): from the highest level down to the
/// lowest odd one, every maximal sequence at or above the level is reversed.
enum LineOrder {
  static func visual<T>(_ items: [T], levels: [UInt8]) -> [T] {
    guard let highest = levels.max(), highest > 0 else { return items }
    let lowestOdd = levels.filter { $0 & 1 == 1 }.min() ?? highest
    var order = Array(items.indices)
    var level = highest
    while level >= lowestOdd && level > 0 {
      var k = 0
      while k < order.count {
        guard levels[order[k]] >= level else {
          k += 1
          continue
        }
        var e = k
        while e < order.count && levels[order[e]] >= level { e += 1 }
        order[k..<e].reverse()
        k = e
      }
      level -= 1
    }
    return order.map { items[$0] }
  }
}
