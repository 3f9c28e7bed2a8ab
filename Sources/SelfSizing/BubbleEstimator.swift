import Typesetting

/// Estimates a bubble's size without shaping: each character gets the average advance of its
/// class (Latin, space, Hangul, CJK, emoji, mark, other) in the font of the stack that covers
/// that class, words are formed at the places a line may break (spaces; each Hangul, CJK or emoji
/// character unless `keep-all`), and the words are wrapped greedily at the text width, as the
/// real layout does. Line heights come from the fonts' metrics.
///
/// ``calibrate(_:sizer:)`` fits the per-font advances to measured cells. Cost: two passes over
/// the text's UTF-8 bytes, no shaping, no allocation.
///
/// ```swift
/// let (estimator, fit) = try BubbleEstimator.calibrate(sampleCells, sizer: .shared)
/// let guess = estimator.estimate(cell)
/// ```
public struct BubbleEstimator: Sendable, Hashable {
  /// Classes of characters with similar advances.
  public enum CharacterClass: Int, CaseIterable, Sendable {
    case narrow, space, hangul, cjk, emoji, mark, other

    /// A character of the class, to find the font that covers it.
    var representative: UInt32 {
      switch self {
      case .narrow: return 0x61
      case .space: return 0x20
      case .hangul: return 0xAC00
      case .cjk: return 0x4E2D
      case .emoji: return 0x1F600
      case .mark: return 0x301
      case .other: return 0x0434
      }
    }
  }

  static let classCount = CharacterClass.allCases.count

  /// Default advance of each class, in em, for fonts without a calibrated entry.
  public var classAdvances: [Double] = [0.55, 0.27, 0.92, 1.0, 1.25, 0, 0.56]
  /// Calibrated advances per font file name (one entry per class, in em).
  public var fontAdvances: [String: [Double]] = [:]

  /// An estimator with default advances (call ``calibrate(_:sizer:)`` to fit them).
  public init() {}

  /// The font that sets ASCII text in a style (its ASCII advances are exact, from `hmtx`).
  static func latinFont(_ style: TextStyle) -> Font {
    style.fonts.fonts.first { $0.covers(0x61) } ?? style.fonts.primary
  }

  /// Advances (em) of each class for a style; `other` uses the font of `otherSample`.
  func advances(for style: TextStyle, otherSample: UInt32?) -> [Double] {
    var out = classAdvances
    let fonts = style.fonts.fonts
    for cls in CharacterClass.allCases {
      let probe = cls == .other ? (otherSample ?? cls.representative) : cls.representative
      var font = fonts[0]
      if cls == .emoji, let f = fonts.first(where: { $0.hasColorGlyphs && $0.covers(probe) }) {
        font = f
      } else if let f = fonts.first(where: { $0.covers(probe) }) {
        font = f
      }
      if let table = fontAdvances[font.name] { out[cls.rawValue] = table[cls.rawValue] }
    }
    return out
  }

  /// The class of a code point.
  @inline(__always)
  static func classify(_ cp: UInt32) -> CharacterClass {
    switch cp {
    case 0x20, 0x09, 0x3000: return .space
    case 0x21..<0x250: return .narrow
    case 0x300...0x36F, 0x0483...0x0489, 0x0591...0x05C7, 0x0610...0x061A, 0x064B...0x065F, 0x0670,
      0x06D6...0x06ED, 0x0951...0x0957, 0x0962...0x0963, 0x200B...0x200F, 0xFE00...0xFE0F,
      0x0900...0x0903, 0x093A...0x094F, 0x0E31,
      0x0E34...0x0E3A, 0x0E47...0x0E4E, 0x20D0...0x20FF, 0x1F3FB...0x1F3FF, 0xE0000...0xE0FFF,
      0x00AD:
      return .mark
    // Conjoining vowels and finals (NFD Hangul) ride on their leading consonant.
    case 0x1160...0x11FF, 0xD7B0...0xD7FF: return .mark
    case 0x1100...0x115F, 0xA960...0xA97F, 0x3130...0x318F, 0xAC00...0xD7AF: return .hangul
    case 0x2E80...0x312F, 0x3190...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFF60, 0x20000...0x3FFFF:
      return .cjk
    case 0x2600...0x27BF, 0x2B00...0x2BFF, 0x1F000...0x1FAFF: return .emoji
    default: return .other
    }
  }

  /// Classifies code points in context: a regional-indicator pair, a ZWJ sequence and a keycap
  /// make one emoji; a skin tone rides on its base (except after VS16, where it is drawn apart).
  struct Classifier {
    var pendingRegional = false
    var afterZWJ = false
    var afterVS16 = false
    var lastWasKeycapBase = false

    /// The class of `v`; `keycap` is true when `v` (U+20E3) turns the previous character into an emoji.
    @inline(__always)
    mutating func next(_ v: UInt32) -> (cls: CharacterClass, keycap: Bool) {
      defer {
        afterZWJ = v == 0x200D
        afterVS16 = v == 0xFE0F
        if v != 0xFE0F { lastWasKeycapBase = v == 0x23 || v == 0x2A || (v >= 0x30 && v <= 0x39) }
      }
      if v == 0x20E3 { return (.mark, lastWasKeycapBase) }
      if (0x1F1E6...0x1F1FF).contains(v) {
        pendingRegional.toggle()
        return (pendingRegional ? .emoji : .mark, false)
      }
      pendingRegional = false
      if (0x1F3FB...0x1F3FF).contains(v) { return (afterVS16 ? .emoji : .mark, false) }
      let c = BubbleEstimator.classify(v)
      if c == .emoji && afterZWJ { return (.mark, false) }
      return (c, false)
    }
  }

  /// Fullwidth closing punctuation, after which even `keep-all` text may break.
  @inline(__always)
  static func isClosingPunctuation(_ v: UInt32) -> Bool {
    switch v {
    case 0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF01, 0xFF1F, 0x300D, 0x300F, 0xFF09, 0x3009, 0x300B,
      0x3011:
      return true
    default: return false
    }
  }

  /// Opening brackets and quotes, which no line may end after.
  @inline(__always)
  static func isOpening(_ v: UInt32) -> Bool {
    switch v {
    case 0x28, 0x5B, 0x7B, 0x2018, 0x201C, 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0xFF08:
      return true
    default: return false
    }
  }

  /// Counts per class, emoji sequences counted as they are drawn (for calibration and reports).
  public static func count(_ text: String) -> [Int] {
    var counts = [Int](repeating: 0, count: classCount)
    var k = Classifier()
    for s in text.unicodeScalars where s.value != 0x0A {
      let (c, keycap) = k.next(s.value)
      if keycap {
        counts[CharacterClass.narrow.rawValue] -= 1
        counts[CharacterClass.emoji.rawValue] += 1
      }
      counts[c.rawValue] += 1
    }
    return counts
  }

  /// Estimated size of a bubble (same rules and rounding as measuring it).
  public func estimate(_ cell: BubbleCell) -> CellSize {
    estimate(cell, words: words(cell))
  }

  /// A bubble's text cut into estimated words (widths in points, at the cell's size), ready to be
  /// wrapped at any width: estimating the same text again at another width skips reading it.
  public struct Words: Sendable, Hashable {
    /// Per word: the width of its content and of the spaces after it.
    var content: [Double] = []
    var trailing: [Double] = []
    /// Word indices where a paragraph ends (after that word's index).
    var paragraphEnds: [Int32] = []
    /// Height of a line of the main text.
    var lineHeight = 0.0
    var isEmpty = true
  }

  /// Reads the text once: classes, advances, break places, line height.
  public func words(_ cell: BubbleCell) -> Words {
    let size = cell.style.size * cell.textScale
    var otherSample: UInt32? = nil
    var classesUsed = 0
    for s in cell.text.unicodeScalars {
      let c = BubbleEstimator.classify(s.value)
      classesUsed |= 1 << c.rawValue
      if c == .other && otherSample == nil && s.value != 0x0A { otherSample = s.value }
    }
    let adv = advances(for: cell.style, otherSample: otherSample).map { $0 * size }
    let latin = BubbleEstimator.latinFont(cell.style).asciiAdvances
    let keepAll = cell.style.wordBreak == .keepAll
    let collapse = cell.style.whiteSpace == .normal || cell.style.whiteSpace == .nowrap
    var out = Words()
    out.isEmpty = cell.text.isEmpty
    out.lineHeight = estimatedLineHeight(
      cell.style, size: size, classesUsed: classesUsed, otherSample: otherSample)
    var word = 0.0
    var spaces = 0.0
    var paragraphHasContent = false
    func emit() {
      if word > 0 || spaces > 0 {
        out.content.append(word)
        out.trailing.append(spaces)
      }
      word = 0
      spaces = 0
    }
    func endParagraph() {
      emit()
      out.paragraphEnds.append(Int32(out.content.count))
      paragraphHasContent = false
    }
    var lastWasSpace = true
    var afterOpening = false
    var classifier = Classifier()
    var lastAdvance = 0.0
    for s in cell.text.unicodeScalars {
      var v = s.value
      if collapse && (v == 0x0A || v == 0x09 || v == 0x0D) { v = 0x20 }
      if v == 0x0A {
        endParagraph()
        continue
      }
      let (c, keycap) = classifier.next(v)
      defer { afterOpening = BubbleEstimator.isOpening(v) }
      if keycap {
        // "#", "*" or a digit before VS16 + U+20E3: one emoji instead of a character.
        word += adv[CharacterClass.emoji.rawValue] - lastAdvance
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
      switch c {
      case .space:
        spaces += v < 0x80 && latin[Int(v)] > 0 ? latin[Int(v)] * size : adv[c.rawValue]
      case .hangul, .cjk, .emoji:
        // A break may come before each such character (not after an opening bracket or quote);
        // punctuation after it stays with it, as the line breaking rules keep it.
        if spaces > 0 || ((!keepAll || c == .emoji) && !afterOpening) { emit() }
        word += adv[c.rawValue]
        if keepAll && BubbleEstimator.isClosingPunctuation(v) { emit() }
      default:
        if spaces > 0 { emit() }
        lastAdvance = v < 0x80 && latin[Int(v)] > 0 ? latin[Int(v)] * size : adv[c.rawValue]
        word += lastAdvance
        // ASCII breaks after "-" and "?" (as the browser rules do).
        if v == 0x2D || v == 0x3F { emit() }
      }
    }
    if paragraphHasContent || out.paragraphEnds.isEmpty { endParagraph() }
    return out
  }

  /// Estimated size from words read earlier (O(words)).
  public func estimate(_ cell: BubbleCell, words w: Words) -> CellSize {
    let size = cell.style.size * cell.textScale
    let tw = max(1, cell.textWidth)
    let breakWords = cell.style.overflowWrap != .normal
    var lines = 0
    var widest = 0.0
    var lastLine = 0.0
    var x = 0.0  // pen, trailing spaces included
    var lineContent = 0.0
    var k = 0
    for end in w.paragraphEnds {
      while k < Int(end) {
        let word = w.content[k]
        if x > 0 && x + word > tw {
          widest = max(widest, lineContent)
          lines += 1
          x = 0
          lineContent = 0
        }
        if word > tw && breakWords {
          let full = (word / tw).rounded(.down)
          lines += Int(full)
          widest = max(widest, tw)
          x = word - full * tw
        } else {
          x += word
        }
        if word > 0 { lineContent = x }
        x += w.trailing[k]
        k += 1
      }
      lines += 1
      widest = max(widest, lineContent)
      lastLine = lineContent
      x = 0
      lineContent = 0
    }
    if w.isEmpty { lines = 0 }
    if let m = cell.style.maxLines, m > 0 { lines = min(lines, m) }

    var height = cell.padding.top + Double(lines) * w.lineHeight + cell.padding.bottom
    var width = min(widest, tw)
    if let name = cell.senderName {
      height +=
        estimatedLineHeight(cell.style, size: size * 0.85, classesUsed: 1) + cell.nameSpacing
      width = max(width, min(tw, Double(name.unicodeScalars.count) * 0.6 * size * 0.85))
    }
    if let ts = cell.timestamp {
      let tsSize = 11 * cell.textScale
      let tsw = Double(ts.unicodeScalars.count) * 0.58 * tsSize
      if lines > 0 && lastLine + cell.timestampGap + tsw <= tw {
        width = max(width, lastLine + cell.timestampGap + tsw)
      } else {
        height +=
          (lines > 0 ? cell.nameSpacing : 0)
          + estimatedLineHeight(cell.style, size: tsSize, classesUsed: 1)
      }
    }
    if cell.replyText != nil {
      height +=
        3 * estimatedLineHeight(cell.style, size: size * 0.85, classesUsed: 1)
        + cell.replyPadding.vertical + cell.blockSpacing
    }
    width = max(cell.minSize.width, min(cell.maximumBubbleWidth, width + cell.padding.horizontal))
    height = max(cell.minSize.height, height)
    return CellSize(
      width: roundUp(width, scale: cell.scale), height: roundUp(height, scale: cell.scale))
  }

  /// Line height: fixed values as given; `normal` from the metrics of the primary font and of
  /// the fonts that cover the classes used (rounded per pixel in the browser profile).
  func estimatedLineHeight(
    _ style: TextStyle, size: Double, classesUsed: Int, otherSample: UInt32? = nil
  ) -> Double {
    switch style.lineHeight {
    case .points(let p): return p * size / style.size
    case .multiple(let m): return m * size
    case .normal:
      let browser = style.profile == .browser
      func metric(_ f: Font) -> (Double, Double) {
        let a = f.ascender * size
        let d = f.descender * size
        return browser ? (a.rounded(), d.rounded()) : (a, d)
      }
      let fonts = style.fonts.fonts
      var (a, d) = metric(fonts[0])
      for cls in CharacterClass.allCases
      where classesUsed & (1 << cls.rawValue) != 0 && cls != .mark {
        if let f = fonts.first(where: { $0.covers(cls.representative) }) {
          let m = metric(f)
          a = max(a, m.0)
          d = max(d, m.1)
        }
      }
      return a + d
    }
  }
}
