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

  /// Decodes a case from one JSON object. Font names resolve in `library`; a case without `fonts`
  /// uses the library's default stack.
  /// - Throws: ``CaseError`` naming the field.
  package init(json object: JSONObject, library: FontLibrary) throws {
    try self.init(try CaseFields(object, allowed: CaseKey.caseKeys), library: library)
  }

  /// Decodes a case from one line of JSON (the one reader: GalleyJSON).
  /// - Throws: ``CaseError`` naming the field, or the JSON syntax error.
  package init(jsonLine: some Collection<UInt8>, library: FontLibrary) throws {
    if let c = jsonLine.withContiguousStorageIfAvailable({ TextCase(plainLine: $0, library: library) }),
      let c
    {
      self = c
      return
    }
    try self.init(json: JSONReader.readObject(jsonLine).object, library: library)
  }

  /// The case of a line that reads without surprises — an object of known, distinct keys
  /// without escapes, values that make a valid case — read field by field without building
  /// the object; nil for anything else, which ``init(json:library:)`` then reads and names.
  package init?(plainLine line: UnsafeBufferPointer<UInt8>, library: FontLibrary) {
    var fields = CaseFields()
    // The `fonts` list as written, when its stack is not among the recent ones by that spelling.
    var newSpelling: UnsafeBufferPointer<UInt8>? = nil
    let read = JSONReader.readFields(line) { key, reader in
      guard let k = CaseKey.caseKeys.position(ofBytes: key).map({ CaseKey(rawValue: $0)! }),
        !fields.seen(k)
      else { return false }
      if k.isLabel { return reader.skipFieldValue() }
      if k == .fonts, let spelling = reader.plainStringList() {
        if let known = library.recentStack(spelledAs: spelling) {
          fields.knownFonts = known
          return true
        }
        guard let v = try? JSONReader.read(spelling, repairingSurrogates: false).value else {
          return false
        }
        fields[k] = v
        newSpelling = spelling
        return true
      }
      let value =
        if let known = CaseKey.knownStrings[k.rawValue] {
          reader.fieldValue(known: known.keys, values: known.values)
        } else {
          reader.fieldValue()
        }
      guard let v = value else { return false }
      fields[k] = v
      return true
    }
    // (A case without an id is read whole: its error records must say it has none.)
    guard read, fields[.id]?.string != nil, let c = try? TextCase(fields, library: library)
    else { return nil }
    if let newSpelling, let names = c.fontNames {
      library.noteSpelling(newSpelling, of: names, c.style.fonts)
    }
    self = c
  }

  private init(_ fields: CaseFields, library: FontLibrary) throws {
    let reader = CaseFieldReader(fields, CaseError.self)
    id = try reader.string(.id) ?? ""
    guard let text = try reader.string(.text) else { throw CaseError.missingField("text") }
    self.text = text
    guard let width = try reader.number(.width) else { throw CaseError.missingField("width") }
    self.width = width
    let size = try reader.number(.size) ?? 17
    let stack: FontStack
    if let known = fields.knownFonts {
      (fontNames, stack) = known
    } else {
      fontNames = try reader.stringArray(.fonts)
      stack = try TextCase.fontStack(fontNames, library: library)
    }
    var style = TextStyle(fonts: stack, size: size)
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
      throw CaseError.font(e)
    }
  }

  static func applyStyleFields(_ reader: CaseFieldReader, to style: inout TextStyle) throws {
    if let size = try reader.number(.size) { style.size = size }
    if let v = reader.raw(.lineHeight) {
      switch v {
      case .string(let s):
        guard s == "normal" else { throw CaseError.invalidValue("lineHeight", "\"\(s)\"") }
        style.lineHeight = .normal
      case .number(let n): style.lineHeight = .points(n)
      default: throw CaseError.wrongType("lineHeight", "\"normal\" or a number")
      }
    }
    if let v = try reader.enumValue(.whiteSpace, TextStyle.WhiteSpace.self) {
      style.whiteSpace = v
    }
    if let v = try reader.enumValue(.wordBreak, TextStyle.WordBreak.self) { style.wordBreak = v }
    if let v = try reader.enumValue(.overflowWrap, TextStyle.OverflowWrap.self) {
      style.overflowWrap = v
    }
    if let v = try reader.string(.lang) { style.language = v }
    if let v = try reader.integer(.maxLines) { style.maxLines = v }
    if let v = try reader.enumValue(.truncation, TextStyle.Truncation.self) {
      style.truncation = v
    }
    if let v = try reader.number(.letterSpacing) { style.letterSpacing = v }
    if let v = try reader.integer(.tabSize) { style.tabSize = v }
    if let v = try reader.enumValue(.direction, TextStyle.Direction.self) { style.direction = v }
    if let v = try reader.enumValue(.profile, TextStyle.Profile.self) { style.profile = v }
    if let v = try reader.number(.minimumLineHeight) { style.minimumLineHeight = v }
    if let v = try reader.number(.maximumLineHeight) { style.maximumLineHeight = v }
    if let v = try reader.number(.lineSpacing) { style.lineSpacing = v }
    if let v = reader.raw(.features) {
      guard case .object(let dict) = v else {
        throw CaseError.wrongType("features", "an object of tag: number")
      }
      var features: [FeatureTag: UInt32] = [:]
      for field in dict {
        let k = field.key
        guard k.utf8.count == 4, let tag = FeatureTag(validating: k), let n = field.value.number, n >= 0,
          n == n.rounded(), n <= Double(UInt32.max)
        else {
          throw CaseError.invalidValue(
            "features.\(k)", "a 4-letter tag with a whole number from 0 to \(UInt32.max)")
        }
        features[tag] = UInt32(n)
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
  /// The font stack named cannot be used: the engine's error, with its case.
  case font(TypesettingError)
  /// A style whose values are each well formed but together or in range invalid.
  case invalidStyle(String)

  /// The error as one line of text.
  package var description: String {
    switch self {
    case .unknownField(let f): return "unknown field \"\(f)\""
    case .missingField(let f): return "missing field \"\(f)\""
    case .wrongType(let f, let expected): return "field \"\(f)\" must be \(expected)"
    case .invalidValue(let f, let got): return "field \"\(f)\" has an invalid value: \(got)"
    case .font(let e): return e.description
    case .invalidStyle(let message): return message
    }
  }
}

/// The fields of the case format, in the order of docs/CASE-FORMAT.md: the style fields a
/// style object may have too, then the labels a case carries for reports and nothing else.
enum CaseKey: Int, CaseIterable {
  case id, text, width
  case fonts, size, lineHeight, whiteSpace, wordBreak, overflowWrap, lang, maxLines, truncation
  case letterSpacing, tabSize, direction, profile, features, minimumLineHeight
  case maximumLineHeight, lineSpacing
  case category, sub, script, source, uncovered, approx, note, tags

  /// The key as written.
  var name: String {
    switch self {
    case .id: "id"
    case .text: "text"
    case .width: "width"
    case .fonts: "fonts"
    case .size: "size"
    case .lineHeight: "lineHeight"
    case .whiteSpace: "whiteSpace"
    case .wordBreak: "wordBreak"
    case .overflowWrap: "overflowWrap"
    case .lang: "lang"
    case .maxLines: "maxLines"
    case .truncation: "truncation"
    case .letterSpacing: "letterSpacing"
    case .tabSize: "tabSize"
    case .direction: "direction"
    case .profile: "profile"
    case .features: "features"
    case .minimumLineHeight: "minimumLineHeight"
    case .maximumLineHeight: "maximumLineHeight"
    case .lineSpacing: "lineSpacing"
    case .category: "category"
    case .sub: "sub"
    case .script: "script"
    case .source: "source"
    case .uncovered: "uncovered"
    case .approx: "approx"
    case .note: "note"
    case .tags: "tags"
    }
  }

  /// A label: carried, never read.
  var isLabel: Bool { rawValue >= CaseKey.category.rawValue }

  /// For fields whose values are names from a list (the style's enumerations): those names,
  /// read without decoding a string each time.
  static let knownStrings: [(keys: JSONKeySet, values: [JSONValue])?] = allCases.map { key in
    let names: [String]? =
      switch key {
      case .whiteSpace: TextStyle.WhiteSpace.allCases.map(\.rawValue)
      case .wordBreak: TextStyle.WordBreak.allCases.map(\.rawValue)
      case .overflowWrap: TextStyle.OverflowWrap.allCases.map(\.rawValue)
      case .truncation: TextStyle.Truncation.allCases.map(\.rawValue)
      case .direction: TextStyle.Direction.allCases.map(\.rawValue)
      case .profile: TextStyle.Profile.allCases.map(\.rawValue)
      default: nil
      }
    return names.map { (JSONKeySet($0), $0.map { JSONValue.string($0) }) }
  }

  /// Every key of a case, at its position.
  static let caseKeys = JSONKeySet(allCases.map(\.name))
  /// The keys a style object (a cell's `"style"`) may have: a case's style fields.
  static let styleKeys = JSONKeySet(
    positioned: allCases.map { $0 == .id || $0 == .text || $0 == .width || $0.isLabel ? nil : $0.name })
}

/// The values of a case's fields by key (`null` reads as absent), from an object checked
/// against the keys it may have. Only the fields present are stored (a case has a dozen of
/// the format's 28).
struct CaseFields: FieldSource {
  private var slot = SIMD32<Int8>(repeating: -1)
  private var values: [JSONValue] = []
  private var seenKeys: UInt64 = 0
  /// The names and stack of the `fonts` field when they were known without decoding it (a
  /// spelling the library met before); the field is then not among the values.
  var knownFonts: (names: [String], stack: FontStack)? = nil

  init() {
    assert(CaseKey.allCases.count <= 32, "CaseFields keeps a slot per key in 32 lanes")
    values.reserveCapacity(16)
  }

  /// The fields of `object`; its first key not in `allowed` is an error.
  init(_ object: JSONObject, allowed: JSONKeySet) throws {
    values.reserveCapacity(object.count)
    for field in object {
      guard let p = allowed.position(of: field) else { throw CaseError.unknownField(field.key) }
      self[CaseKey(rawValue: p)!] = field.value
    }
  }

  func value(_ key: CaseKey) -> JSONValue? { self[key] }
  func name(_ key: CaseKey) -> String { key.name }

  /// Whether `key` was read already; marks it read.
  mutating func seen(_ key: CaseKey) -> Bool {
    defer { seenKeys |= 1 << key.rawValue }
    return seenKeys & (1 << key.rawValue) != 0
  }

  subscript(key: CaseKey) -> JSONValue? {
    get {
      let k = slot[key.rawValue]
      return k < 0 ? Optional.none : values[Int(k)]
    }
    set {
      guard let newValue else { return }
      let k = slot[key.rawValue]
      if k >= 0 {
        values[Int(k)] = newValue
      } else {
        slot[key.rawValue] = Int8(values.count)
        values.append(newValue)
      }
    }
  }
}

/// Typed access to a case's fields.
typealias CaseFieldReader = FieldReader<CaseFields, CaseError>

extension TextCase {
  /// A style from a JSON object such as a cell's `"style"`: `fonts` resolve in `library` (absent:
  /// the default stack), `size` defaults to `defaultSize`; unknown fields are errors.
  package static func style(
    from object: JSONObject, library: FontLibrary, defaultSize: Double = 17
  ) throws -> TextStyle {
    let reader = CaseFieldReader(try CaseFields(object, allowed: CaseKey.styleKeys), CaseError.self)
    let stack = try fontStack(try reader.stringArray(.fonts), library: library)
    var style = TextStyle(fonts: stack, size: defaultSize)
    try applyStyleFields(reader, to: &style)
    return style
  }
}
