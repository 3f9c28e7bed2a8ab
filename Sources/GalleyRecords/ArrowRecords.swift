import GalleyJSON

/// Records from an Arrow array, read where its producer keeps it (the Arrow C data interface:
/// arrow.apache.org/docs/format/CDataInterface.html), so that a Spark or PyArrow batch reaches
/// the engine without a row becoming a JSON line elsewhere first.
///
/// Each row of a struct array (a record batch, as PyArrow exports one) is written as the JSON
/// record Spark's `to_json` writes for it: its fields in the schema's order, a null field left
/// out (its default), lists as arrays, maps of string keys as objects, numbers in a form that
/// reads back as the same double. Each value of a string array is a record as it stands. The
/// record then goes through the one reader every record takes.
package struct ArrowRecords {
  /// The array's rows.
  package let count: Int
  private let root: ArrowColumn

  /// The records of array `array` of schema `schema` (an `ArrowArray` and an `ArrowSchema`,
  /// which stay the caller's). A string field that `numericStrings` names is written as the
  /// number it holds when it holds a JSON number (Spark reads a field that mixes `"normal"`
  /// and numbers as a string column).
  package init(
    schema: UnsafeRawPointer, array: UnsafeRawPointer, numericStrings: Set<String> = []
  ) throws(ArrowRecordsError) {
    let root = try ArrowColumn(
      schema: schema, array: array, numericStrings: numericStrings, path: "")
    switch root.kind {
    case .structure, .string: break
    default:
      throw ArrowRecordsError(
        "an Arrow array of records is a struct array (a record batch) or a string array, "
          + "not \(root.format)")
    }
    guard root.length <= Int32.max else {
      throw ArrowRecordsError("an Arrow array of \(root.length) rows is too long")
    }
    self.root = root
    count = root.length
  }

  /// Appends row `row`'s record to `w` and gives its length in bytes. A record longer than
  /// `limit` is not all written: a string that would take it past the limit is only counted
  /// (escaped a piece at a time), so that the memory a record takes stays near the limit
  /// whatever a row holds.
  package func write(_ row: Int, into w: inout JSONWriter, limit: Int = .max) -> Int {
    let start = w.count
    if root.isNull(row) {
      w.raw("null" as StaticString)
      return w.count - start
    }
    if case .string = root.kind {
      return root.withBytes(row) { bytes in
        w.raw(bytes: UnsafeBufferPointer(rebasing: bytes.prefix(limit)))
        return bytes.count
      }
    }
    var past = Past(limit: start + limit)
    root.write(row, into: &w, &past)
    return w.count - start + past.counted
  }

  /// Releases an `ArrowSchema` or an `ArrowArray` as their producer asks (its `release`
  /// callback, at the same place in both), as a consumer that took them must.
  package static func release(_ structure: UnsafeMutableRawPointer?, isSchema: Bool) {
    guard let structure else { return }
    let at = isSchema ? ArrowColumn.schemaRelease : ArrowColumn.arrayRelease
    let release = structure.load(
      fromByteOffset: at, as: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?.self)
    release?(structure)
  }
}

/// Why an Arrow array cannot be read as records.
package struct ArrowRecordsError: Error, CustomStringConvertible {
  package let description: String
  init(_ description: String) { self.description = description }
}

/// What a record's strings past its length limit add to it: counted, not written.
private struct Past {
  let limit: Int
  var counted = 0
  /// Where a long string is escaped, a piece at a time (made for the first one).
  var scratch: JSONWriter? = nil

  init(limit: Int) { self.limit = limit }

  /// Bytes escaped a piece at a time (pieces end on a character's boundary) never take more
  /// than six times a piece.
  static let piece = 1 << 20

  /// Writes string `bytes` to `w` while the record stays within the limit; what would take it
  /// past is counted instead, and so is all that follows.
  mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, _ w: inout JSONWriter) {
    // (An escape is at most six bytes a byte: most strings cannot reach the limit.)
    if counted == 0 && w.count + 6 * bytes.count + 2 <= limit { return w.string(utf8: bytes) }
    var scratch = self.scratch ?? JSONWriter()
    var quote = UInt8(ascii: "\"")
    withUnsafePointer(to: &quote) { add(UnsafeBufferPointer(start: $0, count: 1), &w) }
    var from = 0
    while from < bytes.count {
      let end = min(bytes.count, from + Past.piece)
      var to = end
      while to < bytes.count && to > from && bytes[to] & 0xC0 == 0x80 { to -= 1 }
      if to == from { to = end }  // (not UTF-8: any place will do)
      scratch.removeAll()
      scratch.string(utf8: UnsafeBufferPointer(rebasing: bytes[from..<to]))
      // (The piece without the quotes its writer put around it.)
      scratch.withBytes { add(UnsafeBufferPointer(rebasing: $0.dropFirst().dropLast()), &w) }
      from = to
    }
    withUnsafePointer(to: &quote) { add(UnsafeBufferPointer(start: $0, count: 1), &w) }
    self.scratch = scratch
  }

  /// Appends escaped `bytes` to `w` while the record stays within the limit, else counts them.
  private mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, _ w: inout JSONWriter) {
    if counted == 0 && w.count + bytes.count <= limit {
      w.raw(bytes: bytes)
    } else {
      counted += bytes.count
    }
  }
}

/// One array of an Arrow array's tree, with the buffers it is read from.
private struct ArrowColumn {
  enum Kind: Equatable {
    case null, bool, float32, float64, string, list, structure, map
    case int(bytes: Int, signed: Bool)
    case decimal(scale: Int)
  }

  // Offsets of the C structs' fields (all 8 bytes wide): ArrowSchema's format, name, flags
  // are at 0, 8, 24, its children at 40, dictionary at 48, release at 56; ArrowArray's
  // length, null count, offset at 0, 8, 16, buffers at 40, children at 48, dictionary at 56,
  // release at 64.
  static let schemaRelease = 56
  static let arrayRelease = 64

  let kind: Kind
  let format: String
  /// `"name":`, escaped once.
  let key: [UInt8]
  /// Whether a string value is written as the number it holds, when it holds one.
  let numeric: Bool
  /// Large strings and lists: 64-bit offsets.
  let large: Bool
  let length: Int
  let offset: Int
  let validity: UnsafePointer<UInt8>?
  let values: UnsafeRawPointer?
  let data: UnsafePointer<UInt8>?
  let children: [ArrowColumn]

  init(
    schema: UnsafeRawPointer, array: UnsafeRawPointer, numericStrings: Set<String>, path: String
  ) throws(ArrowRecordsError) {
    func pointer(_ base: UnsafeRawPointer, _ at: Int) -> UnsafeRawPointer? {
      base.load(fromByteOffset: at, as: UnsafeRawPointer?.self)
    }
    func int(_ base: UnsafeRawPointer, _ at: Int) -> Int {
      Int(base.load(fromByteOffset: at, as: Int64.self))
    }
    guard let formatPointer = pointer(schema, 0) else {
      throw ArrowRecordsError("an Arrow schema without a format")
    }
    format = String(cString: formatPointer.assumingMemoryBound(to: CChar.self))
    let name = pointer(schema, 8).map {
      String(cString: $0.assumingMemoryBound(to: CChar.self))
    } ?? ""
    let here = path.isEmpty ? name : path + "." + name
    func unsupported(_ why: String) -> ArrowRecordsError {
      ArrowRecordsError(
        "column \"\(here)\": \(why) (cast it to a string or a number first)")
    }
    guard pointer(schema, 48) == nil, pointer(array, 56) == nil else {
      throw unsupported("a dictionary-encoded Arrow column is not read")
    }
    var key = JSONWriter()
    key.string(name)
    key.raw(":" as StaticString)
    self.key = key.bytes
    length = int(array, 0)
    offset = int(array, 16)
    guard length >= 0, offset >= 0 else { throw unsupported("a negative length or offset") }
    let buffers = pointer(array, 40)?.assumingMemoryBound(to: UnsafeRawPointer?.self)
    let bufferCount = int(array, 24)
    func buffer(_ k: Int) -> UnsafeRawPointer? {
      k < bufferCount ? buffers?[k] : nil
    }
    // (The null type has no buffers; every other type starts with its validity bitmap.)
    validity = format == "n" ? nil : buffer(0)?.assumingMemoryBound(to: UInt8.self)
    guard let (kind, large, needed) = ArrowColumn.kind(of: format) else {
      throw unsupported("Arrow type \"\(format)\" has no JSON value Galley reads")
    }
    guard bufferCount >= needed, length == 0 || (1..<max(needed, 1)).allSatisfy({ buffer($0) != nil })
    else { throw unsupported("Arrow type \"\(format)\" without its buffers") }
    self.kind = kind
    self.large = large
    numeric = kind == .string && numericStrings.contains(name)
    values = buffer(1)
    data = kind == .string ? buffer(2)?.assumingMemoryBound(to: UInt8.self) : nil
    // Children: a list's values, a struct's fields, a map's entries (a struct of key, value).
    let childCount = int(schema, 32)
    guard childCount == int(array, 32), childCount >= 0 else {
      throw unsupported("a schema and an array with different children")
    }
    let schemaChildren = pointer(schema, 40)?.assumingMemoryBound(to: UnsafeRawPointer?.self)
    let arrayChildren = pointer(array, 48)?.assumingMemoryBound(to: UnsafeRawPointer?.self)
    var children: [ArrowColumn] = []
    for k in 0..<childCount {
      guard let s = schemaChildren?[k], let a = arrayChildren?[k] else {
        throw unsupported("a missing child")
      }
      children.append(
        try ArrowColumn(schema: s, array: a, numericStrings: numericStrings, path: here))
    }
    if let why = ArrowColumn.misshapen(kind, children) { throw unsupported(why) }
    self.children = children
  }

  /// The kind of column of Arrow format string `format`, whether its offsets are 64-bit, and
  /// how many buffers it has; nil for a type JSON has no value for.
  static func kind(of format: String) -> (Kind, large: Bool, buffers: Int)? {
    switch format {
    case "n": return (.null, false, 0)
    case "b": return (.bool, false, 2)
    case "c", "C": return (.int(bytes: 1, signed: format == "c"), false, 2)
    case "s", "S": return (.int(bytes: 2, signed: format == "s"), false, 2)
    case "i", "I": return (.int(bytes: 4, signed: format == "i"), false, 2)
    case "l", "L": return (.int(bytes: 8, signed: format == "l"), false, 2)
    case "f": return (.float32, false, 2)
    case "g": return (.float64, false, 2)
    case "u", "U": return (.string, format == "U", 3)
    case "+l", "+L": return (.list, format == "+L", 2)
    case "+s": return (.structure, false, 1)
    case "+m": return (.map, false, 2)
    default:
      // Decimals: "d:precision,scale" of 128 bits ("…,128" or no width).
      let parts = format.dropFirst(2).split(separator: ",")
      guard format.hasPrefix("d:"), parts.count == 2 || (parts.count == 3 && parts[2] == "128"),
        let scale = Int(parts[1]), abs(scale) <= 76
      else { return nil }
      return (.decimal(scale: scale), false, 2)
    }
  }

  /// What is wrong with the children of a column of `kind`: a list has one, a map one struct
  /// of a string key and a value.
  static func misshapen(_ kind: Kind, _ children: [ArrowColumn]) -> String? {
    switch kind {
    case .list:
      return children.count == 1 ? nil : "a list without one child"
    case .map:
      guard children.count == 1, children[0].kind == .structure,
        children[0].children.count == 2, children[0].children[0].kind == .string
      else { return "a map whose keys are not strings" }
      return nil
    default: return nil
    }
  }

  /// Whether logical row `i` is null.
  func isNull(_ i: Int) -> Bool {
    if case .null = kind { return true }
    guard let validity else { return false }
    let p = i + offset
    return validity[p >> 3] & (1 << UInt8(p & 7)) == 0
  }

  /// The bounds of list or string row `i` in its child or its data.
  func bounds(_ i: Int) -> Range<Int> {
    let p = i + offset
    guard let values else { return 0..<0 }
    if large {
      let o = values.assumingMemoryBound(to: Int64.self)
      return Int(o[p])..<Int(max(o[p], o[p + 1]))
    }
    let o = values.assumingMemoryBound(to: Int32.self)
    return Int(o[p])..<Int(max(o[p], o[p + 1]))
  }

  /// Calls `body` with the bytes of string row `i`.
  func withBytes<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let r = bounds(i)
    return body(UnsafeBufferPointer(start: data.map { $0 + r.lowerBound }, count: r.count))
  }

  /// Appends the JSON value of logical row `i` (not null) to `w` (its strings past the
  /// record's limit counted in `past`).
  func write(_ i: Int, into w: inout JSONWriter, _ past: inout Past) {
    let p = i + offset
    switch kind {
    case .null: w.raw("null" as StaticString)
    case .bool:
      let bits = values!.assumingMemoryBound(to: UInt8.self)
      w.bool(bits[p >> 3] & (1 << UInt8(p & 7)) != 0)
    case .int(let bytes, let signed):
      switch (bytes, signed) {
      case (1, true): w.int(Int(values!.load(fromByteOffset: p, as: Int8.self)))
      case (1, false): w.int(Int(values!.load(fromByteOffset: p, as: UInt8.self)))
      case (2, true): w.int(Int(values!.load(fromByteOffset: 2 * p, as: Int16.self)))
      case (2, false): w.int(Int(values!.load(fromByteOffset: 2 * p, as: UInt16.self)))
      case (4, true): w.int(Int(values!.load(fromByteOffset: 4 * p, as: Int32.self)))
      case (4, false): w.int(Int(values!.load(fromByteOffset: 4 * p, as: UInt32.self)))
      case (_, true): w.int(Int(values!.load(fromByteOffset: 8 * p, as: Int64.self)))
      default: w.raw(String(values!.load(fromByteOffset: 8 * p, as: UInt64.self)))
      }
    case .float32: ArrowColumn.write(values!.load(fromByteOffset: 4 * p, as: Float.self), &w)
    case .float64: ArrowColumn.write(values!.load(fromByteOffset: 8 * p, as: Double.self), &w)
    case .decimal(let scale):
      let low = values!.loadUnaligned(fromByteOffset: 16 * p, as: UInt64.self)
      let high = values!.loadUnaligned(fromByteOffset: 16 * p + 8, as: Int64.self)
      w.raw(ArrowColumn.decimal(Int128(high) << 64 | Int128(low), scale: scale))
    case .string:
      withBytes(i) { bytes in
        if numeric && ArrowColumn.isNumber(bytes) { w.raw(bytes: bytes) } else { past.string(bytes, &w) }
      }
    case .list:
      w.raw("[" as StaticString)
      for (k, j) in bounds(i).enumerated() {
        if k > 0 { w.raw("," as StaticString) }
        children[0].writeOrNull(j, into: &w, &past)
      }
      w.raw("]" as StaticString)
    case .structure:
      w.raw("{" as StaticString)
      var first = true
      // (A struct's fields are read at its own row: its offset applies to them.)
      for field in children where !field.isNull(p) {
        if !first { w.raw("," as StaticString) }
        first = false
        field.key.withUnsafeBufferPointer { w.raw(bytes: $0) }
        field.write(p, into: &w, &past)
      }
      w.raw("}" as StaticString)
    case .map:
      let entries = children[0]
      let (keys, values) = (entries.children[0], entries.children[1])
      w.raw("{" as StaticString)
      for (k, j) in bounds(i).enumerated() {
        if k > 0 { w.raw("," as StaticString) }
        let e = j + entries.offset
        keys.withBytes(e) { past.string($0, &w) }
        w.raw(":" as StaticString)
        values.writeOrNull(e, into: &w, &past)
      }
      w.raw("}" as StaticString)
    }
  }

  /// ``write(_:into:)``, or `null` for a null row (a list's element, a map's value).
  func writeOrNull(_ i: Int, into w: inout JSONWriter, _ past: inout Past) {
    if isNull(i) { w.raw("null" as StaticString) } else { write(i, into: &w, &past) }
  }

  /// A float in the shortest form that reads back as the same value; not a number and the
  /// infinities as the strings Spark's writer gives them (a reader then names the field).
  static func write<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ v: F, _ w: inout JSONWriter
  ) {
    if v.isNaN { return w.raw("\"NaN\"" as StaticString) }
    if v.isInfinite { return w.raw(v < 0 ? "\"-Infinity\"" as StaticString : "\"Infinity\"") }
    w.raw(v.description)
  }

  /// A 128-bit decimal's text: `value` × 10^-`scale`.
  static func decimal(_ value: Int128, scale: Int) -> String {
    var digits = String(value.magnitude)
    let sign = value < 0 ? "-" : ""
    if scale <= 0 { return sign + digits + String(repeating: "0", count: value == 0 ? 0 : -scale) }
    if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
    let point = digits.index(digits.endIndex, offsetBy: -scale)
    return sign + digits[..<point] + "." + digits[point...]
  }

  /// Whether `bytes` are one JSON number, nothing around it.
  static func isNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first, let last = bytes.last,
      first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(last),
      case .number = try? JSONReader.read(bytes, repairingSurrogates: false).value
    else { return false }
    return true
  }
}
