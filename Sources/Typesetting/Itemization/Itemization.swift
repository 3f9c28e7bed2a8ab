import CHarfBuzz

/// A stretch of processed code points that shaping takes in one call: one font, one bidi
/// level, one script (see ``Itemization/runEnd(from:scalars:fonts:levels:scripts:table:)``).
struct TextRun {
  var start: Int
  var end: Int
  /// Index of the font in the style's stack that shapes the run.
  var font: UInt8
  var level: UInt8
  var script: hb_script_t
}

/// The second stage of preparing a paragraph: which font of the stack draws each grapheme
/// (fallback), what each grapheme is (space, tab, forced break…), the bidi levels and scripts of
/// the code points, and the runs that shaping takes. Reads ``SourceText``; calls no later stage.
struct Itemization {
  /// Per grapheme: its font's index in the stack, and its ``PreparedText/GraphemeFlag``s.
  var graphemeFont: [UInt8]
  var graphemeFlags: [UInt8]
  /// Per code point: the font that measures it (its grapheme's).
  var scalarFont: [UInt8]
  /// Per code point: the font its run is shaped in — its own, except for a space between words
  /// set in another font (see ``respaced``).
  var shapeFont: [UInt8]
  /// Spaces shaped inside their words' run (another font than theirs), to be given their own
  /// font's advance: half as many runs for text whose words fall back to another font.
  var respaced: [Int]
  /// Per code point: bidi embedding level and script (scratch arrays, given back after shaping).
  var levels: [UInt8]
  var scripts: [hb_script_t]
  var paragraphLevel: UInt8
  /// The runs, in logical order, covering every code point.
  var runs: [TextRun]
  /// Whether some grapheme has characters its font lacks (no font of the stack has them all).
  var hasUncovered = false

  init(_ source: borrowing SourceText, style: borrowing TextStyle, scratch: Scratch) {
    let scalars = source.processed.scalars
    let fonts = style.fonts.fonts
    let gCount = source.graphemeStart.count - 1
    graphemeFont = [UInt8](filling: 0, count: gCount)
    graphemeFlags = [UInt8](filling: 0, count: gCount)
    scalarFont = Scratch.take(&scratch.fonts, count: scalars.count, value: 0)
    scripts = Scratch.take(&scratch.scripts, count: scalars.count, value: HB_SCRIPT_COMMON)
    Itemization.resolveScripts(scalars, into: &scripts)
    hasUncovered = Itemization.fallback(
      scalars, bounds: source.graphemeStart, clusters: source.fontClusterStart,
      scripts: scripts, fonts: fonts, graphemeFont: &graphemeFont, graphemeFlags: &graphemeFlags,
      scalarFont: &scalarFont)
    for g in source.continuations {
      graphemeFlags[Int(g)] |= PreparedText.GraphemeFlag.continuation
    }
    levels = Scratch.take(&scratch.levels, count: 0, value: 0)
    paragraphLevel = Bidi.levels(scalars, direction: style.direction, into: &levels)
    (shapeFont, respaced) = Itemization.respacing(
      scalars, scalarFont: scalarFont, levels: levels, fonts: fonts)
    runs = Itemization.runs(scalars, fonts: shapeFont, levels: levels, scripts: scripts)
  }

  /// Gives the scratch arrays back for the next text.
  mutating func giveBack(to scratch: Scratch) {
    Scratch.giveBack(&scripts, to: &scratch.scripts)
    Scratch.giveBack(&levels, to: &scratch.levels)
    Scratch.giveBack(&scalarFont, to: &scratch.fonts)
  }

  /// Font fallback and grapheme flags, grapheme by grapheme; whether some grapheme has
  /// characters no font of `fonts` has. Fonts are chosen for whole Unicode clusters, `clusters`
  /// (``SourceText/fontClusterStart``: the browser profile splits some for line breaking, not
  /// for fonts), and a
  /// cluster whose characters' resolved `scripts` differ (a Latin letter with a Cyrillic mark)
  /// takes a font per script piece: Chromium segments text into script runs before it chooses
  /// fonts (`RunSegmenter`), and the runs split there (``runs(_:fonts:levels:scripts:)``). A
  /// grapheme's font is its first code point's.
  private static func fallback(
    _ scalars: [UInt32], bounds: [Int32], clusters: [Int32], scripts: [hb_script_t],
    fonts: [Font], graphemeFont: inout [UInt8], graphemeFlags: inout [UInt8],
    scalarFont: inout [UInt8]
  ) -> Bool {
    // (Written through pointers: a write to a captured array checks its uniqueness each time.)
    scalars.withUnsafeBufferPointer { text in
      bounds.withUnsafeBufferPointer { bounds in
        graphemeFont.withUnsafeMutableBufferPointer { gFont in
          graphemeFlags.withUnsafeMutableBufferPointer { gFlags in
            scalarFont.withUnsafeMutableBufferPointer { scalarFont in
              fallback(
                text, bounds, clusters, scripts, fonts, gFont, gFlags, scalarFont)
            }
          }
        }
      }
    }
  }

  /// ``fallback(_:bounds:clusters:scripts:fonts:graphemeFont:graphemeFlags:scalarFont:)``
  /// over memory lent to it.
  private static func fallback(
    _ text: UnsafeBufferPointer<UInt32>, _ bounds: UnsafeBufferPointer<Int32>,
    _ clusters: [Int32], _ scripts: [hb_script_t], _ fonts: [Font],
    _ gFont: UnsafeMutableBufferPointer<UInt8>, _ gFlags: UnsafeMutableBufferPointer<UInt8>,
    _ scalarFont: UnsafeMutableBufferPointer<UInt8>
  ) -> Bool {
    CharacterTable.withLookup { table in
      var uncovered = false
      var c = 0  // the whole cluster that starts at grapheme `g`
      var g = 0
      while g < gFont.count {
        let a = Int(bounds[g])
        let b = Int(bounds[g + 1])
        c += 1
        if b - a == 1 && Int(clusters[c]) == b {
          // Most graphemes: one code point, a whole cluster.
          let one = UnsafeBufferPointer(start: text.baseAddress! + a, count: 1)
          let choice = FontSelection.choice(for: one, in: fonts, table: table)
          if !choice.covered { uncovered = true }
          let f = UInt8(min(choice.font, 255))
          gFont[g] = f
          scalarFont[a] = f
          gFlags[g] = Itemization.flags(of: one, table: table)
          g += 1
          continue
        }
        let h = Itemization.cluster(
          from: g, ending: Int(clusters[c]), text, bounds, scripts, fonts, table, gFont, gFlags,
          scalarFont, uncovered: &uncovered)
        g = h
      }
      return uncovered
    }
  }

  /// Fonts and flags of the whole cluster of several code points that starts at grapheme `g`
  /// and ends at code point `end` (one grapheme, or graphemes the browser profile split);
  /// returns the grapheme after it.
  @inline(never)
  private static func cluster(
    from g: Int, ending end: Int, _ text: UnsafeBufferPointer<UInt32>,
    _ bounds: UnsafeBufferPointer<Int32>, _ scripts: [hb_script_t], _ fonts: [Font],
    _ table: CharacterTable.Lookup, _ gFont: UnsafeMutableBufferPointer<UInt8>,
    _ gFlags: UnsafeMutableBufferPointer<UInt8>, _ scalarFont: UnsafeMutableBufferPointer<UInt8>,
    uncovered: inout Bool
  ) -> Int {
    let a = Int(bounds[g])
    var h = g + 1  // one past the graphemes of the cluster
    while Int(bounds[h]) < end { h += 1 }
    uncovered =
      !Itemization.fonts(
        of: a..<end, graphemes: g..<h, text, bounds, scripts, fonts, table, gFont, scalarFont)
      || uncovered
    for x in g..<h {
      gFlags[x] = Itemization.flags(
        of: UnsafeBufferPointer(rebasing: text[Int(bounds[x])..<Int(bounds[x + 1])]),
        table: table)
    }
    return h
  }

  /// The fonts of a cluster of several code points, code points `range`, graphemes `graphemes`:
  /// a font per script piece; whether every piece's font has it all.
  private static func fonts(
    of range: Range<Int>, graphemes: Range<Int>, _ text: UnsafeBufferPointer<UInt32>,
    _ bounds: UnsafeBufferPointer<Int32>, _ scripts: [hb_script_t], _ fonts: [Font],
    _ table: CharacterTable.Lookup, _ gFont: UnsafeMutableBufferPointer<UInt8>,
    _ scalarFont: UnsafeMutableBufferPointer<UInt8>
  ) -> Bool {
    var covered = true
    var from = range.lowerBound
    while from < range.upperBound {
      let to = pieceEnd(from: from, before: range.upperBound, scripts)
      let choice = FontSelection.choice(
        for: UnsafeBufferPointer(rebasing: text[from..<to]), in: fonts, table: table)
      covered = covered && choice.covered
      let f = UInt8(min(choice.font, 255))
      for k in from..<to { scalarFont[k] = f }
      from = to
    }
    for x in graphemes { gFont[x] = scalarFont[Int(bounds[x])] }
    return covered
  }

  /// Where the script piece of a cluster that starts at `from` ends (before `end`): where the
  /// resolved script changes.
  private static func pieceEnd(from: Int, before end: Int, _ scripts: [hb_script_t]) -> Int {
    var to = from + 1
    while to < end && scripts[to] == scripts[from] { to += 1 }
    return to
  }

  /// The clusters font fallback takes fonts for, between the whole Unicode clusters `bounds`
  /// of `scalars`, whose resolved `scripts` cut them into pieces, as
  /// ``fallback(_:bounds:clusters:scripts:fonts:graphemeFont:graphemeFlags:scalarFont:)``
  /// does: for system fallback, which must look at the same clusters.
  static func fontClusters(_ scalars: [UInt32], bounds: [Int32], scripts: [hb_script_t])
    -> [Int32]
  {
    var out: [Int32] = []
    out.reserveCapacity(bounds.count)
    for g in 0..<(bounds.count - 1) {
      let b = Int(bounds[g + 1])
      var from = Int(bounds[g])
      while from < b {
        out.append(Int32(from))
        from = pieceEnd(from: from, before: b, scripts)
      }
    }
    out.append(bounds.last ?? 0)
    return out
  }

  /// ``fontClusters(_:bounds:scripts:)`` with the scripts resolved here (a text not itemized).
  static func fontClusters(_ scalars: [UInt32], bounds: [Int32]) -> [Int32] {
    var scripts = [hb_script_t](repeating: HB_SCRIPT_COMMON, count: scalars.count)
    resolveScripts(scalars, into: &scripts)
    return fontClusters(scalars, bounds: bounds, scripts: scripts)
  }

  /// Each code point's script: the script of its run, by Chromium's rule (``ScriptRuns``).
  static func resolveScripts(_ scalars: [UInt32], into scripts: inout [hb_script_t]) {
    scalars.withUnsafeBufferPointer { text in
      scripts.withUnsafeMutableBufferPointer { scripts in
        ScriptTable.withLookup { ScriptRuns.resolve(text, into: scripts, table: $0) }
      }
    }
  }

  /// The font each code point is shaped in, and the spaces that are shaped in another font
  /// than theirs: a space set in another font than the words around it (the first font of the
  /// stack with a space, as Chromium does) is shaped inside the words' run.
  private static func respacing(
    _ scalars: [UInt32], scalarFont: [UInt8], levels: [UInt8], fonts: [Font]
  ) -> ([UInt8], [Int]) {
    var shapeFont = scalarFont
    var respaced: [Int] = []
    for i in 1..<max(1, scalars.count) where scalars[i] == 0x20 && shapeFont[i - 1] != scalarFont[i]
    {
      let f = Int(shapeFont[i - 1])
      if levels[i - 1] == levels[i] && scalars[i - 1] != ProcessedText.lineFeed
        && scalars[i - 1] != 0x09 && fonts[f].covers(0x20)
      {
        shapeFont[i] = shapeFont[i - 1]
        respaced.append(i)
      }
    }
    return (shapeFont, respaced)
  }

  /// The runs of the text, one after another.
  private static func runs(
    _ scalars: [UInt32], fonts: [UInt8], levels: [UInt8], scripts: [hb_script_t]
  ) -> [TextRun] {
    var runs: [TextRun] = []
    runs.reserveCapacity(8)
    scalars.withUnsafeBufferPointer { scalars in
      fonts.withUnsafeBufferPointer { fonts in
        levels.withUnsafeBufferPointer { levels in
          scripts.withUnsafeBufferPointer { scripts in
            CharacterTable.withLookup { table in
              appendRuns(scalars, fonts: fonts, levels: levels, scripts: scripts, table: table, to: &runs)
            }
          }
        }
      }
    }
    return runs
  }

  /// ``runs(_:fonts:levels:scripts:)`` over memory lent to it.
  private static func appendRuns(
    _ scalars: UnsafeBufferPointer<UInt32>, fonts: UnsafeBufferPointer<UInt8>,
    levels: UnsafeBufferPointer<UInt8>, scripts: UnsafeBufferPointer<hb_script_t>,
    table: CharacterTable.Lookup, to runs: inout [TextRun]
  ) {
    var start = 0
    while start < scalars.count {
      let end = runEnd(
        from: start, scalars: scalars, fonts: fonts, levels: levels, scripts: scripts, table: table)
      runs.append(
        TextRun(start: start, end: end, font: fonts[start], level: levels[start], script: scripts[start]))
      start = end
    }
  }

  /// Where the run that starts at `start` ends: before a change of font, bidi level or script,
  /// around a line feed or a tab, before a skin tone after VS16, and after
  /// ``maximumMarksPerRun`` marks in a row.
  private static func runEnd(
    from start: Int, scalars: UnsafeBufferPointer<UInt32>, fonts: UnsafeBufferPointer<UInt8>,
    levels: UnsafeBufferPointer<UInt8>, scripts: UnsafeBufferPointer<hb_script_t>,
    table: CharacterTable.Lookup
  ) -> Int {
    let n = scalars.count
    var runEnd = start + 1
    var marks = 0  // combining marks in a row just before runEnd
    while runEnd < n && fonts[runEnd] == fonts[start]
      && levels[runEnd] == levels[start] && scripts[runEnd] == scripts[start]
      && scalars[runEnd] != ProcessedText.lineFeed && scalars[runEnd] != 0x09
      && scalars[runEnd - 1] != ProcessedText.lineFeed && scalars[runEnd - 1] != 0x09
      && !(scalars[runEnd - 1] == 0xFE0F && (0x1F3FB...0x1F3FF).contains(scalars[runEnd]))
    {
      // (A skin tone after VS16, as in ✌️🏾, is not part of an emoji modifier sequence:
      // Chromium draws the base and the swatch as two glyphs.)
      // (No mark comes before U+0300.)
      let c = scalars[runEnd]
      if c >= 0x300 && table.has(c, CharacterTable.combiningMark) {
        marks += 1
        // HarfBuzz walks back over every mark to find a mark's base, which is quadratic in
        // the marks stacked on one base: past the stream-safe limit, shape in pieces.
        if marks > Itemization.maximumMarksPerRun { break }
      } else {
        marks = 0
      }
      runEnd += 1
    }
    return runEnd
  }

  /// The most combining marks in a row that one run takes (the stream-safe text format of
  /// UAX #15 allows 30 non-starters in a row). Marks have no advance of their own, so shaping
  /// the rest of an absurd stack in further runs leaves widths as they were.
  static let maximumMarksPerRun = 32

  /// Whether a grapheme cluster is white space that hangs, a tab, a forced break, a soft hyphen,
  /// or white space left out of reported widths (`table`: the character table, which a loop
  /// over clusters reads once).
  static func flags(of cluster: UnsafeBufferPointer<UInt32>, table: CharacterTable.Lookup)
    -> UInt8
  {
    guard let first = cluster.first else { return 0 }
    var f: UInt8 = 0
    if cluster.count == 1 {
      switch first {
      case 0x20: f |= PreparedText.GraphemeFlag.space
      case 0x09: f |= PreparedText.GraphemeFlag.tab
      case ProcessedText.lineFeed: f |= PreparedText.GraphemeFlag.forcedBreak
      case 0xAD: f |= PreparedText.GraphemeFlag.softHyphen
      default: break
      }
    }
    if cluster.allSatisfy({
      table.has($0, CharacterTable.reportWhitespace)
    }) {
      f |= PreparedText.GraphemeFlag.reportWhitespace
    }
    return f
  }
}
