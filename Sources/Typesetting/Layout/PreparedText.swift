/// A paragraph shaped and segmented once, ready to be laid out at any width.
///
/// Everything that does not depend on the width — itemization, font fallback, shaping, break
/// opportunities, segment widths — is done by ``Typesetter/prepare(_:style:)`` and stored here in
/// flat arrays; ``layout(width:)`` is then arithmetic over those arrays.
///
/// Offsets: *processed* code points are those left after white-space processing; every
/// reported offset is converted back to the original text.
///
/// A final class of constants: passing it around costs one reference count, and any number of
/// threads may lay it out at once.
public final class PreparedText: @unchecked Sendable {
  // @unchecked: `fast` and the one-line numbers are `var`s only so that they can be computed
  // from the other fields at the end of `init`; they are never written afterwards.

  // First, within the object's first cache line: what a text that fits on one line at the
  // width asked for is answered from (most short messages), taken from the fast index.
  // (Read by the inlined part of `measure(width:)`, in the caller's module: set at the end of
  // `init` only, so no access needs checking.)
  /// x at the end of the content when the text can be one line (infinity when it cannot, or
  /// has no fast index).
  @usableFromInline @exclusivity(unchecked) private(set) var oneLineEnd = Double.infinity
  /// Reported width and height of that one line.
  @usableFromInline @exclusivity(unchecked) private(set) var oneLineWidth = 0.0
  @usableFromInline @exclusivity(unchecked) private(set) var oneLineHeight = 0.0

  /// Prefix sums for measuring by search (nil when the text needs the segment walk). Next, so
  /// that measuring at a width reads the object's first cache lines and the sums, nothing else.
  @exclusivity(unchecked) private(set) var fast: FastIndex? = nil

  /// The original text.
  public let text: String
  /// The style it was prepared with.
  public let style: TextStyle

  // Processed code point → original code point index (one extra entry: the original length).
  let source: [Int32]
  // The processed code points themselves.
  let scalars: [UInt32]
  // Original code point index → UTF-16 offset (one extra entry: the UTF-16 length).
  let utf16Offsets: [Int32]

  // Graphemes of the processed text.
  let graphemeStart: [Int32]  // processed code point index; one extra entry at the end
  let graphemeAdvance: [Double]
  let graphemeFlags: [UInt8]
  let graphemeFont: [UInt8]

  // Segments: runs of graphemes between soft wrap opportunities.
  let segmentEnd: [Int32]  // grapheme index, exclusive
  let segmentContentEnd: [Int32]  // grapheme index where the trailing white space starts
  let segmentContent: [Double]  // advance of the content (before trailing white space)
  let segmentTrailing: [Double]  // advance of trailing spaces (tabs: computed at layout)
  let segmentFlags: [UInt8]
  let segmentFonts: [UInt64]  // bit i: font i of the stack is used in the segment
  /// Per segment, what a line that ends after it gains in width (``endAdjustment(segment:)``);
  /// empty when no segment ends inside a kerning pair.
  let endAdjustments: [Double]
  /// Per segment, what a line that ends after it may give back to fit (``endHang(segment:)``);
  /// empty when none may.
  let endHangs: [Double]
  /// Per segment, what a line that starts with it gains (``startGain(segment:)``); empty when
  /// none does.
  let startGains: [Double]
  /// Per grapheme that starts inside a ligature, in order, what the lines that end and start
  /// there gain (``ligatureSplit(_:)``); empty when there is none.
  let ligatureSplits: [LigatureSplits.Split]

  /// The style's line-box rule over its fonts' metrics.
  let lineBoxes: LineBoxes
  /// Advance of a space of the primary font (tab stops), and of the ellipsis.
  let spaceAdvance: Double
  let ellipsisAdvance: Double
  let hyphenAdvance: Double
  /// The glyphs shaping gave, run after run (what measuring summed and drawing places).
  let glyphs: [ShapedGlyph]
  /// The shaped runs in logical order, covering every processed code point.
  let runs: [ShapedRun]
  /// The code points text-spacing-trim set half-width, in text order (mostly none).
  let halved: [Int]
  /// The ellipsis of truncation and the hyphen shown at a soft hyphen, as shaped for the style.
  let ellipsis: ShapedSnippet
  let hyphen: ShapedSnippet
  /// The paragraph's bidi level (odd: right to left).
  let paragraphLevel: UInt8
  /// Whether some segment's content ends with a soft hyphen (a hyphen shows where a line
  /// breaks after it).
  let hasSoftHyphens: Bool
  /// What only some texts' measuring reads, apart from ``fast`` (see ``FastIndex/Side``).
  @exclusivity(unchecked) private(set) var fastSide = FastIndex.Side()

  /// The text made of the stages' outputs (see ``Typesetter``), its fast index built last.
  init(
    text: String, style: TextStyle, source: SourceText, items: Itemization, shaped: ShapedText,
    segments: Segmentation, endAdjustments: [Double], endHangs: [Double], startGains: [Double],
    ligatureSplits: [LigatureSplits.Split] = [], constants k: StyleConstants
  ) {
    self.text = text
    self.style = style
    self.source = source.processed.source
    self.scalars = source.processed.scalars
    self.utf16Offsets = source.utf16Offsets
    self.graphemeStart = source.graphemeStart
    self.graphemeAdvance = segments.graphemeAdvance
    self.graphemeFlags = items.graphemeFlags
    self.graphemeFont = items.graphemeFont
    self.segmentEnd = segments.end
    self.segmentContentEnd = segments.contentEnd
    self.segmentContent = segments.content
    self.segmentTrailing = segments.trailing
    self.segmentFlags = segments.flags
    self.segmentFonts = segments.fonts
    self.endAdjustments = endAdjustments
    self.endHangs = endHangs
    self.startGains = startGains
    self.ligatureSplits = ligatureSplits
    self.lineBoxes = LineBoxes(ascent: k.ascent, descent: k.descent, lineGap: k.lineGap, style: style)
    self.spaceAdvance = k.space + style.letterSpacing
    self.ellipsisAdvance = k.ellipsis.advance
    self.hyphenAdvance = k.hyphen.advance
    self.glyphs = shaped.glyphs
    self.runs = shaped.runs
    self.halved = shaped.halved
    self.ellipsis = k.ellipsis
    self.hyphen = k.hyphen
    self.paragraphLevel = items.paragraphLevel
    hasSoftHyphens = segments.flags.contains { $0 & SegmentFlag.softHyphen != 0 }
    var oneLine = FastIndex.OneLine()
    var side = FastIndex.Side()
    self.fast = FastIndex(self, oneLine: &oneLine, side: &side)
    fastSide = side
    oneLineEnd = oneLine.contentEnd
    oneLineWidth = oneLine.width
    oneLineHeight = oneLine.height
  }

  deinit { fast?.deallocate() }

  /// How far past the width a line may reach and still fit: Chromium compares positions in
  /// layout units of 1/64 px, so a line less than 1/64 px too wide still fits (measured: this
  /// tolerance matches 8 more corpus cases than a tolerance of float noise only).
  @inlinable static var fitTolerance: Double { 1.0 / 64.0 - 1e-9 }

  /// What a line that ends after segment `s` gains in width because its last glyph is shaped
  /// as a line's end: Chromium shapes the end of a line again on its own where the break falls
  /// inside a kerning pair (its line breaker reshapes up to a break that is not safe to break),
  /// so that glyph loses the pair's adjustment. 0 for most segments.
  func endAdjustment(segment s: Int) -> Double {
    endAdjustments.isEmpty ? 0 : endAdjustments[s]
  }

  /// What a line that ends after segment `s` may give back when it does not otherwise fit:
  /// the trailing half of the fullwidth closing bracket or quote that ends the segment's
  /// content (``PunctuationTrim/endHangs(_:segments:shaped:size:)``). 0 for most segments.
  func endHang(segment s: Int) -> Double {
    endHangs.isEmpty ? 0 : endHangs[s]
  }

  /// What a line that starts with segment `s` (after a soft wrap) gains in width: what its
  /// opening mark lost to text-spacing-trim in the paragraph because of the mark before, which
  /// ends the line before (``PunctuationTrim/startGains(_:segments:shaped:fonts:size:language:)``;
  /// not where overflow-wrap breaks the segment, whose parts are measured as the paragraph
  /// shaped them). 0 for most segments.
  func startGain(segment s: Int) -> Double {
    startGains.isEmpty ? 0 : startGains[s]
  }

  /// How far a line's content may reach at `width`: the width plus the fit tolerance, kept
  /// finite for an unbounded width. The one fit limit of measuring, layout and the estimator.
  @inlinable static func fitLimit(width: Double) -> Double {
    min(width + fitTolerance, 0x1p900)
  }

  /// Bytes the text's arrays hold (their capacities), with and without the glyphs it keeps for
  /// drawing (a benchmark figure).
  package var arrayBytes: (total: Int, glyphs: Int) {
    func bytes<T>(_ a: [T]) -> Int { a.capacity * MemoryLayout<T>.stride }
    let glyphs =
      bytes(self.glyphs) + bytes(runs) + bytes(ellipsis.glyphs) + bytes(hyphen.glyphs)
    let rest =
      bytes(source) + bytes(scalars) + bytes(utf16Offsets) + bytes(graphemeStart)
      + bytes(graphemeAdvance) + bytes(graphemeFlags) + bytes(graphemeFont) + bytes(segmentEnd)
      + bytes(segmentContentEnd) + bytes(segmentContent) + bytes(segmentTrailing)
      + bytes(segmentFlags) + bytes(segmentFonts) + bytes(endAdjustments) + bytes(endHangs)
      + bytes(startGains) + bytes(ligatureSplits) + bytes(halved) + bytes(lineBoxes.ascent)
      + bytes(lineBoxes.descent) + bytes(lineBoxes.lineGap) + (fast?.arrayBytes ?? 0) + fastSide.arrayBytes
    return (rest + glyphs, glyphs)
  }

  /// The characters no font of the stack has, in text order (each place once): set in a font
  /// of the directory that system fallback found (``FontStack/askedCount``), or, where no font
  /// has them, given the fonts' missing glyph (tofu), so the measurement holds a box where the
  /// text meant a letter. Controls and characters that need no glyph are not counted.
  public var missingCharacters: [Unicode.Scalar] {
    var places: [Int] = []
    var last = -1
    for g in glyphs where g.id == 0 && Int(g.cluster) != last {
      last = Int(g.cluster)
      if last >= 0 && last < scalars.count { places.append(last) }
    }
    let stack = style.fonts
    if stack.fonts.count > stack.askedCount {
      // (The runs, not the graphemes: a cluster's later script piece has a font of its own.)
      let asked = stack.fonts[..<stack.askedCount]
      for run in runs where Int(run.font) >= stack.askedCount {
        for k in Int(run.start)..<Int(run.end) where !asked.contains(where: { $0.covers(scalars[k]) }) {
          places.append(k)
        }
      }
      places.sort()
    }
    var out: [Unicode.Scalar] = []
    for (i, k) in places.enumerated() where i == 0 || places[i - 1] != k {
      guard let c = Unicode.Scalar(scalars[k]) else { continue }
      if UnicodeProperties.generalCategory(c.value) == .control { continue }
      if FontSelection.isIgnorable(c.value) { continue }
      if c.value == 0x200D || UnicodeProperties.isWhiteSpace(c.value) { continue }
      out.append(c)
    }
    return out
  }

  /// Number of grapheme clusters after white-space processing.
  public var graphemeCount: Int { graphemeAdvance.count }

  enum GraphemeFlag {
    static let space: UInt8 = 1  // a breakable space that hangs at the end of a line
    static let tab: UInt8 = 2
    static let forcedBreak: UInt8 = 4
    static let reportWhitespace: UInt8 = 8  // left out of reported line widths (CSSOM trim set)
    static let softHyphen: UInt8 = 16
    /// The rest of a Unicode grapheme cluster, split off so that a line may start with it.
    static let continuation: UInt8 = 32
    /// A code point of its own whose glyph is ``ShapedGlyph/kerned`` (browser profile): a line
    /// that ends after it inside a word is shaped on its own there
    /// (``PreparedText/lineEndGain(before:)``).
    static let kernedEnd: UInt8 = 64
    /// Starts inside the glyph of a grapheme before it (a ligature's), in a left-to-right run
    /// (browser profile, where lines may break inside words): a line that ends or starts here
    /// is shaped again there (``LigatureSplits``).
    static let ligatureTail: UInt8 = 128
  }

  enum SegmentFlag {
    static let hasTab: UInt8 = 1
    static let forcedBreak: UInt8 = 2
    static let softHyphen: UInt8 = 4  // the content ends with a soft hyphen
    /// The white space after the content ends with a space whose marks start the next segment
    /// (a grapheme cluster split by the break after the space, ``GraphemeFlag/continuation``):
    /// a line that ends here reports its width to the end of that space, the cluster counting
    /// on this line as its line start does.
    static let splitCluster: UInt8 = 8
    static let plain: UInt8 = 16  // non-empty content with no white space of the trim set in it
  }
}
