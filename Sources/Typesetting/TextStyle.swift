/// How a paragraph of text is set: fonts, size, wrapping and line height.
///
/// Field names and meanings follow CSS where CSS has the concept (the conformance corpus is
/// measured against Chromium with the same names); Apple-only concepts (minimum/maximum line
/// height, line spacing) are extra fields.
public struct TextStyle: Sendable, Hashable {
  /// CSS `white-space`.
  public enum WhiteSpace: String, Sendable, Hashable, CaseIterable {
    /// Collapse spaces, tabs and newlines into one space; wrap.
    case normal
    /// Keep spaces, tabs and newlines; wrap; trailing spaces hang.
    case preWrap = "pre-wrap"
    /// Keep spaces, tabs and newlines; never wrap.
    case pre
    /// Collapse like `normal`; never wrap.
    case nowrap

    /// Whether runs of spaces, tabs and newlines collapse into one space (`normal`, `nowrap`).
    @inlinable public var collapses: Bool { self == .normal || self == .nowrap }
    /// Whether lines wrap at break opportunities (`normal`, `pre-wrap`).
    @inlinable public var wraps: Bool { self == .normal || self == .preWrap }
  }

  /// CSS `word-break`.
  public enum WordBreak: String, Sendable, Hashable, CaseIterable {
    /// Break where UAX #14 (as tailored by Chromium) allows.
    case normal
    /// No breaks between letters or numbers (Korean words stay whole; Apple's `.hangulWordPriority`).
    case keepAll = "keep-all"
    /// Breaks between any two letters as well.
    case breakAll = "break-all"
  }

  /// CSS `overflow-wrap`.
  public enum OverflowWrap: String, Sendable, Hashable, CaseIterable {
    /// A word wider than the line overflows it.
    case normal
    /// A word wider than the line breaks between grapheme clusters.
    case breakWord = "break-word"
    /// Like `breakWord` (they differ only in intrinsic sizes, which Galley does not compute).
    case anywhere
  }

  /// The height of a line box.
  public enum LineHeight: Sendable, Hashable {
    /// From the fonts' ascent, descent and line gap (rounded as the profile says).
    case normal
    /// A fixed height in points.
    case points(Double)
    /// A multiple of the font size (CSS unitless `line-height`).
    case multiple(Double)
  }

  /// The base direction of the paragraph.
  public enum Direction: String, Sendable, Hashable, CaseIterable {
    /// From the first strong character (CSS `unicode-bidi: plaintext`).
    case auto
    case leftToRight = "ltr"
    case rightToLeft = "rtl"
  }

  /// Where an ellipsis replaces text that does not fit in `maxLines`.
  public enum Truncation: String, Sendable, Hashable, CaseIterable {
    case end, middle, start
  }

  /// Which engine's conventions to follow where engines legitimately differ.
  public enum Profile: String, Sendable, Hashable, CaseIterable {
    /// CSS Text as Chromium implements it (the conformance corpus is measured with this).
    case browser
    /// TextKit conventions: U+2028/2029 break lines, exact metrics, sizes rounded up to 1/scale.
    case apple
  }

  /// The fonts, in fallback order.
  public var fonts: FontStack
  /// Font size in points (CSS px).
  public var size: Double
  /// The height of each line box.
  public var lineHeight: LineHeight = .normal
  /// How spaces, tabs and newlines are kept, and whether lines wrap.
  public var whiteSpace: WhiteSpace = .preWrap
  /// Where words may break.
  public var wordBreak: WordBreak = .normal
  /// Whether a word wider than the line breaks between grapheme clusters.
  public var overflowWrap: OverflowWrap = .breakWord
  /// BCP 47 language; every run is shaped with it, and line breaking is tailored by it.
  public var language: String = ""
  /// The paragraph's base direction.
  public var direction: Direction = .auto
  /// Extra advance after every grapheme cluster, in points.
  public var letterSpacing: Double = 0
  /// Tab stops every `tabSize` spaces (0: a tab is as wide as the letter spacing, as CSS
  /// `tab-size: 0`).
  public var tabSize: Int = 8
  /// OpenType features, e.g. `["liga": 0, "ss01": 1]`; kerning and ligatures are on by default.
  public var features: [FeatureTag: UInt32] = [:]
  /// At most this many lines (nil: no limit); the rest is truncated with an ellipsis.
  public var maxLines: Int? = nil
  /// Where the ellipsis goes when `maxLines` cuts the text.
  public var truncation: Truncation = .end
  /// Apple-style bounds on the line height and extra space between lines (points).
  public var minimumLineHeight: Double? = nil
  /// Apple-style maximum line height (points).
  public var maximumLineHeight: Double? = nil
  /// Apple-style extra space between lines (points; the apple profile).
  public var lineSpacing: Double = 0
  /// Whose conventions to follow where engines differ.
  public var profile: Profile = .browser

  /// A style with the given fonts and size, and CSS defaults otherwise (but `pre-wrap`, as chat
  /// text keeps the spaces and newlines its author typed).
  public init(fonts: FontStack, size: Double) {
    self.fonts = fonts
    self.size = size
  }

  /// The largest magnitude a font size, letter spacing, line height or line spacing may have,
  /// in points: with lengths up to a million points, every width and height of a text that fits
  /// in memory is a finite number.
  public static let maximumLength = 1_000_000.0

  /// Checks that every value is in range.
  /// - Throws: ``TypesettingError`` naming the first bad value.
  public func validate() throws {
    let most = TextStyle.maximumLength
    guard size.isFinite, size > 0, size <= most else {
      throw TypesettingError.invalidFontSize(size)
    }
    switch lineHeight {
    case .normal: break
    case .points(let v):
      guard v.isFinite, v >= 0, v <= most else {
        throw TypesettingError.invalidStyle(
          "lineHeight must be a number from 0 to \(Int(most)) (got \(v))")
      }
    case .multiple(let v):
      guard v.isFinite, v >= 0, v * size <= most else {
        throw TypesettingError.invalidStyle(
          "lineHeight multiple must be >= 0 and at most \(Int(most)) points (got \(v))")
      }
    }
    guard letterSpacing.isFinite, abs(letterSpacing) <= most else {
      throw TypesettingError.invalidStyle(
        "letterSpacing must be a number from -\(Int(most)) to \(Int(most)) (got \(letterSpacing))")
    }
    guard tabSize >= 0 else { throw TypesettingError.invalidStyle("tabSize must be >= 0") }
    for tag in features.keys where !tag.isValid {
      throw TypesettingError.invalidStyle(
        "feature tags are 1 to 4 printable ASCII characters (got \"\(tag)\")")
    }
    if let m = maxLines, m < 0 { throw TypesettingError.invalidStyle("maxLines must be >= 0") }
    // (Each in turn: an array of the two would be allocated for every text prepared.)
    func checkLineHeightLimit(_ v: Double?) throws {
      guard let v, !(v.isFinite && v >= 0 && v <= most) else { return }
      throw TypesettingError.invalidStyle(
        "minimum/maximum line height must be a number from 0 to \(Int(most)) (got \(v))")
    }
    try checkLineHeightLimit(minimumLineHeight)
    try checkLineHeightLimit(maximumLineHeight)
    // (Apple: "This value is always nonnegative"; a negative one made line tops go back and
    // paragraph heights negative.)
    guard lineSpacing.isFinite, lineSpacing >= 0, lineSpacing <= most else {
      throw TypesettingError.invalidStyle(
        "lineSpacing must be a number from 0 to \(Int(most)) (got \(lineSpacing))")
    }
  }
}
