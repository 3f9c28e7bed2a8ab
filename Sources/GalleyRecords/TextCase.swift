import CompositionalLayout
import Foundation
import GalleyJSON
import Geometry
import SelfSizing
import Typesetting

/// One measurement request in the JSON Lines case format (docs/CASE-FORMAT.md): a text, a
/// style and a width. Unknown fields and wrong types are errors; labels (`category`, `sub`,
/// `script`, `source`, …) are carried but not used.
package struct TextCase: Sendable {
  /// The case's identifier.
  package var id: String
  /// The text to measure.
  package var text: String
  /// The font names given, if any (nil: the default stack).
  package var fontNames: [String]?
  /// The available width, points.
  package var width: Double
  /// The style built from the case's fields.
  package var style: TextStyle

  /// Fields that only label a case for reports.
  package static let labelFields: Set<String> = [
    "category", "sub", "script", "source", "uncovered", "approx", "note", "tags",
  ]
  /// Every field the format defines.
  package static let styleFields: Set<String> = [
    "id", "text", "fonts", "size", "width", "lineHeight", "whiteSpace", "wordBreak", "overflowWrap",
    "lang", "maxLines", "truncation", "letterSpacing", "tabSize", "direction", "profile",
    "features",
    "minimumLineHeight", "maximumLineHeight", "lineSpacing",
  ]

  /// Every field a case may have.
  static let caseFields = JSONKeySet(styleFields.union(labelFields))

  /// Decodes a case from one JSON object. Font names resolve in `library`; a case without `fonts`
  /// uses the library's default stack.
  /// - Throws: ``CaseError`` naming the field.
  package init(json object: JSONObject, library: FontLibrary) throws {
    if let unknown = TextCase.caseFields.firstUnknown(in: object) {
      throw CaseError.unknownField(unknown)
    }
    let reader = FieldReader(object)
    id = try reader.string("id") ?? ""
    guard let text = try reader.string("text") else { throw CaseError.missingField("text") }
    self.text = text
    guard let width = try reader.number("width") else { throw CaseError.missingField("width") }
    self.width = width
    let size = try reader.number("size") ?? 17
    fontNames = try reader.stringArray("fonts")
    var style = TextStyle(fonts: try TextCase.fontStack(fontNames, library: library), size: size)
    try TextCase.applyStyleFields(reader, to: &style)
    self.style = style
  }

  /// The stack named by a `fonts` field (absent: the library's default stack).
  static func fontStack(_ names: [String]?, library: FontLibrary) throws -> FontStack {
    do {
      guard let names else { return try library.defaultStack() }
      guard !names.isEmpty else { throw CaseError.invalidValue("fonts", "an empty list") }
      return try library.stack(names)
    } catch let e as TypesettingError {
      throw CaseError.font(e.description)
    }
  }

  /// Decodes a case from one line of JSON (the one reader: GalleyJSON).
  /// - Throws: ``CaseError`` naming the field, or the JSON syntax error.
  package init(jsonLine: some Collection<UInt8>, library: FontLibrary) throws {
    try self.init(json: JSONReader.readObject(jsonLine).object, library: library)
  }

  static func applyStyleFields(_ reader: FieldReader, to style: inout TextStyle) throws {
    if let size = try reader.number("size") { style.size = size }
    if let v = reader.raw("lineHeight") {
      switch v {
      case .string(let s):
        guard s == "normal" else { throw CaseError.invalidValue("lineHeight", "\"\(s)\"") }
        style.lineHeight = .normal
      case .number(let n): style.lineHeight = .points(n)
      default: throw CaseError.wrongType("lineHeight", "\"normal\" or a number")
      }
    }
    if let v = try reader.enumValue("whiteSpace", TextStyle.WhiteSpace.self) {
      style.whiteSpace = v
    }
    if let v = try reader.enumValue("wordBreak", TextStyle.WordBreak.self) { style.wordBreak = v }
    if let v = try reader.enumValue("overflowWrap", TextStyle.OverflowWrap.self) {
      style.overflowWrap = v
    }
    if let v = try reader.string("lang") { style.language = v }
    if let v = try reader.integer("maxLines") { style.maxLines = v }
    if let v = try reader.enumValue("truncation", TextStyle.Truncation.self) {
      style.truncation = v
    }
    if let v = try reader.number("letterSpacing") { style.letterSpacing = v }
    if let v = try reader.integer("tabSize") { style.tabSize = v }
    if let v = try reader.enumValue("direction", TextStyle.Direction.self) { style.direction = v }
    if let v = try reader.enumValue("profile", TextStyle.Profile.self) { style.profile = v }
    if let v = try reader.number("minimumLineHeight") { style.minimumLineHeight = v }
    if let v = try reader.number("maximumLineHeight") { style.maximumLineHeight = v }
    if let v = try reader.number("lineSpacing") { style.lineSpacing = v }
    if let v = reader.raw("features") {
      guard case .object(let dict) = v else {
        throw CaseError.wrongType("features", "an object of tag: number")
      }
      var features: [String: UInt32] = [:]
      for field in dict {
        let k = field.key
        guard k.utf8.count == 4, let n = field.value.number, n >= 0, n == n.rounded(),
          n <= Double(UInt32.max)
        else {
          throw CaseError.invalidValue(
            "features.\(k)", "a 4-letter tag with a whole number from 0 to \(UInt32.max)")
        }
        features[k] = UInt32(n)
      }
      style.features = features
    }
    do {
      try style.validate()
    } catch let e as TypesettingError {
      // (A value out of range: the style as a whole, not its fonts.)
      throw CaseError.invalidStyle(e.description)
    }
  }
}

/// Why a JSON case or cell could not be used.
package enum CaseError: Error, Equatable, Sendable, CustomStringConvertible {
  case unknownField(String)
  case missingField(String)
  case wrongType(String, String)
  case invalidValue(String, String)
  case font(String)
  /// A style whose values are each well formed but together or in range invalid.
  case invalidStyle(String)

  /// The error as one line of text.
  package var description: String {
    switch self {
    case .unknownField(let f): return "unknown field \"\(f)\""
    case .missingField(let f): return "missing field \"\(f)\""
    case .wrongType(let f, let expected): return "field \"\(f)\" must be \(expected)"
    case .invalidValue(let f, let got): return "field \"\(f)\" has an invalid value: \(got)"
    case .font(let message): return message
    case .invalidStyle(let message): return message
    }
  }
}

/// Typed access to the fields of a JSON object, with errors that name the field (`null` reads
/// as absent).
struct FieldReader {
  let object: JSONObject
  init(_ object: JSONObject) { self.object = object }

  func raw(_ key: String) -> JSONValue? {
    guard let v = object[key], !v.isNull else { return nil }
    return v
  }

  func string(_ key: String) throws -> String? {
    guard let v = raw(key) else { return nil }
    guard case .string(let s) = v else { throw CaseError.wrongType(key, "a string") }
    return s
  }

  func number(_ key: String) throws -> Double? {
    guard let v = raw(key) else { return nil }
    guard case .number(let n) = v else { throw CaseError.wrongType(key, "a number") }
    return n
  }

  func integer(_ key: String) throws -> Int? {
    guard let n = try number(key) else { return nil }
    guard n.isFinite, n == n.rounded(), abs(n) < 1e9 else {
      throw CaseError.wrongType(key, "a whole number")
    }
    return Int(n)
  }

  func stringArray(_ key: String) throws -> [String]? {
    guard let v = raw(key) else { return nil }
    guard case .array(let a) = v else { throw CaseError.wrongType(key, "a list of strings") }
    var out: [String] = []
    out.reserveCapacity(a.count)
    for e in a {
      guard case .string(let s) = e else { throw CaseError.wrongType(key, "a list of strings") }
      out.append(s)
    }
    return out
  }

  func enumValue<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) throws -> E?
  where E.RawValue == String {
    guard let s = try string(key) else { return nil }
    guard let v = E(rawValue: s) else {
      let allowed = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw CaseError.invalidValue(key, "\"\(s)\" (expected one of \(allowed))")
    }
    return v
  }
}

extension TextCase {
  /// Fields a style object may have (a case's style fields, without `id`, `text` and `width`).
  package static let styleObjectFields: Set<String> = styleFields.subtracting([
    "id", "text", "width",
  ])
  static let styleObjectKeys = JSONKeySet(styleObjectFields)

  /// A style from a JSON object such as a cell's `"style"`: `fonts` resolve in `library` (absent:
  /// the default stack), `size` defaults to `defaultSize`; unknown fields are errors.
  package static func style(
    from object: JSONObject, library: FontLibrary, defaultSize: Double = 17
  ) throws -> TextStyle {
    if let unknown = styleObjectKeys.firstUnknown(in: object) {
      throw CaseError.unknownField(unknown)
    }
    let reader = FieldReader(object)
    let stack = try fontStack(try reader.stringArray("fonts"), library: library)
    var style = TextStyle(fonts: stack, size: defaultSize)
    try applyStyleFields(reader, to: &style)
    return style
  }
}
