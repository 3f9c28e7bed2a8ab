import GalleyJSON
import Typesetting

/// A case's fields as typed values (nil: absent), whichever reader found them. What JSON type a
/// field holds is decided once (``CaseKey/kind``), where each value goes once (the `set`
/// methods), and what the values make once (``apply(to:)`` and `TextCase`'s reading).
struct CaseValues {
  var id: String?
  var text: String?
  var width: Double?
  /// The `fonts` field's names, when they were decoded.
  var fontNames: [String]?
  /// The names and stack of the `fonts` field when they were known without decoding it (a
  /// spelling the library met before).
  var knownFonts: (names: [String], stack: FontStack)?
  var size: Double?
  var lineHeight: TextStyle.LineHeight?
  var whiteSpace: TextStyle.WhiteSpace?
  var wordBreak: TextStyle.WordBreak?
  var overflowWrap: TextStyle.OverflowWrap?
  var lang: String?
  var maxLines: Int?
  var truncation: TextStyle.Truncation?
  var letterSpacing: Double?
  var tabSize: Int?
  var direction: TextStyle.Direction?
  var profile: TextStyle.Profile?
  var features: [FeatureTag: UInt32]?
  var minimumLineHeight: Double?
  var maximumLineHeight: Double?
  var lineSpacing: Double?

  init() {}

  /// The value of a string field (`kind == .string`).
  mutating func set(_ key: CaseKey, string: String) {
    switch key {
    case .id: id = string
    case .text: text = string
    case .lang: lang = string
    default: assertionFailure("\(key.name) is not a string field")
    }
  }

  /// The value of a number field (`kind == .number`), or `lineHeight` in points.
  mutating func set(_ key: CaseKey, number: Double) {
    switch key {
    case .width: width = number
    case .size: size = number
    case .lineHeight: lineHeight = .points(number)
    case .letterSpacing: letterSpacing = number
    case .minimumLineHeight: minimumLineHeight = number
    case .maximumLineHeight: maximumLineHeight = number
    case .lineSpacing: lineSpacing = number
    default: assertionFailure("\(key.name) is not a number field")
    }
  }

  /// The value of a whole-number field (`kind == .integer`).
  mutating func set(_ key: CaseKey, integer: Int) {
    switch key {
    case .maxLines: maxLines = integer
    case .tabSize: tabSize = integer
    default: assertionFailure("\(key.name) is not a whole-number field")
    }
  }

  /// The value of a field that names one of a list (`kind == .name`): the name's index in
  /// ``CaseKey/names``.
  mutating func set(_ key: CaseKey, nameAt index: Int) {
    switch key {
    case .whiteSpace: whiteSpace = CaseValues.whiteSpaces[index]
    case .wordBreak: wordBreak = CaseValues.wordBreaks[index]
    case .overflowWrap: overflowWrap = CaseValues.overflowWraps[index]
    case .truncation: truncation = CaseValues.truncations[index]
    case .direction: direction = CaseValues.directions[index]
    case .profile: profile = CaseValues.profiles[index]
    default: assertionFailure("\(key.name) does not name one of a list")
    }
  }

  // (`allCases` of a synthesised conformance is a new array each time.)
  private static let whiteSpaces = TextStyle.WhiteSpace.allCases
  private static let wordBreaks = TextStyle.WordBreak.allCases
  private static let overflowWraps = TextStyle.OverflowWrap.allCases
  private static let truncations = TextStyle.Truncation.allCases
  private static let directions = TextStyle.Direction.allCases
  private static let profiles = TextStyle.Profile.allCases

  /// Sets the style fields present on `style`, then checks it as a whole.
  /// - Throws: ``CaseError/invalidStyle(_:)`` for a value out of range.
  func apply(to style: inout TextStyle) throws {
    if let size { style.size = size }
    if let lineHeight { style.lineHeight = lineHeight }
    if let whiteSpace { style.whiteSpace = whiteSpace }
    if let wordBreak { style.wordBreak = wordBreak }
    if let overflowWrap { style.overflowWrap = overflowWrap }
    if let lang { style.language = lang }
    if let maxLines { style.maxLines = maxLines }
    if let truncation { style.truncation = truncation }
    if let letterSpacing { style.letterSpacing = letterSpacing }
    if let tabSize { style.tabSize = tabSize }
    if let direction { style.direction = direction }
    if let profile { style.profile = profile }
    if let minimumLineHeight { style.minimumLineHeight = minimumLineHeight }
    if let maximumLineHeight { style.maximumLineHeight = maximumLineHeight }
    if let lineSpacing { style.lineSpacing = lineSpacing }
    if let features { style.features = features }
    do {
      try style.validate()
    } catch let e as TypesettingError {
      // (A value out of range: the style as a whole, not its fonts.)
      throw CaseError.invalidStyle(e.description)
    }
  }
}

// MARK: - From an object's fields

extension CaseValues {
  /// The values of `fields`, each checked against its key's kind (`null` reads as absent).
  /// - Throws: ``CaseError`` naming the first field, in the format's order, that holds a value
  ///   of the wrong type or not one of its names.
  init(_ fields: CaseFields) throws {
    let reader = CaseFieldReader(fields, CaseError.self)
    for key in CaseKey.allCases {
      guard let v = reader.raw(key) else { continue }
      switch key.kind {
      case .label: break
      case .string: set(key, string: try reader.string(key)!)
      case .number: set(key, number: try reader.number(key)!)
      case .integer: set(key, integer: try reader.integer(key)!)
      case .name:
        set(key, nameAt: try reader.nameIndex(key, among: CaseKey.names[key.rawValue]!.strings)!)
      case .fonts: fontNames = try reader.stringArray(key)
      case .lineHeight:
        switch v {
        case .string(let s):
          guard CaseKey.normal.contains(s) else {
            throw CaseError.invalidValue(key.name, "\"\(s)\"")
          }
          lineHeight = .normal
        case .number(let n): set(key, number: n)
        default: throw CaseError.wrongType(key.name, "\"normal\" or a number")
        }
      case .features: features = try CaseValues.features(v)
      }
    }
  }

  /// The `features` field's value: an object of four-letter tags to whole numbers.
  static func features(_ v: JSONValue) throws -> [FeatureTag: UInt32] {
    guard case .object(let dict) = v else {
      throw CaseError.wrongType(CaseKey.features.name, "an object of tag: number")
    }
    var features: [FeatureTag: UInt32] = [:]
    for field in dict {
      let k = field.key
      guard k.utf8.count == 4, let tag = FeatureTag(validating: k), let n = field.value.number,
        n >= 0, n == n.rounded(), n <= Double(UInt32.max)
      else {
        throw CaseError.invalidValue(
          "features.\(k)", "a 4-letter tag with a whole number from 0 to \(UInt32.max)")
      }
      features[tag] = UInt32(n)
    }
    return features
  }
}

// MARK: - From a line's bytes

extension CaseValues {
  /// The values of a line that reads without surprises — an object of known, distinct keys
  /// written without escapes, each value `null` or of its key's kind (no string that needs a
  /// repair) — read straight from the bytes; nil for anything else, which the whole-object
  /// reading then reads and names. A `fonts` list whose spelling `library` met lately comes
  /// back as ``knownFonts``; otherwise `newSpelling` is set to its bytes, for the library to be
  /// told once the case is made.
  init?(
    plainLine line: UnsafeBufferPointer<UInt8>, library: FontLibrary,
    newSpelling: inout UnsafeBufferPointer<UInt8>?
  ) {
    var values = CaseValues()
    var seen: UInt64 = 0
    var spelling: UnsafeBufferPointer<UInt8>? = nil
    let read = JSONReader.readFields(line) { keyBytes, reader in
      guard let p = CaseKey.caseKeys.position(ofBytes: keyBytes), seen & (1 << p) == 0 else {
        return false
      }
      seen |= 1 << p
      let key = CaseKey(rawValue: p)!
      // (`null` reads as absent.)
      if reader.skipNull() { return true }
      switch key.kind {
      case .label: return reader.skipFieldValue()
      case .string:
        guard let s = reader.stringValue() else { return false }
        values.set(key, string: s)
      case .number:
        guard let n = reader.numberValue() else { return false }
        values.set(key, number: n)
      case .integer:
        guard let whole = reader.numberValue()?.wholeNumber else { return false }
        values.set(key, integer: whole)
      case .name:
        guard let index = reader.stringPosition(in: CaseKey.names[key.rawValue]!.set) else {
          return false
        }
        values.set(key, nameAt: index)
      case .lineHeight:
        if let n = reader.numberValue() {
          values.set(key, number: n)
        } else {
          guard reader.stringPosition(in: CaseKey.normal) != nil else { return false }
          values.lineHeight = .normal
        }
      case .fonts:
        guard let list = reader.plainStringList() else { return false }
        if let known = FontSpellings.of(library).stack(spelledAs: list, library: library) {
          values.knownFonts = known
          return true
        }
        guard case .array(let a)? = try? JSONReader.read(list, repairingSurrogates: false).value
        else { return false }
        values.fontNames = a.compactMap(\.string)
        spelling = list
      case .features:
        guard let v = reader.fieldValue(), let f = try? CaseValues.features(v) else { return false }
        values.features = f
      }
      return true
    }
    guard read else { return nil }
    newSpelling = spelling
    self = values
  }
}
