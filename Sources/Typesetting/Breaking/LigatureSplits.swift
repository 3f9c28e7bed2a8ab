import CHarfBuzz

/// Where `overflow-wrap` breaks a word inside a ligature, and how wide the two lines are there.
///
/// A ligature's glyph (`ff`, `fi`, `fl` in Noto Sans and DejaVu Sans) takes its whole advance
/// at its first character; the characters after it have no glyph. Chromium's line breaker
/// places those characters where the ligature starts (`ShapeResult::ComputePositionData`,
/// third_party/blink/renderer/platform/fonts/shaping/shape_result.cc: a character without a
/// glyph takes the position of the glyph before it), so a break after the ligature's first
/// character is a candidate whenever the ligature starts within the line; the line's end is
/// then shaped again on its own and compared with the width in layout units, and when it does
/// not fit the break before is tried (`ShapingLineBreaker::ShapeLine`, shaping_line_breaker.cc).
/// The next line starts with the ligature's other characters shaped on their own: it starts
/// that much wider, as a line after a trimmed mark does (measured on 1,500 cases in Chromium 156,
/// `Corpus/ligatures.jsonl`: fitted with that width, not from the ligature's start).
///
/// Found for left-to-right runs whose glyphs keep their characters' order, browser profile,
/// where lines may break inside words. Each piece is shaped while preparing (``Split``:
/// measuring shapes nothing); drawing shapes the pieces of the lines it draws again, for their
/// glyphs.
enum LigatureSplits {
  /// Marks each grapheme that starts inside another grapheme's glyph in a left-to-right run
  /// (``PreparedText/GraphemeFlag/ligatureTail``): a line that overflow-wrap ends or starts
  /// there is shaped again. Not a grapheme that starts a segment (`segmentEnds`: one past each
  /// segment's last grapheme): a line that ends at a soft hyphen inside a ligature keeps it, as
  /// at other segment ends (``LineEndKerning``). Whether it marked any.
  static func markTails(
    _ shaped: ShapedText, bounds: [Int32], segmentEnds: [Int32], flags: inout [UInt8]
  ) -> Bool {
    var marked = false
    for run in shaped.runs
    where run.level & 1 == 0 && run.glyphEnd > run.glyphStart
      // (Only a run of fewer glyphs than code points may have a glyph of several.)
      && run.glyphEnd - run.glyphStart < run.end - run.start
    {
      marked = markTails(run, shaped.glyphs, bounds, segmentEnds, &flags) || marked
    }
    return marked
  }

  /// ``markTails(_:bounds:segmentEnds:flags:)`` for one run.
  private static func markTails(
    _ run: ShapedRun, _ glyphs: [ShapedGlyph], _ bounds: [Int32], _ segmentEnds: [Int32],
    _ flags: inout [UInt8]
  ) -> Bool {
    let first = Int(run.glyphStart)
    let last = Int(run.glyphEnd) - 1
    // (A run whose shaper reordered glyphs, an Indic matra before its base, has glyphs of code
    // points inside another's span: no piece of it is a ligature's alone.)
    for a in first..<last where glyphs[a].cluster > glyphs[a + 1].cluster { return false }
    var marked = false
    // The first grapheme that starts after the glyph's code point (graphemes go forward with
    // the clusters of the run).
    var g = 0
    var hi = flags.count
    let c0 = Int(glyphs[first].cluster)
    while g < hi {
      let mid = (g + hi) / 2
      if Int(bounds[mid]) <= c0 { g = mid + 1 } else { hi = mid }
    }
    for a in first...last {
      let c = Int(glyphs[a].cluster)
      let next = a < last ? Int(glyphs[a + 1].cluster) : Int(run.end)
      guard next > c + 1 else { continue }
      while g < flags.count && Int(bounds[g]) <= c { g += 1 }
      while g < flags.count && Int(bounds[g]) < next {
        if !PreparedText.startsSegment(g, segmentEnds: segmentEnds) {
          flags[g] |= PreparedText.GraphemeFlag.ligatureTail
          marked = true
        }
        g += 1
      }
    }
    return marked
  }

  /// A break inside a ligature, before grapheme `grapheme` (a tail): what the line that ends
  /// there gains (the ligature's graphemes before it shaped on their own, less their advance
  /// in the paragraph) and what the line that starts there gains (its graphemes to the
  /// ligature's end, likewise).
  struct Split: Sendable, Equatable {
    var grapheme: Int32
    var endGain: Double
    var startGain: Double
  }

  /// The splits of every grapheme marked a tail in `flags`, in order (worked out while
  /// preparing, so that measuring shapes nothing).
  static func splits(
    _ source: SourceText, flags: [UInt8], advances: [Double], runs: [ShapedRun], fonts: [Font],
    style: TextStyle, language: hb_language_t?, engine: some ShapingEngine
  ) -> [Split] {
    var out: [Split] = []
    let bounds = source.graphemeStart
    let scalars = source.processed.scalars
    let tail = PreparedText.GraphemeFlag.ligatureTail
    var head = 0
    for g in flags.indices {
      guard flags[g] & tail != 0 else {
        head = g
        continue
      }
      var end = g + 1
      while end < flags.count && flags[end] & tail != 0 { end += 1 }
      let font = fonts[Int(runs[ShapedRun.index(containing: Int(bounds[g]), in: runs)].font)]
      /// The graphemes `[a, b)` shaped on their own, less their paragraph advances.
      func gain(_ a: Int, _ b: Int) -> Double {
        let alone = shapeAlone(
          scalars, Int(bounds[a]), Int(bounds[b]), font: font, style: style, language: language,
          engine: engine)
        return alone.reduce(0) { $0 + $1.advance } + Double(b - a) * style.letterSpacing
          - advances[a..<b].reduce(0, +)
      }
      out.append(Split(grapheme: Int32(g), endGain: gain(head, g), startGain: gain(g, end)))
    }
    return out
  }

  /// Code points `[from, end)` of `scalars` shaped on their own in `font` (left to right), with
  /// the code points around them as context (HarfBuzz reads at most five on each side), clusters
  /// counted in `scalars`: the one way a ligature's piece is shaped, while preparing, measuring
  /// and drawing.
  static func shapeAlone(
    _ scalars: [UInt32], _ from: Int, _ end: Int, font: Font, style: TextStyle,
    language: hb_language_t?, engine: some ShapingEngine
  ) -> [ShapedGlyph] {
    let lo = max(0, from - 5)
    var glyphs = engine.glyphsAlone(
      Array(scalars[lo..<min(scalars.count, end + 5)]),
      run: ShapingRun(
        start: from - lo, end: end - lo, font: font, rtl: false,
        script: HarfBuzzShaper.script(of: scalars[from])),
      size: style.size, language: language, features: HarfBuzzShaper.features(style.features))
    for k in glyphs.indices { glyphs[k].cluster += Int32(lo) }
    return glyphs
  }
}

extension PreparedText {
  /// Whether grapheme `g` starts inside a ligature (``LigatureSplits``).
  func isLigatureTail(_ g: Int) -> Bool {
    g < graphemeCount && graphemeFlags[g] & GraphemeFlag.ligatureTail != 0
  }

  /// The first grapheme of the ligature that grapheme `g` (a tail) is inside.
  func ligatureHead(of g: Int) -> Int {
    var h = g
    while h > 0 && graphemeFlags[h] & GraphemeFlag.ligatureTail != 0 { h -= 1 }
    return h
  }

  /// One past the last tail of the ligature that holds grapheme `g`.
  func ligatureEnd(after g: Int) -> Int {
    var e = g + 1
    while e < graphemeCount && graphemeFlags[e] & GraphemeFlag.ligatureTail != 0 { e += 1 }
    return e
  }

  /// Graphemes `graphemes` (inside one shaped run) shaped on their own, as a line's end or
  /// start inside a ligature is, clusters counted in the text's code points
  /// (``LigatureSplits/shapeAlone(_:_:_:font:style:language:engine:)``).
  func shapedAlone(graphemes: Range<Int>) -> [ShapedGlyph] {
    let from = Int(graphemeStart[graphemes.lowerBound])
    let end = Int(graphemeStart[graphemes.upperBound])
    guard from < end else { return [] }
    return LigatureSplits.shapeAlone(
      scalars, from, end, font: style.fonts.fonts[Int(runs[runIndex(containing: from)].font)],
      style: style, language: LanguageTag.harfBuzz(style.language), engine: HarfBuzzShaper())
  }

  /// The split before grapheme `g`, a ligature's tail (``LigatureSplits/Split``); nil when `g`
  /// is not one.
  func ligatureSplit(_ g: Int) -> LigatureSplits.Split? {
    guard isLigatureTail(g) else { return nil }
    return ligatureSplits.withUnsafeBufferPointer { splits in
      var lo = 0
      var hi = splits.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if Int(splits[mid].grapheme) < g { lo = mid + 1 } else { hi = mid }
      }
      return lo < splits.count && Int(splits[lo].grapheme) == g ? splits[lo] : nil
    }
  }

  /// What a line that starts at grapheme `g` gains when `g` is a ligature's tail (0 when not).
  func ligatureStartGain(_ g: Int) -> Double { ligatureSplit(g)?.startGain ?? 0 }
}
