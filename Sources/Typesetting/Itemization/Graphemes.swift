/// Grapheme cluster boundaries (UAX #29, as Swift's `Character` implements it) of a code point array.
enum Graphemes {
  /// Start indices (in code points) of each grapheme cluster, plus `scalars.count` at the end.
  /// - Parameters:
  ///   - splitModifiers: split a cluster before an emoji modifier that follows no modifier base
  ///     (the browser profile); the index of each such inner cluster goes into `continuations`.
  static func boundaries(
    of scalars: [UInt32], splitModifiers: Bool = false, continuations: inout [Int32]
  ) -> [Int32] {
    var result: [Int32] = []
    result.reserveCapacity(scalars.count + 1)
    // Fast path: printable ASCII and most Latin-1 never combine with their neighbours except
    // CR LF, which processing already folded.
    var simple = true
    for c in scalars where c >= 0x300 || c == 0x0D {
      simple = false
      break
    }
    if simple {
      for i in 0...scalars.count { result.append(Int32(i)) }
      return result
    }
    var view = String.UnicodeScalarView()
    for c in scalars { view.append(Unicode.Scalar(c) ?? "\u{FFFD}") }
    let string = String(view)
    var position: Int32 = 0
    for ch in string {
      result.append(position)
      if splitModifiers {
        // A skin tone that does not follow an emoji modifier base (as in 🧑‍💻🏽 or ✌️🏾) is a
        // cluster of its own for Chromium's line breaker: it may start a line.
        var k = Int(position)
        for s in ch.unicodeScalars.dropFirst() {
          k += 1
          if (0x1F3FB...0x1F3FF).contains(s.value), k > 0,
            let prev = Unicode.Scalar(scalars[k - 1]), !prev.properties.isEmojiModifierBase
          {
            result.append(Int32(k))
            continuations.append(Int32(result.count - 1))
          }
        }
      }
      position += Int32(ch.unicodeScalars.count)
    }
    result.append(position)
    return result
  }
}
