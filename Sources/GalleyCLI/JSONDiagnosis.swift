/// Names the reason a JSON record failed to parse, where Galley can be more specific than the
/// JSON parser.
enum JSONDiagnosis {
  /// The first `\uXXXX` escape inside a string that encodes half of a UTF-16 surrogate pair
  /// without the other half (`"\ud800"` alone, or a low half first), as written in the input;
  /// nil when there is none. JSON text must encode characters, and a lone half is not one.
  /// - Complexity: O(n) in the length of the data.
  static func unpairedSurrogate(in data: some Collection<UInt8>) -> String? {
    let bytes = Array(data)
    guard let i = unpairedSurrogates(in: bytes).first else { return nil }
    return String(decoding: bytes[i..<i + 6], as: UTF8.self)
  }

  /// The text with every unpaired surrogate escape replaced by `\ufffd` (the replacement
  /// character, as a browser draws such a string), and the first one as written; nil when there
  /// is none.
  static func replacingUnpairedSurrogates(in data: some Collection<UInt8>) -> (
    [UInt8], first: String
  )? {
    var bytes = Array(data)
    let found = unpairedSurrogates(in: bytes)
    guard let first = found.first else { return nil }
    let written = String(decoding: bytes[first..<first + 6], as: UTF8.self)
    for i in found { bytes.replaceSubrange(i + 2..<i + 6, with: Array("fffd".utf8)) }
    return (bytes, written)
  }

  /// Where each unpaired surrogate escape starts (its backslash), in order.
  private static func unpairedSurrogates(in bytes: [UInt8]) -> [Int] {
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
    var found: [Int] = []
    _ = scan(bytes) { i in
      guard let unit = escape(at: i) else { return .pass }
      if (0xD800...0xDBFF).contains(unit), let next = escape(at: i + 6),
        (0xDC00...0xDFFF).contains(next)
      {
        return .skip(to: i + 12)
      }
      if (0xD800...0xDFFF).contains(unit) { found.append(i) }
      return .skip(to: i + 6)
    } outside: { _ in
      .pass
    }
    return found
  }

  /// The first number outside strings too large for a 64-bit float (`1e400`, `-2e308`), as
  /// written in the input; nil when there is none. JSON sets no range on numbers; Galley reads
  /// them as Doubles, and Foundation's parser rejects one that would be infinite.
  /// - Complexity: O(n) in the length of the data.
  static func numberOutOfRange(in data: some Collection<UInt8>) -> String? {
    let bytes = Array(data)
    func isNumberByte(_ b: UInt8) -> Bool {
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
        UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
        return true
      default: return false
      }
    }
    return scan(bytes) { _ in
      .pass
    } outside: { i in
      let b = bytes[i]
      guard b == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) else {
        return .pass
      }
      var end = i
      while end < bytes.count && isNumberByte(bytes[end]) { end += 1 }
      let written = String(decoding: bytes[i..<end], as: UTF8.self)
      if let value = Double(written), value.isInfinite { return .found(written) }
      return .skip(to: end)
    }
  }

  /// What a scan does at a byte: the walk's own step, going on at `to`, or stopping with what it
  /// found.
  private enum Step {
    case pass
    case skip(to: Int)
    case found(String)
  }

  /// Walks JSON text keeping track of strings (their quotes, and escapes of two bytes unless
  /// `escape` says otherwise); asks `escape` at each backslash inside a string and `outside` at
  /// each byte outside strings that is not a quote. The first thing found, or nil.
  private static func scan(
    _ bytes: [UInt8], escape: (Int) -> Step, outside: (Int) -> Step
  ) -> String? {
    let quote = UInt8(ascii: "\"")
    let backslash = UInt8(ascii: "\\")
    var inString = false
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b == quote {
        inString.toggle()
        i += 1
        continue
      }
      let escaped = inString && b == backslash
      let step: Step = inString ? (escaped ? escape(i) : .pass) : outside(i)
      switch step {
      case .found(let written): return written
      case .skip(let next): i = next
      case .pass: i += escaped ? 2 : 1
      }
    }
    return nil
  }
}
