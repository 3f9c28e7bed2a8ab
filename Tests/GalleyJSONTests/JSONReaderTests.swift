import XCTest

@testable import GalleyJSON

final class JSONReaderTests: XCTestCase {
  func read(_ text: String, repairing: Bool = true) throws -> JSONValue {
    try JSONReader.read(Array(text.utf8), repairingSurrogates: repairing).value
  }

  func reason(_ text: String, repairing: Bool = true) -> JSONSyntaxError.Reason? {
    reason(bytes: Array(text.utf8), repairing: repairing)
  }

  func reason(bytes: [UInt8], repairing: Bool = true) -> JSONSyntaxError.Reason? {
    do {
      _ = try JSONReader.read(bytes, repairingSurrogates: repairing)
      return nil
    } catch {
      return error.reason
    }
  }

  func testARecordKeepsItsFieldsInOrderWithTheirTypes() throws {
    let v = try read(
      #" {"id": "a", "n": -12.5e1, "t": true, "f": false, "z": null, "l": [1, "x", []], "o": {}} "#)
    guard case .object(let o) = v else { return XCTFail("\(v)") }
    XCTAssertEqual(o.keys, ["id", "n", "t", "f", "z", "l", "o"])
    XCTAssertEqual(o["id"], .string("a"))
    XCTAssertEqual(o["n"], .number(-125))
    XCTAssertEqual(o["t"], .bool(true))
    XCTAssertEqual(o["f"], .bool(false))
    XCTAssertEqual(o["z"], .null)
    XCTAssertEqual(o["l"], .array([.number(1), .string("x"), .array([])]))
    XCTAssertEqual(o["o"], .object(JSONObject()))
    XCTAssertNil(o["missing"])
  }

  func testEscapesAndSurrogatePairsDecode() throws {
    let v = try read(#""q\"b\\s\/\b\f\n\r\t \u00e9 \ud83d\ude00 \u4E2D""#)
    XCTAssertEqual(v, .string("q\"b\\s/\u{8}\u{c}\n\r\t é 😀 中"))
    // Raw UTF-8 passes through unchanged.
    XCTAssertEqual(try read("\"민지 👩‍👩‍👧\""), .string("민지 👩‍👩‍👧"))
  }

  func testUnpairedSurrogatesAreRepairedAndReportedOrRejected() throws {
    let r = try JSONReader.read(Array(#"{"t": "a\ud800b\udc00"}"#.utf8))
    XCTAssertEqual(r.value.object?["t"], .string("a\u{FFFD}b\u{FFFD}"))
    XCTAssertEqual(r.repairedEscape, #"\ud800"#)
    XCTAssertEqual(reason(#""a\udc00""#, repairing: false), .unpairedSurrogate(#"\udc00"#))
    // A high half followed by a non-surrogate escape is unpaired too.
    XCTAssertEqual(reason(#""\ud83d\u0041""#, repairing: false), .unpairedSurrogate(#"\ud83d"#))
  }

  func testNumbersReadExactlyAsTheStandardLibraryReadsTheirText() throws {
    var rng = SystemRandomNumberGenerator()
    var texts = [
      "0", "-0", "1", "17", "0.1", "0.2", "0.30000000000000004", "123456789012345678901234567890",
      "9007199254740993", "1e22", "1e23", "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308",
      "0.000000000000000000000000001", "1E+2", "1e-2", "-1.5E-7", "100000000000000000000000",
    ]
    for _ in 0..<20_000 {
      let mantissa = UInt64.random(in: 0...UInt64(1) << 60, using: &rng)
      let point = Int.random(in: 0...19, using: &rng)
      var digits = String(mantissa)
      if point > 0 && point < digits.count { digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -point)) }
      if digits.hasPrefix(".") { digits = "0" + digits }
      let exponent = Int.random(in: -40...40, using: &rng)
      texts.append(Bool.random(using: &rng) ? digits : "\(digits)e\(exponent)")
    }
    for t in texts {
      XCTAssertEqual(try read(t), .number(Double(t)!), t)
    }
  }

  func testNumbersBeyondADoubleAreErrorsNotInfinity() {
    XCTAssertEqual(reason(#"{"w": 1e400}"#), .numberOutOfRange("1e400"))
    XCTAssertEqual(reason(#"{"w": -2e308}"#), .numberOutOfRange("-2e308"))
    XCTAssertEqual(
      JSONSyntaxError(reason: .numberOutOfRange("1e400"), offset: 6).description,
      "invalid JSON: number 1e400 is beyond the range of a 64-bit float")
  }

  func testWhatJSONForbidsIsAnErrorThatSaysWhere() {
    let bad = [
      "{", "}", "[1,]", #"{"a":1,}"#, #"{"a" 1}"#, #"{a:1}"#, "01", "1.", ".5", "+1", "1e", "-",
      "tru", "nul", #""abc"#, "\"a\u{1}b\"", #""\x""#, #""\u12""#, "1 2", "NaN", "Infinity",
      "'a'", #"{"a":1}}"#,
    ]
    for b in bad {
      guard case .expected? = reason(b) else { return XCTFail("\(b): \(String(describing: reason(b)))") }
    }
    do {
      _ = try JSONReader.read(Array(#"{"a": tru}"#.utf8))
      XCTFail("read")
    } catch {
      XCTAssertEqual(error.description, "invalid JSON: expected a value at byte 7")
    }
  }

  func testARepeatedKeyIsAnError() {
    XCTAssertEqual(reason(#"{"id": "a", "id": "b"}"#), .duplicateKey("id"))
    let many = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
    XCTAssertNil(reason("{\(many)}"))
    XCTAssertEqual(reason("{\(many), \"k39\": 0}"), .duplicateKey("k39"))
  }

  func testInvalidUTF8AndEmptyLinesAndDeepNesting() {
    for bytes: [UInt8] in [
      [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
      [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], [0x22, 0xE4, 0xB8, 0x22],
    ] {
      XCTAssertEqual(reason(bytes: bytes), .invalidUTF8, "\(bytes)")
    }
    XCTAssertEqual(reason(" \t "), .empty)
    XCTAssertEqual(reason(String(repeating: "[", count: 300)), .tooDeep)
    XCTAssertNil(reason(String(repeating: "[", count: 200) + String(repeating: "]", count: 200)))
  }

  func testReadObjectRejectsOtherValues() {
    XCTAssertThrowsError(try JSONReader.readObject(Array("[1]".utf8)))
    XCTAssertNoThrow(try JSONReader.readObject(Array("{}".utf8)))
  }
}

final class JSONWriterTests: XCTestCase {
  func testStringsRoundTripThroughTheReader() throws {
    let tricky = "a\"b\\c\n\r\t\u{0}\u{1f}\u{7f} é 中 😀 \u{2028}\u{2029} end"
    var w = JSONWriter()
    w.string(tricky)
    XCTAssertEqual(
      w.text, #""a\"b\\c\n\r\t\u0000\u001f"# + "\u{7f}" + #" é 中 😀 \u2028\u2029 end""#)
    XCTAssertEqual(try JSONReader.read(w.bytes).value, .string(tricky))
  }

  func testNumbersAndIntegers() {
    var w = JSONWriter()
    // Every width of number the writer has its own way for (one, two, three digits, more).
    var rng = SystemRandomNumberGenerator()
    let some = (0..<2_000).map { _ in Int.random(in: -100_000...100_000, using: &rng) }
    for n in [0, 7, -7, 9, 10, 42, 99, 100, 101, 999, 1000, 1234567890, Int.min, Int.max] + Array(-1_100...1_100) + some {
      w = JSONWriter()
      w.int(n)
      XCTAssertEqual(w.text, String(n))
    }
    XCTAssertEqual(JSONWriter.number(0.1 + 0.2), "0.3")
    XCTAssertEqual(JSONWriter.number(250.25), "250.25")
    XCTAssertEqual(JSONWriter.number(-3), "-3")
    XCTAssertEqual(JSONWriter.number(.infinity), "null")
    XCTAssertEqual(
      JSONWriter.object([("id", JSONWriter.string("x")), ("n", "1")]), #"{"id": "x", "n": 1}"#)
  }

  func testSixtyFourthsPrintAsTheStandardLibraryPrintsThem() {
    var rng = SystemRandomNumberGenerator()
    var values: [Double] = [0.015625, -0.015625, 187.28125, 0.5, -0.984375, 999_999.25, 1e11 + 0.25]
    for _ in 0..<50_000 {
      values.append(Double(Int.random(in: -64_000_000...64_000_000, using: &rng)) / 64)
    }
    for v in values {
      let reference =
        v == v.rounded() ? String(Int(v)) : ((v * 1e9).rounded() / 1e9).description
      XCTAssertEqual(JSONWriter.number(v), reference, "\(v)")
    }
    // Not a sixty-fourth: the shortest form that reads back, float noise below 1e-9 dropped.
    XCTAssertEqual(JSONWriter.number(0.1), "0.1")
    XCTAssertEqual(JSONWriter.number(1.0 / 3), "0.333333333")
  }

  func testAnObjectWrittenReadsBackEqual() throws {
    let o: JSONObject = [
      "id": "m1", "n": 3.5, "list": [1, "two", nil, true], "nested": ["k": "v"],
    ]
    XCTAssertEqual(try JSONReader.readObject(Array(o.jsonText.utf8)).object, o)
  }
}

final class FieldReadingTests: XCTestCase {
  /// The eight-byte test of the string scanner and writer against its byte-by-byte meaning,
  /// on words made of the bytes that matter and their neighbours.
  func testTheEightByteScanFindsExactlyQuotesBackslashesAndControls() {
    let interesting: [UInt8] = [
      0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xE2,
      0xFF, 0x41, 0x61,
    ]
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<200_000 {
      var bytes = [UInt8](repeating: 0, count: 8)
      for k in 0..<8 {
        bytes[k] =
          Bool.random(using: &rng) ? interesting.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
      }
      let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
      let expected = bytes.contains { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }
      XCTAssertEqual(JSONReader.hasSpecialByte(word), expected, "\(bytes)")
      // Where the first one is: the lowest bit of the masks, whatever a borrow sets above it.
      let first = bytes.firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }
      let mask =
        ByteWord.firstMatch(0x22, in: word) | ByteWord.firstMatch(0x5C, in: word)
        | ByteWord.firstByte(below: 0x20, in: word)
      XCTAssertEqual(mask == 0 ? nil : mask.trailingZeroBitCount >> 3, first, "\(bytes)")
    }
  }

  /// Reading an object field by field gives the values the whole-object reader gives, or
  /// declines (false) — never a different answer — on records with every kind of damage.
  func testFieldByFieldReadingAgreesWithTheWholeObjectOrDeclines() {
    let base = #"{"id": "a-1", "text": "Hé \"q\" 😀", "n": -1.5e2, "l": [1, "x", {"k": null}], "t": true, "o": {"a": [false]}}"#
    var rng = SystemRandomNumberGenerator()
    let pieces: [[UInt8]] = [
      Array(#"""#.utf8), Array(#"\"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud800"#.utf8),
      [0xFF], [0xC3], [0xE2, 0x80], [0xF0, 0x90, 0x80], [0x01], Array("}".utf8), Array(",".utf8),
      Array(":".utf8), Array(" ".utf8), Array("1e999".utf8), Array(#", "id": 2"#.utf8),
    ]
    let known = Set(["id", "text", "n", "l", "t", "o"].map { Array($0.utf8) })
    var agreed = 0
    var declined = 0
    for round in 0..<20_000 {
      var line = Array(base.utf8)
      if round > 0 {
        for _ in 0..<Int.random(in: 1...2, using: &rng) {
          let at = Int.random(in: 0...line.count, using: &rng)
          if Bool.random(using: &rng), at < line.count {
            line.remove(at: at)
          } else {
            line.insert(contentsOf: pieces.randomElement(using: &rng)!, at: at)
          }
        }
      }
      let whole = try? JSONReader.readObject(line, repairingSurrogates: false).object
      var fields: [(String, JSONValue)] = []
      var keys = Set<String>()
      let read = line.withUnsafeBufferPointer { b in
        JSONReader.readFields(b) { key, reader in
          // (As readFields asks: keys are matched against known ones, not checked as text.)
          let name = String(decoding: key, as: UTF8.self)
          guard known.contains(Array(key)), keys.insert(name).inserted else { return false }
          // (The typed readings where a record reader would use them.)
          let value: JSONValue? =
            switch name {
            case "id", "text": reader.stringValue().map(JSONValue.string)
            case "n": reader.numberValue().map(JSONValue.number)
            default: reader.fieldValue()
            }
          guard let v = value else { return false }
          fields.append((name, v))
          return true
        }
      }
      if read {
        agreed += 1
        guard let whole else {
          return XCTFail("read field by field, not as a whole: \(String(decoding: line, as: UTF8.self))")
        }
        XCTAssertEqual(whole.keys, fields.map(\.0))
        for (k, v) in fields { XCTAssertEqual(whole[k], v) }
      } else {
        declined += 1
      }
    }
    // Both outcomes happen (the damage does not always break the record).
    XCTAssertGreaterThan(agreed, 1_000)
    XCTAssertGreaterThan(declined, 1_000)
  }

  /// Strings written by the writer read back as themselves, whatever bytes they hold.
  func testWrittenStringsReadBack() throws {
    let alphabet: [Character] = ["a", "é", "\"", "\\", "\n", "\u{1}", "\u{2028}", "\u{2029}", "😀", "中", "\u{7F}", " "]
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      let s = String((0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
      let text = JSONWriter.string(s)
      XCTAssertFalse(text.contains("\u{2028}") || text.contains("\u{2029}"), text)
      XCTAssertEqual(try JSONReader.read(Array(text.utf8)).value, .string(s))
    }
  }
}

final class KeySetTests: XCTestCase {
  /// A key set finds a key by its bytes exactly when it holds it, at its position, for keys of
  /// every length around the fingerprint's seven bytes and its word loads, on keys that differ
  /// in one byte anywhere.
  func testKeysAreFoundByTheirBytesExactly() {
    var rng = SystemRandomNumberGenerator()
    let alphabet = Array("abAB".utf8)
    func randomKey() -> [UInt8] {
      (0..<Int.random(in: 0...20, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
    }
    for _ in 0..<2_000 {
      let keys = (0..<Int.random(in: 1...12, using: &rng)).map { _ in randomKey() }
      let set = JSONKeySet(keys.map { String(decoding: $0, as: UTF8.self) })
      var probes = keys + (0..<12).map { _ in randomKey() }
      // Each key with one byte changed, and one byte longer.
      for k in keys where !k.isEmpty {
        var changed = k
        let at = Int.random(in: 0..<k.count, using: &rng)
        changed[at] = changed[at] == alphabet[0] ? alphabet[1] : alphabet[0]
        probes.append(changed)
        probes.append(k + [alphabet[2]])
      }
      for probe in probes {
        let found = probe.withUnsafeBufferPointer { set.position(ofBytes: $0) }
        XCTAssertEqual(found, keys.firstIndex(of: probe), "\(String(decoding: probe, as: UTF8.self)) in \(keys)")
      }
    }
  }
}
