import CHarfBuzz

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
  /// Each glyph's advance, points.
  public let advances: [Double]
  /// The line the run is on (index into `TextLayout.lines`).
  public let line: Int
  /// The line's baseline, from the top of the paragraph.
  public let baseline: Double
  /// Whether the run is right-to-left.
  public let isRightToLeft: Bool
}

extension PreparedText {
  /// Whether the paragraph's base direction is right-to-left (lines then align to the right).
  public var isRightToLeft: Bool {
    Bidi.levels(scalars, direction: style.direction).paragraph & 1 == 1
  }

  /// The glyphs of every line of `layout`, shaped again run by run (same fonts, directions and
  /// scripts as measuring used), in visual order: what a renderer draws. A truncated line ends
  /// with the ellipsis.
  /// - Complexity: O(n) shaping; for drawing, not for measuring.
  public func glyphRuns(_ layout: TextLayout) -> [GlyphRun] {
    let fonts = style.fonts.fonts
    let (levels, _) = Bidi.levels(scalars, direction: style.direction)
    let language = style.language.isEmpty ? nil : hb_language_from_string(style.language, -1)
    let features = Shaper.features(style.features)
    let buffer = hb_buffer_create()!
    defer { hb_buffer_destroy(buffer) }
    var out: [GlyphRun] = []
    var scalarFont = [Int](repeating: 0, count: scalars.count)
    for g in 0..<graphemeAdvance.count {
      for k in Int(graphemeStart[g])..<Int(graphemeStart[g + 1]) {
        scalarFont[k] = Int(graphemeFont[g])
      }
    }
    for (li, line) in layout.lines.enumerated() {
      let a = Int(graphemeStart[line.graphemes.lowerBound])
      let b = Int(graphemeStart[line.graphemes.upperBound])
      // Logical runs of one font, level and script; line feeds and tabs draw nothing.
      var runs: [(Int, Int)] = []
      var i = a
      while i < b {
        if scalars[i] == 0x0A || scalars[i] == 0x09 {
          i += 1
          continue
        }
        var j = i + 1
        while j < b && scalarFont[j] == scalarFont[i] && levels[j] == levels[i]
          && scalars[j] != 0x0A && scalars[j] != 0x09
          && (Shaper.isCommonOrInherited(Shaper.script(of: scalars[j]))
            || Shaper.script(of: scalars[j]) == Shaper.script(of: scalars[i])
            || Shaper.isCommonOrInherited(Shaper.script(of: scalars[i])))
        {
          j += 1
        }
        runs.append((i, j))
        i = j
      }
      // Visual order (UAX #9 L2): reverse each maximal sequence at or above every odd level.
      var order = Array(runs.indices)
      if let maxLevel = runs.map({ levels[$0.0] }).max(), maxLevel > 0 {
        let lowestOdd = runs.map { levels[$0.0] }.filter { $0 & 1 == 1 }.min() ?? maxLevel
        var level = maxLevel
        while level >= lowestOdd && level > 0 {
          var k = 0
          while k < order.count {
            if levels[runs[order[k]].0] >= level {
              var e = k
              while e < order.count && levels[runs[order[e]].0] >= level { e += 1 }
              order[k..<e].reverse()
              k = e
            } else {
              k += 1
            }
          }
          level -= 1
        }
      }
      var pen = 0.0
      for r in order {
        let (s, e) = runs[r]
        let font = fonts[scalarFont[s]]
        let rtl = levels[s] & 1 == 1
        hb_buffer_clear_contents(buffer)
        scalars.withUnsafeBufferPointer { p in
          hb_buffer_add_utf32(buffer, p.baseAddress, Int32(p.count), UInt32(s), Int32(e - s))
        }
        hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        var script = Shaper.script(of: scalars[s])
        for k in s..<e where !Shaper.isCommonOrInherited(Shaper.script(of: scalars[k])) {
          script = Shaper.script(of: scalars[k])
          break
        }
        hb_buffer_set_script(buffer, script)
        if let language { hb_buffer_set_language(buffer, language) }
        features.withUnsafeBufferPointer { f in
          hb_shape(font.hbFont, buffer, f.baseAddress, UInt32(f.count))
        }
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)!
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        let unit = style.size / Double(font.unitsPerEm)
        var glyphs: [UInt32] = []
        var xs: [Double] = []
        var ys: [Double] = []
        var advs: [Double] = []
        for k in 0..<Int(count) {
          let g = infos[k].codepoint
          var adv = Double(positions[k].x_advance) * unit
          if let ppem = font.bitmapStrikePPEM, Int(g) < font.bitmapAdvances.count,
            positions[k].x_advance != 0
          {
            adv = font.bitmapAdvances[Int(g)] * style.size / Double(ppem)
          }
          glyphs.append(g)
          xs.append(pen + Double(positions[k].x_offset) * unit)
          ys.append(-Double(positions[k].y_offset) * unit)
          advs.append(adv)
          pen += adv
        }
        out.append(
          GlyphRun(
            font: font, size: style.size, glyphs: glyphs, x: xs, y: ys, advances: advs, line: li,
            baseline: line.baseline, isRightToLeft: rtl))
      }
      if layout.isTruncated && li == layout.lines.count - 1, let offset = layout.ellipsisOffset {
        let ellipsis: [UInt32] = [0x2026]
        let fi = FontSelection.font(for: ellipsis[...], in: fonts)
        let font = fonts[fi]
        if let g = font.glyph(for: 0x2026) {
          var glyph = hb_codepoint_t(g)
          let adv =
            Double(hb_font_get_glyph_h_advance(font.hbFont, glyph)) * style.size
            / Double(font.unitsPerEm)
          glyph = hb_codepoint_t(g)
          out.append(
            GlyphRun(
              font: font, size: style.size, glyphs: [g], x: [offset], y: [0], advances: [adv],
              line: li,
              baseline: line.baseline, isRightToLeft: false))
        }
      }
    }
    return out
  }
}
