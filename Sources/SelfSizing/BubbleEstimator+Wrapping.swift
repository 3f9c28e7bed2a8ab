import Typesetting

extension BubbleEstimator {
  /// A word (or a run of equal words with no space between them) and the spaces after it.
  struct Entry: Sendable {
    var content: Float
    var trailing: Float
    var count: UInt32
  }

  /// The wrapping options of a text that matter to an estimate.
  struct WrapRules: Sendable, Hashable {
    var breakWords = true
    var nowrap = false
    var maxLines: Int? = nil

    init() {}
    init(_ style: TextStyle) {
      breakWords = style.overflowWrap != .normal
      nowrap = style.whiteSpace == .nowrap || style.whiteSpace == .pre
      maxLines = style.maxLines
    }
  }

  /// Greedy wrapping of words as they come, as the real layout wraps them.
  struct Wrapper: WordSink {
    let tw: Double
    let breakWords: Bool
    let nowrap: Bool
    let maxLines: Int?

    init(width: Double, rules: WrapRules) {
      tw = width
      breakWords = rules.breakWords
      nowrap = rules.nowrap
      maxLines = rules.maxLines
    }
    var x = 0.0  // pen, trailing spaces included
    var lineContent = 0.0
    var lines = 0
    var widest = 0.0
    var last = 0.0

    @inline(__always)
    mutating func word(_ word: Double, trailing: Double) {
      // (A word of no width fits anywhere: spaces before it hang.)
      if x > 0 && word > 0 && x + word > tw && !nowrap {
        widest = max(widest, lineContent)
        lines += 1
        x = 0
        lineContent = 0
      }
      if word > tw && breakWords && !nowrap {
        // (Capped: an absurd width must not overflow the count.)
        let q = word / tw
        let full = q.isFinite ? min(q.rounded(.down), 1e12) : 1e12
        lines += Int(full)
        widest = max(widest, tw)
        x = word - full * tw
      } else {
        x += word
      }
      if word > 0 { lineContent = x }
      x += trailing
    }

    /// `n` words of width `u` with no space between them, then `trailing`: as `n` calls of
    /// ``word(_:trailing:)``, but a line at a time.
    mutating func run(_ u: Double, count n: Int, trailing: Double) {
      if nowrap || !(u > 0 && u <= tw) {  // (also a width that is not a number)
        for i in 0..<n { word(u, trailing: i == n - 1 ? trailing : 0) }
        return
      }
      var left = n
      while left > 0 {
        if x > 0 && x + u > tw {
          widest = max(widest, lineContent)
          lines += 1
          x = 0
          lineContent = 0
        }
        let all = x + Double(left) * u
        if all <= tw {  // the rest fits on this line (no division needed)
          x = all
          lineContent = x
          break
        }
        // How many fit: the quotient, truncated (positive, so as floor; no overflow).
        let q = (tw - x) / u
        let take = q >= Double(left) ? left : max(1, Int(q))
        x += Double(take) * u
        lineContent = x
        left -= take
      }
      x += trailing
    }

    /// A whole paragraph that fits on one line (nothing read on it yet).
    @inline(__always)
    mutating func oneLineParagraph(_ natural: Double) {
      lines += 1
      widest = max(widest, natural)
      last = natural
    }

    @inline(__always)
    mutating func endParagraph() {
      lines += 1
      widest = max(widest, lineContent)
      last = lineContent
      x = 0
      lineContent = 0
    }

    func block(lineHeight: Double, isEmpty: Bool) -> Block {
      var b = Block(lines: isEmpty ? 0 : lines, widest: widest, last: last)
      if let m = maxLines, m > 0 { b.lines = min(b.lines, m) }
      b.height = Double(b.lines) * lineHeight
      return b
    }
  }

  /// Where a paragraph's entries end, and its content width on one line (if that fits, the
  /// paragraph takes one line without looking at its words).
  struct Paragraph: Sendable {
    var end: Int
    var natural: Double
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
    var sink: [Double]? = nil
    var wrapper = Wrapper(width: width, rules: WrapRules(style))
    let (lineHeight, isEmpty) = read(text, style, size: style.size, perFont: &sink, into: &wrapper)
    return wrapper.block(lineHeight: lineHeight, isEmpty: isEmpty)
  }
}
