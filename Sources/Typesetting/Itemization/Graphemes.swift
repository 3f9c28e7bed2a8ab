/// Grapheme cluster boundaries (UAX #29, as Swift's `Character` implements it) of a code point array.
enum Graphemes {
  /// Start indices (in code points) of each grapheme cluster, plus `scalars.count` at the end.
  static func boundaries(of scalars: [UInt32]) -> [Int32] {
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
      position += Int32(ch.unicodeScalars.count)
    }
    result.append(position)
    return result
  }
}
