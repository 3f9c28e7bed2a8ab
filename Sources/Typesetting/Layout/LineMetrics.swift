/// A font's vertical metrics at a size, rounded the way a profile rounds them.
struct LineMetrics {
  var ascent: Double
  var descent: Double
  var lineGap: Double

  /// - browser: ascent and descent each rounded to whole pixels (Chromium on Linux, via Skia);
  /// - apple: exact values.
  static func of(_ font: Font, size: Double, profile: TextStyle.Profile) -> LineMetrics {
    let a = font.ascender * size
    let d = font.descender * size
    let g = font.lineGap * size
    switch profile {
    case .apple: return LineMetrics(ascent: a, descent: d, lineGap: g)
    case .browser:
      return LineMetrics(ascent: a.rounded(), descent: d.rounded(), lineGap: g.rounded())
    }
  }
}
