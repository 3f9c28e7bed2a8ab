import CHarfBuzz
import Typesetting

extension BubbleEstimator {
  /// Reading a text: the word being read, the paragraph it is in, and what the characters
  /// read so far leave for the next (``read``'s loop hands it each character once line and
  /// paragraph breaks are dealt with).
  struct Reading {
    var word: Word
    let f: Fonts
    let size: Double
    let collapse: Bool
    let tabSize: Int
    /// The fonts that raise a line box (``LineRule/tall``).
    let tall: UInt16
    /// Words wider than this keep their characters' ends (``BubbleEstimator/longWord`` ems).
    let longWord: Double
    /// Pen position where the current word began (for tab stops).
    var paragraphStart = 0.0
    var paragraph = (hasContent: false, count: 0)
    var anyContent = false
    /// The advance of the hyphen a soft hyphen shows (found at the first one).
    var hyphen: Double? = nil
    var lastWasSpace = true
    var lastAdvance = 0.0
    var lastScalar: UInt32 = 0
    /// The last character marks may sit on: its font (-1: none), its advance in em, and its
    /// index in the text (``read`` sets it).
    var base = (font: -1, em: 0.0, index: 0)
    /// The script run of the character read, when the text has a character that may begin one
    /// of its own (``LanguageAdvances/runSplitting``): the characters a font forms by language
    /// take its script's forms.
    var runScript: hb_script_t? = nil

    init(
      _ f: Fonts, _ style: TextStyle, size: Double, tall: UInt16, calibrating: Bool,
      ends: UnsafeMutablePointer<CharacterEnds>
    ) {
      word = Word(
        f, size: size, letterSpacing: style.letterSpacing * size / style.size,
        calibrating: calibrating, ends: ends)
      self.f = f
      self.size = size
      collapse = style.whiteSpace.collapses
      tabSize = style.tabSize
      self.tall = tall
      longWord = BubbleEstimator.longWord * size
    }

    /// Whether font `i` has `v`.
    func has(_ i: Int, _ v: UInt32) -> Bool {
      v < 0x10000
        ? word.entries[i].nominal.takeUnretainedValue()[v] >= 0
        : f.fonts[i].nominalAdvance(v) != nil
    }

    /// A mark that the font of the character under it lacks: the engine sets the whole cluster
    /// (`cluster`, that character and its marks so far) in the first font that has all of it
    /// (``FontSelection``), so the character's advance becomes that font's. (Out of line:
    /// few texts have such marks.)
    @inline(never)
    mutating func mark(_ v: UInt32, lackedIn cluster: ArraySlice<UInt32>) {
      let old = base.font
      guard old >= 0, !has(old, v), !UnicodeProperties.isDefaultIgnorable(v),
        let first = cluster.first
      else { return }
      for j in word.entries.indices
      where j != old && cluster.allSatisfy({ has(j, $0) || UnicodeProperties.isDefaultIgnorable($0) })
      {
        let em =
          first < 0x10000
          ? Double(word.entries[j].nominal.takeUnretainedValue()[first])
          : f.fonts[j].nominalAdvance(first) ?? 0
        word.width += (em * word.entries[j].factor - base.em * word.entries[old].factor) * size
        word.fonts |= LineRule.mask(font: j)
        base = (j, em, base.index)
        return
      }
      f.missed = true  // no font of the stack has it all: system fallback may
    }

    /// Hands the word on (a break opportunity).
    mutating func emit<Sink: WordSink>(into out: inout Sink) {
      paragraphStart += word.width + word.spaces
      word.emit(into: &out, longWord: longWord, tall: tall, tabSize: tabSize)
    }

    /// Ends the paragraph (a forced break).
    mutating func endParagraph<Sink: WordSink>(into out: inout Sink) {
      emit(into: &out)
      out.endParagraph()
      paragraph = (false, paragraph.count + 1)
      paragraphStart = 0
    }

    /// Code point `v` of class `c` (`keycap`: it makes the character before an emoji), before
    /// which the engine may break the line when `breakable`; `presentation` as the classifier
    /// found it.
    @_transparent
    mutating func character<Sink: WordSink>(
      _ v: UInt32, _ c: CharacterClass, keycap: Bool, presentation: Int8, breakable: Bool,
      into out: inout Sink, perFont: inout [Double]?
    ) {
      let entries = word.entries
      if c != .mark { base.font = -1 }  // (set again below for a character marks may sit on)
      if keycap, let ci = f.color, let a = f.fonts[ci].nominalAdvance(0x23) {
        // "#", "*" or a digit before VS16 + U+20E3: one emoji instead of a character.
        word.width += a * entries[ci].factor * size - lastAdvance
        word.fonts |= LineRule.mask(font: ci)
        base.font = -1
        return
      }
      if v == 0x00AD && word.width > 0 {
        // A soft hyphen: a break opportunity of no width, where a line that ends there shows
        // a hyphen that must fit. Counted on the word and taken back after it: a line that
        // goes on past it places the next word where the hyphen is not.
        let h = hyphen ?? BubbleEstimator.hyphenAdvance(f, entries, size: size)
        hyphen = h
        word.width += h
        word.spaces -= h
        return emit(into: &out)
      }
      if v == 0x200B || v == 0x00AD { return emit(into: &out) }  // an opportunity of no width
      if collapse && v == 0x20 {
        // Collapsible white space: one space per run, none at the start.
        if lastWasSpace { return }
        lastWasSpace = true
      } else {
        lastWasSpace = false
      }
      paragraph.hasContent = true
      anyContent = true
      let baseless = word.characters == 0 || word.spaces > 0
      if c == .mark {
        if baseless && BubbleEstimator.isIndic(v) {
          // An Indic mark with no base: shaping puts a dotted circle under it, and a line may
          // break before it after a space. (Out of line: few marks are.)
          let (fi, em) = BubbleEstimator.baselessMark(v, f, entries)
          if em > 0 {
            if word.spaces > 0 { emit(into: &out) }
            word.add(em: em, font: fi)
          }
        }
        return word.mark(v, perFont: &perFont)
      }
      var (fi, em) = BubbleEstimator.resolve(
        v == 0x09 ? 0x20 : v, presentation: presentation, f, entries)
      if let runScript, let localized = f.localized(v == 0x09 ? 0x20 : v, font: fi, script: runScript) {
        em = localized
      }
      base = (c == .space ? -1 : fi, em, base.index)
      if baseless && c == .other && BubbleEstimator.isIndic(v)
        && UnicodeProperties.generalCategory(v) == .spacingMark
      {
        // A spacing vowel sign with no base: shaping puts a dotted circle before it.
        em += BubbleEstimator.dottedCircle(fi, entries)
      }
      // (Joined to the word after any break before this character.)
      let advance = em * entries[fi].factor * size + word.letterSpacing
      if word.calibrating { perFont![fi] += em * size }
      word.start(c)
      if c == .space {
        return word.addSpace(
          v, font: fi, em: em, advance: advance, paragraphStart: paragraphStart, tabSize: tabSize)
      }
      // A line may break after spaces, and before this character where the engine's rules
      // allow it.
      if word.spaces > 0 || (word.characters > 0 && breakable) { emit(into: &out) }
      if c == .hangul || c == .cjk || c == .emoji {
        word.addIdeograph(
          v, c, font: fi, em: em, advance: advance, after: lastScalar, perFont: &perFont)
      } else {
        lastAdvance = word.addLetter(v, font: fi, em: em, advance: advance, perFont: &perFont)
      }
    }
  }

  /// The word being read: its width so far and the white space after it, its characters, and
  /// what the engine's shaping would do to the next character given the ones before it (a
  /// joining letter's form, a kerning pair, halved punctuation, a conjunct). ``read`` feeds it
  /// character by character and hands it on at each break opportunity.
  struct Word {
    /// The text's fonts as the per-character loop reads them, its size and letter spacing.
    let entries: UnsafeMutableBufferPointer<Fonts.Entry>
    let size: Double
    let letterSpacing: Double
    let closingDots: Bool
    /// Whether each font's advances are summed for calibration (``read``'s `perFont`).
    let calibrating: Bool
    /// Whether a line's end is shaped on its own (the browser profile): a long word broken
    /// between two kerned characters ends without their pair's change.
    let reshapesLineEnds: Bool
    /// Where the word's characters end (all but the last: the word's end), kept for a word
    /// long enough to be broken inside (the fonts' own, kept from text to text).
    let ends: UnsafeMutablePointer<CharacterEnds>

    /// The fonts of the word so far (``LineRule/mask(font:)``).
    var fonts: UInt16 = 0
    var width = 0.0
    var spaces = 0.0
    /// Characters in the word so far, the widest of them, and whether all are ideographs.
    var characters = 0
    var widestCharacter = 0.0
    var ideographic = true
    /// The last joining letter read, when the next one may join it (see ``Joining``).
    var joining = Joining()
    /// The font and pair index of the last character of the word, when a pair may change
    /// width.
    var pairFont = -1
    var pairIndex = -1
    /// The font and advance in em of the last ideographic character of the word, whose
    /// trailing half the next may trim.
    var halvable = (font: -1, em: 0.0)
    /// The font and index of the last consonant, and whether a virama followed it (a conjunct
    /// if a consonant comes next).
    var conjunctFont = -1
    var conjunctIndex = -1
    var afterVirama = false
    /// The word's trailing white space when it holds tabs, as ``WordSink/tabbed`` takes it.
    var tabbed: [Float] = []

    init(
      _ f: Fonts, size: Double, letterSpacing: Double, calibrating: Bool,
      ends: UnsafeMutablePointer<CharacterEnds>
    ) {
      entries = f.entries
      self.size = size
      self.letterSpacing = letterSpacing
      closingDots = f.closingDots
      reshapesLineEnds = f.browser
      self.calibrating = calibrating
      self.ends = ends
    }

    /// Hands the word and the white space after it (if any) to `out`, and starts the next.
    /// A word wider than `longWord` keeps its characters' ends.
    mutating func emit<Sink: WordSink>(
      into out: inout Sink, longWord: Double, tall: UInt16, tabSize: Int
    ) {
      if width > 0 || spaces > 0 {
        if width > longWord && characters > 1 {
          // (Out of line: few words are this long.)
          ends.pointee.finish(characters: characters, end: width)
          out.word(
            width, trailing: spaces, ends: ends.pointee.list, gains: ends.pointee.gains,
            fonts: fonts & tall)
        } else {
          // (A word of ideographs breaks after whole ones, the halved punctuation aside; other
          // words after their mean advance.)
          let unit = ideographic ? widestCharacter : width / Double(max(1, characters))
          out.word(width, trailing: spaces, unit: unit, fonts: fonts & tall)
        }
        if !tabbed.isEmpty {
          out.tabbed(tabbed, letterSpacing: letterSpacing, tabSize: tabSize)
          tabbed.removeAll(keepingCapacity: true)
        }
      }
      fonts = 0
      width = 0
      spaces = 0
      characters = 0
      widestCharacter = 0
      ideographic = true
      joining.reset()
      pairFont = -1
      conjunctFont = -1
      afterVirama = false
      halvable.font = -1
    }

    /// A character `em` wide in font `fi` that nothing before it changes (a mark's dotted
    /// circle, a keycap's emoji).
    mutating func add(em: Double, font fi: Int) {
      ends.pointee.note(characters, end: width)
      width += em * entries[fi].factor * size
      fonts |= LineRule.mask(font: fi)
      characters += 1
    }

    /// A mark (no advance of its own): a zero width non-joiner stops joining (other marks are
    /// transparent to it); a virama may make the next consonant a conjunct; a vowel sign may
    /// change its consonant's form.
    mutating func mark(_ v: UInt32, perFont: inout [Double]?) {
      if v == 0x200C { joining.reset() }
      if v == 0x094D { afterVirama = conjunctFont >= 0 }  // virama
      guard conjunctFont >= 0 && !afterVirama else { return }
      // (Out of line: few marks are.)
      let font = conjunctFont
      let change = BubbleEstimator.vowelSign(v, entries[font].shaping, &conjunctFont, conjunctIndex)
      if change != 0 {
        width += change * entries[font].factor * size
        if calibrating { perFont![font] += change * size }
      }
    }

    /// What a character of class `c` ends of what the ones before it started: halved
    /// punctuation after anything but an ideograph, joining, pairs and conjuncts after anything
    /// but a letter.
    @inline(__always)
    mutating func start(_ c: CharacterClass) {
      if c != .cjk && c != .hangul && c != .emoji { halvable.font = -1 }
      if c != .other && c != .narrow {
        joining.reset()
        pairFont = -1
        conjunctFont = -1
        afterVirama = false
      }
    }

    /// White space `advance` wide in font `fi`; a tab goes to the next tab stop, by the
    /// engine's rule (``TabStops``), here from `paragraphStart` (where the word began), the
    /// wrapper taking it again from each line's start (``tabbedSpace``).
    @inline(__always)
    mutating func addSpace(
      _ v: UInt32, font fi: Int, em: Double, advance: Double, paragraphStart: Double, tabSize: Int
    ) {
      var advance = advance
      if v == 0x09 {
        let nominal = entries[fi].nominal._withUnsafeGuaranteedRef { $0[0x20] }
        let space = (nominal >= 0 ? Double(nominal) : em) * entries[fi].factor * size
        advance = TabStops.advance(
          at: paragraphStart + width + spaces, space: space + letterSpacing, tabSize: tabSize,
          letterSpacing: letterSpacing)
        if tabbed.isEmpty { tabbed.append(Float(spaces)) }
        tabbed.append(Float(space + letterSpacing))
        tabbed.append(0)
      } else if !tabbed.isEmpty {
        tabbed[tabbed.count &- 1] += Float(advance)
      }
      spaces += advance
      fonts |= LineRule.mask(font: fi)
    }

    /// An ideograph, Hangul syllable or emoji `advance` wide in font `fi`, after `previous`:
    /// adjacent fullwidth punctuation is set half-width (the engine's own rule).
    @inline(__always)
    mutating func addIdeograph(
      _ v: UInt32, _ c: CharacterClass, font fi: Int, em: Double, advance: Double,
      after previous: UInt32, perFont: inout [Double]?
    ) {
      var advance = advance
      if c == .cjk && entries[fi].shaping.trims {
        let t = BubbleEstimator.trims(previous, v, closingDots: closingDots)
        if t.first && halvable.font >= 0 {
          width -= halvable.em / 2 * entries[halvable.font].factor * size
          if calibrating { perFont![halvable.font] -= halvable.em / 2 * size }
        }
        if t.second {
          advance -= em / 2 * entries[fi].factor * size
          if calibrating { perFont![fi] -= em / 2 * size }
        }
        halvable = (fi, em)
      } else {
        halvable.font = -1
      }
      ends.pointee.note(characters, end: width)
      width += advance
      fonts |= LineRule.mask(font: fi)
      characters += 1
      widestCharacter = max(widestCharacter, advance)
    }

    /// A letter (or other character) `advance` wide in font `fi`: a joining letter takes its
    /// contextual form and changes the one before it; a kerning pair with the letter before,
    /// and a conjunct after consonant + virama, change the width. Returns its advance.
    @inline(__always)
    mutating func addLetter(
      _ v: UInt32, font fi: Int, em: Double, advance: Double, perFont: inout [Double]?
    ) -> Double {
      var advance = advance
      let sh = entries[fi].shaping
      if let letters = sh.letters, v >= 0x0600 && v <= 0x08FF, letters[Int(v &- 0x0600)] != nil {
        // (Out of line: most text has none.)
        let step = BubbleEstimator.join(&joining, v, font: fi, entries[fi])
        width += step.previousChange * entries[fi].factor * size
        if calibrating { perFont![fi] += (step.previousChange + step.em - em) * size }
        advance = step.em * entries[fi].factor * size + letterSpacing
      } else {
        joining.reset()
      }
      var paired = 0.0  // the pair's change, which the character before loses at a line's end
      if let rows = sh.pairRows {
        let k = kerningPairIndex(v, rows: rows, limit: sh.pairLimit)
        if k >= 0 && pairFont == fi {
          let change = Double(sh.pairValues[pairIndex &* sh.pairCount &+ k])
          paired = change * entries[fi].factor * size
          width += paired
          if calibrating { perFont![fi] += change * size }
        }
        (pairFont, pairIndex) = k >= 0 ? (fi, k) : (-1, -1)
      } else {
        pairFont = -1
      }
      if sh.conjuncts != nil {
        // (Out of line.)
        let change = BubbleEstimator.conjunct(
          v, font: fi, sh, after: afterVirama, &conjunctFont, &conjunctIndex)
        if change != 0 {
          width += change * entries[fi].factor * size
          if calibrating { perFont![fi] += change * size }
        }
      } else {
        conjunctFont = -1
      }
      afterVirama = false
      ends.pointee.note(characters, end: width)
      if paired != 0 && reshapesLineEnds { ends.pointee.note(characters, gain: -paired) }
      width += advance
      fonts |= LineRule.mask(font: fi)
      characters += 1
      ideographic = false
      return advance
    }
  }
}
