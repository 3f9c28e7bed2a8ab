import CHarfBuzz
import Foundation

/// Prepares paragraphs: white-space processing, bidi, font fallback, shaping and break
/// opportunities. Thread-safe; keeps a bounded cache of prepared texts and a pool of shaping
/// buffers.
///
/// ```swift
/// let fonts = try FontLibrary.bundled.stack(["Inter-Regular.otf", "NanumGothic.ttf"])
/// var style = TextStyle(fonts: fonts, size: 17)
/// style.language = "ko"
/// let prepared = try Typesetter.shared.prepare("오늘 저녁 7시에 만나요", style: style)
/// let layout = try prepared.layout(width: 240)
/// print(layout.lineCount, layout.height)
/// ```
public final class Typesetter: @unchecked Sendable {
  // @unchecked: the cache and the shaper pool are only touched under `lock`.
  /// A process-wide typesetter.
  public static let shared = Typesetter()

  private let lock = Lock()
  /// Shapers not in use, each with the thread that used it last.
  private var shapers: [(thread: pthread_t, shaper: Shaper)] = []
  private var constants: [ConstantsKey: StyleConstants] = [:]
  /// Shaped words kept by each shaper (0: no word cache).
  let wordCacheCapacity: Int
  private var cache: OldestFirstCache<CacheKey, PreparedText>
  /// The most prepared texts kept; the oldest is dropped first.
  public let cacheCapacity: Int

  struct CacheKey: Hashable {
    var text: String
    var style: TextStyle
  }

  /// A typesetter whose cache keeps at most `cacheCapacity` prepared texts (0 disables it).
  /// - Parameters:
  ///   - cacheCapacity: prepared texts kept (0: none).
  ///   - wordCacheCapacity: shaped words kept across texts by each thread's shaper (0, the
  ///     default: none, every run is shaped whole). Words are shaped apart only where the
  ///     font's lookups and HarfBuzz's flags show that this changes nothing, so the cache never
  ///     changes a result; about 150 bytes per word and thread. It pays where words recur
  ///     (chat in spaced scripts); text without spaces (Chinese, Japanese, Thai) gains nothing.
  ///   - featureGating: whether a run is shaped with the substitution features that cannot change
  ///     it left off, and a run that then needs only nominal glyphs, single substitutions,
  ///     advances and pair kerning is shaped without HarfBuzz (the default; see the guide's
  ///     "Speed"). The glyphs and advances are the same either way; `false` is for checking
  ///     that, and for timing what it saves.
  public init(cacheCapacity: Int = 2048, wordCacheCapacity: Int = 0, featureGating: Bool = true) {
    self.cacheCapacity = max(0, cacheCapacity)
    cache = OldestFirstCache(capacity: cacheCapacity)
    self.wordCacheCapacity = max(0, wordCacheCapacity)
    self.featureGating = featureGating
  }

  /// Whether shapers leave off features that cannot change a run (see ``FeatureGate``) and
  /// shape the simplest runs themselves (``DirectPlan``).
  let featureGating: Bool

  /// Drops every cached prepared text.
  public func clearCache() {
    lock.lock()
    cache.removeAll()
    lock.unlock()
  }

  /// Number of shaped words in the word caches of the shapers not in use.
  public var wordCacheCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return shapers.reduce(0) { $0 + ($1.shaper.cache?.count ?? 0) }
  }

  /// How many runs the shapers not in use have shaped, and how many of them without HarfBuzz
  /// (a benchmark figure: the share the accelerator answers).
  package var shapingCounts: (runs: Int, direct: Int) {
    lock.lock()
    defer { lock.unlock() }
    return shapers.reduce((0, 0)) { ($0.0 + $1.shaper.rangesShaped, $0.1 + $1.shaper.directRuns) }
  }

  /// Number of prepared texts in the cache.
  public var cachedCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return cache.count
  }

  /// Shapes and segments `text` for `style`; the result can be laid out at any width.
  /// - Throws: ``TypesettingError`` for an invalid style.
  /// - Complexity: O(n) in the length of the text (shaping included); O(1) for a cached text.
  public func prepare(_ text: String, style: TextStyle) throws -> PreparedText {
    try style.validate()
    // (Without a cache, no key: making one copies the text and the style.)
    guard cacheCapacity > 0 else { return try build(text, style: style) }
    let key = CacheKey(text: text, style: style)
    lock.lock()
    if let hit = cache[key] {
      lock.unlock()
      return hit
    }
    lock.unlock()
    let prepared = try build(text, style: style)
    lock.lock()
    cache.insert(prepared, for: key)
    lock.unlock()
    return prepared
  }

  /// Builds with a shaper of the pool.
  private func build(_ text: String, style: TextStyle) throws -> PreparedText {
    let shaper = takeShaper()
    defer { giveBack(shaper) }
    return try build(text, style: style, shaper: shaper)
  }

  /// A shaper of the pool: the one this thread used last when it is there (its memos, plans and
  /// buffers are in this core's cache; a shaper that moves between threads drags them across
  /// cores), else the one given back longest ago (its thread is the least likely to ask
  /// again), else a new one.
  private func takeShaper() -> Shaper {
    let me = pthread_self()
    lock.lock()
    defer { lock.unlock() }
    if let k = shapers.lastIndex(where: { pthread_equal($0.thread, me) != 0 }) {
      return shapers.remove(at: k).shaper
    }
    if !shapers.isEmpty { return shapers.removeFirst().shaper }
    let shaper = Shaper()
    shaper.featureGating = featureGating
    if wordCacheCapacity > 0 { shaper.cache = WordCache(capacity: wordCacheCapacity) }
    return shaper
  }

  private func giveBack(_ shaper: Shaper) {
    let me = pthread_self()
    lock.lock()
    if shapers.count < 64 { shapers.append((me, shaper)) }
    lock.unlock()
  }

  // MARK: - Building

  /// The HarfBuzz runs that preparing these texts shapes, for timing `hb_shape` alone against
  /// the whole of `prepare` (benchmarks).
  public func shapingBaseline(_ texts: [(String, TextStyle)]) throws -> ShapingBaseline {
    let shaper = Shaper()
    var items: [ShapingBaseline.Item] = []
    shaper.recorder = { items.append($0) }
    for (text, style) in texts {
      try style.validate()
      _ = try build(text, style: style, shaper: shaper)
    }
    shaper.recorder = nil
    return ShapingBaseline(items: items)
  }

  func build(_ text: String, style: TextStyle, shaper: Shaper) throws -> PreparedText {
    // Offsets are 32-bit (UTF-16 counts up to twice the code points): refuse what would overflow.
    guard text.utf8.count < 1 << 30 else { throw TypesettingError.textTooLong(text.utf8.count) }
    let fonts = style.fonts.fonts
    let apple = style.profile == .apple
    // (Written in place: a text has at most as many code points as UTF-8 bytes.)
    let capacity = text.utf8.count
    var utf16Offsets: [Int32] = []
    let original = [UInt32](capacity: capacity) { codePoints, count in
      utf16Offsets = [Int32](capacity: capacity + 1) { offsets, offsetCount in
        var u16: Int32 = 0
        var k = 0
        for s in text.unicodeScalars {
          codePoints[k] = s.value
          offsets[k] = u16
          u16 += s.value >= 0x10000 ? 2 : 1
          k += 1
        }
        offsets[k] = u16
        offsetCount = k + 1
        count = k
      }
    }

    let processed = ProcessedText(
      original, whiteSpace: style.whiteSpace, breakAtLineSeparators: apple)
    let scalars = processed.scalars
    let source = processed.source
    let n = scalars.count

    // Graphemes and their fonts.
    var continuations: [Int32] = []
    let bounds = Graphemes.boundaries(
      of: scalars, splitModifiers: !apple, continuations: &continuations)
    let gCount = bounds.count - 1
    var gFont = [UInt8](filling: 0, count: gCount)
    var gFlags = [UInt8](filling: 0, count: gCount)
    let scratch = shaper.scratch
    var scalarFont = Shaper.Scratch.take(&scratch.fonts, count: n, value: 0)
    // (Written through pointers: a write to a captured array checks its uniqueness each time.)
    scalars.withUnsafeBufferPointer { text in
      bounds.withUnsafeBufferPointer { bounds in
        gFont.withUnsafeMutableBufferPointer { gFont in
          gFlags.withUnsafeMutableBufferPointer { gFlags in
            scalarFont.withUnsafeMutableBufferPointer { scalarFont in
              CharacterTable.withLookup { table in
                for g in 0..<gCount {
                  let a = Int(bounds[g])
                  let b = Int(bounds[g + 1])
                  let cluster = UnsafeBufferPointer(rebasing: text[a..<b])
                  let f = UInt8(
                    min(FontSelection.font(for: cluster, in: fonts, table: table), 255))
                  gFont[g] = f
                  // (Most clusters are one code point: no call to fill a range.)
                  if b - a == 1 {
                    scalarFont[a] = f
                  } else {
                    for k in a..<b { scalarFont[k] = f }
                  }
                  gFlags[g] = Typesetter.flags(of: cluster, table: table)
                }
              }
            }
          }
        }
      }
    }
    for g in continuations { gFlags[Int(g)] |= PreparedText.GraphemeFlag.continuation }

    // Bidi levels and script runs; then shaping, run by run.
    var levels = Shaper.Scratch.take(&scratch.levels, count: 0, value: 0)
    let paragraphLevel = Bidi.levels(scalars, direction: style.direction, into: &levels)
    var scripts = Shaper.Scratch.take(&scratch.scripts, count: n, value: HB_SCRIPT_COMMON)
    scalars.withUnsafeBufferPointer { text in
      scripts.withUnsafeMutableBufferPointer { scripts in
        ScriptTable.withLookup { table in
          var lastReal: hb_script_t? = nil
          for i in 0..<n {
            let s = table.script(of: text[i])
            if Shaper.isCommonOrInherited(s) {
              scripts[i] = lastReal ?? HB_SCRIPT_COMMON
            } else {
              scripts[i] = s
              if lastReal == nil {
                for k in 0..<i { scripts[k] = s }
              }
              lastReal = s
            }
          }
        }
      }
    }
    var advances = Shaper.Scratch.take(&scratch.advances, count: n, value: 0)
    let languageInfo = shaper.languageInfo(style.language)
    let language = languageInfo.harfBuzz
    let features = Shaper.features(style.features)
    let halved =
      style.profile == .browser ? PunctuationTrim.halved(scalars, language: style.language) : []
    var halvedNext = 0  // first entry of `halved` not before the current run
    var halfShaping = HalfShaping()
    // A space set in another font than the words around it (the first font of the stack with a
    // space, as Chromium does) is shaped inside the words' run, then given its own font's advance:
    // half as many runs to shape for text whose words fall back to another font.
    var shapeFont = scalarFont
    var respaced: [Int] = []
    for i in 1..<max(1, n) where scalars[i] == 0x20 && shapeFont[i - 1] != scalarFont[i] {
      let f = Int(shapeFont[i - 1])
      if levels[i - 1] == levels[i] && scalars[i - 1] != ProcessedText.lineFeed
        && scalars[i - 1] != 0x09 && fonts[f].covers(0x20)
      {
        shapeFont[i] = shapeFont[i - 1]
        respaced.append(i)
      }
    }
    shaper.glyphs.removeAll(keepingCapacity: true)
    var runs: [ShapedRun] = []
    runs.reserveCapacity(8)
    var runStart = 0
    while runStart < n {
      let runEnd = scalars.withUnsafeBufferPointer { scalars in
        shapeFont.withUnsafeBufferPointer { shapeFont in
          levels.withUnsafeBufferPointer { levels in
            scripts.withUnsafeBufferPointer { scripts in
              CharacterTable.withLookup { table in
                Typesetter.runEnd(
                  from: runStart, scalars: scalars, fonts: shapeFont, levels: levels,
                  scripts: scripts, table: table)
              }
            }
          }
        }
      }
      let c = scalars[runStart]
      if runEnd - runStart == 1 && (c == ProcessedText.lineFeed || c == 0x09) {
        // Forced breaks take no space; tabs are sized at layout time.
      } else {
        while halvedNext < halved.count && halved[halvedNext] < runStart { halvedNext += 1 }
        var halvedEnd = halvedNext
        while halvedEnd < halved.count && halved[halvedEnd] < runEnd { halvedEnd += 1 }
        let run = Shaper.Run(
          start: runStart, end: runEnd, font: fonts[Int(shapeFont[runStart])],
          rtl: levels[runStart] & 1 == 1, script: scripts[runStart])
        halfShaping.shape(
          scalars, run: run, halved: halved[halvedNext..<halvedEnd], features: features,
          size: style.size, language: language, shaper: shaper, into: &advances)
        halvedNext = halvedEnd
      }
      runs.append(
        ShapedRun(
          start: Int32(runStart), end: Int32(runEnd),
          glyphStart: runs.last?.glyphEnd ?? 0, glyphEnd: Int32(shaper.glyphs.count),
          font: shapeFont[runStart], level: levels[runStart]))
      runStart = runEnd
    }
    if !respaced.isEmpty {
      // The space's advance in each font of the stack, shaped once (NaN until then).
      var spaceAdvance = [Double](filling: .nan, count: fonts.count)
      for i in respaced {
        let f = Int(scalarFont[i])
        if spaceAdvance[f].isNaN {
          var one = [0.0]
          let kept = shaper.glyphs.count
          shaper.shape(
            [0x20], run: .init(start: 0, end: 1, font: fonts[f], rtl: false, script: scripts[i]),
            size: style.size, language: language, features: features, into: &one)
          shaper.glyphs.removeSubrange(kept...)
          spaceAdvance[f] = one[0]
        }
        advances[i] = spaceAdvance[f]
      }
      Typesetter.respace(&shaper.glyphs, at: respaced, advances: advances)
    }
    // (A copy of exactly its length: `Array(shaper.glyphs)` would share the scratch buffer.)
    let glyphs = shaper.glyphs.withUnsafeBufferPointer { Array($0) }
    if shaper.glyphs.capacity > Shaper.Scratch.keptCapacity { shaper.glyphs = [] }

    let letterSpacing = style.letterSpacing
    let gAdvance = [Double](capacity: gCount) { out, count in
      bounds.withUnsafeBufferPointer { bounds in
        advances.withUnsafeBufferPointer { advances in
          gFlags.withUnsafeBufferPointer { gFlags in
            for g in 0..<gCount {
              var w = 0.0
              for k in Int(bounds[g])..<Int(bounds[g + 1]) { w += advances[k] }
              if letterSpacing != 0 && gFlags[g] & PreparedText.GraphemeFlag.forcedBreak == 0 {
                w += letterSpacing
              }
              out[g] = w
            }
          }
        }
      }
      count = gCount
    }

    Shaper.Scratch.giveBack(&advances, to: &scratch.advances)
    Shaper.Scratch.giveBack(&scripts, to: &scratch.scripts)
    Shaper.Scratch.giveBack(&levels, to: &scratch.levels)
    Shaper.Scratch.giveBack(&scalarFont, to: &scratch.fonts)

    // Soft wrap opportunities, at grapheme boundaries only.
    let opportunities = try BreakOpportunities.compute(
      scalars, locale: languageInfo.breakLocale, wordBreak: style.wordBreak,
      browserTailoring: !apple)

    // Segments, then the six arrays of them.
    let all = gFlags.withUnsafeBufferPointer { gFlags in
      gAdvance.withUnsafeBufferPointer { gAdvance in
        gFont.withUnsafeBufferPointer { gFont in
          bounds.withUnsafeBufferPointer { bounds in
            opportunities.withUnsafeBufferPointer { opportunities in
              Typesetter.segments(
                flags: gFlags, advances: gAdvance, fonts: gFont, bounds: bounds,
                opportunities: opportunities)
            }
          }
        }
      }
    }

    let k = styleConstants(style, shaper: shaper)

    return PreparedText(
      text: text, style: style, source: source, scalars: scalars, utf16Offsets: utf16Offsets,
      graphemeStart: bounds, graphemeAdvance: gAdvance, graphemeFlags: gFlags,
      graphemeFont: gFont, segmentEnd: Segment.column(all) { $0.end },
      segmentContentEnd: Segment.column(all) { $0.contentEnd },
      segmentContent: Segment.column(all) { $0.content },
      segmentTrailing: Segment.column(all) { $0.trailing },
      segmentFlags: Segment.column(all) { $0.flags },
      segmentFonts: Segment.column(all) { $0.fonts }, fontAscent: k.ascent,
      fontDescent: k.descent, fontLineGap: k.lineGap,
      spaceAdvance: k.space + style.letterSpacing, ellipsisAdvance: k.ellipsis.advance,
      hyphenAdvance: k.hyphen.advance, glyphs: glyphs, runs: runs, ellipsis: k.ellipsis,
      hyphen: k.hyphen, paragraphLevel: paragraphLevel)
  }

  /// Gives each respaced space's glyph (set in the words' font) the advance measuring gave the
  /// space: that of its own font.
  private static func respace(
    _ glyphs: inout [ShapedGlyph], at respaced: [Int], advances: [Double]
  ) {
    // Per code point: 1 for a respaced space whose glyph is still to come, 2 once it came.
    var mark = [UInt8](filling: 0, count: advances.count)
    for i in respaced { mark[i] = 1 }
    for k in glyphs.indices {
      let c = Int(glyphs[k].cluster)
      guard c < mark.count, mark[c] != 0 else { continue }
      glyphs[k].advance = mark[c] == 1 ? advances[c] : 0
      mark[c] = 2
    }
  }

  /// Where the shaping run that starts at `start` ends: before a change of font, bidi level or
  /// script, around a line feed or a tab, before a skin tone after VS16, and after
  /// ``maximumMarksPerRun`` marks in a row.
  private static func runEnd(
    from start: Int, scalars: UnsafeBufferPointer<UInt32>, fonts: UnsafeBufferPointer<UInt8>,
    levels: UnsafeBufferPointer<UInt8>, scripts: UnsafeBufferPointer<hb_script_t>,
    table: CharacterTable.Lookup
  ) -> Int {
    let n = scalars.count
    var runEnd = start + 1
    var marks = 0  // combining marks in a row just before runEnd
    while runEnd < n && fonts[runEnd] == fonts[start]
      && levels[runEnd] == levels[start] && scripts[runEnd] == scripts[start]
      && scalars[runEnd] != ProcessedText.lineFeed && scalars[runEnd] != 0x09
      && scalars[runEnd - 1] != ProcessedText.lineFeed && scalars[runEnd - 1] != 0x09
      && !(scalars[runEnd - 1] == 0xFE0F && (0x1F3FB...0x1F3FF).contains(scalars[runEnd]))
    {
      // (A skin tone after VS16, as in ✌️🏾, is not part of an emoji modifier sequence:
      // Chromium draws the base and the swatch as two glyphs.)
      // (No mark comes before U+0300.)
      let c = scalars[runEnd]
      if c >= 0x300 && table.has(c, CharacterTable.combiningMark) {
        marks += 1
        // HarfBuzz walks back over every mark to find a mark's base, which is quadratic in
        // the marks stacked on one base: past the stream-safe limit, shape in pieces.
        if marks > Typesetter.maximumMarksPerRun { break }
      } else {
        marks = 0
      }
      runEnd += 1
    }
    return runEnd
  }

  /// The segments of a text's graphemes (their flags, advances, fonts and code point starts)
  /// given the soft wrap opportunities before each code point. A segment ends before grapheme
  /// `g` after a forced break or at a soft wrap opportunity.
  private static func segments(
    flags gFlags: UnsafeBufferPointer<UInt8>, advances gAdvance: UnsafeBufferPointer<Double>,
    fonts gFont: UnsafeBufferPointer<UInt8>, bounds: UnsafeBufferPointer<Int32>,
    opportunities: UnsafeBufferPointer<Bool>
  ) -> [Segment] {
    let gCount = gFlags.count
    @inline(__always) func endsBefore(_ g: Int) -> Bool {
      gFlags[g - 1] & PreparedText.GraphemeFlag.forcedBreak != 0 || opportunities[Int(bounds[g])]
    }
    // (Written in place: an append checks the array's uniqueness every time. There are at most
    // as many segments as graphemes.)
    return [Segment](capacity: gCount) { segment, made in
      made = 0
      var g = 0
      while g < gCount {
        let a = g
        g += 1
        while g < gCount && !endsBefore(g) { g += 1 }
        // [a, g) is a segment; find its trailing white space.
        var t = g
        while t > a
          && gFlags[t - 1]
            & (PreparedText.GraphemeFlag.space | PreparedText.GraphemeFlag.tab
              | PreparedText.GraphemeFlag.forcedBreak) != 0
        {
          t -= 1
        }
        var content = 0.0
        var trailing = 0.0
        var flags: UInt8 = 0
        var mask: UInt64 = 0
        var anyWS = false
        for k in a..<g {
          let f = gFlags[k]
          if k < t {
            content += gAdvance[k]
            if f & PreparedText.GraphemeFlag.reportWhitespace != 0 { anyWS = true }
          } else if f & PreparedText.GraphemeFlag.tab != 0 {
            flags |= PreparedText.SegmentFlag.hasTab
          } else {
            trailing += gAdvance[k]
          }
          if f & PreparedText.GraphemeFlag.forcedBreak != 0 {
            flags |= PreparedText.SegmentFlag.forcedBreak
          } else {
            mask |= 1 << UInt64(min(Int(gFont[k]), 63))
          }
        }
        if t > a && gFlags[t - 1] & PreparedText.GraphemeFlag.softHyphen != 0 {
          flags |= PreparedText.SegmentFlag.softHyphen
        }
        if t > a && !anyWS { flags |= PreparedText.SegmentFlag.plain }
        // (Initialized, not assigned: the memory holds no segment yet.)
        (segment.baseAddress! + made).initialize(
          to: Segment(
            end: Int32(g), contentEnd: Int32(t), content: content, trailing: trailing,
            flags: flags, fonts: mask))
        made += 1
      }
    }
  }

  /// A segment as ``build(_:style:shaper:)`` finds it (see ``PreparedText``'s segment arrays).
  private struct Segment {
    var end: Int32
    var contentEnd: Int32
    var content: Double
    var trailing: Double
    var flags: UInt8
    var fonts: UInt64

    /// One field of every segment, as an array (written in place: `map` appends).
    @inline(__always)
    static func column<T: BitwiseCopyable>(_ all: [Segment], _ field: (Segment) -> T) -> [T] {
      [T](capacity: all.count) { out, count in
        all.withUnsafeBufferPointer { all in
          for k in all.indices { (out.baseAddress! + k).initialize(to: field(all[k])) }
        }
        count = all.count
      }
    }
  }

  /// The most combining marks in a row that one HarfBuzz run takes (the stream-safe text format
  /// of UAX #15 allows 30 non-starters in a row). Marks have no advance of their own, so shaping
  /// the rest of an absurd stack in further runs leaves widths as they were.
  static let maximumMarksPerRun = 32

  /// Nonspacing, spacing and enclosing marks (general categories Mn, Mc, Me).
  @inline(__always)
  static func isCombiningMark(_ c: UInt32) -> Bool {
    c >= 0x300 && CharacterTable.has(c, CharacterTable.combiningMark)
  }

  /// Shapes runs with `halt` on the code points that text-spacing-trim halves.
  ///
  /// A few halved code points in a run become ranged features (exactly as Chromium asks
  /// HarfBuzz); HarfBuzz applies each ranged feature with a pass over the whole buffer, so a run
  /// with many of them is shaped twice instead, without and with `halt` everywhere, and each
  /// code point takes its advance from the shaping that applies to it. Both ways cost time
  /// linear in the run.
  struct HalfShaping {
    /// The most ranged `halt` features passed to one HarfBuzz call.
    static let maximumRanges = 16

    /// Keeps, of a run shaped twice, the glyphs each code point takes its advance from: the
    /// plain shaping's for code points not halved, the halved shaping's for the others, merged
    /// in shaping order (clusters rise left to right and fall in a right-to-left run).
    static func merge(
      _ glyphs: inout [ShapedGlyph], plain: Range<Int>, half: Range<Int>, halved: Set<Int>,
      rtl: Bool
    ) {
      let a = glyphs[plain].filter { !halved.contains(Int($0.cluster)) }
      let b = glyphs[half].filter { halved.contains(Int($0.cluster)) }
      var merged: [ShapedGlyph] = []
      merged.reserveCapacity(a.count + b.count)
      var i = 0
      var j = 0
      while i < a.count || j < b.count {
        let takeA =
          j == b.count
          || (i < a.count && (rtl ? a[i].cluster > b[j].cluster : a[i].cluster < b[j].cluster))
        if takeA {
          merged.append(a[i])
          i += 1
        } else {
          merged.append(b[j])
          j += 1
        }
      }
      glyphs.replaceSubrange(plain.lowerBound..<half.upperBound, with: merged)
    }
    private var plain: [Double] = []
    private var half: [Double] = []

    mutating func shape(
      _ scalars: [UInt32], run: Shaper.Run, halved: ArraySlice<Int>, features: [hb_feature_t],
      size: Double, language: hb_language_t?, shaper: Shaper, into advances: inout [Double],
      maximumRanges: Int = HalfShaping.maximumRanges
    ) {
      var ranges: [hb_feature_t] = []
      var tooMany = false
      for i in halved {
        if let last = ranges.last, last.end == UInt32(i) {
          ranges[ranges.count - 1].end = UInt32(i + 1)
        } else if ranges.count == maximumRanges {
          tooMany = true
          break
        } else {
          ranges.append(
            hb_feature_t(
              tag: PunctuationTrim.halt, value: 1, start: UInt32(i), end: UInt32(i + 1)))
        }
      }
      if !tooMany {
        shaper.shape(
          scalars, run: run, size: size, language: language,
          features: ranges.isEmpty ? features : features + ranges, into: &advances)
        return
      }
      if plain.count < scalars.count {
        plain = [Double](repeating: 0, count: scalars.count)
        half = plain
      }
      let plainFrom = shaper.glyphs.count
      shaper.shape(
        scalars, run: run, size: size, language: language, features: features, into: &plain)
      let halfFrom = shaper.glyphs.count
      let everywhere = hb_feature_t(tag: PunctuationTrim.halt, value: 1, start: 0, end: UInt32.max)
      shaper.shape(
        scalars, run: run, size: size, language: language, features: features + [everywhere],
        into: &half)
      HalfShaping.merge(
        &shaper.glyphs, plain: plainFrom..<halfFrom, half: halfFrom..<shaper.glyphs.count,
        halved: Set(halved), rtl: run.rtl)
      var next = halved.startIndex
      for k in run.start..<run.end {
        if next < halved.endIndex && halved[next] == k {
          advances[k] += half[k]
          next += 1
        } else {
          advances[k] += plain[k]
        }
        plain[k] = 0
        half[k] = 0
      }
    }
  }

  /// The ICU locale for line breaking: Chromium's `line-break: auto` is ICU's `normal` for Japanese
  /// (breaks before small kana and the prolonged sound mark).
  static func breakLocale(_ language: String) -> String {
    let lang = language.lowercased()
    if lang == "ja" || lang.hasPrefix("ja-") || lang.hasPrefix("ja_") {
      return language + "@lb=normal"
    }
    return language.isEmpty ? "en" : language
  }

  /// What a style gives every text: per-font line metrics, the advances of a space (tab stops),
  /// an ellipsis and a hyphen. Computed once per style and kept (a few hundred bytes each).
  struct StyleConstants {
    var ascent: [Double] = []
    var descent: [Double] = []
    var lineGap: [Double] = []
    var space = 0.0
    var ellipsis = ShapedSnippet()
    var hyphen = ShapedSnippet()
  }

  /// What the constants of a style depend on (not its wrapping, line height or truncation).
  struct ConstantsKey: Hashable {
    var fonts: FontStack
    var size: Double
    var profile: TextStyle.Profile
    var language: String
    var features: [String: UInt32]

    init(_ style: TextStyle) {
      fonts = style.fonts
      size = style.size
      profile = style.profile
      language = style.language
      features = style.features
    }
  }

  func styleConstants(_ style: TextStyle, shaper: Shaper) -> StyleConstants {
    let key = ConstantsKey(style)
    // The shaper's previous text most often had the same: no hashing, no lock.
    if let (last, k) = shaper.lastStyleConstants, last == key { return k }
    // Then the styles this shaper met before (no lock: a lock shared by threads that prepare
    // text at once bounces between their cores), then those of the whole typesetter.
    let k: StyleConstants
    if let mine = shaper.styleConstants[key] {
      k = mine
    } else {
      k = sharedStyleConstants(style, key: key, shaper: shaper)
      if shaper.styleConstants.count >= 1024 { shaper.styleConstants.removeAll() }
      shaper.styleConstants[key] = k
    }
    shaper.lastStyleConstants = (key, k)
    return k
  }

  private func sharedStyleConstants(_ style: TextStyle, key: ConstantsKey, shaper: Shaper)
    -> StyleConstants
  {
    lock.lock()
    if let k = constants[key] {
      lock.unlock()
      return k
    }
    lock.unlock()
    let fonts = style.fonts.fonts
    var k = StyleConstants()
    for f in fonts {
      let m = LineMetrics.of(f, size: style.size, profile: style.profile)
      k.ascent.append(m.ascent)
      k.descent.append(m.descent)
      k.lineGap.append(m.lineGap)
    }
    k.space = Typesetter.shapeAlone([0x20], fonts: fonts, style: style, shaper: shaper).advance
    k.ellipsis = Typesetter.shapeAlone([0x2026], fonts: fonts, style: style, shaper: shaper)
    k.hyphen = Typesetter.shapeAlone(
      [fonts[0].covers(0x2010) ? 0x2010 : 0x2D], fonts: fonts, style: style, shaper: shaper)
    lock.lock()
    if constants.count >= 1024 { constants.removeAll() }
    constants[key] = k
    lock.unlock()
    return k
  }

  /// A short string shaped in the first font of the stack that covers it.
  static func shapeAlone(_ scalars: [UInt32], fonts: [Font], style: TextStyle, shaper: Shaper)
    -> ShapedSnippet
  {
    let fi = FontSelection.font(for: scalars[...], in: fonts)
    var adv = [Double](repeating: 0, count: scalars.count)
    let lang = shaper.languageInfo(style.language).harfBuzz
    let kept = shaper.glyphs.count
    shaper.shape(
      scalars,
      run: .init(
        start: 0, end: scalars.count, font: fonts[fi], rtl: false,
        script: Shaper.script(of: scalars[0])), size: style.size, language: lang,
      features: Shaper.features(style.features), into: &adv)
    let snippet = ShapedSnippet(font: fi, glyphs: Array(shaper.glyphs[kept...]))
    shaper.glyphs.removeSubrange(kept...)
    return snippet
  }

  /// Whether a grapheme cluster is white space that hangs, a tab, a forced break, a soft hyphen,
  /// or white space left out of reported widths (`table`: the character table, which a loop
  /// over clusters reads once).
  @inline(__always)
  static func flags(of cluster: UnsafeBufferPointer<UInt32>, table: CharacterTable.Lookup)
    -> UInt8
  {
    guard let first = cluster.first else { return 0 }
    var f: UInt8 = 0
    if cluster.count == 1 {
      switch first {
      case 0x20: f |= PreparedText.GraphemeFlag.space
      case 0x09: f |= PreparedText.GraphemeFlag.tab
      case ProcessedText.lineFeed: f |= PreparedText.GraphemeFlag.forcedBreak
      case 0xAD: f |= PreparedText.GraphemeFlag.softHyphen
      default: break
      }
    }
    if cluster.allSatisfy({
      table.has($0, CharacterTable.reportWhitespace)
    }) {
      f |= PreparedText.GraphemeFlag.reportWhitespace
    }
    return f
  }

  /// White space that measured line widths leave out at the end of a line.
  @inline(__always)
  static func isReportWhitespace(_ c: UInt32) -> Bool {
    switch c {
    case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C, 0x2028, 0x2029, 0x3000, 0x200B, 0x1680,
      0x2000...0x2006, 0x2008...0x200A, 0x205F:
      return true
    default: return false
    }
  }
}
