extension PreparedText {
  /// A readable dump of the prepared text: each segment with its graphemes, their advances
  /// and fonts (for debugging a measurement; the format may change).
  public var explanation: String {
    var out = ""
    let fonts = style.fonts.fonts
    var start = 0
    for s in 0..<segmentEnd.count {
      let end = Int(segmentEnd[s])
      out +=
        "segment \(s): content \(segmentContent[s]) trailing \(segmentTrailing[s]) flags \(segmentFlags[s])\n"
      for g in start..<end {
        let a = Int(graphemeStart[g])
        let b = Int(graphemeStart[g + 1])
        let scalars = (a..<b).map { i -> String in
          let c = text.unicodeScalars[
            text.unicodeScalars.index(text.unicodeScalars.startIndex, offsetBy: Int(source[i]))]
          return String(c.value, radix: 16)
        }
        out +=
          "  [\(g)] U+\(scalars.joined(separator: " ")) adv \(graphemeAdvance[g]) font \(fonts[Int(graphemeFont[g])].name) flags \(graphemeFlags[g])\n"
      }
      start = end
    }
    return out
  }
}
