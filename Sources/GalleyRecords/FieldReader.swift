import GalleyJSON
import SelfSizing

/// An error that names a record's field, in the words of its record format (text cases say
/// ``CaseError``, cells ``CellError``).
protocol FieldError: Error {
  static func wrongType(_ field: String, _ expected: String) -> Self
  static func invalidValue(_ field: String, _ why: String) -> Self
}

extension CaseError: FieldError {}
extension CellError: FieldError {}

/// Where a record's field values come from: the value under a key (nil when absent) and the
/// key's name as an error writes it.
protocol FieldSource {
  associatedtype Key
  func value(_ key: Key) -> JSONValue?
  func name(_ key: Key) -> String
}

/// Typed reading of a record's fields, one rule for every record format: `null` reads as
/// absent, and a value of another type is a `wrongType` error naming the field.
struct FieldReader<Source: FieldSource, Failure: FieldError> {
  let source: Source

  init(_ source: Source, _: Failure.Type) { self.source = source }

  func raw(_ key: Source.Key) -> JSONValue? {
    guard let v = source.value(key), !v.isNull else { return nil }
    return v
  }

  func string(_ key: Source.Key) throws -> String? {
    guard let v = raw(key) else { return nil }
    guard case .string(let s) = v else { throw Failure.wrongType(source.name(key), "a string") }
    return s
  }

  func number(_ key: Source.Key) throws -> Double? {
    guard let v = raw(key) else { return nil }
    guard case .number(let n) = v else { throw Failure.wrongType(source.name(key), "a number") }
    // (The JSON reader gives finite numbers only; a value built otherwise is checked here.)
    guard n.isFinite else { throw Failure.invalidValue(source.name(key), "must be finite") }
    return n
  }

  func integer(_ key: Source.Key) throws -> Int? {
    guard let n = try number(key) else { return nil }
    guard let whole = n.wholeNumber else {
      throw Failure.wrongType(source.name(key), "a whole number")
    }
    return whole
  }

  func object(_ key: Source.Key) throws -> JSONObject? {
    guard let v = raw(key) else { return nil }
    guard case .object(let o) = v else { throw Failure.wrongType(source.name(key), "an object") }
    return o
  }

  func stringArray(_ key: Source.Key) throws -> [String]? {
    guard let v = raw(key) else { return nil }
    guard case .array(let a) = v else {
      throw Failure.wrongType(source.name(key), "a list of strings")
    }
    var out: [String] = []
    out.reserveCapacity(a.count)
    for e in a {
      guard case .string(let s) = e else {
        throw Failure.wrongType(source.name(key), "a list of strings")
      }
      out.append(s)
    }
    return out
  }

  /// The index in `names` of the string under `key` (a field that names one of a list).
  func nameIndex(_ key: Source.Key, among names: [String]) throws -> Int? {
    guard let s = try string(key) else { return nil }
    guard let index = names.firstIndex(of: s) else {
      let allowed = names.map { "\"\($0)\"" }.joined(separator: ", ")
      throw Failure.invalidValue(source.name(key), "\"\(s)\" (expected one of \(allowed))")
    }
    return index
  }
}

/// The fields of a JSON object found by key, named in errors after the path to the object
/// (`minSize.width`).
struct ObjectFields: FieldSource {
  let object: JSONObject
  let path: String

  init(_ object: JSONObject, path: String = "") {
    self.object = object
    self.path = path
  }

  func value(_ key: String) -> JSONValue? { object[key] }
  func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}

extension Double {
  /// The number as a whole number of the record formats (below a billion in size), nil when it
  /// is not one.
  var wholeNumber: Int? {
    guard isFinite, self == rounded(), abs(self) < 1e9 else { return nil }
    return Int(self)
  }
}
