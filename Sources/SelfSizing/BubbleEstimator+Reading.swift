import CHarfBuzz
import Foundation
import Typesetting

extension BubbleEstimator {
  /// Words wider than this many ems keep where each of their characters ends, so that
  /// overflow-wrap breaks them where the engine would (a narrower word is broken only in a text
  /// narrower than it, and then after its mean character advance).
  static let longWord = 6.0

  /// Receives the words of a text as they are read.
  protocol WordSink {
    /// A word `content` wide with `trailing` white space after it; overflow-wrap may break it
    /// after each `unit` of its width (its characters taken as equally wide); `fonts` are the
    /// fonts it uses that raise a line box (``LineRule/mask(font:)``).
    mutating func word(_ content: Double, trailing: Double, unit: Double, fonts: UInt16)
    /// A long word, with the end of each of its characters (the last: `content`) and what a
    /// line that ends after some of them gains (``CharacterEnds/gains``).
    mutating func word(
      _ content: Double, trailing: Double, ends: UnsafeBufferPointer<Float>,
      gains: UnsafeBufferPointer<Float>, fonts: UInt16)
    /// The white space after the last word holds tabs: `items` are the spaces before the first
    /// and, per tab, the advance of a space of its font and the spaces after it.
    mutating func tabbed(_ items: [Float], letterSpacing: Double, tabSize: Int)
    mutating func endParagraph()
    /// How much the sink holds, to take a text back (``rewind(to:)``) and read it again.
    var mark: SinkMark { get }
    /// Forgets what came after `mark`.
    mutating func rewind(to mark: SinkMark)
  }

  /// How much a ``WordSink`` holds: its counts of entries, long words' ends and paragraphs,
  /// and where its paragraph started.
  struct SinkMark {
    var entries = 0
    var ends = 0
    var paragraphs = 0
    var paragraphStart = 0
  }

  /// Where the characters of the word being read end, from its start: a buffer of its own that
  /// grows for very long words.
  struct CharacterEnds {
    private var buffer = UnsafeMutablePointer<Float>.allocate(capacity: 256)
    private(set) var capacity = 256
    private(set) var count = 0

    /// Per character, what a line that ends after it gains: the change of its pair with the
    /// next, taken back (a line's end is shaped on its own: ``PreparedText``'s rule).
    private var gainBuffer = UnsafeMutablePointer<Float>.allocate(capacity: 256)

    /// Character `k` starts at `end` (so character `k - 1` ends there, gaining nothing so far).
    mutating func note(_ k: Int, end: Double) {
      guard k > 0 else { return }
      if k > capacity { grow() }
      buffer[k &- 1] = Float(end)
      gainBuffer[k &- 1] = 0
    }

    /// A line that ends where character `k` starts gains `gain` (after ``note(_:end:)``).
    mutating func note(_ k: Int, gain: Double) {
      guard k > 0 else { return }
      gainBuffer[k &- 1] = Float(gain)
    }

    @inline(never)
    private mutating func grow() {
      let bigger = UnsafeMutablePointer<Float>.allocate(capacity: capacity * 2)
      bigger.update(from: buffer, count: capacity)
      buffer.deallocate()
      buffer = bigger
      let biggerGains = UnsafeMutablePointer<Float>.allocate(capacity: capacity * 2)
      biggerGains.update(from: gainBuffer, count: capacity)
      gainBuffer.deallocate()
      gainBuffer = biggerGains
      capacity *= 2
    }

    /// The word has `characters` characters and ends at `end`.
    @inline(never)
    mutating func finish(characters: Int, end: Double) {
      note(characters, end: end)
      count = characters
    }

    /// The ends of the last finished word.
    var list: UnsafeBufferPointer<Float> { UnsafeBufferPointer(start: buffer, count: count) }
    /// What a line that ends after each character of the last finished word gains.
    var gains: UnsafeBufferPointer<Float> { UnsafeBufferPointer(start: gainBuffer, count: count) }

    /// Gives back what a very long word grew the buffer to (it is kept from text to text, per
    /// thread: one word of a 4 MB text would otherwise hold 16 MB until the thread ends).
    mutating func shrink() {
      guard capacity > 4096 else { return }
      buffer.deallocate()
      buffer = .allocate(capacity: 256)
      gainBuffer.deallocate()
      gainBuffer = .allocate(capacity: 256)
      capacity = 256
      count = 0
    }

    /// One in memory of its own, freed with its owner.
    final class Owner {
      let pointer: UnsafeMutablePointer<CharacterEnds>

      init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: CharacterEnds())
      }

      deinit {
        pointer.pointee.buffer.deallocate()
        pointer.pointee.gainBuffer.deallocate()
        pointer.deinitialize(count: 1)
        pointer.deallocate()
      }
    }
  }

  /// Collects words into flat arrays (for ``PreparedBubbles``).
  struct WordsBuilder: WordSink {
    var entries: [Entry] = []
    /// Where the current paragraph's entries begin (no run spans paragraphs).
    var paragraphStart = 0
    var paragraphs: [Paragraph] = []
    mutating func word(_ content: Double, trailing: Double, unit: Double, fonts: UInt16) {
      let c = Float(content)
      let unit = Float(unit)
      let n = entries.count
      if n > paragraphStart, c > 0, case let last = entries[n &- 1], last.trailing == 0,
        last.content == c, last.unit == unit, last.fonts == fonts, last.count < UInt16.max
      {
        entries[n &- 1].count = last.count &+ 1
        entries[n &- 1].trailing = Float(trailing)
      } else {
        entries.append(
          Entry(content: c, trailing: Float(trailing), unit: unit, count: 1, fonts: fonts))
      }
    }
    /// Where long words' characters end: for each, its number of characters, then their ends.
    var ends: [Float] = []
    mutating func word(
      _ content: Double, trailing: Double, ends list: UnsafeBufferPointer<Float>,
      gains: UnsafeBufferPointer<Float>, fonts: UInt16
    ) {
      // (Its place in ``ends`` as a negative unit; a Float counts exactly to 2^24.)
      guard ends.count < 1 << 24 else {
        word(content, trailing: trailing, unit: content / Double(list.count), fonts: fonts)
        return
      }
      let unit = -Float(ends.count + 1)
      // Its character count, their ends, then how many gains and, for each, its character and
      // the gain.
      ends.append(Float(list.count))
      ends.append(contentsOf: list)
      let counted = ends.count
      ends.append(0)
      for (k, g) in gains.enumerated() where g != 0 {
        ends.append(Float(k))
        ends.append(g)
      }
      ends[counted] = Float((ends.count - counted - 1) / 2)
      entries.append(
        Entry(content: Float(content), trailing: Float(trailing), unit: unit, count: 1, fonts: fonts))
    }
    var mark: SinkMark {
      SinkMark(
        entries: entries.count, ends: ends.count, paragraphs: paragraphs.count,
        paragraphStart: paragraphStart)
    }
    mutating func rewind(to mark: SinkMark) {
      entries.removeSubrange(mark.entries...)
      ends.removeSubrange(mark.ends...)
      paragraphs.removeSubrange(mark.paragraphs...)
      paragraphStart = mark.paragraphStart
    }
    mutating func tabbed(_ items: [Float], letterSpacing: Double, tabSize: Int) {
      // (Past the places a NaN can hold, the width from the paragraph's start stays.)
      guard let last = entries.indices.last, ends.count <= Entry.tabbedLimit else { return }
      entries[last].trailing = Entry.tabbedTrailing(at: ends.count)
      ends.append(Float(items.count / 2))
      ends.append(Float(letterSpacing))
      ends.append(Float(tabSize))
      ends.append(contentsOf: items)
    }
    mutating func endParagraph() {
      // Its width on one line, summed as the wrapper sums it.
      var x = 0.0
      var content = 0.0
      var segments = 0
      var fonts: UInt16 = 0
      var tabbed = false
      for e in entries[paragraphStart...] {
        let w = Double(e.content)
        x += e.count == 1 ? w : Double(e.count) * w
        if w > 0 { content = x }
        if e.trailing.isNaN {
          tabbed = true
          x += ends.withUnsafeBufferPointer { e.trailing(at: x, $0) }
        } else {
          x += Double(e.trailing)
        }
        segments += Int(e.count)
        fonts |= e.fonts
      }
      paragraphs.append(
        Paragraph(
          end: entries.count, natural: content, segments: segments, fonts: fonts, tabbed: tabbed))
      paragraphStart = entries.count
    }
  }

  /// The fonts of a style with their nominal advances and factors, resolved once per text.
  final class Fonts {
    let fonts: [Font]
    let language: String
    let browser: Bool
    let factors: [String: Double]
    /// The fonts' tables, held for the unmanaged references of ``entries`` (read per
    /// character, they are not retained and released at each).
    let all: [EstimationTables]
    /// Per font, what the per-character loop reads of it (memory of its own, freed with it:
    /// read without bounds checks or retains).
    let entries: UnsafeMutableBufferPointer<Entry>
    /// The first font with colour glyphs (for emoji presentation), if any.
    let color: Int?
    /// The ICU locale of line breaking in the style's language.
    let breakLocale: String
    /// Whether the text read last had a character none of the fonts has (``resolve``).
    var missed = false
    /// Whether the language sets its ideographic comma and full stop like closing marks
    /// (``PunctuationTrim/closingDots(language:)``).
    let closingDots: Bool

    /// A font as the per-character loop reads it: its tables' own memory (kept alive by
    /// ``all``), its scale and its language's advances.
    struct Entry {
      let nominal: Unmanaged<NominalAdvances>
      /// The calibrated factor on its advances (points per em are it × the size).
      let factor: Double
      let shaping: Shaping
      let forms: Unmanaged<JoiningForms>?
      /// The advances in em of the characters it may choose by language, in the style's
      /// (``LanguageAdvances``, by slot).
      let localized: SIMD16<Float>
    }

    /// (`breakLocale`: the locale of the style's language when known already.)
    init(_ style: TextStyle, factors: [String: Double], breakLocale: String? = nil) {
      fonts = style.fonts.fonts
      self.factors = factors
      language = style.language
      self.breakLocale = breakLocale ?? BreakOpportunities.locale(forLanguage: style.language)
      browser = style.profile == .browser
      all = fonts.map { $0.estimationTables() }
      entries = .allocate(capacity: fonts.count)
      var trims = false
      for (i, (font, t)) in zip(fonts, all).enumerated() {
        let localized = font.languageAdvances(language: style.language, tables: t).advances
        let shaping = Shaping(t, browser: browser)
        trims = trims || shaping.trims
        (entries.baseAddress! + i).initialize(
          to: Entry(
            nominal: .passUnretained(t.nominal),
            factor: factors.isEmpty ? 1 : factors[font.name] ?? 1, shaping: shaping,
            forms: t.forms.map(Unmanaged.passUnretained), localized: localized))
      }
      // (Asked only where punctuation is trimmed.)
      closingDots = trims && PunctuationTrim.closingDots(language: style.language)
      color = fonts.firstIndex { $0.hasColorGlyphs }
    }

    deinit { entries.deallocate() }

    /// The advance in em of `v` in font `i` in a run of `script`, when `v` is a character the
    /// font forms by language (``LanguageAdvances``) and the font has it.
    func localized(_ v: UInt32, font i: Int, script: hb_script_t) -> Double? {
      let slot = LanguageAdvances.slot(v)
      guard slot >= 0, fonts[i].glyph(for: v) != nil else { return nil }
      let key = UInt64(script.rawValue) << 8 | UInt64(i)
      for known in scriptLocalized where known.key == key { return Double(known.advances[slot]) }
      let advances =
        fonts[i].languageAdvances(language: language, script: script, tables: all[i]).advances
      if scriptLocalized.count >= 32 { scriptLocalized.removeFirst() }
      scriptLocalized.append((key, advances))
      return Double(advances[slot])
    }

    /// ``localized(_:font:script:)``'s answers per script and font (a thread's fonts: no lock;
    /// a text has few scripts).
    private var scriptLocalized: [(key: UInt64, advances: SIMD16<Float>)] = []

    /// Whether these are the fonts of `style` (texts in a row mostly share them, and a
    /// bubble's name and timestamp its text's).
    func serve(_ style: TextStyle, factors: [String: Double]) -> Bool {
      let other = style.fonts.fonts
      guard other.count == fonts.count else { return false }
      for i in fonts.indices where fonts[i] !== other[i] { return false }
      guard browser == (style.profile == .browser), language == style.language else {
        return false
      }
      return factors.isEmpty ? self.factors.isEmpty : factors == self.factors
    }
  }

  /// The engine's line-box rule (``LineBoxes``) for a text, with the fonts that raise a line box
  /// as words record them: bit i for font i of the stack below 15, bit 15 for any later one.
  final class LineRule: Sendable {
    let boxes: LineBoxes
    /// The fonts that raise a line box, as a word mask.
    let tall: UInt16
    /// The height of a line of fonts that raise nothing.
    let strut: Double
    /// Added between lines.
    var spacing: Double { boxes.spacing }

    init(_ style: TextStyle) {
      boxes = LineBoxes(style)
      let raising = boxes.raisingFonts
      tall = UInt16(truncatingIfNeeded: raising & 0x7FFF) | (raising >> 15 != 0 ? 0x8000 : 0)
      strut = boxes.box(fonts: 0).height
    }

    /// The word-mask bit of font `i` of the stack.
    static func mask(font i: Int) -> UInt16 { 1 &<< UInt16(min(i, 15)) }

    /// The height of a line whose words' masks are `m` (bit 15 stands for every raising font
    /// from the 16th on: the tallest of them).
    func height(_ m: UInt16) -> Double {
      guard m != 0 else { return strut }
      var fonts = UInt64(m & 0x7FFF)
      if m & 0x8000 != 0 { fonts |= boxes.raisingFonts & ~0x7FFF }
      return boxes.box(fonts: fonts).height
    }

    /// Whether this is the rule of `style`, whose fonts are the rule's.
    func serves(_ style: TextStyle) -> Bool { boxes.isRule(of: style) }
  }

  /// The advance of the hyphen the engine shows at a soft hyphen (``SoftHyphen``), from the
  /// first font that has it. (Out of line: few texts have one.)
  @inline(never)
  static func hyphenAdvance(
    _ f: Fonts, _ entries: UnsafeMutableBufferPointer<Fonts.Entry>, size: Double
  ) -> Double {
    let (fi, em) = resolve(SoftHyphen.shown(in: f.fonts), presentation: 0, f, entries)
    return em * entries[fi].factor * size
  }

  /// The code points of `text`.
  static func scalars(_ text: String) -> [UInt32] {
    // (Written in place: no code point is more than one UTF-8 byte.)
    [UInt32](unsafeUninitializedCapacity: text.utf8.count) { list, count in
      var k = 0
      for u in text.unicodeScalars {
        list[k] = u.value
        k &+= 1
      }
      count = k
    }
  }

  /// Where the engine may break lines of `scalars` in `style` (`result[i]`: before code point
  /// i), from its own rules over the whole text (none where ICU fails: lines then break after
  /// spaces only; none in a text that does not wrap: its lines end at forced breaks only).
  static func opportunities(_ scalars: [UInt32], _ style: TextStyle, locale: String) -> [Bool] {
    guard style.whiteSpace.wraps,
      let found = BreakOpportunities.opportunities(scalars, style: style, locale: locale)
    else { return [Bool](repeating: false, count: scalars.count) }
    return found
  }

  /// Whether `v` is of the Indic blocks (Devanagari to Malayalam), whose shaper puts a dotted
  /// circle under a mark with no base.
  static func isIndic(_ v: UInt32) -> Bool { v >= 0x0900 && v < 0x0D80 }

  /// An Indic mark with no base before it as shaping draws it, on a dotted circle of the first
  /// font that has the mark: that font and the circle's advance in em (0: no such font, or it
  /// has no circle). (A mark no font has takes no advance, as a nonspacing mark's box.)
  @inline(never)
  static func baselessMark(
    _ v: UInt32, _ f: Fonts, _ entries: UnsafeMutableBufferPointer<Fonts.Entry>
  ) -> (font: Int, em: Double) {
    guard v < 0x10000 else { return (0, 0) }
    for i in entries.indices where entries[i].nominal.takeUnretainedValue()[v] >= 0 {
      return (i, dottedCircle(i, entries))
    }
    return (0, 0)
  }

  /// The advance in em of the dotted circle (U+25CC) of font `i`, 0 when it has none.
  @inline(never)
  static func dottedCircle(_ i: Int, _ entries: UnsafeMutableBufferPointer<Fonts.Entry>) -> Double
  {
    let a = entries[i].nominal.takeUnretainedValue()[0x25CC]
    return a > 0 ? Double(a) : 0
  }

  /// The font that draws `v` among `entries` and its advance in em (nominal, or the
  /// language's).
  static func resolve(
    _ v: UInt32, presentation: Int8, _ f: Fonts, _ entries: UnsafeMutableBufferPointer<Fonts.Entry>
  ) -> (font: Int, em: Double) {
    if presentation > 0, let c = f.color, let a = f.fonts[c].nominalAdvance(v) { return (c, a) }
    if presentation < 0 {
      for i in f.fonts.indices where !f.fonts[i].hasColorGlyphs {
        if let a = f.fonts[i].nominalAdvance(v) { return (i, a) }
      }
    }
    if v < 0x10000 {
      for i in entries.indices {
        let a = entries[i].nominal._withUnsafeGuaranteedRef { $0[v] }
        if a >= 0 {
          // (Space, middle dot, dashes, quotes and ellipsis take the language's advance.)
          let slot =
            v == 0x20 ? 0 : v == 0xB7 || (v >= 0x2013 && v <= 0x2026) ? LanguageAdvances.slot(v) : -1
          return (i, slot >= 0 ? Double(entries[i].localized[slot]) : Double(a))
        }
      }
    } else {
      for i in f.fonts.indices {
        if let a = f.fonts[i].nominalAdvance(v) { return (i, a) }
      }
    }
    f.missed = true
    return (0, f.fonts[0].missingGlyphAdvance)  // no font covers it: the missing-glyph box
  }

  /// The reading pass: feeds the words to `out` and returns the line height and whether the text
  /// is empty. When `perFont` is given it also sums each font's advances in points at factor 1
  /// (for calibration).
  func read<Sink: WordSink>(
    _ text: String, _ style: TextStyle, size: Double, perFont: inout [Double]?,
    into out: inout Sink
  ) -> (rule: LineRule, isEmpty: Bool) {
    var fonts = RecentFonts()
    return read(text, style, size: size, perFont: &perFont, into: &out, fonts: &fonts)
  }

  /// The fonts of the last few styles read (a bubble's text, name and timestamp, and the
  /// bubbles after it, mostly share them).
  struct RecentFonts {
    /// Oldest first, at most ``kept`` (an archive of many languages and stacks goes round
    /// a few dozen: a set made again costs thousands of instructions, a look past one a few).
    private var list: [Fonts] = []
    static let kept = 32
    /// Where the characters of the word being read end (memory kept for the next text).
    let ends = CharacterEnds.Owner()

    /// A thread's recent fonts (each thread its own: no lock), kept until the thread ends.
    final class OfThread {
      var fonts = RecentFonts()
    }

    private static let key: pthread_key_t = {
      var key = pthread_key_t()
      pthread_key_create(&key) { p in if let p { Unmanaged<OfThread>.fromOpaque(p).release() } }
      return key
    }()

    /// The calling thread's recent fonts.
    static func ofThread() -> OfThread {
      if let p = pthread_getspecific(key) {
        return Unmanaged<OfThread>.fromOpaque(p).takeUnretainedValue()
      }
      let t = OfThread()
      pthread_setspecific(key, Unmanaged.passRetained(t).toOpaque())
      return t
    }

    /// The line rules of the last few styles read, with their fonts (texts in a row mostly
    /// share them).
    private var rules: [(fonts: Fonts, rule: LineRule)] = []

    /// The line-box rule of `style`, whose fonts are `fonts`.
    mutating func lineRule(_ style: TextStyle, fonts: Fonts) -> LineRule {
      // (Newest first: texts in a row mostly share their style.)
      for r in rules.reversed() where r.fonts === fonts && r.rule.serves(style) { return r.rule }
      let r = LineRule(style)
      if rules.count == 8 { rules.removeFirst() }
      rules.append((fonts, r))
      return r
    }

    mutating func of(_ style: TextStyle, factors: [String: Double]) -> Fonts {
      for f in list.reversed() where f.serve(style, factors: factors) { return f }
      // (The line-breaking locale of a language is worked out from its tag: once per
      // language among the recent fonts.)
      let locale = list.first { $0.language == style.language }?.breakLocale
      let f = Fonts(style, factors: factors, breakLocale: locale)
      if list.count == RecentFonts.kept { list.removeFirst() }
      list.append(f)
      return f
    }
  }

  /// ``read(_:_:size:perFont:into:)`` with the fonts of recent texts, kept in `fonts` and used
  /// again when this text's style has the same.
  func read<Sink: WordSink>(
    _ text: String, _ style: TextStyle, size: Double, perFont: inout [Double]?,
    into out: inout Sink, fonts: inout RecentFonts
  ) -> (rule: LineRule, isEmpty: Bool) {
    let f = fonts.of(style, factors: fontScales)
    f.missed = false
    let rule = fonts.lineRule(style, fonts: f)
    let before = out.mark
    let collapse = style.whiteSpace.collapses
    let separatorsBreak = style.profile == .apple
    var reading = Reading(
      f, style, size: size, tall: rule.tall, calibrating: perFont != nil, ends: fonts.ends.pointer)
    var afterCR = false
    var classifier = Classifier()
    let scalars = BubbleEstimator.scalars(text)
    let opportunities = BubbleEstimator.opportunities(scalars, style, locale: f.breakLocale)
    // (Script runs only where a character may begin one of its own: few texts.)
    let runScripts = LanguageAdvances.splitsRuns(scalars) ? ScriptRuns.scripts(of: scalars) : nil
    var index = -1
    let count = scalars.count
    while index &+ 1 < count {
      index &+= 1
      var v = scalars[index]
      defer { reading.lastScalar = v }
      if afterCR {
        afterCR = false
        if v == 0x0A { continue }  // CR LF is one break
      }
      if collapse && (v == 0x0A || v == 0x09 || v == 0x0D) { v = 0x20 }
      if v == 0x0A || v == 0x0D || (separatorsBreak && (v == 0x2028 || v == 0x2029)) {
        afterCR = v == 0x0D
        reading.endParagraph(into: &out)
        continue
      }
      if v == 0x2028 || v == 0x2029 { v = 0x20 }
      let w = index &+ 1 < count ? scalars[index &+ 1] : 0
      var (c, keycap) = classifier.next(v, before: w)
      // A mark of another script than the character under it starts a script run of its own,
      // where the engine takes it a font and its advance as a character's (U+0489 on a Latin
      // letter). (Out of line, for marks only.)
      if c == .mark && index > 0 && UnicodeProperties.hasOtherScript(v, than: scalars[reading.base.index])
      {
        c = .other
      }
      if let runScripts { reading.runScript = runScripts[index] }
      reading.character(
        v, c, keycap: keycap,
        presentation: w >= 0xFE0E ? BubbleEstimator.presentation(c, before: w) : 0,
        breakable: opportunities[index], into: &out, perFont: &perFont)
      if c != .mark {
        reading.base.index = index
      } else if reading.base.font >= 0 && !reading.has(reading.base.font, v) {
        reading.mark(v, lackedIn: scalars[reading.base.index...index])
      }
    }
    if reading.paragraph.hasContent || reading.paragraph.count == 0 {
      reading.endParagraph(into: &out)
    }
    reading.word.ends.pointee.shrink()
    // Characters no font of the stack has: read again with the fonts the engine's system
    // fallback adds for them (not when calibrating: the sums are per font of the stack).
    if f.missed, perFont == nil,
      let wider = style.fonts.withSystemFallback(
        for: scalars, splitModifiers: style.profile == .browser, language: style.language)
    {
      out.rewind(to: before)
      var widened = style
      widened.fonts = wider
      return read(text, widened, size: size, perFont: &perFont, into: &out, fonts: &fonts)
    }
    // White space only collapses to nothing.
    return (rule, text.isEmpty || (collapse && !reading.anyContent))
  }
}

extension BubbleEstimator.Fonts {
  /// What the per-character loop reads of a font's ``EstimationTables``: the tables' own
  /// memory, which the fonts' tables keep alive (no reference counting per character).
  struct Shaping {
    var letters: UnsafeMutablePointer<JoiningForms.Letter?>?
    var pairRows: UnsafeMutablePointer<Int16>?
    var pairValues: UnsafeMutablePointer<Float>
    var pairCount = 0
    var pairLimit = 0
    var conjuncts: UnsafeMutablePointer<Float>?
    var vowels: UnsafeMutablePointer<Float>?
    var conjunctCount = 0
    /// Adjacent fullwidth punctuation is trimmed (see ``PunctuationTrim``).
    var trims: Bool

    init(_ t: EstimationTables, browser: Bool) {
      letters = t.forms?.letters
      pairRows = t.pairs?.rows
      pairValues = t.pairs?.table.values ?? Shaping.none
      pairCount = t.pairs?.table.count ?? 0
      pairLimit = KerningPairs.indexLimit
      conjuncts = t.conjuncts?.table.values
      vowels = t.conjuncts?.vowels.values
      conjunctCount = t.conjuncts?.table.count ?? 0
      trims = browser && t.hasHalt
    }

    /// (A table of one zero, for fonts without pairs: never read.)
    nonisolated(unsafe) static let none: UnsafeMutablePointer<Float> = {
      let p = UnsafeMutablePointer<Float>.allocate(capacity: 1)
      p.initialize(to: 0)
      return p
    }()
  }
}

extension BubbleEstimator {
  /// ``Joining/next(_:_:font:forms:)`` for the joining letter `v` of font `font`, out of the
  /// reading loop.
  @inline(never)
  static func join(_ joining: inout Joining, _ v: UInt32, font: Int, _ entry: Fonts.Entry) -> (
    em: Double, previousChange: Double
  ) {
    guard let letter = entry.shaping.letters?[Int(v &- 0x0600)], let forms = entry.forms else {
      joining.reset()
      return (0, 0)
    }
    return joining.next(letter, v, font: font, forms: forms)
  }

  /// The change in em that `v` makes with the consonant before it (a conjunct, when a virama
  /// came between: `afterVirama`), and the consonant state for the next character.
  @inline(never)
  static func conjunct(
    _ v: UInt32, font: Int, _ sh: Fonts.Shaping, after afterVirama: Bool, _ lastFont: inout Int,
    _ lastIndex: inout Int
  ) -> Double {
    let k = ConjunctPairs.index(v)
    var change = 0.0
    if k >= 0 && afterVirama && lastFont == font, let values = sh.conjuncts {
      change = Double(values[lastIndex &* sh.conjunctCount &+ k])
    } else if k < 0 && !afterVirama && lastFont == font {
      change = vowelSign(v, sh, &lastFont, lastIndex)
    }
    (lastFont, lastIndex) = k >= 0 ? (font, k) : (-1, -1)
    return change
  }

  /// The change in em that the dependent vowel sign `v` makes with the consonant of index
  /// `consonant` before it, in the font of `sh` (0 for any other character); the consonant
  /// state (`font`) ends with it.
  @inline(never)
  static func vowelSign(
    _ v: UInt32, _ sh: Fonts.Shaping, _ font: inout Int, _ consonant: Int
  ) -> Double {
    let k = ConjunctPairs.vowelIndex(v)
    guard k >= 0, let values = sh.vowels else { return 0 }
    defer { font = -1 }
    return Double(values[consonant &* sh.conjunctCount &+ k])
  }

  /// ``PunctuationTrim/trims(_:_:closingDots:)``, out of the reading loop.
  @inline(never)
  static func trims(_ first: UInt32, _ second: UInt32, closingDots: Bool) -> (
    first: Bool, second: Bool
  ) {
    PunctuationTrim.trims(first, second, closingDots: closingDots)
  }
}

/// Cursive joining as the estimator follows it: a letter joins the one before it when that one
/// joins onward (dual joining or join causing), both are in the same font, and nothing but marks
/// lies between; lam then alef make one ligature. (A few scalars, not an optional: the reading
/// loop clears it at most characters.)
struct Joining {
  /// The last joining letter's font, or -1 when the next letter joins nothing.
  var font = -1
  var scalar: UInt32 = 0
  /// Its initial and medial forms' advances, in em.
  var initial: Float = 0
  var medial: Float = 0
  /// The advance in em counted for it so far (its form without a letter after it).
  var em: Float = 0
  /// It joins the letter before it.
  var joinedBefore = false
  /// The last letter when it does not join the next one (0: none, or not right before), whose
  /// kerning with the next letter counts.
  var kernFrom: UInt32 = 0
  var kernFont = -1
  /// The change in em of that kerning when a letter joins the one this state holds (which is
  /// then initial, not alone).
  var pendingKern: Float = 0

  /// Nothing before the next letter joins it or kerns with it.
  mutating func reset() {
    font = -1
    kernFrom = 0
  }

  /// The form of `letter` (`scalar`, in font `font`) after the letter this state holds: its
  /// advance in em and the change in em to the advance of the letter before it; the state
  /// then holds it.
  mutating func next(
    _ letter: JoiningForms.Letter, _ scalar: UInt32, font: Int, forms: Unmanaged<JoiningForms>
  ) -> (em: Double, previousChange: Double) {
    guard self.font == font else {
      // After a letter that does not join it: alone, kerned with that letter.
      var kern: (isolated: Float, initial: Float) = (0, 0)
      if kernFrom != 0 && kernFont == font,
        let k = forms.takeUnretainedValue().kerns[JoiningForms.pairKey(kernFrom, scalar)]
      {
        kern = k
      }
      self = Joining(letter, scalar, font: font, joinedBefore: false, em: letter.isolated)
      pendingKern = kern.initial - kern.isolated
      return (Double(letter.isolated), Double(kern.isolated))
    }
    if self.scalar == 0x0644, let ligature = forms._withUnsafeGuaranteedRef({ $0.lamAlef[scalar] }) {
      // The ligature stands for both; nothing joins after it (alef joins only before).
      let em = joinedBefore ? ligature.final : ligature.isolated
      let change = Double(em - self.em)
      self.font = -1
      return (0, change)
    }
    let before = joinedBefore ? medial : initial
    let change = Double(before - self.em + pendingKern)
    self = Joining(letter, scalar, font: font, joinedBefore: true, em: letter.final)
    return (Double(letter.final), change)
  }

  init() {}

  init(_ letter: JoiningForms.Letter, _ scalar: UInt32, font: Int, joinedBefore: Bool, em: Float) {
    // (A letter that joins nothing after it ends the chain here.)
    self.font = letter.joinsNext ? font : -1
    kernFrom = letter.joinsNext ? 0 : scalar
    kernFont = font
    self.scalar = scalar
    initial = letter.initial
    medial = letter.medial
    self.em = em
    self.joinedBefore = joinedBefore
  }
}
