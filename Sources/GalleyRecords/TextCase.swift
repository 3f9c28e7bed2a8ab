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
    try self.init(try CaseValues(CaseFields(object, allowed: CaseKey.caseKeys)), library: library)
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

  /// The case of a line that reads without surprises (see
  /// ``CaseValues/init(plainLine:library:newSpelling:)``), read straight from its bytes; nil
  /// for anything else, which ``init(json:library:)`` then reads and names.
  package init?(plainLine line: UnsafeBufferPointer<UInt8>, library: FontLibrary) {
    var newSpelling: UnsafeBufferPointer<UInt8>? = nil
    // (A case without an id is read whole: its error records must say it has none.)
    guard let values = CaseValues(plainLine: line, library: library, newSpelling: &newSpelling),
      values.id != nil
    else { return nil }
    do { try self.init(values, library: library) } catch { return nil }
    if let newSpelling, let fontNames {
      FontSpellings.of(library).note(newSpelling, of: fontNames, style.fonts)
    }
  }

  private init(_ values: CaseValues, library: FontLibrary) throws {
    id = values.id ?? ""
    guard let text = values.text else { throw CaseError.missingField("text") }
    self.text = text
    guard let width = values.width else { throw CaseError.missingField("width") }
    self.width = width
    let stack: FontStack
    if let known = values.knownFonts {
      (fontNames, stack) = known
    } else {
      fontNames = values.fontNames
      stack = try TextCase.fontStack(fontNames, library: library)
    }
    var style = TextStyle(fonts: stack, size: 17)
    try values.apply(to: &style)
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
  case fonts, size, lineHeight, whiteSpace, wordBreak, overflowWrap, lang, direction, maxLines
  case truncation, letterSpacing, tabSize, features, profile, minimumLineHeight
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

  /// The JSON a field holds.
  enum Kind {
    /// A string.
    case string
    /// A number.
    case number
    /// A whole number below a billion in size.
    case integer
    /// One of a list of names (``CaseKey/names``), a string.
    case name
    /// A non-empty list of font file names.
    case fonts
    /// `"normal"` or a number (points).
    case lineHeight
    /// An object of four-letter OpenType feature tags to whole numbers.
    case features
    /// Anything: a label, carried and never read.
    case label
  }

  var kind: Kind {
    switch self {
    case .id, .text, .lang: .string
    case .width, .size, .letterSpacing, .minimumLineHeight, .maximumLineHeight, .lineSpacing:
      .number
    case .maxLines, .tabSize: .integer
    case .whiteSpace, .wordBreak, .overflowWrap, .truncation, .direction, .profile: .name
    case .fonts: .fonts
    case .lineHeight: .lineHeight
    case .features: .features
    case .category, .sub, .script, .source, .uncovered, .approx, .note, .tags: .label
    }
  }

  /// For fields that name one of a list (the style's enumerations): those names, as strings and
  /// as a key set to find them by their bytes.
  static let names: [(strings: [String], set: JSONKeySet)?] = allCases.map { key in
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
    assert((names != nil) == (key.kind == .name))
    return names.map { ($0, JSONKeySet($0)) }
  }

  /// `lineHeight`'s one name.
  static let normal = JSONKeySet(["normal"])

  /// Every key of a case, at its position.
  static let caseKeys = JSONKeySet(allCases.map(\.name))
  /// The keys a style object (a cell's `"style"`) may have: a case's style fields.
  static let styleKeys = JSONKeySet(
    positioned: allCases.map {
      $0 == .id || $0 == .text || $0 == .width || $0.kind == .label ? nil : $0.name
    })
}

/// The values of a case's fields by key, from an object checked against the keys it may have
/// (for the whole-object reading; a plain line is read without it).
struct CaseFields: FieldSource {
  private var values = [JSONValue?](repeating: nil, count: CaseKey.allCases.count)

  /// The fields of `object`; its first key not in `allowed` is an error.
  init(_ object: JSONObject, allowed: JSONKeySet) throws {
    for field in object {
      guard let p = allowed.position(of: field) else { throw CaseError.unknownField(field.key) }
      values[p] = field.value
    }
  }

  func value(_ key: CaseKey) -> JSONValue? { values[key.rawValue] }
  func name(_ key: CaseKey) -> String { key.name }
}

/// Typed access to a case's fields.
typealias CaseFieldReader = FieldReader<CaseFields, CaseError>

extension TextCase {
  /// A style from a JSON object such as a cell's `"style"`: `fonts` resolve in `library` (absent:
  /// the default stack), `size` defaults to `defaultSize`; unknown fields are errors.
  package static func style(
    from object: JSONObject, library: FontLibrary, defaultSize: Double = 17
  ) throws -> TextStyle {
    let values = try CaseValues(CaseFields(object, allowed: CaseKey.styleKeys))
    var style = TextStyle(fonts: try fontStack(values.fontNames, library: library), size: defaultSize)
    try values.apply(to: &style)
    return style
  }
}
