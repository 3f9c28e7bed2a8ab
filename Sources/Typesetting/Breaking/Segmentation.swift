/// The fourth stage of preparing a paragraph: each grapheme's advance (its code points' shaped
/// advances plus letter spacing) and the segments between soft wrap opportunities, which line
/// breaking places whole — the content, the white space that hangs after it, and their flags.
struct Segmentation {
  /// Per grapheme: its advance in points.
  let graphemeAdvance: [Double]
  // Per segment (see ``PreparedText``'s segment arrays).
  let end: [Int32]
  let contentEnd: [Int32]
  let content: [Double]
  let trailing: [Double]
  let flags: [UInt8]
  let fonts: [UInt64]

  /// - Parameter opportunities: per processed code point, whether a line may break before it.
  init(
    _ source: borrowing SourceText, items: borrowing Itemization, shaped: borrowing ShapedText,
    letterSpacing: Double, opportunities: [Bool]
  ) {
    let advance = Segmentation.graphemeAdvances(
      bounds: source.graphemeStart, advances: shaped.advances, flags: items.graphemeFlags,
      letterSpacing: letterSpacing)
    let all = items.graphemeFlags.withUnsafeBufferPointer { gFlags in
      advance.withUnsafeBufferPointer { gAdvance in
        items.graphemeFont.withUnsafeBufferPointer { gFont in
          source.graphemeStart.withUnsafeBufferPointer { bounds in
            opportunities.withUnsafeBufferPointer { opportunities in
              Segmentation.segments(
                flags: gFlags, advances: gAdvance, fonts: gFont, bounds: bounds,
                opportunities: opportunities)
            }
          }
        }
      }
    }
    graphemeAdvance = advance
    end = Segment.column(all) { $0.end }
    contentEnd = Segment.column(all) { $0.contentEnd }
    content = Segment.column(all) { $0.content }
    trailing = Segment.column(all) { $0.trailing }
    flags = Segment.column(all) { $0.flags }
    fonts = Segment.column(all) { $0.fonts }
  }

  /// Each grapheme's advance: the sum of its code points', plus letter spacing (but for forced
  /// breaks).
  private static func graphemeAdvances(
    bounds: [Int32], advances: [Double], flags: [UInt8], letterSpacing: Double
  ) -> [Double] {
    let gCount = flags.count
    let forcedBreak = PreparedText.GraphemeFlag.forcedBreak
    return [Double](capacity: gCount) { out, count in
      bounds.withUnsafeBufferPointer { bounds in
        advances.withUnsafeBufferPointer { advances in
          for g in 0..<gCount {
            var w = 0.0
            for k in Int(bounds[g])..<Int(bounds[g + 1]) { w += advances[k] }
            out[g] = letterSpacing != 0 && flags[g] & forcedBreak == 0 ? w + letterSpacing : w
          }
        }
      }
      count = gCount
    }
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
    func endsBefore(_ g: Int) -> Bool {
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
        if t < g && g < gCount && gFlags[g] & PreparedText.GraphemeFlag.continuation != 0
          && gFlags[g - 1] & PreparedText.GraphemeFlag.space != 0
        {
          flags |= PreparedText.SegmentFlag.splitCluster
        }
        // (Initialized, not assigned: the memory holds no segment yet.)
        (segment.baseAddress! + made).initialize(
          to: Segment(
            end: Int32(g), contentEnd: Int32(t), content: content, trailing: trailing,
            flags: flags, fonts: mask))
        made += 1
      }
    }
  }

  /// A segment as the stage finds it (see ``PreparedText``'s segment arrays).
  private struct Segment {
    var end: Int32
    var contentEnd: Int32
    var content: Double
    var trailing: Double
    var flags: UInt8
    var fonts: UInt64

    /// One field of every segment, as an array (written in place: `map` appends).
    static func column<T: BitwiseCopyable>(_ all: [Segment], _ field: (Segment) -> T) -> [T] {
      [T](capacity: all.count) { out, count in
        all.withUnsafeBufferPointer { all in
          for k in all.indices { (out.baseAddress! + k).initialize(to: field(all[k])) }
        }
        count = all.count
      }
    }
  }
}
