/// Grapheme cluster boundaries (UAX #29, as Swift's `Character` implements it) of a code point array.
enum Graphemes {
  /// Whether `c` always forms a grapheme cluster on its own (UAX #29 break property Other, and not
  /// a precomposed Hangul syllable that a following jamo could extend — jamo are not standalone,
  /// so a text with jamo takes the full algorithm — or one of the commonest controls). A mark
  /// after it joins it, unless it is a control.
  static func isStandalone(_ c: UInt32) -> Bool {
    switch c {
    // Line feed, tab and zero width space are controls: a break on either side, always.
    case 0x09, 0x0A, 0x200B: return true
    case 0x20...0x7E, 0xA0...0x2FF: return true  // Latin (CR LF were folded already)
    case 0x370...0x482, 0x48A...0x52F: return true  // Greek, Cyrillic letters
    case 0x5D0...0x5EA: return true  // Hebrew letters
    // Arabic letters and digits (not the prepended number signs, marks or end of ayah).
    case 0x620...0x64A, 0x660...0x66F, 0x671...0x6D4: return true
    case 0x904...0x939, 0x958...0x961, 0x964...0x970: return true  // Devanagari letters, digits
    // Thai letters, the vowels that stand apart, digits (not the marks above and below).
    case 0xE01...0xE30, 0xE32, 0xE3F...0xE46, 0xE4F...0xE5B: return true
    // General punctuation (not ‼ ⁉, which are emoji) and currency signs.
    case 0x2010...0x2027, 0x2030...0x203B, 0x203D...0x2048, 0x204A...0x205E, 0x20A0...0x20C0:
      return true
    case 0x3000: return true  // ideographic space
    case 0xAC00...0xD7A3: return true  // Hangul syllables (jamo make the text non-simple)
    // CJK punctuation and kana (not the kana voiced sound marks).
    case 0x3001...0x3029, 0x3030...0x303F, 0x3041...0x3096, 0x30A0...0x30FF: return true
    case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF: return true  // ideographs
    case 0xFF01...0xFF9D: return true  // fullwidth and halfwidth forms (not the voiced marks)
    default: return false
    }
  }

  /// Whether `c` is a mark that always extends the character before it and nothing after it:
  /// grapheme break property Extend or SpacingMark, not a conjunct linker (a virama, after which
  /// a consonant joins the cluster), a joiner, an emoji modifier or a variation selector. Listed
  /// for the scripts of the default font stack.
  static func isPlainMark(_ c: UInt32) -> Bool {
    switch c {
    case 0x300...0x36F: return true  // combining diacritical marks
    case 0x591...0x5BD, 0x5BF, 0x5C1...0x5C2, 0x5C4...0x5C5, 0x5C7: return true  // Hebrew points
    // Arabic harakat and Quranic marks.
    case 0x610...0x61A, 0x64B...0x65F, 0x670, 0x6D6...0x6DC, 0x6DF...0x6E4, 0x6E7...0x6E8,
      0x6EA...0x6ED:
      return true
    // Devanagari signs and vowel signs (not the virama U+094D).
    case 0x900...0x903, 0x93A...0x93C, 0x93E...0x94C, 0x94E...0x94F, 0x951...0x957, 0x962...0x963:
      return true
    // Thai vowels above and below, sara am, tone marks.
    case 0xE31, 0xE33...0xE3A, 0xE47...0xE4E: return true
    case 0x3099...0x309A: return true  // kana voiced sound marks
    default: return false
    }
  }

  /// Start indices (in code points) of each grapheme cluster, plus `scalars.count` at the end.
  /// - Parameters:
  ///   - splitModifiers: split a cluster before an emoji modifier that follows no modifier base
  ///     (the browser profile); the index of each such inner cluster goes into `continuations`.
  static func boundaries(
    of scalars: [UInt32], splitModifiers: Bool = false, continuations: inout [Int32]
  ) -> [Int32] {
    let n = scalars.count
    // Each boundary is a distinct code point index (or the end): at most n + 1 of them, written
    // in place (an append checks the array's uniqueness every time).
    var pending: [Int32] = []
    return [Int32](capacity: n + 1) { out, count in
      count = 0
      // Between two characters that never join a neighbour into a cluster there is always a
      // boundary: such stretches are one cluster per code point, and only the pieces in between
      // (around marks, joiners, emoji, jamo…) go through the full rules, each on its own — the
      // rules never look across such a boundary. Nor do they between plain marks after such a
      // character (not a space, which the browser profile splits from its marks) and the next
      // such character: the character and its marks are one cluster.
      // (The lists above, looked up in the character table: every code point on them is in the
      // BMP.)
      CharacterTable.withLookup { table in
        scalars.withUnsafeBufferPointer { t in
          var w = BoundaryWriter(out: out, count: count)
          w.write(
            t, table: table, scalars: scalars, splitModifiers: splitModifiers, pending: &pending,
            continuations: &continuations)
          count = w.count
        }
      }
      out[count] = Int32(n)
      count += 1
    }
  }

  /// Writes boundaries into memory lent to it.
  private struct BoundaryWriter {
    let out: UnsafeMutableBufferPointer<Int32>
    var count: Int

    mutating func append(_ b: Int32) {
      out[count] = b
      count += 1
    }

    /// The boundaries before the end of `t` (the code points of `scalars`): standalone stretches
    /// one cluster per code point (its plain marks with it), the pieces between them by the
    /// full rules (``clusters(of:in:splitModifiers:into:continuations:offset:)``).
    mutating func write(
      _ t: UnsafeBufferPointer<UInt32>, table: CharacterTable.Lookup, scalars: [UInt32],
      splitModifiers: Bool, pending: inout [Int32], continuations: inout [Int32]
    ) {
      let standaloneFlag = CharacterTable.graphemeStandalone
      let n = t.count
      var i = 0
      var standalone = n > 0 && table.has(t[0], standaloneFlag)
      while i < n {
        if standalone, let (m, next) = Self.standaloneCluster(t, at: i, table: table) {
          append(Int32(i))
          i = m
          standalone = next
          continue
        }
        // The full rules, up to the next pair of standalone characters side by side.
        var j = i + 1
        var previous = standalone
        while j < n {
          let here = table.has(t[j], standaloneFlag)
          if previous && here { break }
          previous = here
          j += 1
        }
        pending.removeAll(keepingCapacity: true)
        Graphemes.clusters(
          of: scalars, in: i..<j, splitModifiers: splitModifiers, into: &pending,
          continuations: &continuations, offset: count)
        for b in pending { append(b) }
        i = j
        standalone = previous
      }
    }

    /// The end of the cluster of the standalone character at `i` (its plain marks with it:
    /// marks never join a control — tab, line feed, soft hyphen, zero width space — and the
    /// browser profile splits them from a space) and whether the next is standalone; nil when
    /// the full rules must decide (the next character is not standalone).
    static func standaloneCluster(
      _ t: UnsafeBufferPointer<UInt32>, at i: Int, table: CharacterTable.Lookup
    ) -> (end: Int, nextStandalone: Bool)? {
      let n = t.count
      var m = i + 1
      if t[i] > 0x20 && t[i] != 0xAD && t[i] != 0x200B {
        while m < n && table.has(t[m], CharacterTable.plainMark) { m += 1 }
      }
      let next = m < n && table.has(t[m], CharacterTable.graphemeStandalone)
      return m == n || next ? (m, next) : nil
    }
  }

  /// The clusters of `scalars[range]` by Swift's `Character` (UAX #29), starting at a boundary.
  /// (`result` continues boundaries already found: `offset` of them, which continuations count.)
  private static func clusters(
    of scalars: [UInt32], in range: Range<Int>, splitModifiers: Bool, into result: inout [Int32],
    continuations: inout [Int32], offset: Int
  ) {
    var view = String.UnicodeScalarView()
    for c in scalars[range] { view.append(Unicode.Scalar(c) ?? "\u{FFFD}") }
    let string = String(view)
    var position = Int32(range.lowerBound)
    for ch in string {
      result.append(position)
      if splitModifiers {
        // Chromium's line breaker does not look at grapheme clusters where UAX #14 allows a
        // break inside one: after a space before a combining mark (LB10), and before a skin
        // tone that follows no emoji modifier base (as in 🧑‍💻🏽 or ✌️🏾). Such a part is a
        // cluster of its own here, so that a line may start with it.
        let scalarsOfCh = ch.unicodeScalars
        if scalarsOfCh.count > 1, let first = scalarsOfCh.first, first == " " {
          result.append(position + 1)
          continuations.append(Int32(offset + result.count - 1))
        }
        var k = Int(position)
        for s in ch.unicodeScalars.dropFirst() {
          k += 1
          // (A skin tone right after the space of a split cluster, " 🏽", starts there already.)
          if (0x1F3FB...0x1F3FF).contains(s.value), k > 0, result.last != Int32(k),
            !UnicodeProperties.isEmojiModifierBase(scalars[k - 1])
          {
            result.append(Int32(k))
            continuations.append(Int32(offset + result.count - 1))
          }
        }
      }
      position += Int32(ch.unicodeScalars.count)
    }
  }
}
