/// Names the reason a JSON record failed to parse, where Galley can be more specific than the
/// JSON parser.
enum JSONDiagnosis {
  /// The first `\uXXXX` escape inside a string that encodes half of a UTF-16 surrogate pair
  /// without the other half (`"\ud800"` alone, or a low half first), as written in the input;
  /// nil when there is none. JSON text must encode characters, and a lone half is not one.
  /// - Complexity: O(n) in the length of the data.
  static func unpairedSurrogate(in data: some Collection<UInt8>) -> String? {
    let bytes = Array(data)
    let n = bytes.count
    func hex(at i: Int) -> UInt32? {
      guard i + 4 <= n else { return nil }
      var v: UInt32 = 0
      for b in bytes[i..<i + 4] {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): v = v << 4 | UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): v = v << 4 | UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): v = v << 4 | UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
      }
      return v
    }
    /// The code unit of a `\uXXXX` escape starting at `i`, if there is one.
    func escape(at i: Int) -> UInt32? {
      guard i + 1 < n, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
        return nil
      }
      return hex(at: i + 2)
    }
    var inString = false
    var i = 0
    while i < n {
      let b = bytes[i]
      if !inString {
        if b == UInt8(ascii: "\"") { inString = true }
        i += 1
        continue
      }
      if b == UInt8(ascii: "\"") {
        inString = false
        i += 1
      } else if b == UInt8(ascii: "\\") {
        guard let unit = escape(at: i) else {
          i += 2  // any other escape is two bytes
          continue
        }
        let written = String(decoding: bytes[i..<i + 6], as: UTF8.self)
        if (0xDC00...0xDFFF).contains(unit) { return written }
        if (0xD800...0xDBFF).contains(unit) {
          guard let next = escape(at: i + 6), (0xDC00...0xDFFF).contains(next) else {
            return written
          }
          i += 12
        } else {
          i += 6
        }
      } else {
        i += 1
      }
    }
    return nil
  }

  /// The first number outside strings too large for a 64-bit float (`1e400`, `-2e308`), as
  /// written in the input; nil when there is none. JSON sets no range on numbers; Galley reads
  /// them as Doubles, and Foundation's parser rejects one that would be infinite.
  /// - Complexity: O(n) in the length of the data.
  static func numberOutOfRange(in data: some Collection<UInt8>) -> String? {
    let bytes = Array(data)
    let n = bytes.count
    func isNumberByte(_ b: UInt8) -> Bool {
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
        UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
        return true
      default: return false
      }
    }
    var inString = false
    var i = 0
    while i < n {
      let b = bytes[i]
      if inString {
        if b == UInt8(ascii: "\\") {
          i += 2
          continue
        }
        if b == UInt8(ascii: "\"") { inString = false }
        i += 1
        continue
      }
      if b == UInt8(ascii: "\"") {
        inString = true
        i += 1
        continue
      }
      guard b == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) else {
        i += 1
        continue
      }
      var end = i
      while end < n && isNumberByte(bytes[end]) { end += 1 }
      let written = String(decoding: bytes[i..<end], as: UTF8.self)
      if let value = Double(written), value.isInfinite { return written }
      i = end
    }
    return nil
  }
}
