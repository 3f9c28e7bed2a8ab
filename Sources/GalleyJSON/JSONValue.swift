#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON value as Galley's records hold it: numbers as 64-bit floats, objects as their fields in
/// the order written (records have a few keys, so a lookup is a short scan).
package enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// What the value is, for error messages: "a string", "an object", …
  package var typeDescription: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  package var string: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  package var number: Double? {
    if case .number(let n) = self { return n }
    return nil
  }

  package var object: JSONObject? {
    if case .object(let o) = self { return o }
    return nil
  }

  package var array: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  package var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The value's text, compact (`JSONWriter`'s format).
  package var jsonText: String {
    var w = JSONWriter()
    w.value(self)
    return w.text
  }
}

/// A JSON object: its fields in the order written, keys unique (the reader rejects a repeated
/// key rather than keep one of the two silently).
package struct JSONObject: Sendable, Hashable, Sequence {
  package struct Field: Sendable, Hashable {
    package private(set) var key: String
    package var value: JSONValue
    /// The key's length and first bytes packed in one word: a lookup compares these first and
    /// strings only when they match.
    package let fingerprint: UInt64
    package init(key: String, value: JSONValue) {
      self.init(key: key, value: value, fingerprint: JSONObject.fingerprint(key))
    }
    init(key: String, value: JSONValue, fingerprint: UInt64) {
      self.key = key
      self.value = value
      self.fingerprint = fingerprint
    }
  }

  /// A key's length (high byte) and first seven UTF-8 bytes.
  static func fingerprint(_ key: String) -> UInt64 {
    var key = key
    return key.withUTF8 { fingerprint($0) }
  }

  /// The same from the key's bytes as written (the reader's keys without escapes).
  static func fingerprint(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let n = bytes.count
    let length = UInt64(Swift.min(n, 255)) << 56
    guard let p = bytes.baseAddress.map(UnsafeRawPointer.init) else { return length }
    if n >= 8 { return p.loadUnaligned(as: UInt64.self) & 0x00FF_FFFF_FFFF_FFFF | length }
    if n >= 4 {
      // (Two loads of four that overlap: the shared bytes are the same in both.)
      let low = UInt64(p.loadUnaligned(as: UInt32.self))
      let high = UInt64(p.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
      return low | high << (8 * (n - 4)) | length
    }
    var f: UInt64 = 0
    for k in 0..<n { f |= UInt64(bytes[k]) << (8 * k) }
    return f | length
  }

  /// The index of `key`'s field, if any.
  func index(of key: String) -> Int? {
    let f = JSONObject.fingerprint(key)
    return fields.withUnsafeBufferPointer { b in
      for i in b.indices where b[i].fingerprint == f && b[i].key == key { return i }
      return nil
    }
  }

  package private(set) var fields: [Field]

  package init(_ fields: [Field] = []) { self.fields = fields }

  /// An object from key/value pairs (later pairs replace earlier ones of the same key).
  package init(_ pairs: KeyValuePairs<String, JSONValue>) {
    fields = []
    for (k, v) in pairs { self[k] = v }
  }

  /// The value of `key`, nil when absent (a JSON `null` is `.null`).
  package subscript(key: String) -> JSONValue? {
    get { index(of: key).map { fields[$0].value } }
    set {
      if let i = index(of: key) {
        if let newValue { fields[i].value = newValue } else { fields.remove(at: i) }
      } else if let newValue {
        fields.append(Field(key: key, value: newValue))
      }
    }
  }

  package var keys: [String] { fields.map(\.key) }
  package var count: Int { fields.count }
  package func contains(_ key: String) -> Bool { index(of: key) != nil }
  package func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

  /// The object's text, keys in order, compact (`JSONWriter`'s format).
  package var jsonText: String { JSONValue.object(self).jsonText }
}

// Literals, for records written in code (tests, examples).
extension JSONObject: ExpressibleByDictionaryLiteral {
  package init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init()
    for (k, v) in elements { self[k] = v }
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  package init(stringLiteral value: String) { self = .string(value) }
  package init(floatLiteral value: Double) { self = .number(value) }
  package init(integerLiteral value: Int) { self = .number(Double(value)) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  package init(dictionaryLiteral elements: (String, JSONValue)...) {
    var o = JSONObject()
    for (k, v) in elements { o[k] = v }
    self = .object(o)
  }
  package init(nilLiteral: ()) { self = .null }
}

/// The keys a record allows, for the check that names an unknown field and for finding a
/// key's place in the record's own list: an open-addressing table by key fingerprint, then one
/// comparison of the key (no hashing per key).
package struct JSONKeySet: Sendable {
  private struct Entry: Sendable {
    var fingerprint: UInt64
    /// Bytes 7 to 14 and the last eight bytes of the key (zero when it is shorter): with the
    /// fingerprint, every byte of a key up to 23 bytes long, compared a word at a time.
    var middle: UInt64
    var last: UInt64
    var key: String
    var position: Int
  }
  private let entries: [Entry]
  /// Entry indices by fingerprint (-1: empty), at most half full.
  private let slots: [Int16]

  /// The set of `keys`; a key's position is its index in `keys` (the first, if repeated).
  package init(_ keys: some Sequence<String>) {
    self.init(positioned: keys.map { Optional($0) })
  }

  /// The set of the keys in `keys` that are not nil, each at its index in `keys`.
  package init(positioned keys: [String?]) {
    var seen = Set<String>()
    var list: [Entry] = []
    for (k, key) in keys.enumerated() {
      guard let key, seen.insert(key).inserted else { continue }
      let bytes = Array(key.utf8)
      func word(at offset: Int) -> UInt64 {
        guard offset >= 0, offset + 8 <= bytes.count else { return 0 }
        return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
      }
      list.append(
        Entry(
          fingerprint: JSONObject.fingerprint(key), middle: word(at: 7),
          last: word(at: bytes.count - 8), key: key, position: k))
    }
    entries = list
    var size = 8
    while size < 2 * list.count { size *= 2 }
    var table = [Int16](repeating: -1, count: size)
    for (e, entry) in list.enumerated() {
      var slot = JSONKeySet.slot(entry.fingerprint, mask: size - 1)
      while table[slot] >= 0 { slot = (slot + 1) & (size - 1) }
      table[slot] = Int16(e)
    }
    slots = table
  }

  /// The position of the first entry with `fingerprint` for which `same` holds, if any.
  private func find(_ fingerprint: UInt64, _ same: (Entry) -> Bool) -> Int? {
    entries.withUnsafeBufferPointer { entries in
      slots.withUnsafeBufferPointer { slots in
        let mask = slots.count - 1
        var slot = JSONKeySet.slot(fingerprint, mask: mask)
        while true {
          let e = Int(slots[slot])
          if e < 0 { return nil }
          if entries[e].fingerprint == fingerprint && same(entries[e]) {
            return entries[e].position
          }
          slot = (slot + 1) & mask
        }
      }
    }
  }

  /// The position of `field`'s key, nil when the set does not hold it.
  package func position(of field: JSONObject.Field) -> Int? {
    find(field.fingerprint) { $0.key == field.key }
  }

  /// The position of the key written as `bytes` (UTF-8, no escapes), nil when not in the set.
  package func position(ofBytes bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    // (Equal fingerprints: equal lengths and first seven bytes.)
    let n = bytes.count
    return find(JSONObject.fingerprint(bytes)) { e in
      if n <= 7 { return true }
      let p = UnsafeRawPointer(bytes.baseAddress!)
      guard p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == e.last else { return false }
      if n <= 15 { return true }
      if n <= 23 { return p.loadUnaligned(fromByteOffset: 7, as: UInt64.self) == e.middle }
      var key = e.key
      return key.withUTF8 { memcmp($0.baseAddress!, bytes.baseAddress!, n) == 0 }
    }
  }

  /// Where a fingerprint's search starts in `slots`.
  private static func slot(_ fingerprint: UInt64, mask: Int) -> Int {
    Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
  }

  /// The position of `key`, nil when the set does not hold it.
  package func position(of key: String) -> Int? {
    position(of: JSONObject.Field(key: key, value: .null))
  }

  package func contains(_ field: JSONObject.Field) -> Bool { position(of: field) != nil }

  package func contains(_ key: String) -> Bool { position(of: key) != nil }

  /// The first field of `object` not in the set, if any.
  package func firstUnknown(in object: JSONObject) -> String? {
    object.fields.withUnsafeBufferPointer { b in
      for i in b.indices where !contains(b[i]) { return b[i].key }
      return nil
    }
  }
}
