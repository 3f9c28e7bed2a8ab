import CHarfBuzz

/// The third stage of preparing a paragraph: every run of the ``Itemization`` shaped by a
/// ``ShapingEngine``, with text-spacing-trim's `halt` where it applies (``HaltShaping``) and
/// respaced spaces given their own font's advance. Its output is what measuring sums and
/// drawing places: the glyphs, the runs that own them, and each code point's advance.
struct ShapedText {
  /// Per processed code point: the advance of its glyphs (a scratch array; give it back).
  var advances: [Double]
  /// The glyphs, run after run, in shaping order.
  var glyphs: [ShapedGlyph]
  /// The runs in logical order, covering every code point.
  var runs: [ShapedRun]
  /// The code points set half-width by text-spacing-trim (``PunctuationTrim``).
  var halved: [Int]
  /// The text holds punctuation that text-spacing-trim sets (``PunctuationTrim/mayTrim(_:)``).
  var mayTrim: Bool

  /// Whether text-spacing-trim set code point `c` half-width.
  func isHalved(_ c: Int) -> Bool { PunctuationTrim.isHalved(c, in: halved) }

  init(
    _ source: borrowing SourceText, items: borrowing Itemization, style: borrowing TextStyle,
    language: hb_language_t?, engine: some ShapingEngine, scratch: Scratch
  ) {
    let scalars = source.processed.scalars
    let fonts = style.fonts.fonts
    var advances = Scratch.take(&scratch.advances, count: scalars.count, value: 0)
    let features = HarfBuzzShaper.features(style.features)
    let mayTrim = style.profile == .browser && PunctuationTrim.mayTrim(scalars)
    let halved = mayTrim ? PunctuationTrim.halvedPairs(scalars, language: style.language) : []
    var halvedNext = 0  // first entry of `halved` not before the current run
    var halt = HaltShaping()
    engine.glyphs.removeAll(keepingCapacity: true)
    var shapedRuns: [ShapedRun] = []
    shapedRuns.reserveCapacity(items.runs.count)
    for run in items.runs {
      let c = scalars[run.start]
      if run.end - run.start == 1 && (c == ProcessedText.lineFeed || c == 0x09) {
        // Forced breaks take no space; tabs are sized at layout time.
      } else {
        while halvedNext < halved.count && halved[halvedNext] < run.start { halvedNext += 1 }
        var halvedEnd = halvedNext
        while halvedEnd < halved.count && halved[halvedEnd] < run.end { halvedEnd += 1 }
        let request = ShapingRun(
          start: run.start, end: run.end, font: fonts[Int(run.font)], rtl: run.level & 1 == 1,
          script: run.script)
        halt.shape(
          scalars, run: request, halved: halved[halvedNext..<halvedEnd], features: features,
          size: style.size, language: language, shaper: engine, into: &advances)
        halvedNext = halvedEnd
      }
      shapedRuns.append(
        ShapedRun(
          start: Int32(run.start), end: Int32(run.end),
          glyphStart: shapedRuns.last?.glyphEnd ?? 0, glyphEnd: Int32(engine.glyphs.count),
          font: run.font, level: run.level))
    }
    if !items.respaced.isEmpty {
      ShapedText.respace(
        scalars, items: items, fonts: fonts, style: style, language: language,
        features: features, engine: engine, advances: &advances)
    }
    // (A copy of exactly its length: `Array(engine.glyphs)` would share the engine's buffer.)
    var glyphs = engine.glyphs.withUnsafeBufferPointer { Array($0) }
    if engine.glyphs.capacity > Scratch.keptCapacity { engine.glyphs = [] }
    if !items.respaced.isEmpty {
      ShapedText.respaceGlyphs(&glyphs, respaced: items.respaced, advances: advances)
    }
    self.glyphs = glyphs
    runs = shapedRuns
    self.halved = halved
    self.mayTrim = mayTrim
    self.advances = advances
  }

  /// Gives the scratch array back for the next text.
  mutating func giveBack(to scratch: Scratch) {
    Scratch.giveBack(&advances, to: &scratch.advances)
  }

  /// Gives each respaced space (shaped in its words' font) its own font's advance in
  /// `advances` (``respaceGlyphs(_:respaced:advances:)`` then gives it to its glyph).
  private static func respace(
    _ scalars: [UInt32], items: Itemization, fonts: [Font], style: TextStyle,
    language: hb_language_t?, features: [hb_feature_t], engine: some ShapingEngine,
    advances: inout [Double]
  ) {
    // The space's advance in each font of the stack, shaped once (NaN until then).
    var spaceAdvance = [Double](filling: .nan, count: fonts.count)
    for i in items.respaced {
      let f = Int(items.scalarFont[i])
      if spaceAdvance[f].isNaN {
        var one = [0.0]
        let kept = engine.glyphs.count
        engine.shape(
          [0x20], run: ShapingRun(start: 0, end: 1, font: fonts[f], rtl: false,
            script: items.scripts[i]),
          size: style.size, language: language, features: features, into: &one)
        engine.glyphs.removeSubrange(kept...)
        spaceAdvance[f] = one[0]
      }
      advances[i] = spaceAdvance[f]
    }
  }

  /// Gives the first glyph of each respaced space its advance, and its other glyphs none.
  private static func respaceGlyphs(
    _ glyphs: inout [ShapedGlyph], respaced: [Int], advances: [Double]
  ) {
    // Per code point: 1 for a respaced space whose glyph is still to come, 2 once it came.
    var mark = [UInt8](filling: 0, count: advances.count)
    for i in respaced { mark[i] = 1 }
    for k in glyphs.indices {
      let c = Int(glyphs[k].cluster)
      guard c < mark.count, mark[c] != 0 else { continue }
      glyphs[k].advance = mark[c] == 1 ? advances[c] : 0
      mark[c] = 2
    }
  }
}
