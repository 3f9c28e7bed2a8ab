/// Writes Galley's JSON output as UTF-8 bytes: keys in the order given, strings escaped one
/// way, numbers in the shortest form that reads back (float noise below 1e-9 dropped, so that
/// sums like 0.1 + 0.2 print as written).
package struct JSONWriter {
  package private(set) var bytes: [UInt8] = []

  package init() { bytes.reserveCapacity(256) }

  /// The text written so far.
  package var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Appends bytes that are already JSON.
  package mutating func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }
  package mutating func raw(_ b: UInt8) { bytes.append(b) }

  package mutating func string(_ s: String) {
    var s = s
    s.withUTF8 { u in
      bytes.append(UInt8(ascii: "\""))
      var runStart = 0
      var k = 0
      let n = u.count
      while k < n {
        let b = u[k]
        var escape: StaticString? = nil
        var length = 1
        switch b {
        case UInt8(ascii: "\""): escape = "\\\""
        case UInt8(ascii: "\\"): escape = "\\\\"
        case 0x0A: escape = "\\n"
        case 0x0D: escape = "\\r"
        case 0x09: escape = "\\t"
        case 0xE2 where k + 2 < n && u[k + 1] == 0x80 && (u[k + 2] == 0xA8 || u[k + 2] == 0xA9):
          // U+2028 and U+2029: valid JSON, but line ends to JavaScript and some readers.
          escape = u[k + 2] == 0xA8 ? "\\u2028" : "\\u2029"
          length = 3
        default:
          if b < 0x20 {
            bytes.append(contentsOf: u[runStart..<k])
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [
              UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
              hex[Int(b >> 4)], hex[Int(b & 15)],
            ])
            k += 1
            runStart = k
            continue
          }
        }
        if let escape {
          bytes.append(contentsOf: u[runStart..<k])
          bytes.append(
            contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
          k += length
          runStart = k
        } else {
          k += 1
        }
      }
      bytes.append(contentsOf: u[runStart..<n])
      bytes.append(UInt8(ascii: "\""))
    }
  }

  package mutating func number(_ v: Double) {
    guard v.isFinite else { return raw("null") }
    if v == v.rounded() && abs(v) < 1e15 { return int(Int(v)) }
    // Sixty-fourths (glyph positions in 26.6 fixed point, and most sums of them) print exactly
    // in at most six decimals, which is also their shortest form: written without going
    // through `description` (below a million, where the rounding below is exact as well).
    let sixtyFourths = v * 64
    if sixtyFourths == sixtyFourths.rounded() && abs(v) < 1e6 {
      let k = Int(sixtyFourths)
      if k < 0 { bytes.append(UInt8(ascii: "-")) }
      let m = k.magnitude
      int(Int(m / 64))
      var fraction = Int(m % 64) * 15625  // millionths
      bytes.append(UInt8(ascii: "."))
      var divisor = 100_000
      while fraction > 0 {
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
        fraction %= divisor
        divisor /= 10
      }
      return
    }
    let r = (v * 1e9).rounded() / 1e9
    raw(r.description)
  }

  package mutating func int(_ n: Int) {
    if n < 0 {
      bytes.append(UInt8(ascii: "-"))
      if n == Int.min { return raw("9223372036854775808") }
      return int(-n)
    }
    if n < 10 { return bytes.append(UInt8(ascii: "0") + UInt8(n)) }
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    var m = n
    withUnsafeMutableBytes(of: &digits) { d in
      while m > 0 {
        d[19 - count] = UInt8(ascii: "0") + UInt8(m % 10)
        m /= 10
        count += 1
      }
      bytes.append(contentsOf: d[(20 - count)...])
    }
  }

  package mutating func bool(_ b: Bool) { raw(b ? "true" : "false") }

  /// `"key": ` (with the comma before it unless `first`).
  package mutating func key(_ k: String, first: Bool = false) {
    if !first { raw(", ") }
    string(k)
    raw(": ")
  }

  package mutating func value(_ v: JSONValue) {
    switch v {
    case .null: raw("null")
    case .bool(let b): bool(b)
    case .number(let n): number(n)
    case .string(let s): string(s)
    case .array(let a): list(a) { $0.value($1) }
    case .object(let o):
      raw(UInt8(ascii: "{"))
      for (k, f) in o.fields.enumerated() {
        key(f.key, first: k == 0)
        value(f.value)
      }
      raw(UInt8(ascii: "}"))
    }
  }

  /// `[a, b, …]`, each element written by `element`.
  package mutating func list<T>(_ values: [T], _ element: (inout JSONWriter, T) -> Void) {
    raw(UInt8(ascii: "["))
    for (k, v) in values.enumerated() {
      if k > 0 { raw(", ") }
      element(&self, v)
    }
    raw(UInt8(ascii: "]"))
  }

  package mutating func numbers(_ values: [Double]) { list(values) { $0.number($1) } }
  package mutating func ints(_ values: [Int]) { list(values) { $0.int($1) } }

  // Values as text, for code that assembles records from parts.

  package static func string(_ s: String) -> String {
    var w = JSONWriter()
    w.string(s)
    return w.text
  }

  package static func number(_ v: Double) -> String {
    var w = JSONWriter()
    w.number(v)
    return w.text
  }

  /// An object from ordered key/value pairs whose values are already JSON.
  package static func object(_ pairs: [(String, String)]) -> String {
    var w = JSONWriter()
    w.raw(UInt8(ascii: "{"))
    for (k, p) in pairs.enumerated() {
      w.key(p.0, first: k == 0)
      w.raw(p.1)
    }
    w.raw(UInt8(ascii: "}"))
    return w.text
  }

  package static func array(_ values: [String]) -> String {
    "[" + values.joined(separator: ", ") + "]"
  }
  package static func numbers(_ values: [Double]) -> String { array(values.map(number)) }
  package static func ints(_ values: [Int]) -> String { array(values.map { String($0) }) }
}
