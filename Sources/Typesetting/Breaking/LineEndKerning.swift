import CHarfBuzz

/// Where a line may end inside a kerning pair, and what its last glyph gains there.
///
/// Chromium's line breaker shapes the end of a line again on its own when the break falls where
/// HarfBuzz says it is not safe to break (`ShapingLineBreaker::ShapeLine`,
/// third_party/blink/renderer/platform/fonts/shaping/shaping_line_breaker.cc): the glyph before
/// the break then has no pair adjustment with the glyph after it, and when the line so shaped
/// no longer fits, the break before is tried. Measured in Chromium 156: "3" before a zero width
/// space and "c" in Inter at 13 px (a line of 319.953 px in the paragraph is 320.25 on its
/// own), a hyphen before a capital in Inter, kana in Noto Sans CJK. HarfBuzz puts a
/// left-to-right pair's adjustment on the first glyph's advance, so the gain is that glyph's
/// own advance minus its advance in the paragraph.
///
/// Found for segments that have no white space hanging after them (a line that ends at a
/// space keeps its last glyph's pair with the space) and whose content's last glyph that takes
/// room is not white space that reported widths leave out, in left-to-right runs, where the glyph is the character's own
/// (not substituted, not halved by text-spacing-trim, not a bitmap) and has a glyph after it in
/// its run. Soft hyphens, where the shown hyphen joins the pair, closing brackets whose half
/// may hang and marks before an opening mark that a line may start wider
/// (``PunctuationTrim``) are left as they are.
enum LineEndKerning {
  /// Per segment, what a line that ends after it gains in width (empty when none gains
  /// anything; the last segment never does: the text ends there).
  static func adjustments(
    _ source: SourceText, items: Itemization, segments: Segmentation, shaped: ShapedText,
    fonts: [Font], size: Double, hangs: [Double], startGains: [Double], reshape: Reshape
  ) -> [Double] {
    let ends = segments.end
    let n = ends.count
    guard n > 1 else { return [] }
    let skip =
      PreparedText.SegmentFlag.forcedBreak | PreparedText.SegmentFlag.softHyphen
      | PreparedText.SegmentFlag.hasTab
    let kerned = PreparedText.GraphemeFlag.kernedEnd | PreparedText.GraphemeFlag.reportWhitespace
    var out: [Double] = []
    let bounds = source.graphemeStart
    let advance = segments.graphemeAdvance
    let flags = segments.flags
    let trailing = segments.trailing
    let graphemeFlags = items.graphemeFlags
    for s in 0..<(n - 1) {
      // (Segments with trailing white space, most of them in spaced scripts, stop here.)
      guard flags[s] & skip == 0, trailing[s] == 0, hangs.isEmpty || hangs[s] == 0,
        startGains.isEmpty || startGains[s + 1] == 0
      else { continue }
      // The last grapheme that takes room (a zero width space after it hangs): a code point
      // of its own whose glyph is kerned, not white space (so the line's visible content ends
      // with it).
      let start = s == 0 ? 0 : Int(ends[s - 1])
      var g = Int(ends[s]) - 1
      while g >= start && advance[g] == 0 { g -= 1 }
      guard g >= start, graphemeFlags[g] & kerned == PreparedText.GraphemeFlag.kernedEnd,
        let end = endGlyph(of: Int(bounds[g]), shaped.runs, shaped.glyphs, fonts: fonts)
      else { continue }
      let c = Int(bounds[g])
      let run = shaped.runs[end.run]
      let font = fonts[Int(run.font)]
      var delta = gain(
        shaped.glyphs[end.glyph], of: source.processed.scalars[c], face: font.hbFont,
        units: size / Double(font.unitsPerEm))
      if delta == nil {
        // A glyph a lookup chose: the end of the line shaped again, from the segment before.
        let before = s == 0 ? 0 : Int(bounds[s == 1 ? 0 : Int(ends[s - 2])])
        delta = reshapedGain(
          shaped.glyphs[end.glyph], at: c, from: max(before, Int(run.start)), font: Int(run.font),
          script: items.scripts[c], reshape)
      }
      guard let delta, delta != 0, !shaped.isHalved(c) else { continue }
      if out.isEmpty { out = [Double](repeating: 0, count: n) }
      out[s] = delta
    }
    return out
  }

  /// The run of code point `c` and its glyph there, when a line that ends after `c` may gain:
  /// the run is left to right and not of a bitmap font, and the glyph is `c`'s alone, with a
  /// glyph after it (no pair without one).
  static func endGlyph(
    of c: Int, _ runs: [ShapedRun], _ glyphs: [ShapedGlyph], fonts: [Font]
  ) -> (run: Int, glyph: Int)? {
    let r = ShapedRun.index(containing: c, in: runs)
    let run = runs[r]
    guard run.level & 1 == 0, fonts[Int(run.font)].bitmapStrikePPEM == nil,
      let a = PunctuationTrim.firstGlyphIndex(of: c, in: run, glyphs),
      a &+ 1 < Int(run.glyphEnd), Int(glyphs[a &+ 1].cluster) != c
    else { return nil }
    return (r, a)
  }

  /// Marks each grapheme of one code point whose glyph in a left-to-right run is
  /// ``ShapedGlyph/kerned`` (``PreparedText/GraphemeFlag/kernedEnd``): the only places where a
  /// line that ends inside a word may gain (``PreparedText/lineEndGain(before:)``), so that a
  /// break elsewhere costs one look. Whether it marked any (none: no line end gains).
  static func markKernedEnds(_ shaped: ShapedText, bounds: [Int32], flags: inout [UInt8]) -> Bool {
    let runs = shaped.runs
    return shaped.glyphs.withUnsafeBufferPointer { glyphs in
      bounds.withUnsafeBufferPointer { bounds in
        flags.withUnsafeMutableBufferPointer { flags in
          markKernedEnds(runs, glyphs, bounds, flags)
        }
      }
    }
  }

  /// ``markKernedEnds(_:bounds:flags:)`` over memory lent to it.
  private static func markKernedEnds(
    _ runs: [ShapedRun], _ glyphs: UnsafeBufferPointer<ShapedGlyph>,
    _ bounds: UnsafeBufferPointer<Int32>, _ flags: UnsafeMutableBufferPointer<UInt8>
  ) -> Bool {
    var marked = false
    // The grapheme at or after the glyph's code point, walked to from the last one's (clusters
    // go forward in a left-to-right run, but for a reordering shaper's few steps back).
    let graphemes = flags.count
    var g = 0
    for run in runs where run.level & 1 == 0 {
      for a in Int(run.glyphStart)..<Int(run.glyphEnd) where glyphs[a].kerned {
        let c = glyphs[a].cluster
        while g > 0 && bounds[g &- 1] >= c { g &-= 1 }
        while g < graphemes && bounds[g] < c { g &+= 1 }
        if g < graphemes && bounds[g] == c && bounds[g &+ 1] == c &+ 1 {
          flags[g] |= PreparedText.GraphemeFlag.kernedEnd
          marked = true
        }
      }
    }
    return marked
  }

  /// What a line whose last glyph is `glyph`, the one of `scalar` in a left-to-right run of
  /// `face` with a glyph after it, gains when its end is shaped on its own: its own advance
  /// less its advance in the paragraph; 0 when the glyph is not ``ShapedGlyph/kerned`` (no
  /// pair made its advance: shaping leaves the break safe, and Chromium keeps the
  /// paragraph's glyphs) or when that is nothing; nil when the glyph is not the character's
  /// own (a lookup chose it, and may choose another at the line's end: only shaping the end
  /// again tells).
  static func gain(_ glyph: ShapedGlyph, of scalar: UInt32, face: OpaquePointer, units: Double)
    -> Double?
  {
    guard glyph.kerned else { return 0 }
    if let own = glyph.ownAdvance {
      // (Kept by shaping, which asked the font.)
      let delta = Double(own) * units - glyph.advance
      return abs(delta) > 1e-9 ? delta : 0
    }
    let delta = Font.ownAdvance(of: glyph.id, in: face, pointsPerUnit: units) - glyph.advance
    guard abs(delta) > 1e-9 else { return 0 }
    var nominal: hb_codepoint_t = 0
    guard hb_font_get_nominal_glyph(face, scalar, &nominal) != 0, nominal == glyph.id else {
      return nil
    }
    return delta
  }

  /// Shapes code points `[from, end)` of the text on their own in font `font` of the stack
  /// and `script` (the style's size, language and features; left to right) and gives their
  /// glyphs, clusters counted from `from`.
  typealias Reshape = (_ from: Int, _ end: Int, _ font: Int, _ script: hb_script_t) -> [ShapedGlyph]

  /// What a line gains that ends after code point `c` (its glyph `glyph`, one a lookup chose)
  /// when its end, from `from`, is shaped on its own (Chromium shapes from the last safe
  /// break; the segment before is taken as enough): the advance `c`'s glyphs then have less
  /// the paragraph's.
  static func reshapedGain(
    _ glyph: ShapedGlyph, at c: Int, from: Int, font: Int, script: hb_script_t, _ reshape: Reshape
  ) -> Double? {
    let alone = reshape(from, c + 1, font, script).filter { Int($0.cluster) == c - from }
    guard !alone.isEmpty else { return nil }
    return alone.reduce(0) { $0 + $1.advance } - glyph.advance
  }
}

extension PreparedText {
  /// What a line gains that `overflow-wrap` ends before grapheme `k`, inside a word, when the
  /// glyph before the break kerns with the one after it: Chromium shapes that line's end on
  /// its own as at any other break (``LineEndKerning``; kana in Noto Sans CJK JP, measured in
  /// Chromium 156: a line of 21 kana is 315.016 px, not the paragraph's 315.766). Browser
  /// profile only; 0 where the rule does not apply (a cluster of several code points, white
  /// space, right to left, a bitmap font, a mark set half-width).
  func lineEndGain(before k: Int) -> Double {
    guard k > 0, k < graphemeAdvance.count,
      graphemeFlags[k &- 1] & (GraphemeFlag.kernedEnd | GraphemeFlag.reportWhitespace)
        == GraphemeFlag.kernedEnd
    else { return 0 }
    let c = Int(graphemeStart[k &- 1])
    let fonts = style.fonts.fonts
    guard let end = LineEndKerning.endGlyph(of: c, runs, glyphs, fonts: fonts),
      halved.isEmpty || !PunctuationTrim.isHalved(c, in: halved)
    else { return 0 }
    let font = fonts[Int(runs[end.run].font)]
    // (A glyph a lookup chose keeps its advance: layout shapes nothing.)
    return LineEndKerning.gain(
      glyphs[end.glyph], of: scalars[c], face: font.hbFont,
      units: style.size / Double(font.unitsPerEm)) ?? 0
  }
}
