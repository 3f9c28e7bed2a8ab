/// The first stage of preparing a paragraph: the text as code points with their UTF-16 offsets,
/// after CSS white-space processing, cut into grapheme clusters. Every later stage reads the
/// processed code points; offsets reported to the caller go back to the original text.
struct SourceText {
  /// Original code point index → UTF-16 offset (one extra entry: the UTF-16 length).
  let utf16Offsets: [Int32]
  /// The code points after white-space processing, each with its original index.
  let processed: ProcessedText
  /// Grapheme cluster boundaries, as processed code point indices (one extra entry: the end).
  let graphemeStart: [Int32]
  /// Graphemes that are the rest of a Unicode cluster split so that a line may start there.
  let continuations: [Int32]

  /// The Unicode grapheme clusters, whole (``graphemeStart`` without the starts of
  /// ``continuations``): what font fallback takes a font for, as Chromium's shaper finds a
  /// cluster's missing glyphs before the line breaker splits it.
  var fontClusterStart: [Int32] {
    continuations.isEmpty ? graphemeStart : SourceText.merging(graphemeStart, continuations)
  }

  /// `bounds` without the starts of the graphemes `inner` (ascending) names.
  static func merging(_ bounds: [Int32], _ inner: [Int32]) -> [Int32] {
    var out: [Int32] = []
    out.reserveCapacity(bounds.count - inner.count)
    var k = 0
    for (g, b) in bounds.enumerated() {
      if k < inner.count && Int(inner[k]) == g {
        k += 1
        continue
      }
      out.append(b)
    }
    return out
  }

  /// - Throws: ``TypesettingError/textTooLong(_:)`` past ``Typesetter/maximumTextBytes``.
  init(_ text: borrowing String, style: borrowing TextStyle) throws {
    guard text.utf8.count <= Typesetter.maximumTextBytes else {
      throw TypesettingError.textTooLong(text.utf8.count)
    }
    let apple = style.profile == .apple
    var offsets: [Int32] = []
    let original = SourceText.codePoints(of: text, utf16Offsets: &offsets)
    utf16Offsets = offsets
    processed = ProcessedText(
      original, whiteSpace: style.whiteSpace, breakAtLineSeparators: apple)
    var continuations: [Int32] = []
    graphemeStart = Graphemes.boundaries(
      of: processed.scalars, splitModifiers: !apple, continuations: &continuations)
    self.continuations = continuations
  }

  /// The code points of `text`, and the UTF-16 offset of each (plus one for the end).
  private static func codePoints(of text: String, utf16Offsets: inout [Int32]) -> [UInt32] {
    // (Written in place: a text has at most as many code points as UTF-8 bytes.)
    let capacity = text.utf8.count
    return [UInt32](capacity: capacity) { codePoints, count in
      utf16Offsets = [Int32](capacity: capacity + 1) { offsets, offsetCount in
        var u16: Int32 = 0
        var k = 0
        for s in text.unicodeScalars {
          codePoints[k] = s.value
          offsets[k] = u16
          u16 += s.value >= 0x10000 ? 2 : 1
          k += 1
        }
        offsets[k] = u16
        offsetCount = k + 1
        count = k
      }
    }
  }
}
