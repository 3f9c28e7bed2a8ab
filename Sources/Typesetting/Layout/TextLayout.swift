import Geometry

/// The lines and size of a ``PreparedText`` laid out at one width.
public struct TextLayout: Sendable, Equatable {
  /// One line box.
  public struct Line: Sendable, Equatable {
    /// Where the line starts in the original text, in code points.
    public var start: Int
    /// Where the line starts in the original text, in UTF-16 code units (in `Character`s:
    /// ``PreparedText/lineStartCharacters(_:)``).
    public var startUTF16: Int
    /// Where the line's visible text ends in the original text (exclusive), in code points.
    public var end: Int
    /// Width from the first to the last visible grapheme (hanging and trailing spaces left out).
    public var width: Double
    /// Ascent of the line box above the baseline.
    public var ascent: Double
    /// Descent of the line box below the baseline.
    public var descent: Double
    /// Top of the line box, from the top of the paragraph.
    public var top: Double
    /// Height of the line box.
    public var height: Double
    /// Baseline, from the top of the paragraph.
    public var baseline: Double
    /// The graphemes of the prepared text on this line (for drawing).
    var graphemes: Range<Int> = 0..<0
    /// The grapheme at which the line's reported width starts (for drawing).
    var extentStart = 0
    /// Whether the line ends at a soft hyphen and shows a hyphen there.
    var hyphenated = false
    /// What the line's last glyph gains, shaped as the line's end (for drawing): a kerning pair
    /// ended there (``PreparedText/endAdjustment(segment:)``), or less the half of a closing
    /// mark that hangs (``PreparedText/endHang(segment:)``).
    var endAdjustment = 0.0
    /// What the line's first glyph gains, shaped as the line's start (for drawing: the half of
    /// an opening mark trimmed in the paragraph, ``PreparedText/startGain(segment:)``).
    var startAdjustment = 0.0
  }

  /// The width the text was laid out in.
  public var width: Double
  /// The line boxes, top to bottom.
  public var lines: [Line]
  /// Height of the paragraph (sum of line boxes and line spacing).
  public var height: Double
  /// Width of the widest line.
  public var widest: Double
  /// Whether `maxLines` cut the text.
  public var isTruncated: Bool
  /// The code point range of the original text that is visible (all of it unless truncated).
  public var visibleRange: Range<Int>
  /// For a truncated layout: where the ellipsis sits, in points from the line start, on the
  /// line that carries it.
  public var ellipsisOffset: Double?
  /// For truncation at the start or in the middle: the graphemes drawn after the ellipsis.
  var truncationTail: Range<Int>? = nil

  /// Number of lines.
  public var lineCount: Int { lines.count }

  /// The height rounded up to a whole number of device pixels at `scale` (1, 2, 3).
  public func height(roundedUpToScale scale: Double) -> Double {
    TextLayout.roundUp(height, scale: scale)
  }

  /// The widest line rounded up to a whole number of device pixels at `scale`.
  public func widest(roundedUpToScale scale: Double) -> Double {
    TextLayout.roundUp(widest, scale: scale)
  }

  /// `value` rounded up to a multiple of 1/scale (``PixelGrid``).
  public static func roundUp(_ value: Double, scale: Double) -> Double {
    PixelGrid.roundedUp(value, scale: scale)
  }
}
