#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a line is not a JSON value Galley can read, and where (a byte offset in the line).
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Reason: Sendable, Equatable {
    case empty
    /// A whole document (a spec, an updates file) with nothing in it.
    case emptyDocument
    case invalidUTF8
    /// A `\uXXXX` escape that encodes half of a UTF-16 surrogate pair alone, as written.
    case unpairedSurrogate(String)
    /// A number too large for a 64-bit float, as written.
    case numberOutOfRange(String)
    case tooDeep
    case duplicateKey(String)
    /// Anything else: what was expected.
    case expected(String)
  }
  package var reason: Reason
  package var offset: Int
  /// The `"id"` string of the top-level object, when it was read before the error (a record
  /// that cannot be read still names itself in its error record).
  package var recordID: String? = nil

  /// One line: "invalid JSON: …" (or "empty line", "invalid UTF-8").
  package var description: String {
    switch reason {
    case .empty: return "empty line"
    case .emptyDocument: return "the file is empty"
    case .invalidUTF8: return "invalid UTF-8"
    case .unpairedSurrogate(let e): return "invalid JSON: unpaired UTF-16 surrogate escape \(e)"
    case .numberOutOfRange(let n):
      return "invalid JSON: number \(n) is beyond the range of a 64-bit float"
    case .tooDeep: return "invalid JSON: nested deeper than \(JSONReader.maxDepth) levels"
    case .duplicateKey(let k): return "invalid JSON: the key \"\(k)\" appears twice"
    case .expected(let what): return "invalid JSON: expected \(what) at byte \(offset + 1)"
    }
  }
}

/// The one reader of Galley's JSON records (RFC 8259, strict): UTF-8 checked, numbers read as
/// 64-bit floats (one beyond their range is an error, not infinity), repeated keys rejected.
/// Unpaired surrogate escapes (`"a\ud800b"`, as JavaScript writes a string cut inside an
/// emoji) are read as U+FFFD, as a browser draws them, when `repairingSurrogates` is set, and
/// reported in ``repairedEscape``; otherwise they are errors.
package struct JSONReader {
  package static let maxDepth = 256

  /// The first unpaired surrogate escape read as U+FFFD, as written (`\ud800`).
  package private(set) var repairedEscape: String? = nil
  private let repairing: Bool
  /// Whether strings are checked for valid UTF-8 as they are read (the line was not checked
  /// as a whole first); an invalid one is then an error.
  private var checkingStrings = false
  private let bytes: UnsafeBufferPointer<UInt8>
  private var i = 0
  private var depth = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>, repairing: Bool) {
    self.bytes = bytes
    self.repairing = repairing
  }

  /// Reads one value filling `bytes` (whitespace around it allowed); the escape repaired, if any.
  package static func read(
    _ bytes: some Collection<UInt8>, repairingSurrogates: Bool = true
  ) throws(JSONSyntaxError) -> (value: JSONValue, repairedEscape: String?) {
    let result: Result<(JSONValue, String?), JSONSyntaxError>? =
      bytes.withContiguousStorageIfAvailable { p in
        read(buffer: p, repairing: repairingSurrogates)
      }
    switch result ?? Array(bytes).withUnsafeBufferPointer({
      read(buffer: $0, repairing: repairingSurrogates)
    }) {
    case .success(let r): return r
    case .failure(let e): throw e
    }
  }

  /// Reads a whole JSON document (a spec, an updates or a calibration file): one value, after
  /// a UTF-8 byte order mark if there is one (editors on some systems write one).
  package static func readDocument(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError)
    -> JSONValue
  {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    do throws(JSONSyntaxError) {
      if bytes.starts(with: bom) {
        return try read(bytes.dropFirst(3), repairingSurrogates: false).value
      }
      return try read(bytes, repairingSurrogates: false).value
    } catch {
      // (A document, not a line: an empty one says so.)
      if case .empty = error.reason { throw JSONSyntaxError(reason: .emptyDocument, offset: 0) }
      throw error
    }
  }

  /// Reads a JSON object (the shape of every record); anything else is an error.
  package static func readObject(
    _ bytes: some Collection<UInt8>, repairingSurrogates: Bool = true
  ) throws(JSONSyntaxError) -> (object: JSONObject, repairedEscape: String?) {
    let (value, repaired) = try read(bytes, repairingSurrogates: repairingSurrogates)
    guard case .object(let o) = value else {
      throw JSONSyntaxError(reason: .expected("an object, not \(value.typeDescription)"), offset: 0)
    }
    return (o, repaired)
  }

  private static func read(buffer: UnsafeBufferPointer<UInt8>, repairing: Bool)
    -> Result<(JSONValue, String?), JSONSyntaxError>
  {
    var r = JSONReader(buffer, repairing: repairing)
    do throws(JSONSyntaxError) {
      r.skipSpace()
      guard r.i < buffer.count else { throw JSONSyntaxError(reason: .empty, offset: 0) }
      if let bad = UTF8Check.firstInvalid(buffer) {
        throw JSONSyntaxError(reason: .invalidUTF8, offset: bad)
      }
      let v = try r.value()
      r.skipSpace()
      guard r.i == buffer.count else {
        var e = r.error("the end of the line")
        if case .object(let o) = v { e.recordID = o["id"]?.string }
        throw e
      }
      return .success((v, r.repairedEscape))
    } catch {
      return .failure(error)
    }
  }

  private func error(_ expected: String) -> JSONSyntaxError {
    JSONSyntaxError(reason: .expected(expected), offset: i)
  }

  private mutating func skipSpace() {
    // (Most often the next byte is not a space.)
    if i < bytes.count && bytes[i] > 0x20 { return }
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D: i += 1
      default: return
      }
    }
  }

  private mutating func literal(_ word: StaticString, _ v: JSONValue) throws(JSONSyntaxError)
    -> JSONValue
  {
    let n = word.utf8CodeUnitCount
    guard i + n <= bytes.count else { throw error("a value") }
    for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw error("a value") }
    i += n
    return v
  }

  private mutating func value() throws(JSONSyntaxError) -> JSONValue {
    guard i < bytes.count else { throw error("a value") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return .object(try object())
    case UInt8(ascii: "["): return .array(try array())
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    default: throw error("a value")
    }
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > JSONReader.maxDepth { throw JSONSyntaxError(reason: .tooDeep, offset: i) }
  }

  private mutating func object() throws(JSONSyntaxError) -> JSONObject {
    let top = depth == 0
    var fields: [JSONObject.Field] = []
    do {
      return try object(into: &fields)
    } catch {
      var e = error
      // (Not when "id" itself is the repeated key: which one to trust is the error.)
      if top, e.recordID == nil, e.reason != .duplicateKey("id"),
        let id = fields.first(where: { $0.key == "id" })?.value.string
      {
        e.recordID = id
      }
      throw e
    }
  }

  private mutating func object(into fields: inout [JSONObject.Field]) throws(JSONSyntaxError)
    -> JSONObject
  {
    try enter()
    i += 1
    fields.reserveCapacity(16)
    skipSpace()
    if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
      i += 1
      depth -= 1
      return JSONObject(fields)
    }
    var seen: Set<String>? = nil
    while true {
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("a key in quotes") }
      let keyAt = i
      let key = try string()
      let fingerprint =
        i - keyAt - 2 == key.utf8.count
        ? JSONObject.fingerprint(UnsafeBufferPointer(rebasing: bytes[(keyAt + 1)..<(i - 1)]))
        : JSONObject.fingerprint(key)
      // (Records have a few keys: a scan; a large object switches to a set.)
      if fields.count < 16 {
        let repeated = fields.withUnsafeBufferPointer { b in
          b.contains { $0.fingerprint == fingerprint && $0.key == key }
        }
        if repeated { throw JSONSyntaxError(reason: .duplicateKey(key), offset: keyAt) }
      } else {
        if seen == nil { seen = Set(fields.map(\.key)) }
        if !seen!.insert(key).inserted {
          throw JSONSyntaxError(reason: .duplicateKey(key), offset: keyAt)
        }
      }
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("\":\"") }
      i += 1
      skipSpace()
      let v = try value()
      fields.append(JSONObject.Field(key: key, value: v, fingerprint: fingerprint))
      skipSpace()
      guard i < bytes.count else { throw error("\",\" or \"}\"") }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      guard bytes[i] == UInt8(ascii: "}") else { throw error("\",\" or \"}\"") }
      i += 1
      depth -= 1
      return JSONObject(fields)
    }
  }

  private mutating func array() throws(JSONSyntaxError) -> [JSONValue] {
    try enter()
    i += 1
    var out: [JSONValue] = []
    skipSpace()
    if i < bytes.count && bytes[i] == UInt8(ascii: "]") {
      i += 1
      depth -= 1
      return out
    }
    while true {
      skipSpace()
      out.append(try value())
      skipSpace()
      guard i < bytes.count else { throw error("\",\" or \"]\"") }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      guard bytes[i] == UInt8(ascii: "]") else { throw error("\",\" or \"]\"") }
      i += 1
      depth -= 1
      return out
    }
  }

  /// The bytes of a string without escapes, starting at the opening quote; moves past the
  /// closing quote. Nil at the first backslash (`i` left there), for ``string()`` to go on.
  private mutating func plainString() throws(JSONSyntaxError) -> UnsafeBufferPointer<UInt8>? {
    i += 1
    let start = i
    skipOrdinaryBytes()
    guard i < bytes.count else { throw error("a closing quote") }
    let b = bytes[i]
    if b == UInt8(ascii: "\"") {
      i += 1
      return UnsafeBufferPointer(rebasing: bytes[start..<(i - 1)])
    }
    if b == UInt8(ascii: "\\") { return nil }
    throw error("no control character inside a string (escape it)")
  }

  /// Moves to the next byte inside a string that is not itself: a quote, a backslash or a
  /// control character (or the end).
  private mutating func skipOrdinaryBytes() {
    // Eight bytes at a time: the first special byte is where the lowest bit of the masks is.
    let base = bytes.baseAddress!
    while i + 8 <= bytes.count {
      let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
      let special = JSONReader.specialBytes(w)
      if special != 0 {
        i += special.trailingZeroBitCount >> 3
        return
      }
      i += 8
    }
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { return }
      i += 1
    }
  }

  /// A string starting at the opening quote.
  private mutating func string() throws(JSONSyntaxError) -> String {
    let quote = i
    if let plain = try plainString() {
      let s = String(decoding: plain, as: UTF8.self)
      if checkingStrings && !JSONReader.decodedUnchanged(plain, s) {
        throw JSONSyntaxError(reason: .invalidUTF8, offset: quote)
      }
      return s
    }
    var out: [UInt8] = []
    out.reserveCapacity(2 * (i - quote) + 16)
    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(quote + 1)..<i]))
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        i += 1
        let s = String(decoding: out, as: UTF8.self)
        if checkingStrings,
          !out.withUnsafeBufferPointer({ JSONReader.decodedUnchanged($0, s) })
        {
          throw JSONSyntaxError(reason: .invalidUTF8, offset: quote)
        }
        return s
      }
      if b < 0x20 { throw error("no control character inside a string (escape it)") }
      guard i + 1 < bytes.count else { throw error("an escape") }
      let e = bytes[i + 1]
      if e == UInt8(ascii: "u") {
        UTF8.encode(try unicodeEscape()) { out.append($0) }
      } else {
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        default: throw error("a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
        i += 2
      }
      // The bytes up to the next special one, as they are.
      let run = i
      skipOrdinaryBytes()
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
    }
    throw error("a closing quote")
  }

  /// Reads the object that fills `bytes` field by field without building it: `field` gets each
  /// key's bytes and the reader at its value, which it must consume with one of the readings
  /// below (``fieldValue()``, ``stringValue()``, ``numberValue()``, ``skipFieldValue()``, …).
  /// Key bytes are not checked for UTF-8: `field` matches them against the keys it knows (all
  /// valid) and returns false for any other. Returns false — nothing decided — when the line is
  /// not such an object, a key holds an escape, a string would need a repair, or `field`
  /// returns false: the caller then reads the line whole
  /// (``readObject(_:repairingSurrogates:)``), which gives the answer or the error. Records are
  /// read this way when nothing in them needs more.
  package static func readFields(
    _ bytes: UnsafeBufferPointer<UInt8>,
    _ field: (UnsafeBufferPointer<UInt8>, inout JSONReader) -> Bool
  ) -> Bool {
    var r = JSONReader(bytes, repairing: false)
    // (Every byte of a line that reads to the end is ASCII outside strings: checking the
    // strings as they are read checks the line.)
    r.checkingStrings = true
    r.skipSpace()
    guard r.i < bytes.count, bytes[r.i] == UInt8(ascii: "{") else { return false }
    r.i += 1
    r.depth = 1
    r.skipSpace()
    if r.i < bytes.count && bytes[r.i] == UInt8(ascii: "}") {
      r.i += 1
      r.skipSpace()
      return r.i == bytes.count
    }
    while true {
      r.skipSpace()
      guard r.i < bytes.count, bytes[r.i] == UInt8(ascii: "\""), let key = try? r.plainString()
      else { return false }
      r.skipSpace()
      guard r.i < bytes.count, bytes[r.i] == UInt8(ascii: ":") else { return false }
      r.i += 1
      r.skipSpace()
      guard r.i < bytes.count, field(key, &r) else { return false }
      r.skipSpace()
      guard r.i < bytes.count else { return false }
      if bytes[r.i] == UInt8(ascii: ",") {
        r.i += 1
        continue
      }
      guard bytes[r.i] == UInt8(ascii: "}") else { return false }
      r.i += 1
      r.skipSpace()
      return r.i == bytes.count
    }
  }

  /// The value at the reader, for ``readFields(_:_:)`` (nil: not valid JSON).
  package mutating func fieldValue() -> JSONValue? { try? value() }

  /// The string at the reader, for ``readFields(_:_:)`` (nil: not a string, or not a valid one).
  package mutating func stringValue() -> String? {
    guard bytes[i] == UInt8(ascii: "\"") else { return nil }
    return try? string()
  }

  /// The position in `names` of the string at the reader, for ``readFields(_:_:)`` (nil: not a
  /// string, or not one of them). A string without escapes is matched by its bytes.
  package mutating func stringPosition(in names: JSONKeySet) -> Int? {
    guard bytes[i] == UInt8(ascii: "\"") else { return nil }
    let quote = i
    if let plain = try? plainString() { return names.position(ofBytes: plain) }
    i = quote
    return (try? string()).flatMap { names.position(of: $0) }
  }

  /// Whether the value at the reader is `null`, moving past it if so (for ``readFields(_:_:)``).
  package mutating func skipNull() -> Bool {
    guard i + 4 <= bytes.count, bytes[i] == UInt8(ascii: "n"), bytes[i + 1] == UInt8(ascii: "u"),
      bytes[i + 2] == UInt8(ascii: "l"), bytes[i + 3] == UInt8(ascii: "l")
    else { return false }
    i += 4
    return true
  }

  /// The number at the reader, for ``readFields(_:_:)``; nil, the reader unmoved, when the value
  /// is not a number, and nil when it is not a valid one.
  package mutating func numberValue() -> Double? {
    let b = bytes[i]
    guard b == UInt8(ascii: "-") || b &- UInt8(ascii: "0") < 10 else { return nil }
    return try? number()
  }

  /// Moves past the value at the reader without keeping it, for ``readFields(_:_:)`` (false:
  /// not valid JSON).
  package mutating func skipFieldValue() -> Bool {
    if bytes[i] == UInt8(ascii: "\"") {
      let quote = i
      if let plain = try? plainString() {
        return !checkingStrings || UTF8Check.firstInvalid(plain) == nil
      }
      i = quote
    }
    return (try? value()) != nil
  }

  /// The bytes of the value at the reader, `[` to `]`, when it is a list of strings without
  /// escapes (valid UTF-8), moving past it: for ``readFields(_:_:)``'s callers that recognise a
  /// list by how it is written. Nil, the reader unmoved, for anything else.
  package mutating func plainStringList() -> UnsafeBufferPointer<UInt8>? {
    let start = i
    guard bytes[i] == UInt8(ascii: "[") else { return nil }
    i += 1
    skipSpace()
    if i < bytes.count && bytes[i] == UInt8(ascii: "]") {
      i += 1
      return UnsafeBufferPointer(rebasing: bytes[start..<i])
    }
    while true {
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let s = try? plainString(),
        UTF8Check.firstInvalid(s) == nil
      else { break }
      skipSpace()
      guard i < bytes.count else { break }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        skipSpace()
        continue
      }
      guard bytes[i] == UInt8(ascii: "]") else { break }
      i += 1
      return UnsafeBufferPointer(rebasing: bytes[start..<i])
    }
    i = start
    return nil
  }

  /// Whether `s`, decoded from `bytes`, holds them as they are: `bytes` were valid UTF-8.
  /// Decoding replaces anything invalid with U+FFFD (EF BF BD), so when neither side holds a
  /// 0xEF byte nothing was replaced (two `memchr` scans, not a second validation); otherwise
  /// the bytes are checked.
  static func decodedUnchanged(_ bytes: UnsafeBufferPointer<UInt8>, _ s: String) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    if memchr(base, 0xEF, bytes.count) == nil {
      var s = s
      return s.withUTF8 { $0.isEmpty || memchr($0.baseAddress!, 0xEF, $0.count) == nil }
    }
    return UTF8Check.firstInvalid(bytes) == nil
  }

  /// Whether any of the eight bytes of `w` is `"`, `\\` or below 0x20 (bytes of 0x80 and above
  /// are none of these).
  static func hasSpecialByte(_ w: UInt64) -> Bool { specialBytes(w) != 0 }

  /// A mask whose lowest set bit is the high bit of the first byte of `w` that is `"`, `\\` or
  /// below 0x20 (zero when there is none).
  static func specialBytes(_ w: UInt64) -> UInt64 {
    ByteWord.firstMatch(0x22, in: w) | ByteWord.firstMatch(0x5C, in: w)
      | ByteWord.firstByte(below: 0x20, in: w)
  }

  /// `\uXXXX` (a pair for characters beyond the BMP) at `i`; moves past it.
  private mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
    func hex(at k: Int) -> UInt32? {
      guard k + 4 <= bytes.count else { return nil }
      var v: UInt32 = 0
      for b in bytes[k..<k + 4] {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): v = v << 4 | UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): v = v << 4 | UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): v = v << 4 | UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
      }
      return v
    }
    guard let unit = hex(at: i + 2) else { throw error("four hex digits after \\u") }
    let written = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<i + 6]), as: UTF8.self)
    i += 6
    if (0xD800...0xDBFF).contains(unit), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
      bytes[i + 1] == UInt8(ascii: "u"), let low = hex(at: i + 2), (0xDC00...0xDFFF).contains(low)
    {
      i += 6
      return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
    }
    if (0xD800...0xDFFF).contains(unit) {
      guard repairing else {
        throw JSONSyntaxError(reason: .unpairedSurrogate(written), offset: i - 6)
      }
      if repairedEscape == nil { repairedEscape = written }
      return "\u{FFFD}"
    }
    return Unicode.Scalar(unit)!
  }

  private mutating func number() throws(JSONSyntaxError) -> Double {
    let start = i
    var negative = false
    if bytes[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    func digit(_ k: Int) -> UInt8? {
      guard k < bytes.count else { return nil }
      let d = bytes[k] &- UInt8(ascii: "0")
      return d < 10 ? d : nil
    }
    guard let first = digit(i) else { throw error("a digit") }
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    if first == 0 {
      i += 1
    } else {
      while let d = digit(i) {
        if digits < 19 {
          mantissa = mantissa * 10 + UInt64(d)
          digits += 1
        } else {
          exponent += 1
        }
        i += 1
      }
    }
    if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard digit(i) != nil else { throw error("a digit after the decimal point") }
      while let d = digit(i) {
        if digits < 19 {
          if mantissa != 0 || d != 0 { digits += 1 }
          mantissa = mantissa * 10 + UInt64(d)
          exponent -= 1
        }
        i += 1
      }
    }
    if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
      i += 1
      var sign = 1
      if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
        if bytes[i] == UInt8(ascii: "-") { sign = -1 }
        i += 1
      }
      guard digit(i) != nil else { throw error("a digit in the exponent") }
      var e = 0
      while let d = digit(i) {
        if e < 100_000 { e = e * 10 + Int(d) }
        i += 1
      }
      exponent += sign * e
    }
    // Exact when the digits fit a double's mantissa and the power of ten is exact (≤ 1e22).
    if mantissa < (1 << 53) && exponent >= -22 && exponent <= 22 {
      var v = Double(mantissa)
      if exponent < 0 { v /= JSONReader.powersOfTen[-exponent] } else if exponent > 0 {
        v *= JSONReader.powersOfTen[exponent]
      }
      return negative ? -v : v
    }
    let written = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
    guard let v = Double(written) else { throw error("a number") }
    guard v.isFinite else {
      throw JSONSyntaxError(reason: .numberOutOfRange(written), offset: start)
    }
    return v
  }

  private static let powersOfTen: [Double] = (0...22).map { k in
    var p = 1.0
    for _ in 0..<k { p *= 10 }
    return p
  }
}

/// Where UTF-8 text first goes wrong (overlong forms, surrogates and code points beyond
/// U+10FFFF are errors), checked before reading so that no string is silently repaired.
enum UTF8Check {
  static func firstInvalid(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = 0
    let n = b.count
    while i < n {
      // Eight ASCII bytes at a time (most of a record is ASCII).
      while i + 8 <= n,
        UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self)
          & 0x8080_8080_8080_8080 == 0
      {
        i += 8
      }
      guard i < n else { break }
      let c = b[i]
      if c < 0x80 {
        i += 1
        continue
      }
      func cont(_ k: Int) -> Bool { k < n && b[k] & 0xC0 == 0x80 }
      if c >= 0xC2 && c <= 0xDF {
        guard cont(i + 1) else { return i }
        i += 2
      } else if c >= 0xE0 && c <= 0xEF {
        guard cont(i + 1), cont(i + 2) else { return i }
        let c1 = b[i + 1]
        if c == 0xE0 && c1 < 0xA0 { return i }  // overlong
        if c == 0xED && c1 >= 0xA0 { return i }  // a surrogate
        i += 3
      } else if c >= 0xF0 && c <= 0xF4 {
        guard cont(i + 1), cont(i + 2), cont(i + 3) else { return i }
        let c1 = b[i + 1]
        if c == 0xF0 && c1 < 0x90 { return i }  // overlong
        if c == 0xF4 && c1 >= 0x90 { return i }  // beyond U+10FFFF
        i += 4
      } else {
        return i
      }
    }
    return nil
  }
}
