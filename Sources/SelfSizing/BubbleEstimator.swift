import Foundation
@_spi(LineBreaking) import Typesetting

/// Estimates a bubble's size without shaping: each character takes the advance of its glyph
/// (from `cmap` and `hmtx`, the way font fallback would pick the font: first font of the stack
/// that covers it, the colour font for emoji), changed where shaping most often changes it by
/// tables that HarfBuzz itself worked out once per font: a joining letter's contextual form, a
/// pair's kerning or ligature, a Devanagari conjunct or vowel-sign form, the glyph a language
/// picks (a Korean space), and adjacent CJK punctuation set half-width by the engine's own rule.
/// Everything else is the text engine's rule, asked, not copied: where lines may break
/// (``BreakOpportunities``), tab stops, the fit tolerance and the greedy rule (``GreedyLines``),
/// each line's box from the fonts on it (``LineBoxes``), `maxLines`. A word too wide for a line
/// is broken after the characters that fit (a long one keeps where each ends; a short one is
/// taken as characters of equal width).
///
/// ``calibrate(_:sizer:)`` fits a factor per font to measured cells (close to 1 for the fonts in
/// `fonts/`: what the tables leave out). Cost: one pass over the text's scalars with a few table
/// lookups each, no shaping; ``prepare(_:threads:)`` reads many bubbles once so that
/// ``PreparedBubbles`` can estimate all of them at any width in O(words).
///
/// ```swift
/// let (estimator, fit) = try BubbleEstimator.calibrate(sampleCells, sizer: .shared)
/// let guess = estimator.estimate(cell)
/// let all = estimator.prepare(transcriptCells).sizes(containerWidth: 390)
/// ```
public struct BubbleEstimator: Sendable, Hashable {
  /// Classes of characters, for counting and for the break rules.
  package enum CharacterClass: Int, CaseIterable, Sendable {
    case narrow, space, hangul, cjk, emoji, mark, other
  }

  static let classCount = CharacterClass.allCases.count

  /// Calibrated factor per font file name applied to its nominal advances (1 when absent).
  public var fontScales: [String: Double] = [:]

  /// An estimator with nominal advances (call ``calibrate(_:sizer:)`` to fit the factors).
  public init() {}

  /// The class of a code point alone, from Unicode's properties (ICU's data): a skin tone
  /// (Emoji_Modifier) is drawn on its base; Emoji_Presentation is an emoji; what the engine
  /// draws with no advance is a mark, and so are conjoining Hangul vowels and finals
  /// (Hangul_Syllable_Type V, T), which ride on their leading consonant; other Hangul and every
  /// other East_Asian_Width Wide or Fullwidth character takes a full em, a break possible
  /// before it.
  static func classify(_ cp: UInt32) -> CharacterClass {
    switch cp {
    case 0x20, 0x09, 0x3000: return .space
    case 0x21..<0x250: return CharacterTable.takesNoAdvance(cp) ? .mark : .narrow
    default: break
    }
    if UnicodeProperties.isEmojiModifier(cp) { return .mark }
    if UnicodeProperties.isEmojiPresentation(cp) { return .emoji }
    if CharacterTable.takesNoAdvance(cp) { return .mark }
    switch UnicodeProperties.hangulSyllableType(cp) {
    case .vowelJamo, .trailingJamo: return .mark
    case .leadingJamo, .lvSyllable, .lvtSyllable: return .hangul
    case .notApplicable: break
    }
    guard UnicodeProperties.isWide(cp) else { return .other }
    return UnicodeProperties.isHangul(cp) ? .hangul : .cjk
  }

  /// ``classify(_:)`` of every code point of the Basic Multilingual Plane and of the emoji
  /// blocks (U+1F000–U+1FAFF), made once: a load instead of a look-up of several properties in
  /// the reading loop.
  nonisolated(unsafe) static let classTable: UnsafeMutablePointer<CharacterClass> = {
    let table = UnsafeMutablePointer<CharacterClass>.allocate(
      capacity: 0x10000 + emojiBlocks.count)
    for v in 0..<0x10000 { (table + v).initialize(to: classify(UInt32(v))) }
    for (k, v) in emojiBlocks.enumerated() { (table + 0x10000 + k).initialize(to: classify(v)) }
    return table
  }()

  /// The emoji blocks, whose classes follow the BMP's in ``classTable``.
  static let emojiBlocks: Range<UInt32> = 0x1F000..<0x1FB00

  /// Classifies code points in context: a regional-indicator pair, a ZWJ sequence and a keycap
  /// make one emoji; a skin tone rides on its base, but after a character that takes none
  /// (not Emoji_Modifier_Base, or a VS16) it is drawn as an emoji of its own;
  /// a pictograph of text presentation is an emoji before VS16, a joiner or a skin tone, and
  /// inside a ZWJ sequence, as the engine's font fallback decides.
  struct Classifier {
    var pendingRegional = false
    var afterZWJ = false
    var afterVS16 = false
    var lastWasKeycapBase = false
    var last: UInt32 = 0
    /// ``BubbleEstimator/classTable`` (read once: each read of a static costs a check).
    let table = BubbleEstimator.classTable

    /// The class of `v`, followed by `w` (0 at the end); `keycap` is true when `v` (U+20E3)
    /// turns the previous character into an emoji.
    // (Inlined into the reading loop, by force: a call there spills all its floating-point
    // state, and the optimizer leaves it a call.)
    @_transparent
    mutating func next(_ v: UInt32, before w: UInt32) -> (cls: CharacterClass, keycap: Bool) {
      let zwj = afterZWJ
      let vs16 = afterVS16
      let keycapBase = lastWasKeycapBase
      let previous = last
      last = v
      afterZWJ = v == 0x200D
      afterVS16 = v == 0xFE0F
      if v != 0xFE0F { lastWasKeycapBase = v == 0x23 || v == 0x2A || (v >= 0x30 && v <= 0x39) }
      if v == 0x20E3 { return (.mark, keycapBase) }
      if (0x1F1E6...0x1F1FF).contains(v) {
        pendingRegional.toggle()
        return (pendingRegional ? .emoji : .mark, false)
      }
      pendingRegional = false
      if (0x1F3FB...0x1F3FF).contains(v) {
        let apart = vs16 || !UnicodeProperties.isEmojiModifierBase(previous)
        return (apart ? .emoji : .mark, false)
      }
      var c =
        v < 0x10000
        ? table[Int(v)]
        : BubbleEstimator.emojiBlocks.contains(v)
          ? table[0x10000 &+ Int(v &- BubbleEstimator.emojiBlocks.lowerBound)]
          : BubbleEstimator.classify(v)
      if c != .emoji && (zwj || w == 0xFE0F || w == 0x200D || (0x1F3FB...0x1F3FF).contains(w))
        && UnicodeProperties.isExtendedPictographic(v)
      {
        c = .emoji
      }
      if c == .emoji && zwj { return (.mark, false) }
      return (c, false)
    }
  }

  /// The presentation a character of class `c` followed by `w` asks of its font, as the
  /// engine's font selection reads its cluster (only a selector or a skin tone after it,
  /// U+FE0E and above, changes it): 1, colour first (an emoji before VS16 or a skin tone, which
  /// no text font covers); -1, text first (before VS15); 0, the stack in order.
  static func presentation(_ c: CharacterClass, before w: UInt32) -> Int8 {
    if w == 0xFE0E { return -1 }
    return c == .emoji && (w == 0xFE0F || (0x1F3FB...0x1F3FF).contains(w)) ? 1 : 0
  }

  /// Counts per class, emoji sequences counted as they are drawn (for calibration and reports).
  package static func count(_ text: String) -> [Int] {
    var counts = [Int](repeating: 0, count: classCount)
    var k = Classifier()
    let scalars = text.unicodeScalars.lazy.map(\.value).filter { $0 != 0x0A }
    var rest = scalars.makeIterator()
    var following = rest.next()
    while let v = following {
      following = rest.next()
      let (c, keycap) = k.next(v, before: following ?? 0)
      if keycap {
        counts[CharacterClass.narrow.rawValue] -= 1
        counts[CharacterClass.emoji.rawValue] += 1
      }
      counts[c.rawValue] += 1
    }
    return counts
  }

  /// Estimated size of a bubble (same rules and rounding as measuring it). To estimate many
  /// bubbles, or one at several widths, ``prepare(_:threads:)`` them once.
  public func estimate(_ cell: BubbleCell) -> CellSize {
    prepare(CollectionOfOne(cell)[...]).size(at: 0, containerWidth: cell.containerWidth)
  }

  /// Reads bubbles once (advances, break places, line heights and what surrounds each text) into
  /// flat arrays, so that ``PreparedBubbles/sizes(containerWidth:threads:)`` estimates all of
  /// them at any width with arithmetic alone. Long lists are read on up to `threads` threads
  /// (the result does not depend on how many).
  public func prepare(
    _ cells: [BubbleCell], threads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) -> PreparedBubbles {
    let n = cells.count
    let threads = max(1, min(threads, n / 2048))
    guard threads > 1 else { return prepare(cells[...]) }
    let chunks = (0..<threads).map { k in (k * n / threads)..<((k + 1) * n / threads) }
    let parts = concurrentMap(chunks, threads: threads) { prepare(cells[$0]) }
    return PreparedBubbles(merging: parts)
  }

  /// Reads a slice of bubbles on the calling thread.
  func prepare<Cells: Collection<BubbleCell>>(_ cells: Cells) -> PreparedBubbles {
    var builder = WordsBuilder()
    builder.entries.reserveCapacity(cells.count * 8)
    var bubbles: [PreparedBubbles.Bubble] = []
    bubbles.reserveCapacity(cells.count)
    var geometries: [BubbleGeometry] = []
    var geometryIndex: [BubbleGeometry: Int] = [:]
    var replies: [PreparedBubbles.Text] = []
    var lineRules: [LineRule] = []
    var lineRuleIndex: [ObjectIdentifier: Int32] = [:]
    var sink: [Double]? = nil
    // (The thread's: a transcript estimated bubble by bubble reads the same few styles.)
    let thread = RecentFonts.ofThread()
    var recentFonts = thread.fonts
    defer { thread.fonts = recentFonts }
    /// Reads a text in a style already scaled.
    func text(_ t: String, _ style: TextStyle) -> PreparedBubbles.Text {
      builder.paragraphStart = builder.entries.count
      let first = builder.entries.count
      let firstParagraph = builder.paragraphs.count
      let (rule, empty) = read(
        t, style, size: style.size, perFont: &sink, into: &builder, fonts: &recentFonts)
      // (Kept only for texts with a word in a font that raises a line box.)
      var ruleIndex: Int32 = -1
      if builder.paragraphs[firstParagraph...].contains(where: { $0.fonts != 0 }) {
        // (Texts of one style share one rule object.)
        if let k = lineRuleIndex[ObjectIdentifier(rule)] {
          ruleIndex = k
        } else {
          ruleIndex = Int32(lineRules.count)
          lineRuleIndex[ObjectIdentifier(rule)] = ruleIndex
          lineRules.append(rule)
        }
      }
      let rules = WrapRules(style)
      return PreparedBubbles.Text(
        firstEntry: first, firstParagraph: firstParagraph,
        paragraphs: builder.paragraphs.count - firstParagraph,
        maxLines: Int32(clamping: max(0, rules.maxLines ?? 0)), strut: rule.strut,
        spacing: rule.spacing, rule: ruleIndex, isEmpty: empty, breakWords: rules.breakWords,
        nowrap: rules.nowrap)
    }
    for cell in cells {
      // (The cell's own style when unscaled: a scaled copy retains each of its parts.)
      let main =
        cell.textScale == 1
        ? text(cell.text, cell.style) : text(cell.text, CellSizer.scaled(cell.style, by: cell.textScale))
      let labels = Labels(cell, estimator: self, fonts: &recentFonts)
      var reply = -1
      if let r = cell.replyText {
        let rs = cell.replyTextStyle
        reply = replies.count
        replies.append(text(r, rs))
      }
      let g = BubbleGeometry(cell)
      let gi: Int
      if geometries.last == g {
        gi = geometries.count - 1  // (as the bubble before: no look-up)
      } else if let k = geometryIndex[g] {
        gi = k
      } else {
        gi = geometries.count
        geometries.append(g)
        // (One bubble alone needs no index: estimating bubble by bubble hashes nothing.)
        if cells.count > 1 { geometryIndex[g] = gi }
      }
      bubbles.append(PreparedBubbles.Bubble(text: main, geometry: gi, reply: reply, labels: labels))
    }
    return PreparedBubbles(
      entries: builder.entries, paragraphs: builder.paragraphs, bubbles: bubbles,
      geometries: geometries, replies: replies, lineRules: lineRules, ends: builder.ends)
  }
}
