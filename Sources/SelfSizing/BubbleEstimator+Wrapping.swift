@_spi(LineBreaking) import Typesetting

extension BubbleEstimator {
  /// A word (or a run of equal words with no space between them) and the spaces after it.
  struct Entry: Sendable {
    var content: Float
    var trailing: Float
    /// Its mean character advance: overflow-wrap breaks it after a whole number of them. A
    /// long word's is negative: -(1 + where its character ends start among the text's ends).
    var unit: Float
    var count: UInt16
    /// The fonts it uses that raise a line box (``LineRule/mask(font:)``).
    var fonts: UInt16

    /// `trailing` of white space holding tabs, whose width depends on where it starts on its
    /// line: a NaN whose payload is where it is described in the ends table (``tabbedSpace``).
    static func tabbedTrailing(at i: Int) -> Float {
      Float(nan: Float.RawSignificand(i), signaling: false)
    }

    /// The largest place in the ends table that ``tabbedTrailing(at:)`` can hold.
    static let tabbedLimit = 1 << 21 - 1

    /// Where the trailing white space of a tabbed entry is described.
    var tabbedPlace: Int { Int(trailing.significandBitPattern & 0x1F_FFFF) }

    /// Moves the place of its tabbed white space by `offset` (its ends table joined to a larger
    /// one); past the places a NaN holds, the white space takes its width at a line's start.
    mutating func moveTabbedPlace(by offset: Int, in ends: [Float]) {
      let place = tabbedPlace + offset
      if place <= Entry.tabbedLimit {
        trailing = Entry.tabbedTrailing(at: place)
      } else {
        let width = ends.withUnsafeBufferPointer { trailing(at: 0, $0) }
        trailing = Float(width)
      }
    }

    /// The width of its trailing white space starting `position` from its line's start.
    func trailing(at position: Double, _ ends: UnsafeBufferPointer<Float>) -> Double {
      let t = Double(trailing)
      return t.isNaN ? BubbleEstimator.tabbedSpace(ends, at: tabbedPlace, position: position) : t
    }
  }

  /// How the wrapper reads the white space after a word: as it is, or, in a paragraph with
  /// tabs, from where it starts on its line. (Types, not a flag, so that the paragraphs
  /// without tabs, nearly all, are wrapped by code that never asks.)
  protocol TrailingSpace {
    static func width(_ e: Entry, at position: Double, _ ends: UnsafeBufferPointer<Float>)
      -> Double
  }

  enum PlainSpace: TrailingSpace {
    static func width(_ e: Entry, at position: Double, _ ends: UnsafeBufferPointer<Float>)
      -> Double
    { Double(e.trailing) }
  }

  enum TabbedSpace: TrailingSpace {
    static func width(_ e: Entry, at position: Double, _ ends: UnsafeBufferPointer<Float>)
      -> Double
    { e.trailing(at: position, ends) }
  }

  /// The width of white space holding tabs described at `ends[i]` (its tab count, letter
  /// spacing and tab size, then the spaces before the first tab and, per tab, the advance of a
  /// space of its font and the spaces after it), starting `position` from its line's start: each
  /// tab goes to the next stop of that line (``TabStops``).
  @inline(never)
  static func tabbedSpace(_ ends: UnsafeBufferPointer<Float>, at i: Int, position: Double) -> Double
  {
    let tabs = Int(ends[i])
    let letterSpacing = Double(ends[i + 1])
    let tabSize = Int(ends[i + 2])
    var x = position + Double(ends[i + 3])
    for t in 0..<tabs {
      x += TabStops.advance(
        at: x, space: Double(ends[i + 4 + 2 * t]), tabSize: tabSize, letterSpacing: letterSpacing)
      x += Double(ends[i + 5 + 2 * t])
    }
    return x - position
  }

  /// The wrapping options of a text that matter to an estimate.
  struct WrapRules: Sendable, Hashable {
    var breakWords = true
    var nowrap = false
    var maxLines: Int? = nil

    init() {}
    init(_ style: TextStyle) {
      breakWords = style.overflowWrap != .normal
      nowrap = !style.whiteSpace.wraps
      maxLines = style.maxLines
    }
  }

  /// Where a paragraph's entries end, and its content width on one line (if that fits, the
  /// paragraph takes one line without looking at its words).
  struct Paragraph: Sendable {
    var end: Int
    var natural: Double
    /// Its words, a run of equal words counting each (the segments line breaking sees).
    var segments: Int
    /// The fonts its words use that raise a line box (0: every line is the strut's).
    var fonts: UInt16
    /// Whether white space after some of its words holds tabs (``Entry/tabbedTrailing(at:)``).
    var tabbed = false
  }

  /// Estimated lines of a block of text.
  struct Block: Sendable {
    var lines = 0
    var widest = 0.0
    /// Width of the last line.
    var last = 0.0
    var height = 0.0
  }


  /// Reads and wraps a short text in a style already scaled.
  func block(_ text: String, _ style: TextStyle, width: Double) -> Block {
    var fonts = RecentFonts()
    return block(text, style, width: width, fonts: &fonts)
  }

  /// ``block(_:_:width:)`` with the fonts of recent texts (see ``RecentFonts``).
  func block(_ text: String, _ style: TextStyle, width: Double, fonts: inout RecentFonts) -> Block
  {
    var sink: [Double]? = nil
    var words = WordsBuilder()
    let (rule, isEmpty) = read(
      text, style, size: style.size, perFont: &sink, into: &words, fonts: &fonts)
    return withUnsafePointer(to: rule) { rule in
      words.entries.withUnsafeBufferPointer { entries in
        words.paragraphs.withUnsafeBufferPointer { paragraphs in
          words.ends.withUnsafeBufferPointer { ends in
          BubbleEstimator.wrap(
            entries, paragraphs: paragraphs, ends: ends, width: width, rules: WrapRules(style),
            heights: LineHeights(rule), isEmpty: isEmpty)
        }
        }
      }
    }
  }

  /// How tall a text's lines are: the strut's height for lines of fonts that raise nothing,
  /// the rule for the others, and the spacing between lines.
  struct LineHeights {
    var strut: Double
    var spacing: Double
    /// The text's rule (nil when none of its words uses a font that raises a line box).
    var rule: UnsafePointer<LineRule>?

    init(strut: Double, spacing: Double, rule: UnsafePointer<LineRule>?) {
      self.strut = strut
      self.spacing = spacing
      self.rule = rule
    }

    init(_ rule: UnsafePointer<LineRule>) {
      self.init(strut: rule.pointee.strut, spacing: rule.pointee.spacing, rule: rule)
    }
  }

  /// The estimated lines of a text's paragraphs at `width`: a paragraph that fits takes one
  /// line; the others are broken by the greedy rule of the text engine (``GreedyLines``) over
  /// their estimated words. Each line is as tall as the box of the fonts on it; `maxLines`
  /// keeps the first lines, as the engine does.
  @inline(__always)
  static func wrap(
    _ entries: UnsafeBufferPointer<Entry>, paragraphs: UnsafeBufferPointer<Paragraph>,
    ends: UnsafeBufferPointer<Float>, firstEntry: Int = 0, width: Double, rules: WrapRules,
    heights: LineHeights, isEmpty: Bool
  ) -> Block {
    let m = rules.maxLines ?? 0
    var lines = LineCount(heights: heights, limit: m > 0 ? m : .max)
    var k = firstEntry
    let limit = GreedyLines.limit(width: width)
    let greedy = GreedyLines(limit: limit, wraps: true, breakWords: rules.breakWords)
    for paragraph in paragraphs {
      let end = paragraph.end
      if paragraph.natural <= limit || rules.nowrap || k == end {
        if !lines.add(width: paragraph.natural, count: 1, fonts: paragraph.fonts) { break }
      } else {
        let words = UnsafeBufferPointer(rebasing: entries[k..<end])
        lines.start(paragraph: words, fonts: paragraph.fonts)
        var index = EstimatedWords(
          words, segments: paragraph.segments, ends: ends, tabbed: paragraph.tabbed)
        greedy.run(&index, &lines)
        if lines.count >= lines.limit { break }
      }
      k = end
    }
    if isEmpty { return Block() }
    return Block(lines: lines.count, widest: lines.widest, last: lines.last, height: lines.height)
  }

  /// Counts the estimated lines, sums their heights and keeps the widest and the last.
  struct LineCount: FoundLineSink {
    var count = 0
    var widest = 0.0
    var last = 0.0
    var height = 0.0
    let heights: LineHeights
    /// More lines than this are cut (`maxLines`; `Int.max`: no limit).
    let limit: Int
    // The paragraph being wrapped when some of its words raise a line box: its entries, the
    // entry the last line ended in and the index of that entry's first segment.
    private var entries = UnsafeBufferPointer<Entry>(start: nil, count: 0)
    private var entry = 0
    private var entrySegment = 0
    private var tall = false
    // The last line box worked out (lines mostly share it).
    private var boxFonts: UInt16 = 0
    private var box = 0.0

    init(heights: LineHeights, limit: Int) {
      self.heights = heights
      self.limit = limit
    }

    /// Starts a paragraph whose words are `entries` and use `fonts` (0: all lines are struts).
    mutating func start(paragraph entries: UnsafeBufferPointer<Entry>, fonts: UInt16) {
      tall = fonts != 0
      if tall {
        self.entries = entries
        entry = 0
        entrySegment = 0
      }
    }

    /// Adds `n` lines `width` wide whose fonts are `m`; false once the limit is reached.
    @inline(__always)
    mutating func add(width: Double, count n: Int, fonts m: UInt16) -> Bool {
      let n = min(n, limit &- count)
      guard n > 0 else { return false }
      var h = heights.strut
      if m != 0, let rule = heights.rule {
        if m != boxFonts {
          boxFonts = m
          box = rule.pointee.height(m)
        }
        h = box
      }
      height = LineStacking.bottom(
        below: height, lines: count, adding: n, box: h, spacing: heights.spacing)
      count &+= n
      widest = max(widest, width)
      last = width
      return count < limit
    }

    @inline(__always)
    mutating func add(_ line: FoundLine) -> Bool {
      add(width: line.width, count: line.repeats, fonts: tall ? fonts(line) : 0)
    }

    /// The fonts of the words of `line` (lines come in order: the walk goes on from the last).
    private mutating func fonts(_ line: FoundLine) -> UInt16 {
      while entrySegment &+ Int(entries[entry].count) <= line.first {
        entrySegment &+= Int(entries[entry].count)
        entry &+= 1
      }
      var m = entries[entry].fonts
      while entrySegment &+ Int(entries[entry].count) <= line.last {
        entrySegment &+= Int(entries[entry].count)
        entry &+= 1
        m |= entries[entry].fonts
      }
      return m
    }
  }

  /// A paragraph's estimated words as the greedy rule reads them: each word a segment, and a
  /// run of `n` equal words with no space between them (`Entry.count`) `n` segments, whose
  /// positions follow by multiplication (a line ends inside a run by division, not a walk).
  /// Words are walked once, line after line, as the rule asks for them.
  struct EstimatedWords: SegmentIndex {
    let entries: UnsafeBufferPointer<Entry>
    let count: Int
    /// Where long words' characters end (see ``Entry/unit``).
    let ends: UnsafeBufferPointer<Float>
    // The line's first segment: its entry, its place in the run, its index and its content end.
    private var entry = 0
    private var inRun = 0
    private var segment = 0
    private var firstEnd = 0.0
    // Where the next line starts, as the last ``lastFitting(from:to:limitX:)`` left it.
    private var nextEntry = 0
    private var nextInRun = 0
    private var nextStart = 0.0
    /// x where the last word with content on the line ends (-infinity: none).
    private var lastContent = -Double.infinity
    /// x where the line starts (tabs stop from there).
    private var lineStart = 0.0

    /// Whether white space after some of its words holds tabs (``Entry/tabbedTrailing(at:)``).
    let tabbed: Bool

    init(
      _ entries: UnsafeBufferPointer<Entry>, segments: Int, ends: UnsafeBufferPointer<Float>,
      tabbed: Bool
    ) {
      self.entries = entries
      count = segments
      self.ends = ends
      self.tabbed = tabbed
    }

    mutating func startLine(at a: Int) -> Double {
      let x: Double
      if a == 0 {
        entry = 0
        inRun = 0
        x = 0
      } else {
        entry = nextEntry
        inRun = nextInRun
        x = nextStart
      }
      segment = a
      firstEnd = x + Double(entries[entry].content)
      lineStart = x
      return x
    }

    // (Wrapping arithmetic: indices stay within the entries, far from overflow.)
    mutating func lastFitting(from a: Int, to hi: Int, limitX: Double) -> Int {
      tabbed
        ? lastFitting(from: a, to: hi, limitX: limitX, TabbedSpace.self)
        : lastFitting(from: a, to: hi, limitX: limitX, PlainSpace.self)
    }

    private mutating func lastFitting<Space: TrailingSpace>(
      from a: Int, to hi: Int, limitX: Double, _: Space.Type
    ) -> Int {
      var e = entry
      var k = inRun
      var g = a
      var end = firstEnd
      let fits = end <= limitX
      lastContent = entries[e].content > 0 ? end : -.infinity
      if fits {
        var word = entries[e]
        while g < hi {
          if word.count > 1 && k < Int(word.count) &- 1 {
            // More of the run: as many as fit, by division.
            let u = Double(word.content)
            var take = min(Int(word.count) &- 1 &- k, hi &- g)
            if u > 0 {
              // (Not negative, as `end` fits: truncation is the floor, and no call to one
              // spills the loop's registers.)
              let q = (limitX - end) / u
              take = q >= Double(take) ? take : max(0, Int(q))
            }
            if take > 0 {
              k &+= take
              g &+= take
              end += Double(take) * u
              if u > 0 { lastContent = end }
            }
            if k < Int(word.count) &- 1 || g == hi { break }
          }
          // The next word, after this one's spaces.
          let next = entries[e &+ 1]
          let nextEnd = end + Space.width(word, at: end - lineStart, ends) + Double(next.content)
          if nextEnd > limitX { break }
          e &+= 1
          k = 0
          g &+= 1
          end = nextEnd
          word = next
          if next.content > 0 { lastContent = end }
        }
      }
      // Where the line after segment g starts: the rest of the run, or the next word.
      if k < Int(entries[e].count) &- 1 {
        (nextEntry, nextInRun, nextStart) = (e, k &+ 1, end)
      } else {
        let start = end + Space.width(entries[e], at: end - lineStart, ends)
        (nextEntry, nextInRun, nextStart) = (e &+ 1, 0, start)
      }
      return fits ? g : a &- 1
    }

    func lastBeforeForcedBreak(from a: Int) -> Int { count - 1 }
    func endsWithSoftHyphen(_ s: Int) -> Bool { false }

    /// (The estimator hangs no closing bracket.)
    static var mayHang: Bool { false }
    func endHang(_ s: Int) -> Double { 0 }

    func lastVisibleEnd(from a: Int, through s: Int, base: Double) -> Double { lastContent }

    func lineWidth(from a: Int, through g: Int, base: Double, resume: Int) -> Double {
      lastContent == -.infinity ? 0 : max(0, lastContent - base)
    }

    mutating func brokenLine(segment a: Int, limit: Double, base: inout Double, resume: inout Int)
      -> BrokenPart?
    {
      // (The line goes on from `base`: tabs after the word stop from there.)
      defer { lineStart = base }
      let u = entries[entry].unit
      if u < 0 { return brokenLongWord(at: Int(-u) &- 1, limit: limit, base: &base, resume: &resume) }
      // A word too wide for a line fills as many whole lines as its width holds; the rest goes
      // on. (Capped: an absurd width must not overflow the count.)
      guard resume < 0, limit > 0 else { return nil }
      // (A line holds whole characters, as the engine breaks between graphemes: the word's
      // characters are taken as equally wide.)
      let unit = Double(entries[entry].unit)
      let fill = unit > 0 && unit <= limit ? (limit / unit).rounded(.down) * unit : limit
      let q = ((firstEnd - base) / fill).rounded(.down)
      let full = q.isFinite ? min(q, 1e12) : 1e12
      guard full >= 1 else { return nil }
      base += full * fill
      resume = 0
      return BrokenPart(end: 0, width: fill, repeats: Int(full))
    }

    /// What a line that ends after the first `k` characters of the long word at `ends[i]` gains
    /// (the gains follow its ends: their count, then character and gain for each).
    private func gainAfter(character k: Int, ofWordAt i: Int) -> Double {
      let n = Int(ends[i])
      let at = i &+ n &+ 1
      let m = Int(ends[at])
      var j = 0
      while j < m {
        if Int(ends[at &+ 1 &+ 2 &* j]) == k &- 1 { return Double(ends[at &+ 2 &+ 2 &* j]) }
        j &+= 1
      }
      return 0
    }

    /// ``brokenLine(segment:limit:base:resume:)`` of a long word whose character ends start at
    /// `ends[i]`: as the engine breaks it, at least one character, then as many as fit
    /// (`resume`: the character the line starts with).
    @inline(never)
    private func brokenLongWord(at i: Int, limit: Double, base: inout Double, resume: inout Int)
      -> BrokenPart?
    {
      let n = Int(ends[i])
      let from = max(0, resume)
      guard from < n else { return nil }
      let wordStart = firstEnd - Double(entries[entry].content)
      let start = from == 0 ? 0 : Double(ends[i &+ from])
      if Double(ends[i &+ n]) - start <= limit {
        // All that is left fits: the line goes on with it.
        base = wordStart + start
        resume = from
        return nil
      }
      var k = from &+ 1
      while k < n && Double(ends[i &+ k &+ 1]) - start <= limit { k &+= 1 }
      // The line's end shaped on its own: without its last character's pair with the next;
      // when that no longer fits, the break before (the engine's rule, PreparedText).
      var gain = gainAfter(character: k, ofWordAt: i)
      while gain > 0 && Double(ends[i &+ k]) - start + gain > limit && k > from &+ 1 {
        k &-= 1
        gain = gainAfter(character: k, ofWordAt: i)
      }
      let end = Double(ends[i &+ k])
      base = wordStart + end
      resume = k
      return BrokenPart(end: 0, width: end - start + gain, repeats: 1)
    }
  }
}
