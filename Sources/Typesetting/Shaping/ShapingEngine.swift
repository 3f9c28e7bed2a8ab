import CHarfBuzz

/// A run as a shaping engine takes it: code points `[start, end)` of a text, all in one font,
/// direction and script.
package struct ShapingRun {
  package var start: Int
  package var end: Int
  package var font: Font
  package var rtl: Bool
  package var script: hb_script_t

  package init(start: Int, end: Int, font: Font, rtl: Bool, script: hb_script_t) {
    self.start = start
    self.end = end
    self.font = font
    self.rtl = rtl
    self.script = script
  }
}

/// What the shaping stage asks of an engine: shape one run, append its glyphs to ``glyphs`` in
/// the order shaping gives them, and add each glyph's advance to its cluster's code point.
/// The text engine's own is ``HarfBuzzShaper``; the accelerator (`ShapingAccelerator`) is
/// another, in front of one, that answers a run only with HarfBuzz's own glyphs.
package protocol ShapingEngine: AnyObject {
  /// Every glyph shaped since it was last emptied, in the order runs were shaped.
  var glyphs: [ShapedGlyph] { get set }

  /// Shapes `run` of `text`, appending its glyphs and adding their advances (points) to
  /// `advances[cluster]`.
  func shape(
    _ text: [UInt32], run: ShapingRun, size: Double, language: hb_language_t?,
    features: [hb_feature_t], into advances: inout [Double])

  /// Runs (or stretches of runs) shaped, and how many of them without HarfBuzz (a benchmark
  /// figure: the share an accelerator answers).
  var shapingCounts: (runs: Int, direct: Int) { get }

  /// Shaped words kept across texts (an accelerator's word cache; 0 without one).
  var cachedWords: Int { get }
}

extension ShapingEngine {
  /// The glyphs of `run` of `text` shaped on its own, left out of ``glyphs``: a piece measured
  /// apart from its paragraph (a space, an ellipsis, a line's end shaped again).
  func glyphsAlone(
    _ text: [UInt32], run: ShapingRun, size: Double, language: hb_language_t?,
    features: [hb_feature_t]
  ) -> [ShapedGlyph] {
    var advances = [Double](repeating: 0, count: text.count)
    let kept = glyphs.count
    shape(text, run: run, size: size, language: language, features: features, into: &advances)
    let alone = Array(glyphs[kept...])
    glyphs.removeSubrange(kept...)
    return alone
  }
}
