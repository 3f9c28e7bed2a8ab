/// Writes Galley's JSON output as UTF-8 bytes: keys in the order given, strings escaped one
/// way, numbers in the shortest form that reads back (float noise below 1e-9 dropped, so that
/// sums like 0.1 + 0.2 print as written). A writer is used in place: copies share its buffer.
package struct JSONWriter {
  private let buffer = ByteBuffer()

  package init() {}

  /// The bytes written so far.
  package var bytes: [UInt8] { Array(buffer.written) }

  /// The text written so far.
  package var text: String { String(decoding: buffer.written, as: UTF8.self) }

  /// Calls `body` with the bytes written so far (valid only inside it).
  package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try body(buffer.written)
  }

  /// Appends bytes that are already JSON.
  package mutating func raw(_ s: String) {
    var s = s
    s.withUTF8 { buffer.append($0) }
  }
  package mutating func raw(_ s: StaticString) {
    buffer.append(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
  }
  package mutating func raw(_ b: UInt8) { buffer.append(b) }

  /// Appends bytes that are already JSON, from memory.
  package mutating func raw(bytes: UnsafeBufferPointer<UInt8>) { buffer.append(bytes) }

  /// How many bytes are written.
  package var count: Int { buffer.written.count }

  /// Forgets what is written, keeping the memory (a writer used again for each record).
  package mutating func removeAll() { buffer.removeAll() }

  package mutating func string(_ s: String) {
    var s = s
    s.withUTF8 { string(utf8: $0) }
  }

  /// A string from its UTF-8 bytes, escaped as ``string(_:)`` escapes (bytes that are not
  /// UTF-8 are copied as they are: a reader then says so).
  package mutating func string(utf8 u: UnsafeBufferPointer<UInt8>) {
    buffer.append(UInt8(ascii: "\""))
    var runStart = 0
    var k = 0
    let n = u.count
    // Eight bytes at a time while none needs a look (a quote, a backslash, a control
    // character, or 0xE2, the first byte of U+2028 and U+2029).
    if let base = u.baseAddress {
      while k + 8 <= n {
        let w = UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)
        if JSONReader.hasSpecialByte(w) || ByteWord.has(0xE2, in: w) { break }
        k += 8
      }
    }
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
          buffer.append(UnsafeBufferPointer(rebasing: u[runStart..<k]))
          let hex: StaticString = "0123456789abcdef"
          raw("\\u00" as StaticString)
          buffer.append(hex.utf8Start[Int(b >> 4)])
          buffer.append(hex.utf8Start[Int(b & 15)])
          k += 1
          runStart = k
          continue
        }
      }
      if let escape {
        buffer.append(UnsafeBufferPointer(rebasing: u[runStart..<k]))
        raw(escape)
        k += length
        runStart = k
      } else {
        k += 1
      }
    }
    buffer.append(UnsafeBufferPointer(rebasing: u[runStart..<n]))
    buffer.append(UInt8(ascii: "\""))
  }

  /// A finite number (whole numbers without a decimal point, others to 9 decimals). Records
  /// check their numbers before they are written (an infinite or NaN one makes an error record
  /// that names its field); should one get here all the same, it is written `null`.
  package mutating func number(_ v: Double) {
    guard v.isFinite else { return raw("null" as StaticString) }
    // (Whole numbers and sixty-fourths tested by a round trip through Int: `rounded()` is a
    // call into libm.)
    if abs(v) < 1e15 && Double(Int(v)) == v { return int(Int(v)) }
    // Sixty-fourths (glyph positions in 26.6 fixed point, and most sums of them) print exactly
    // in at most six decimals, which is also their shortest form: written without going
    // through `description` (below a million, where the product below is exact as well).
    let sixtyFourths = v * 64
    if abs(v) < 1e6 && Double(Int(sixtyFourths)) == sixtyFourths {
      let k = Int(sixtyFourths)
      if k < 0 { buffer.append(UInt8(ascii: "-")) }
      let m = Int(k.magnitude)
      int(m / 64)
      let fraction = JSONWriter.fractions + 8 * (m % 64)
      buffer.append(UnsafeBufferPointer(start: fraction + 1, count: Int(fraction[0])))
      return
    }
    // (Past ~1.8e299 the scaled value is infinite: such a number has no decimals to round.)
    let scaled = v * 1e9
    let r = scaled.isFinite ? scaled.rounded() / 1e9 : v
    // (A sum that lands within 1e-9 of a whole number is that number: "100", not "100.0".)
    if abs(r) < 1e15 && Double(Int(r)) == r { return int(Int(r)) }
    raw(r.description)
  }

  /// For each sixty-fourth k, eight bytes: the length of its decimals, then the decimals
  /// (`.015625`, `.03125`, … `.984375`; none for 0/64). Made once, never freed (no reference
  /// counting on the way to a number); never written after it is made, hence unsafe(ly shared).
  nonisolated(unsafe) private static let fractions: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 64 * 8)
    table.initialize(repeating: 0, count: 64 * 8)
    for k in 1..<64 {
      var digits = Array(String(k * 15625).utf8)
      digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: 6 - digits.count), at: 0)
      while digits.last == UInt8(ascii: "0") { digits.removeLast() }
      let decimals = [UInt8(ascii: ".")] + digits
      table[8 * k] = UInt8(decimals.count)
      for (i, b) in decimals.enumerated() { table[8 * k + 1 + i] = b }
    }
    return UnsafePointer(table)
  }()

  /// "00", "01", … "99": two digits at a time (made once, as ``fractions``).
  nonisolated(unsafe) private static let digitPairs: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 200)
    for k in 0..<100 {
      table[2 * k] = UInt8(ascii: "0") + UInt8(k / 10)
      table[2 * k + 1] = UInt8(ascii: "0") + UInt8(k % 10)
    }
    return UnsafePointer(table)
  }()

  package mutating func int(_ n: Int) {
    if n < 0 {
      buffer.append(UInt8(ascii: "-"))
      if n == Int.min { return raw("9223372036854775808") }
      return int(-n)
    }
    if n < 10 { return buffer.append(UInt8(ascii: "0") + UInt8(n)) }
    // (Most numbers written are short: line starts, counts, whole points.)
    if n < 100 {
      return buffer.append(UnsafeBufferPointer(start: JSONWriter.digitPairs + 2 * n, count: 2))
    }
    if n < 1000 {
      buffer.append(UInt8(ascii: "0") + UInt8(n / 100))
      return buffer.append(
        UnsafeBufferPointer(start: JSONWriter.digitPairs + 2 * (n % 100), count: 2))
    }
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
      let digitsStart = d.baseAddress!.assumingMemoryBound(to: UInt8.self) + (20 - count)
      buffer.append(UnsafeBufferPointer(start: digitsStart, count: count))
    }
  }

  package mutating func bool(_ b: Bool) {
    raw(b ? "true" as StaticString : "false" as StaticString)
  }

  /// `"key": ` (with the comma before it unless `first`).
  package mutating func key(text k: String, first: Bool = false) {
    if !first { raw(", " as StaticString) }
    string(k)
    raw(": " as StaticString)
  }

  /// The same for a key written in the code: plain ASCII, nothing to escape.
  package mutating func key(_ k: StaticString, first: Bool = false) {
    if !first { raw(", " as StaticString) }
    buffer.append(UInt8(ascii: "\""))
    raw(k)
    raw("\": " as StaticString)
  }

  package mutating func value(_ v: JSONValue) {
    switch v {
    case .null: raw("null" as StaticString)
    case .bool(let b): bool(b)
    case .number(let n): number(n)
    case .string(let s): string(s)
    case .array(let a): list(a) { $0.value($1) }
    case .object(let o):
      raw(UInt8(ascii: "{"))
      for (k, f) in o.fields.enumerated() {
        key(text: f.key, first: k == 0)
        value(f.value)
      }
      raw(UInt8(ascii: "}"))
    }
  }

  /// `[a, b, …]`, each element written by `element`.
  package mutating func list<T>(_ values: [T], _ element: (inout JSONWriter, T) -> Void) {
    raw(UInt8(ascii: "["))
    for (k, v) in values.enumerated() {
      if k > 0 { raw(", " as StaticString) }
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
      w.key(text: p.0, first: k == 0)
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

/// The growing byte array a writer fills: appends without the generic paths of `Array`.
final class ByteBuffer {
  private var start: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int

  init(capacity: Int = 256) {
    self.capacity = capacity
    start = .allocate(capacity: capacity)
  }
  deinit { start.deallocate() }

  var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

  func append(_ b: UInt8) {
    if count == capacity { grow(to: count + 1) }
    start[count] = b
    count += 1
  }

  func append(_ p: UnsafeBufferPointer<UInt8>) {
    guard let base = p.baseAddress, p.count > 0 else { return }
    let n = p.count
    if count + n > capacity { grow(to: count + n) }
    let to = UnsafeMutableRawPointer(start + count)
    let from = UnsafeRawPointer(base)
    // (Keys and numbers are short: two overlapping word copies cost less than a call to
    // memmove or a loop over the bytes.)
    if n >= 8 && n <= 16 {
      let head = from.loadUnaligned(as: UInt64.self)
      let tail = from.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
      to.storeBytes(of: head, as: UInt64.self)
      to.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
    } else if n >= 4 && n < 8 {
      let head = from.loadUnaligned(as: UInt32.self)
      let tail = from.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
      to.storeBytes(of: head, as: UInt32.self)
      to.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
    } else if n < 4 {
      for k in 0..<n { start[count + k] = base[k] }
    } else {
      (start + count).update(from: base, count: n)
    }
    count += n
  }

  func removeAll() { count = 0 }

  private func grow(to needed: Int) {
    var c = capacity * 2
    while c < needed { c *= 2 }
    let new = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
    new.update(from: start, count: count)
    start.deallocate()
    start = new
    capacity = c
  }
}
