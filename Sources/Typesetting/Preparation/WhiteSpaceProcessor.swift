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
          var k = 0
          func append(_ c: UInt32, _ i: Int) {
            // Where they do not end lines (Chromium), U+2028 and U+2029 are set as a space.
            out[k] = c == 0x2028 || c == 0x2029 ? 0x20 : c
            at[k] = Int32(i)
            k += 1
          }
          var i = 0
          if collapse {
            // Runs of spaces, tabs and segment breaks become one space; none at the paragraph
            // start.
            var pendingSpace = -1
            while i < n {
              let c = original[i]
              if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                if pendingSpace < 0 { pendingSpace = i }
                i += 1
                continue
              }
              if breakAtLineSeparators && (c == 0x2028 || c == 0x2029) {
                pendingSpace = -1
                append(ProcessedText.lineFeed, i)
                i += 1
                continue
              }
              if pendingSpace >= 0 {
                if k > 0 && out[k - 1] != ProcessedText.lineFeed { append(0x20, pendingSpace) }
                pendingSpace = -1
              }
              append(c, i)
              i += 1
            }
            // A trailing collapsible space would hang and have no width; it is simply dropped.
          } else {
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
          at[k] = Int32(n)
          keptCount = k + 1
          outCount = k
        }
      }
    }
    source = kept
  }
}
