import Typesetting

/// Estimates a bubble's size without shaping: characters are counted by class, multiplied by
/// calibrated average advances, and wrapped at the text width with a calibrated fill factor.
///
/// Use it for the first layout pass of a long transcript; ``calibrate(_:sizer:)`` fits its
/// parameters to measured cells. Cost: one pass over the text's UTF-8 bytes.
///
/// ```swift
/// let (estimator, fit) = try BubbleEstimator.calibrate(sampleCells, sizer: .shared)
/// let guess = estimator.estimate(cell)      // ~100 ns, no shaping
/// ```
public struct BubbleEstimator: Sendable, Hashable {
  /// Classes of characters with similar advances.
  public enum CharacterClass: Int, CaseIterable, Sendable {
    /// ASCII letters, digits and punctuation.
    case narrow
    /// Spaces.
    case space
    /// Ideographs, kana, Hangul, fullwidth forms.
    case wide
    /// Emoji (supplementary-plane symbols).
    case emoji
    /// Combining marks and other zero-width characters.
    case mark
    /// Every other script (Cyrillic, Arabic, Hebrew, Thai, Devanagari, …).
    case other
  }

  /// Average advance of each class, in em (index: `CharacterClass.rawValue`).
  public var advances: [Double] = [0.52, 0.27, 0.95, 1.25, 0, 0.55]
  /// Fraction of the text width a wrapped line fills on average.
  public var fill: Double = 0.9
  /// Line height of `lineHeight: normal` as a multiple of the font size.
  public var normalLineHeight: Double = 1.3

  public init() {}

  /// Character counts of a text: per class, plus the paragraphs (line feeds + 1).
  public struct Counts: Sendable, Hashable {
    public var perClass: [Int] = Array(repeating: 0, count: 6)
    /// Per paragraph: its count per class, flattened 6 at a time.
    var paragraphs: [Int32] = []
  }

  /// Counts `text`'s characters by class, paragraph by paragraph, from its UTF-8 bytes.
  public static func count(_ text: String) -> Counts {
    var c = Counts()
    var para = [Int32](repeating: 0, count: 6)
    var text = text
    text.withUTF8 { bytes in
      var i = 0
      let n = bytes.count
      while i < n {
        let b = bytes[i]
        if b < 0x80 {
          if b == 0x0A {
            c.paragraphs += para
            for k in 0..<6 { para[k] = 0 }
          } else if b == 0x20 || b == 0x09 {
            para[CharacterClass.space.rawValue] += 1
          } else if b >= 0x21 {
            para[CharacterClass.narrow.rawValue] += 1
          }
          i += 1
        } else if b < 0xE0 {
          // Two-byte sequences: Latin-1 to Arabic, Hebrew; U+0300–036F are combining marks.
          let cp = (Int(b & 0x1F) << 6) | Int(i + 1 < n ? bytes[i + 1] & 0x3F : 0)
          para[(0x300...0x36F).contains(cp) ? CharacterClass.mark.rawValue : (cp < 0x250 ? CharacterClass.narrow.rawValue : CharacterClass.other.rawValue)] += 1
          i += 2
        } else if b < 0xF0 {
          let cp =
            (Int(b & 0x0F) << 12) | (Int(i + 1 < n ? bytes[i + 1] & 0x3F : 0) << 6)
            | Int(i + 2 < n ? bytes[i + 2] & 0x3F : 0)
          let cls: CharacterClass
          switch cp {
          case 0x1100...0x11FF, 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFF60:
            cls = .wide
          case 0x200B...0x200F, 0xFE00...0xFE0F, 0x0900...0x0903, 0x093A...0x094F, 0x0E31, 0x0E34...0x0E3A,
            0x0E47...0x0E4E, 0x20D0...0x20FF:
            cls = .mark
          case 0x2600...0x27BF, 0x2B00...0x2BFF: cls = .emoji
          default: cls = .other
          }
          para[cls.rawValue] += 1
          i += 3
        } else {
          let cp = (Int(b & 0x07) << 18) | (Int(i + 1 < n ? bytes[i + 1] & 0x3F : 0) << 12)
          // Skin tones and tags ride on the emoji before them.
          para[(0x1F3FB...0x1F3FF).contains(cp) || cp >= 0xE0000 ? CharacterClass.mark.rawValue : CharacterClass.emoji.rawValue] += 1
          i += 4
        }
      }
    }
    c.paragraphs += para
    for p in stride(from: 0, to: c.paragraphs.count, by: 6) {
      for k in 0..<6 { c.perClass[k] += Int(c.paragraphs[p + k]) }
    }
    return c
  }

  /// The natural (unwrapped) width of each paragraph, in points.
  func paragraphWidths(_ counts: Counts, size: Double) -> [Double] {
    var out: [Double] = []
    out.reserveCapacity(counts.paragraphs.count / 6)
    for p in stride(from: 0, to: counts.paragraphs.count, by: 6) {
      var w = 0.0
      for k in 0..<6 { w += Double(counts.paragraphs[p + k]) * advances[k] }
      out.append(w * size)
    }
    return out
  }

  func lineHeight(_ style: TextStyle) -> Double {
    switch style.lineHeight {
    case .points(let p): return p
    case .multiple(let m): return m * style.size
    case .normal: return normalLineHeight * style.size
    }
  }

  /// Estimated size of a bubble (same rounding as measuring).
  public func estimate(_ cell: BubbleCell) -> CellSize {
    estimate(cell, counts: BubbleEstimator.count(cell.text))
  }

  /// Estimated size from counts made earlier (estimating again at another width costs O(paragraphs)).
  public func estimate(_ cell: BubbleCell, counts: Counts) -> CellSize {
    let size = cell.style.size * cell.textScale
    let tw = max(1, cell.textWidth)
    var style = cell.style
    style.size = size
    let lh = lineHeight(style)
    var lines = 0
    var widest = 0.0
    var last = 0.0
    for w in paragraphWidths(counts, size: size) {
      let usable = tw * fill
      let n = w <= tw ? 1 : Int((w / usable).rounded(.up))
      lines += n
      widest = max(widest, min(w, tw))
      last = n == 1 ? w : w - Double(n - 1) * usable
    }
    if let m = cell.style.maxLines, m > 0 { lines = min(lines, m) }
    var height = cell.padding.top + Double(lines) * lh + cell.padding.bottom
    var width = widest
    if let name = cell.senderName {
      height += 0.85 * lh + cell.nameSpacing
      width = max(width, min(tw, Double(name.count) * 0.6 * size * 0.85))
    }
    if let ts = cell.timestamp {
      let tsw = Double(ts.count) * 0.55 * 11 * cell.textScale
      if last + cell.timestampGap + tsw > tw {
        height += cell.nameSpacing + 1.3 * 11 * cell.textScale
      } else {
        width = max(width, last + cell.timestampGap + tsw)
      }
    }
    if cell.replyText != nil { height += 2.6 * 0.85 * lh + cell.replyPadding.vertical + cell.blockSpacing }
    width = max(cell.minSize.width, min(cell.maximumBubbleWidth, width + cell.padding.horizontal))
    height = max(cell.minSize.height, height)
    return CellSize(width: roundUp(width, scale: cell.scale), height: roundUp(height, scale: cell.scale))
  }
}
