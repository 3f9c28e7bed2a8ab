import CHarfBuzz

/// A run as a shaping engine takes it: code points `[start, end)` of a text, all in one font,
/// direction and script.
struct ShapingRun {
  var start: Int
  var end: Int
  var font: Font
  var rtl: Bool
  var script: hb_script_t
}

/// What the shaping stage asks of an engine: shape one run, append its glyphs to ``glyphs`` in
/// the order shaping gives them, and add each glyph's advance to its cluster's code point.
/// ``Shaper`` is the engine: HarfBuzz is the reference, and the accelerator inside it answers a
/// run only with HarfBuzz's own glyphs.
protocol ShapingEngine: AnyObject {
  /// Every glyph shaped since it was last emptied, in the order runs were shaped.
  var glyphs: [ShapedGlyph] { get set }

  /// Shapes `run` of `text`, appending its glyphs and adding their advances (points) to
  /// `advances[cluster]`.
  func shape(
    _ text: [UInt32], run: ShapingRun, size: Double, language: hb_language_t?,
    features: [hb_feature_t], into advances: inout [Double])
}
