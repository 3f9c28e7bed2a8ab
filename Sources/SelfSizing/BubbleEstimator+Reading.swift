import Typesetting

extension BubbleEstimator {
  /// Receives the words of a text as they are read.
  protocol WordSink {
    mutating func word(_ content: Double, trailing: Double)
    mutating func endParagraph()
  }

  /// Collects words into flat arrays (for ``PreparedBubbles``).
  struct WordsBuilder: WordSink {
    var entries: [Entry] = []
    /// Where the current paragraph's entries begin (no run spans paragraphs).
    var paragraphStart = 0
    var paragraphs: [Paragraph] = []
    mutating func word(_ content: Double, trailing: Double) {
      let c = Float(content)
      if entries.count > paragraphStart, c > 0, entries[entries.count - 1].trailing == 0,
        entries[entries.count - 1].content == c, entries[entries.count - 1].count < UInt32.max
      {
        entries[entries.count - 1].count += 1
        entries[entries.count - 1].trailing = Float(trailing)
      } else {
        entries.append(Entry(content: c, trailing: Float(trailing), count: 1))
      }
    }
    mutating func endParagraph() {
      // Its width on one line, summed as the wrapper sums it.
      var x = 0.0
      var content = 0.0
      var segments = 0
      for e in entries[paragraphStart...] {
        let w = Double(e.content)
        x += e.count == 1 ? w : Double(e.count) * w
        if w > 0 { content = x }
        x += Double(e.trailing)
        segments += Int(e.count)
      }
      paragraphs.append(Paragraph(end: entries.count, natural: content, segments: segments))
      paragraphStart = entries.count
    }
  }

  /// The fonts of a style with their nominal advances and factors, resolved once per text.
  struct Fonts {
    let fonts: [Font]
    let tables: [NominalAdvances]
    /// Points per em of nominal advance, per font (size × calibrated factor).
    let scales: [Double]
    /// The first font with colour glyphs (for emoji presentation), if any.
    let color: Int?

    init(_ style: TextStyle, size: Double, factors: [String: Double]) {
      fonts = style.fonts.fonts
      tables = fonts.map { $0.nominalAdvances() }
      scales =
        factors.isEmpty ? fonts.map { _ in size } : fonts.map { size * (factors[$0.name] ?? 1) }
      color = fonts.firstIndex { $0.hasColorGlyphs }
    }

    /// The font that draws `v` and its nominal advance in em.
    @inline(__always)
    func resolve(_ v: UInt32, emoji: Bool) -> (font: Int, em: Double) {
      if emoji, let c = color, let a = fonts[c].nominalAdvance(v) { return (c, a) }
      if v < 0x10000 {
        for i in tables.indices {
          let a = tables[i][v]
          if a >= 0 { return (i, Double(a)) }
        }
      } else {
        for i in fonts.indices {
          if let a = fonts[i].nominalAdvance(v) { return (i, a) }
        }
      }
      return (0, 0.5)  // no font covers it: the primary font's .notdef, about half an em
    }
  }

  /// The reading pass: feeds the words to `out` and returns the line height and whether the text
  /// is empty. When `perFont` is given it also sums each font's advances in points at factor 1
  /// (for calibration).
  func read<Sink: WordSink>(
    _ text: String, _ style: TextStyle, size: Double, perFont: inout [Double]?,
    into out: inout Sink
  ) -> (lineHeight: Double, isEmpty: Bool) {
    let f = Fonts(style, size: size, factors: fontScales)
    let calibrating = perFont != nil
    let letterSpacing = style.letterSpacing * size / style.size
    let keepAll = style.wordBreak == .keepAll
    let breakAll = style.wordBreak == .breakAll
    let collapse = style.whiteSpace == .normal || style.whiteSpace == .nowrap
    let separatorsBreak = style.profile == .apple
    var isEmpty = text.isEmpty
    var used: UInt64 = 1  // the primary font is the strut
    var word = 0.0
    var spaces = 0.0
    var paragraphStart = 0.0  // pen position where the current word began (for tab stops)
    var paragraphHasContent = false
    var paragraphs = 0
    var anyContent = false
    @inline(__always) func emit() {
      paragraphStart += word + spaces
      if word > 0 || spaces > 0 { out.word(word, trailing: spaces) }
      word = 0
      spaces = 0
    }
    @inline(__always) func endParagraph() {
      emit()
      out.endParagraph()
      paragraphs += 1
      paragraphHasContent = false
      paragraphStart = 0
    }
    var lastWasSpace = true
    var afterOpening = false
    var afterIdeograph = false
    var afterClosing = false
    var afterCR = false
    var classifier = Classifier()
    var lastAdvance = 0.0
    var lastScalar: UInt32 = 0
    for s in text.unicodeScalars {
      var v = s.value
      defer { lastScalar = v }
      if afterCR {
        afterCR = false
        if v == 0x0A { continue }  // CR LF is one break
      }
      if collapse && (v == 0x0A || v == 0x09 || v == 0x0D) { v = 0x20 }
      if v == 0x0A || v == 0x0D || (separatorsBreak && (v == 0x2028 || v == 0x2029)) {
        afterCR = v == 0x0D
        endParagraph()
        afterIdeograph = false
        continue
      }
      if v == 0x2028 || v == 0x2029 { v = 0x20 }
      let (c, keycap) = classifier.next(v)
      defer {
        afterOpening = BubbleEstimator.isOpening(v)
        afterClosing = BubbleEstimator.isClosing(v)
      }
      if keycap, let ci = f.color, let a = f.fonts[ci].nominalAdvance(0x23) {
        // "#", "*" or a digit before VS16 + U+20E3: one emoji instead of a character.
        word += a * f.scales[ci] - lastAdvance
        used |= 1 << UInt64(ci)
        continue
      }
      if v == 0x200B || v == 0x00AD {
        emit()  // a break opportunity of no width (a soft hyphen shows only where it breaks)
        continue
      }
      if collapse && v == 0x20 {
        // Collapsible white space: one space per run, none at the start.
        if lastWasSpace { continue }
        lastWasSpace = true
      } else {
        lastWasSpace = false
      }
      paragraphHasContent = true
      anyContent = true
      if c == .mark {
        continue
      }
      let (fi, em) = f.resolve(v == 0x09 ? 0x20 : v, emoji: c == .emoji)
      used |= 1 << UInt64(min(fi, 63))
      var advance = em * f.scales[fi] + letterSpacing
      if calibrating { perFont![fi] += em * size }
      switch c {
      case .space:
        if v == 0x09 {
          // To the next tab stop (a multiple of tabSize spaces from the paragraph's start).
          let stop = em * f.scales[fi] * Double(max(1, style.tabSize))
          let x = paragraphStart + word + spaces
          advance = stop > 0 ? stop - x.truncatingRemainder(dividingBy: stop) : 0
        }
        spaces += advance
        afterIdeograph = false
      case .hangul, .cjk, .emoji:
        // A break may come before each such character (not after an opening bracket or quote);
        // punctuation after it stays with it, as the line breaking rules keep it.
        if spaces > 0 || ((!keepAll || c == .emoji || afterClosing) && !afterOpening) { emit() }
        word += advance
        if keepAll && BubbleEstimator.isClosingPunctuation(v) { emit() }
        afterIdeograph = !keepAll || c == .emoji
      default:
        if BubbleEstimator.isThaiBreakBefore(v, after: lastScalar) && !afterOpening {
          emit()  // Thai has no spaces: lines break between syllables (dictionary words, roughly)
        }
        // After an ideograph a letter or digit may start a new line; closing punctuation may not.
        if spaces > 0 || breakAll || (afterIdeograph && !BubbleEstimator.isClosing(v)) { emit() }
        lastAdvance = advance
        word += advance
        // ASCII breaks after "-" and "?" (as the browser rules do).
        if v == 0x2D || v == 0x3F { emit() }
        afterIdeograph = false
      }
    }
    if paragraphHasContent || paragraphs == 0 { endParagraph() }
    if collapse && !anyContent { isEmpty = true }  // white space only: collapses to nothing
    return (lineHeight(style, size: size, fonts: f.fonts, used: used), isEmpty)
  }

}
