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
}

/// A JSON object: its fields in the order written, keys unique (the reader rejects a repeated
/// key rather than keep one of the two silently).
package struct JSONObject: Sendable, Hashable, Sequence {
  package struct Field: Sendable, Hashable {
    package var key: String
    package var value: JSONValue
    package init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
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
    get {
      // (Borrowed through the buffer: iterating `fields` would copy, retain and release each.)
      fields.withUnsafeBufferPointer { b in
        for i in b.indices where b[i].key == key { return b[i].value }
        return nil
      }
    }
    set {
      if let i = fields.firstIndex(where: { $0.key == key }) {
        if let newValue { fields[i].value = newValue } else { fields.remove(at: i) }
      } else if let newValue {
        fields.append(Field(key: key, value: newValue))
      }
    }
  }

  package var keys: [String] { fields.map(\.key) }
  package var count: Int { fields.count }
  package func contains(_ key: String) -> Bool {
    fields.withUnsafeBufferPointer { b in b.contains { $0.key == key } }
  }
  package func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

  /// The object's text, keys in order, compact (`JSONWriter`'s format).
  package var jsonText: String {
    var w = JSONWriter()
    w.value(.object(self))
    return w.text
  }
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
