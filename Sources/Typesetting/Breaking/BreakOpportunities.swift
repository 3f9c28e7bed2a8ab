import CICUShims
import Foundation

/// Soft wrap opportunities: UAX #14 from ICU, tailored as Chromium's line breaker tailors it.
///
/// The tailoring (measured against Chromium and written down from its documented behaviour):
/// - a break comes after a run of breakable spaces (space, tab, newline), never inside or before it;
/// - between two characters from `!` to U+00FF a fixed pair table decides: ICU's verdict for the
///   pair alone, except among ASCII, where breaks are allowed only before `(` `<` `[` `{` and after
///   `-` and `?` (with exceptions such as `-` before `$`), so `a/b` never breaks;
/// - `-` before a digit breaks only when an ASCII letter or digit precedes the `-` (`ABCD-1234`,
///   but not a minus sign in ` -5`);
/// - `word-break: keep-all` suppresses breaks between letters and numbers (general categories L
///   and N, marks taking their base's), except in scripts with complex breaking (Thai, …).
package enum BreakOpportunities {
  /// The ICU locale for line breaking: Chromium's `line-break: auto` is ICU's `normal` for Japanese
  /// (breaks before small kana and the prolonged sound mark).
  static func locale(_ language: String) -> String {
    if isJapanese(language) { return language + "@lb=normal" }
    return language.isEmpty ? "en" : language
  }

  /// `result[i]` is true when a soft wrap is allowed between `scalars[i-1]` and `scalars[i]`
  /// (index 0 is always false). Forced breaks (U+000A) are handled by the caller.
  ///   - browserTailoring: Chromium's rules above (the browser profile); without them, ICU's
  ///     UAX #14 as such (what TextKit's breaking is closest to), with `keep-all` on top.
  static func compute(
    _ scalars: [UInt32], locale: String, wordBreak: TextStyle.WordBreak,
    browserTailoring: Bool = true
  ) throws -> [Bool] {
    let n = scalars.count
    var result = [Bool](filling: false, count: n)
    guard n > 1 else { return result }
    if !browserTailoring {
      let b = try icuBoundaries(scalars, locale: locale)
      for i in 1..<n where b[i] {
        let lastLast: UInt32 = i >= 2 ? scalars[i - 2] : 0
        if wordBreak == .keepAll && keepAfterKeepAll(lastLast, scalars[i - 1], scalars[i]) {
          continue
        }
        result[i] = true
      }
      return result
    }

    try scalars.withUnsafeBufferPointer { text in
      try result.withUnsafeMutableBufferPointer { out in
        try bmpClasses.withUnsafeBufferPointer { classes in
          try tailored(text, into: out, classes: classes, locale: locale, wordBreak: wordBreak)
        }
      }
    }
    return result
  }

  /// The browser profile's opportunities of `text` into `out` (all false on entry): the loop of
  /// ``compute(_:locale:wordBreak:browserTailoring:)``, over memory lent to it, `classes` being
  /// ``bmpClasses``.
  private static func tailored(
    _ text: UnsafeBufferPointer<UInt32>, into out: UnsafeMutableBufferPointer<Bool>,
    classes: UnsafeBufferPointer<UInt8>, locale: String, wordBreak: TextStyle.WordBreak
  ) throws {
    let n = text.count
    // ICU's boundaries of the run of the text it was last asked about.
    var icuRun = 0..<0
    var icu: [Bool] = []
    let japanese = isJapanese(locale)
    for i in 1..<n {
      let cur = text[i]
      let last = text[i - 1]
      if isBreakableSpace(cur) { continue }
      if isBreakableSpace(last) {
        out[i] = true
        continue
      }
      let lastLast: UInt32 = i >= 2 ? text[i - 2] : 0
      let fast = fastBreak(lastLast, last, cur)
      if fast == .canBreak {
        out[i] = true
        continue
      }
      if wordBreak == .keepAll && keepAfterKeepAll(lastLast, last, cur) { continue }
      if wordBreak == .breakAll && breakAllPair(last, cur, before: i >= 2 ? text[i - 2] : nil) {
        out[i] = true
        continue
      }
      if fast == .noBreak { continue }
      if let byClass = classPair(
        lineBreakClass(last, in: classes), lineBreakClass(cur, in: classes), japanese: japanese)
      {
        if byClass { out[i] = true }
        continue
      }
      // ICU decides, over the run of the text between breakable spaces that holds the pair
      // (its rules look no further for a pair of characters that are not breakable spaces).
      if !icuRun.contains(i) {
        var lo = i - 1
        while lo > 0 && !isBreakableSpace(text[lo - 1]) { lo -= 1 }
        var hi = i + 1
        while hi < n && !isBreakableSpace(text[hi]) { hi += 1 }
        icuRun = lo..<hi
        icu = try icuBoundaries(Array(text[lo..<hi]), locale: locale)
      }
      if icu[i - icuRun.lowerBound] { out[i] = true }
    }
  }

  /// Soft wrap opportunities of a whole text (see ``compute(_:locale:wordBreak:browserTailoring:)``)
  /// in a style's profile and `word-break`, and in the locale ``locale(forLanguage:)`` gives, as
  /// the engine finds them (for an estimator that breaks lines where the engine does); nil when
  /// ICU fails.
  package static func opportunities(_ scalars: [UInt32], style: TextStyle, locale: String)
    -> [Bool]?
  {
    try? compute(
      scalars, locale: locale, wordBreak: style.wordBreak, browserTailoring: style.profile != .apple)
  }

  /// The ICU locale of line breaking for a style's language (``locale(_:)`` of its canonical
  /// tag).
  package static func locale(forLanguage language: String) -> String {
    locale(LanguageTag.canonical(language))
  }

  enum Fast { case noBreak, canBreak, unknown }

  /// UAX #14 line break classes (ICU's `ULineBreak` values) that ``classPair(_:_:)`` knows.
  enum LineBreakClass {
    static let alphabetic: Int32 = 2  // AL
    static let breakAfter: Int32 = 4  // BA
    static let hyphen: Int32 = 13  // HY
    static let conditionalJapaneseStarter: Int32 = 37  // CJ
    static let emojiBase: Int32 = 40  // EB
    static let emojiModifier: Int32 = 41  // EM
    static let close: Int32 = 8  // CL
    static let exclamation: Int32 = 11  // EX
    static let ideographic: Int32 = 14  // ID
    static let infixNumeric: Int32 = 16  // IS
    static let numeric: Int32 = 19  // NU
    static let open: Int32 = 20  // OP
    static let hangulLV: Int32 = 31  // H2
    static let hangulLVT: Int32 = 32  // H3
    static let closeParenthesis: Int32 = 36  // CP
    static let hebrewLetter: Int32 = 38  // HL
  }

  /// Whether UAX #14 (as ICU 72 implements it, Unicode 15.0) allows a break between `a` and `b`
  /// when the answer follows from their classes alone; nil when it may not (ICU decides). Both
  /// must be letters, digits, ideographs, kana that are no small kana, Hangul syllables, emoji
  /// bases and modifiers, or open, close, exclamation or infix punctuation (AL, HL, NU, ID, H2,
  /// H3, EB, EM, OP, CL, CP, EX, IS), or `b` a hyphen or a break-after character (HY, BA).
  /// Between these only pair rules apply: no break before CL, CP, EX or IS (LB13), after OP
  /// (LB14), before HY or BA (LB21), between letters and digits (LB23, LB28), after IS before a
  /// letter (LB29), between digits (LB25) or between an emoji base and a modifier (LB30b); a
  /// break next to an ideograph, kana, syllable or emoji otherwise (LB31). Pairs that
  /// rules with more context or with the East Asian width decide (a letter before OP, CP before
  /// a letter, punctuation before a digit) are left to ICU, and so are quotation marks, which the
  /// Japanese tailoring treats as opening and closing punctuation. No locale changes the other
  /// answers (the tailorings of Japanese line breaking concern small kana, non-starters and
  /// quotation marks, which are not among them). One answer depends on the locale: a small
  /// kana (CJ) after a known class may start a line in Japanese (`japanese`, as ``locale(_:)``
  /// makes it: `line-break: normal`), as an ideograph, and elsewhere may not, as a non-starter
  /// (LB21).
  static func classPair(_ a: UInt32, _ b: UInt32, japanese: Bool) -> Bool? {
    classPair(lineBreakClass(a), lineBreakClass(b), japanese: japanese)
  }

  /// Whether a language tag or an ICU locale (which starts with one) is Japanese: "ja" alone or
  /// before "-", "_" or "@", in any case.
  static func isJapanese(_ locale: String) -> Bool {
    let b = Array(locale.utf8.prefix(3))
    guard b.count >= 2, b[0] | 0x20 == UInt8(ascii: "j"), b[1] | 0x20 == UInt8(ascii: "a") else {
      return false
    }
    return b.count == 2 || b[2] == UInt8(ascii: "-") || b[2] == UInt8(ascii: "_")
      || b[2] == UInt8(ascii: "@")
  }

  /// ``classPair(_:_:japanese:)`` of characters of line-break classes `x` and `y`.
  static func classPair(_ x: Int32, _ y: Int32, japanese: Bool) -> Bool? {
    typealias C = LineBreakClass
    func isKnown(_ c: Int32) -> Bool {
      switch c {
      case C.alphabetic, C.close, C.exclamation, C.ideographic, C.infixNumeric, C.numeric, C.open,
        C.hangulLV, C.hangulLVT, C.closeParenthesis, C.hebrewLetter, C.emojiBase, C.emojiModifier:
        return true
      default: return false
      }
    }
    guard isKnown(x) else { return nil }
    // (After HY or BA more context counts, LB21a: they are known only second.)
    if y == C.hyphen || y == C.breakAfter { return false }
    if y == C.conditionalJapaneseStarter { return japanese && x != C.open }
    guard isKnown(y) else { return nil }
    if y == C.close || y == C.closeParenthesis || y == C.exclamation || y == C.infixNumeric {
      return false
    }
    if x == C.open { return false }
    if x == C.emojiBase && y == C.emojiModifier { return false }
    func isIdeographic(_ c: Int32) -> Bool {
      c == C.ideographic || c == C.hangulLV || c == C.hangulLVT || c == C.emojiBase
        || c == C.emojiModifier
    }
    if isIdeographic(x) || isIdeographic(y) { return true }
    let letterX = x == C.alphabetic || x == C.hebrewLetter
    let letterY = y == C.alphabetic || y == C.hebrewLetter
    if (letterX || x == C.numeric) && (letterY || y == C.numeric) { return false }
    if x == C.infixNumeric && letterY { return false }
    return nil
  }

  /// ICU's UAX #14 class of every BMP code point, made once (ICU's lookup is a call into the
  /// library per character).
  private static let bmpClasses: [UInt8] = (0..<0x10000).map {
    UInt8(clamping: galley_line_break_class(UInt32($0)))
  }

  /// ICU's UAX #14 class (`ULineBreak`) of `c`.
  static func lineBreakClass(_ c: UInt32) -> Int32 {
    bmpClasses.withUnsafeBufferPointer { lineBreakClass(c, in: $0) }
  }

  /// ``lineBreakClass(_:)`` with ``bmpClasses`` lent (bound once for a loop).
  static func lineBreakClass(_ c: UInt32, in classes: UnsafeBufferPointer<UInt8>) -> Int32 {
    c < 0x10000 ? Int32(classes[Int(c)]) : galley_line_break_class(c)
  }

  static var unicodeVersion: String { String(cString: galley_unicode_version()) }

  static func isBreakableSpace(_ c: UInt32) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 }

  static func isASCIIDigit(_ c: UInt32) -> Bool { c >= 0x30 && c <= 0x39 }

  static func isASCIIAlnum(_ c: UInt32) -> Bool {
    isASCIIDigit(c) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
  }

  static func fastBreak(_ lastLast: UInt32, _ last: UInt32, _ cur: UInt32) -> Fast {
    if last < 0x21 || cur < 0x21 { return .noBreak }
    if last == 0x2D && isASCIIDigit(cur) { return isASCIIAlnum(lastLast) ? .canBreak : .noBreak }
    guard last <= 0xFF && cur <= 0xFF else { return .unknown }
    if last <= 0x7F && cur <= 0x7F { return asciiPair(last, cur) ? .canBreak : .noBreak }
    return Latin1Pairs.shared.breaks(last, cur) ? .canBreak : .noBreak
  }

  /// Chromium's ASCII pair rules (compatible with other browsers rather than with UAX #14).
  static func asciiPair(_ a: UInt32, _ b: UInt32) -> Bool {
    let u = UInt8(a)
    let v = UInt8(b)
    switch u {
    case UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: "/"),
      UInt8(ascii: "<"), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "{"), 0x5E...0x60, 0x7F,
      0x30...0x39, 0x41...0x5A, 0x61...0x7A:
      return false
    default: break
    }
    switch v {
    case UInt8(ascii: "!"), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: "."),
      UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "?"), UInt8(ascii: "]"),
      UInt8(ascii: "}"):
      return false
    default: break
    }
    if u == UInt8(ascii: "-") { return v != UInt8(ascii: "$") && !(0x30...0x39).contains(v) }
    if u == UInt8(ascii: "?") { return v != UInt8(ascii: "\"") && v != UInt8(ascii: "'") }
    return v == UInt8(ascii: "(") || v == UInt8(ascii: "<") || v == UInt8(ascii: "[")
      || v == UInt8(ascii: "{")
  }

  /// General category as Chromium sees it through UTF-16: a supplementary code point shows
  /// as a surrogate.
  static func isLetterOrNumber(_ c: UInt32) -> Bool {
    c < 0x10000 && CharacterTable.bmp[Int(c)] & CharacterTable.letterOrNumber != 0
  }

  static func isMark(_ c: UInt32) -> Bool {
    c < 0x10000 && CharacterTable.bmp[Int(c)] & CharacterTable.combiningMark != 0
  }

  static let complexContext: Int32 = 24  // U_LB_COMPLEX_CONTEXT

  /// `word-break: keep-all`: no break between two letters or numbers (marks ride on the one
  /// before them), outside complex-context scripts (whose breaks follow a dictionary).
  package static func keepAfterKeepAll(_ lastLast: UInt32, _ last: UInt32, _ cur: UInt32) -> Bool {
    let pre = isMark(last) ? lastLast : last
    return isLetterOrNumber(pre) && lineBreakClass(pre) != complexContext
      && isLetterOrNumber(cur) && lineBreakClass(cur) != complexContext
  }

  /// `word-break: break-all`: letters and numbers of every script break like ideographs.
  static func breakAllPair(_ last: UInt32, _ cur: UInt32, before: UInt32?) -> Bool {
    let a = isMark(last) ? (before ?? last) : last
    if isMark(cur) || cur == 0x200D || (0xFE00...0xFE0F).contains(cur) { return false }
    return isLetterOrNumber(a) && isLetterOrNumber(cur)
  }

  /// ICU's line boundaries for the whole text, indexed by code point.
  static func icuBoundaries(_ scalars: [UInt32], locale: String) throws -> [Bool] {
    var utf16: [UInt16] = []
    utf16.reserveCapacity(scalars.count + 8)
    var unitToScalar: [Int32] = []
    unitToScalar.reserveCapacity(scalars.count + 9)
    for (i, c) in scalars.enumerated() {
      if c >= 0x10000 {
        let v = c - 0x10000
        utf16.append(UInt16(0xD800 + (v >> 10)))
        utf16.append(UInt16(0xDC00 + (v & 0x3FF)))
        unitToScalar.append(Int32(i))
        unitToScalar.append(-1)
      } else if c >= 0xD800 && c <= 0xDFFF {
        utf16.append(0xFFFD)
        unitToScalar.append(Int32(i))
      } else {
        utf16.append(UInt16(c))
        unitToScalar.append(Int32(i))
      }
    }
    unitToScalar.append(Int32(scalars.count))
    var offsets = [Int32](filling: 0, count: utf16.count + 1)
    var hard = [UInt8](filling: 0, count: utf16.count + 1)
    // (withCString: a short locale is copied to the stack, not to a new array.)
    let count = locale.withCString {
      galley_line_breaks_utf16(utf16, Int32(utf16.count), $0, &offsets, &hard, Int32(offsets.count))
    }
    guard count >= 0 else { throw TypesettingError.icu(function: "ubrk_open", code: count) }
    var result = [Bool](filling: false, count: scalars.count + 1)
    for k in 0..<Int(count) {
      let s = unitToScalar[Int(offsets[k])]
      if s >= 0 { result[Int(s)] = true }
    }
    return result
  }
}

/// ICU's verdict for pairs of Latin-1 characters standing alone, computed on first use.
final class Latin1Pairs: @unchecked Sendable {
  // @unchecked: `table` is only read and written under `lock`.
  static let shared = Latin1Pairs()
  private let lock = Lock()
  private var table = [UInt8](repeating: 0, count: 256 * 256)

  func breaks(_ a: UInt32, _ b: UInt32) -> Bool {
    let key = Int(a) << 8 | Int(b)
    lock.lock()
    defer { lock.unlock() }
    if table[key] == 0 {
      table[key] = galley_pair_breaks(a, b) == 1 ? 2 : 1
    }
    return table[key] == 2
  }
}
