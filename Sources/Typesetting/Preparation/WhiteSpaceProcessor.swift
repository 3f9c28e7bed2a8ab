/// Applies CSS white-space processing to a paragraph: the text that reaches shaping and line
/// breaking, with each kept code point's index in the original text.
struct ProcessedText {
  /// Code points after processing; a forced line break is a single U+000A.
  let scalars: [UInt32]
  /// For each kept code point, its index (in code points) in the original text; one more entry
  /// at the end: the original length.
  let source: [Int32]

  static let lineFeed: UInt32 = 0x0A

  /// - Parameters:
  ///   - breakAtLineSeparators: U+2028 and U+2029 end lines (Apple); Chromium does not break there.
  init(_ original: [UInt32], whiteSpace: TextStyle.WhiteSpace, breakAtLineSeparators: Bool) {
    let n = original.count
    let collapse = whiteSpace.collapses
    var kept: [Int32] = []
    // (Both written in place: an append checks its array's uniqueness every time.)
    scalars = original.withUnsafeBufferPointer { original in
      [UInt32](capacity: n) { out, outCount in
        kept = [Int32](capacity: n + 1) { at, keptCount in
          var w = Writer(out: out, at: at)
          if collapse {
            w.collapsing(original, breakAtLineSeparators: breakAtLineSeparators)
          } else {
            w.keeping(original, breakAtLineSeparators: breakAtLineSeparators)
          }
          at[w.count] = Int32(n)
          keptCount = w.count + 1
          outCount = w.count
        }
      }
    }
    source = kept
  }

  /// Writes kept code points and their indices in the original text.
  private struct Writer {
    let out: UnsafeMutableBufferPointer<UInt32>
    let at: UnsafeMutableBufferPointer<Int32>
    var count = 0

    init(out: UnsafeMutableBufferPointer<UInt32>, at: UnsafeMutableBufferPointer<Int32>) {
      self.out = out
      self.at = at
    }

    mutating func append(_ c: UInt32, _ i: Int) {
      // Where they do not end lines (Chromium), U+2028 and U+2029 are set as a space.
      out[count] = c == 0x2028 || c == 0x2029 ? 0x20 : c
      at[count] = Int32(i)
      count += 1
    }

    /// Runs of spaces, tabs and segment breaks become one space; none at the paragraph start.
    /// A trailing collapsible space would hang and have no width; it is simply dropped.
    mutating func collapsing(_ original: UnsafeBufferPointer<UInt32>, breakAtLineSeparators: Bool) {
      var pendingSpace = -1
      for (i, c) in original.enumerated() {
        if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
          if pendingSpace < 0 { pendingSpace = i }
          continue
        }
        if breakAtLineSeparators && (c == 0x2028 || c == 0x2029) {
          pendingSpace = -1
          append(ProcessedText.lineFeed, i)
          continue
        }
        if pendingSpace >= 0 {
          if count > 0 && out[count - 1] != ProcessedText.lineFeed { append(0x20, pendingSpace) }
          pendingSpace = -1
        }
        append(c, i)
      }
    }

    /// Everything kept; CR LF, a lone CR and (where they end lines) the line and paragraph
    /// separators, vertical tab, form feed and NEL become one line feed.
    mutating func keeping(_ original: UnsafeBufferPointer<UInt32>, breakAtLineSeparators: Bool) {
      let n = original.count
      var i = 0
      while i < n {
        let c = original[i]
        if c == 0x0D {
          // CR LF is one break; a lone CR is a break too.
          append(ProcessedText.lineFeed, i)
          i += (i + 1 < n && original[i + 1] == 0x0A) ? 2 : 1
          continue
        }
        if breakAtLineSeparators
          && (c == 0x2028 || c == 0x2029 || c == 0x0B || c == 0x0C || c == 0x85)
        {
          append(ProcessedText.lineFeed, i)
          i += 1
          continue
        }
        append(c, i)
        i += 1
      }
    }
  }
}
