/// The line-box rule of a style: the height of a line from the fonts on it. With `normal` line
/// height a line is as tall as the largest ascent and the largest descent (each with half its
/// font's line gap) of the primary font (the strut) and every font the line uses; a fixed or
/// multiple line height centres the strut in that height; the minimum and maximum line heights
/// clamp it; the apple profile adds the style's line spacing between lines. Measuring, layout
/// and the estimator all ask this one rule.
package struct LineBoxes: Sendable, Hashable {
  /// Per font of the stack, in points, as the profile rounds them (``LineMetrics``).
  package let ascent: [Double]
  package let descent: [Double]
  package let lineGap: [Double]
  let lineHeight: TextStyle.LineHeight
  let size: Double
  let minimum: Double?
  let maximum: Double?
  let profile: TextStyle.Profile
  /// Added between two lines (TextKit's line spacing: the apple profile only).
  package let spacing: Double

  /// The rule of `style` over its fonts' metrics at its size.
  package init(_ style: TextStyle) {
    let m = Self.metrics(style)
    self.init(ascent: m.ascent, descent: m.descent, lineGap: m.lineGap, style: style)
  }

  /// The ascent, descent and line gap of each font of `style`'s stack at its size, as its
  /// profile rounds them.
  static func metrics(_ style: TextStyle) -> (
    ascent: [Double], descent: [Double], lineGap: [Double]
  ) {
    var ascent: [Double] = []
    var descent: [Double] = []
    var lineGap: [Double] = []
    for font in style.fonts.fonts {
      let m = LineMetrics.of(font, size: style.size, profile: style.profile)
      ascent.append(m.ascent)
      descent.append(m.descent)
      lineGap.append(m.lineGap)
    }
    return (ascent, descent, lineGap)
  }

  /// The rule of `style` over metrics already worked out for its fonts at its size.
  init(ascent: [Double], descent: [Double], lineGap: [Double], style: TextStyle) {
    self.ascent = ascent
    self.descent = descent
    self.lineGap = lineGap
    lineHeight = style.lineHeight
    size = style.size
    minimum = style.minimumLineHeight
    maximum = style.maximumLineHeight
    profile = style.profile
    spacing = Self.spacing(style)
  }

  /// The space between two lines in `style`.
  static func spacing(_ style: TextStyle) -> Double {
    style.profile == .apple ? style.lineSpacing : 0
  }

  /// Whether this is the rule of `style`, given that its fonts are those the rule was made
  /// with (what else of a style the rule depends on).
  package func isRule(of style: TextStyle) -> Bool {
    size == style.size && lineHeight == style.lineHeight && minimum == style.minimumLineHeight
      && maximum == style.maximumLineHeight && profile == style.profile
      && spacing == Self.spacing(style)
  }

  /// Whether font `f` of the stack can make a line box other than the strut's: with `normal`
  /// line height, its ascent or descent (half its line gap added) goes past the strut's. A font
  /// that cannot leaves ``box(fonts:)`` exactly as it is without it.
  package func raises(font f: Int) -> Bool {
    guard case .normal = lineHeight, f < ascent.count else { return false }
    let strutGap = lineGap[0] / 2
    return ascent[f] + lineGap[f] / 2 > ascent[0] + strutGap
      || descent[f] + lineGap[f] / 2 > descent[0] + strutGap
  }

  /// The fonts that ``raises(font:)`` (bit i: font i; the first 64).
  package var raisingFonts: UInt64 {
    var m: UInt64 = 0
    for f in 0..<min(64, ascent.count) where raises(font: f) { m |= 1 << UInt64(f) }
    return m
  }

  /// Ascent, descent and height of a line box that uses the fonts in the mask (bit i: font i).
  package func box(fonts mask: UInt64) -> (ascent: Double, descent: Double, height: Double) {
    let strutA = ascent[0]
    let strutD = descent[0]
    var a: Double
    var d: Double
    var h: Double
    switch lineHeight {
    case .normal:
      let strutGap = lineGap[0]
      a = strutA + strutGap / 2
      d = strutD + strutGap / 2
      var m = mask
      while m != 0 {
        let f = m.trailingZeroBitCount
        m &= m - 1
        if f < ascent.count {
          a = max(a, ascent[f] + lineGap[f] / 2)
          d = max(d, descent[f] + lineGap[f] / 2)
        }
      }
      h = a + d
    case .points(let l):
      h = l
      let half = (l - (strutA + strutD)) / 2
      a = strutA + half
      d = strutD + half
    case .multiple(let m):
      h = m * size
      let half = (h - (strutA + strutD)) / 2
      a = strutA + half
      d = strutD + half
    }
    if let lo = minimum, h < lo {
      a += (lo - h) / 2
      d += (lo - h) / 2
      h = lo
    }
    if let hi = maximum, hi > 0, h > hi {
      a -= (h - hi) / 2
      d -= (h - hi) / 2
      h = hi
    }
    return (a, d, h)
  }
}

/// How lines stack in a paragraph: `spacing` (``LineBoxes/spacing``) between each two lines,
/// none above the first. Measuring, layout (each line's top) and the estimator stack lines by
/// it. (Public so that other modules inline it: a call per line cost estimates at a new width
/// 2.6%, docs/PERFORMANCE.md.)
public enum LineStacking {
  /// Where a line's box starts below `lines` lines that end at `bottom`.
  @inlinable public static func top(below bottom: Double, lines: Int, spacing: Double) -> Double {
    lines > 0 ? bottom + spacing : bottom
  }

  /// Where the last of `n` more lines, each `box` tall, ends when they are stacked below `lines`
  /// lines that end at `bottom` (the estimator adds runs of equal lines at once).
  @inlinable public static func bottom(
    below bottom: Double, lines: Int, adding n: Int, box: Double, spacing: Double
  ) -> Double {
    top(below: bottom, lines: lines, spacing: spacing) + Double(n - 1) * spacing + Double(n) * box
  }
}
