/// What the greedy rule reads of a paragraph's segments, and the answers that depend on how
/// their widths are kept: positions are x along the paragraph, each segment's content ending
/// before the white space that hangs after it.
///
/// ``PrefixIndex`` reads the prefix sums of ``FastIndex`` and finds a line's end by search;
/// ``SegmentWalk`` walks the segments one by one (where widths depend on where lines start:
/// tabs); the estimator's index holds estimated widths. Which segments make a line is decided
/// by ``GreedyLines`` alone.
@_spi(LineBreaking) public protocol SegmentIndex {
  /// Number of segments.
  var count: Int { get }
  /// Where the line that starts at segment `a` begins (after segment `a - 1`, whose line ended
  /// there; 0 for the first): an index whose positions depend on where lines start sets them up.
  mutating func startLine(at a: Int) -> Double
  /// The last segment in `[a, hi]` whose content ends within `limitX`, `a - 1` when none does.
  mutating func lastFitting(from a: Int, to hi: Int, limitX: Double) -> Int
  /// The last segment a line that starts at `a` may reach: the first forced break at or after
  /// `a`, or the last segment.
  mutating func lastBeforeForcedBreak(from a: Int) -> Int
  /// Whether the content of segment `s` ends with a soft hyphen.
  func endsWithSoftHyphen(_ s: Int) -> Bool
  /// Whether texts read through this index may have segments with ``endHang(_:)`` (false:
  /// the rule's check is compiled out where the rule is specialised for the index).
  static var mayHang: Bool { get }
  /// What a line that ends after segment `s` may give back when it does not otherwise fit:
  /// the trailing half of the fullwidth closing bracket or quote that ends its content (CSS
  /// `text-spacing-trim: normal`, its `allow-end`); 0 for most segments.
  func endHang(_ s: Int) -> Double
  /// x where the last visible content of segments `[a, s]` ends (white space of the trim set is
  /// not visible); below `base` (minus infinity for some indices) when there is none.
  func lastVisibleEnd(from a: Int, through s: Int, base: Double) -> Double
  /// The reported width of a line of segments `[a, g]` that starts at `base` (inside segment
  /// `a` at grapheme `resume` when that is not -1, after a part broken by overflow-wrap): from
  /// its first visible content (its start when white space does not collapse) to its last.
  func lineWidth(from a: Int, through g: Int, base: Double, resume: Int) -> Double
  /// The next line of segment `a`, alone on its line and too wide, broken between graphemes
  /// (overflow-wrap): a part that fills a line (`base` and `resume` move past it), or nil when
  /// all that is left fits or nothing is left to break (`base` and `resume` are then set so that
  /// the line goes on with the rest of the segment).
  mutating func brokenLine(segment a: Int, limit: Double, base: inout Double, resume: inout Int)
    -> BrokenPart?
}

/// A part of a segment broken between graphemes that fills a line.
@_spi(LineBreaking) public struct BrokenPart {
  /// The grapheme after it.
  public var end: Int
  /// Its reported width.
  public var width: Double
  /// How many lines it fills (1 but for the estimator, which breaks a long word by dividing its
  /// estimated width, not between graphemes).
  public var repeats = 1

  @inlinable
  public init(end: Int, width: Double, repeats: Int = 1) {
    self.end = end
    self.width = width
    self.repeats = repeats
  }
}

/// A line as ``GreedyLines`` finds it: segments `first...last`, starting inside `first` at
/// grapheme `resume` (after a broken part; -1: at its start) and, for a part broken by
/// overflow-wrap, ending before grapheme `breakEnd` (-1: after `last` and its white space).
@_spi(LineBreaking) public struct FoundLine {
  public var first: Int
  public var last: Int
  public var resume: Int
  public var breakEnd: Int
  /// Reported width, a shown hyphen included (not snapped).
  public var width: Double
  public var hyphenated: Bool
  /// The line fits only with the trailing half of its last closing bracket or quote given
  /// back, which it then gives (``SegmentIndex/endHang(_:)`` of `last`).
  public var hung = false
  /// How many such lines (see ``BrokenPart/repeats``).
  public var repeats = 1

  @inlinable
  public init(
    first: Int, last: Int, resume: Int, breakEnd: Int, width: Double, hyphenated: Bool,
    repeats: Int = 1
  ) {
    self.first = first
    self.last = last
    self.resume = resume
    self.breakEnd = breakEnd
    self.width = width
    self.hyphenated = hyphenated
    self.repeats = repeats
  }
}

/// Receives the lines ``GreedyLines`` finds; returns false to stop (a line limit is passed).
@_spi(LineBreaking) public protocol FoundLineSink {
  mutating func add(_ line: FoundLine) -> Bool
}

/// First-fit line breaking, as browsers and TextKit do it, stated once: a line that starts at a
/// segment holds every following segment whose content ends within the width (the white space
/// after a segment hangs) and at least one; one more whose closing bracket would fit at half
/// width ends the line set so (`allow-end`); a line that ends after a soft hyphen shows a
/// hyphen, which must fit too, or the line ends a segment earlier; a segment too wide to fit
/// alone is broken between graphemes where `overflow-wrap` allows. Measuring, laying out and
/// estimating all call ``run(_:_:)``; only their ``SegmentIndex`` differs.
@_spi(LineBreaking) public struct GreedyLines {
  /// How far a line's content may reach: the width plus the fit tolerance.
  public let limit: Double
  /// Lines wrap at soft wrap opportunities (white space `normal` or `pre-wrap`).
  public let wraps: Bool
  /// overflow-wrap breaks segments too wide for a line between graphemes.
  public let breakWords: Bool
  /// Some segment ends with a soft hyphen; and the advance of the hyphen shown there.
  public let hasSoftHyphens: Bool
  /// Some segment's content ends with a closing bracket or quote whose trailing half may hang
  /// (``SegmentIndex/endHang(_:)``). (Declared before the advance: the rules stay 24 bytes.)
  public let hangsClosing: Bool
  public let hyphenAdvance: Double

  @inlinable
  public init(
    limit: Double, wraps: Bool, breakWords: Bool, hasSoftHyphens: Bool = false,
    hyphenAdvance: Double = 0, hangsClosing: Bool = false
  ) {
    self.limit = limit
    self.wraps = wraps
    self.breakWords = breakWords
    self.hasSoftHyphens = hasSoftHyphens
    self.hyphenAdvance = hyphenAdvance
    self.hangsClosing = hangsClosing
  }

  /// How far a line's content may reach at `width` (``PreparedText/fitLimit(width:)``).
  @inlinable
  public static func limit(width: Double) -> Double {
    PreparedText.fitLimit(width: width)
  }

  // (Inlinable for SelfSizing, which runs it over estimated words: specialised there for its
  // index — public behind `@_spi(LineBreaking)` for that, as `@inlinable package` is not
  // inlined across modules on this toolchain. Always inlined: the sink's running figures then
  // stay in registers.)
  @inlinable @inline(__always)
  public func run<Index: SegmentIndex, Sink: FoundLineSink>(_ index: inout Index, _ sink: inout Sink) {
    let n = index.count
    guard n > 0 else { return }
    var a = 0
    var base = index.startLine(at: 0)
    // The grapheme where segment `a` resumes after a part broken by overflow-wrap (-1: none).
    var resume = -1
    // The last segment a line may reach: the next forced break at or after `a`, looked up
    // again only when a line ends at it.
    var hi = index.lastBeforeForcedBreak(from: 0)
    // (`_slowPath` marks what few lines do — hang a closing mark, break a word, end at a soft
    // hyphen or a forced break — so that the compiler keeps what their calls must save in
    // their own branches, not in every measure's entry.)
    while a < n {
      var limitX = base + limit
      // (No soft wraps: the line runs to the next forced break, however wide.)
      var g = index.lastFitting(from: a, to: hi, limitX: wraps ? limitX : .infinity)
      var hang = 0.0
      if _slowPath(hangsClosing && Index.mayHang && wraps && g < hi) {
        hang = hangAtClosing(index, from: a, last: &g, limitX: limitX, base: base)
      }
      if _slowPath(g < a) {
        if wraps && breakWords {
          // The line's first segment does not fit: overflow-wrap breaks it between graphemes.
          // (Out of line, on copies: the loop's own index and sink then stay in registers.)
          var i = index
          var k = sink
          let rest = brokenLines(&i, &k, segment: a, to: hi, base: base, resume: resume)
          index = i
          sink = k
          guard let rest else { return }
          (g, base, resume) = (rest.last, rest.base, rest.resume)
          limitX = base + limit
          if hangsClosing && Index.mayHang && g < hi {
            hang = hangAtClosing(index, from: a, last: &g, limitX: limitX, base: base)
          }
        }
        // (At least one segment a line: alone on its line, a segment too wide stays whole.)
        if g < a { g = a }
      }
      var hyphen = 0.0
      if _slowPath(hasSoftHyphens && g < hi && index.endsWithSoftHyphen(g)) {
        hyphen = hyphenAtSoftHyphen(index, from: a, last: &g, base: base)
      }
      var width = index.lineWidth(from: a, through: g, base: base, resume: resume)
      if hyphen != 0 { width += hyphen }
      var line = FoundLine(
        first: a, last: g, resume: resume, breakEnd: -1, width: width, hyphenated: hyphen != 0)
      if hangsClosing && Index.mayHang && hang != 0 {
        line.width = max(0, width - hang)
        line.hung = true
      }
      if !sink.add(line) { return }
      resume = -1
      a = g &+ 1
      if a < n {
        base = index.startLine(at: a)
        if _slowPath(a > hi) { hi = index.lastBeforeForcedBreak(from: a) }
      }
    }
  }
}

extension GreedyLines {
  /// The lines of segment `a`, too wide for a line that starts at `base` (inside it at
  /// grapheme `resume`, or -1), broken between graphemes: each part that fills a line goes to
  /// `sink`; then the last segment that fits on the line that goes on with the rest, and where
  /// that line starts. Nil when the sink stops.
  @inlinable @inline(never)
  public func brokenLines<Index: SegmentIndex, Sink: FoundLineSink>(
    _ index: inout Index, _ sink: inout Sink, segment a: Int, to hi: Int, base: Double,
    resume: Int
  ) -> (last: Int, base: Double, resume: Int)? {
    var base = base
    var resume = resume
    while true {
      let from = resume
      guard let part = index.brokenLine(segment: a, limit: limit, base: &base, resume: &resume)
      else { break }
      // (A line is never narrower than nothing: negative letter spacing can make a part's
      // advances add up below 0, as ``SegmentIndex/lineWidth`` clamps for whole segments.)
      let line = FoundLine(
        first: a, last: a, resume: from, breakEnd: part.end, width: max(0, part.width),
        hyphenated: false, repeats: part.repeats)
      if !sink.add(line) { return nil }
      let g = index.lastFitting(from: a, to: hi, limitX: base + limit)
      if g >= a { return (g, base, resume) }
    }
    return (index.lastFitting(from: a, to: hi, limitX: base + limit), base, resume)
  }

  /// The segment after `g`, when its content ends with a closing bracket or quote and fits
  /// with that mark's trailing half given back, ends the line (`g` moves to it): what it gives
  /// back, or 0. (Out of line: few texts have such marks.)
  @inlinable @inline(never)
  public func hangAtClosing<Index: SegmentIndex>(
    _ index: Index, from a: Int, last g: inout Int, limitX: Double, base: Double
  ) -> Double {
    let k = g + 1
    let hang = index.endHang(k)
    guard hang > 0, index.lastVisibleEnd(from: a, through: k, base: base) - hang <= limitX
    else { return 0 }
    g = k
    return hang
  }

  /// A line that ends after a soft hyphen shows a hyphen, which must fit too, or the line ends
  /// before that segment (showing the hyphen of the one before, if it has one): the hyphen's
  /// advance, or 0 when none shows. (Out of line: most texts have no soft hyphen.)
  @inlinable @inline(never)
  public func hyphenAtSoftHyphen<Index: SegmentIndex>(
    _ index: Index, from a: Int, last g: inout Int, base: Double
  ) -> Double {
    let end = max(0, index.lastVisibleEnd(from: a, through: g, base: base) - base)
    if g > a && end + hyphenAdvance > limit {
      g -= 1
      return index.endsWithSoftHyphen(g) ? hyphenAdvance : 0
    }
    return hyphenAdvance
  }

  /// The rules of a prepared text's style at `width`.
  init(_ text: PreparedText, width: Double) {
    let ws = text.style.whiteSpace
    self.init(
      limit: GreedyLines.limit(width: width), wraps: ws.wraps,
      breakWords: text.style.overflowWrap != .normal, hasSoftHyphens: text.hasSoftHyphens,
      hyphenAdvance: text.hyphenAdvance, hangsClosing: !text.endHangs.isEmpty)
  }
}
