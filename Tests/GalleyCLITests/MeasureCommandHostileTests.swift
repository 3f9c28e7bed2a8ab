import Foundation
import SelfSizing
import Typesetting
import GalleyJSON
import GalleyService
import XCTest

@testable import GalleyCLI

/// Rows of the hostile-input table that arrive through `galley measure`: JSON escapes that
/// encode half a surrogate pair, which no Swift string can hold.
final class MeasureCommandHostileTests: XCTestCase {
  static let fonts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fonts").path
  let library = FontLibrary(directory: MeasureCommandHostileTests.fonts)

  func record(_ json: String, line: Int = 1) throws -> [String: Any] {
    let typesetter = Typesetter(cacheCapacity: 0)
    let (out, _) = RecordMeasuring.measure(
      Data(json.utf8), line: line, library: library, typesetter: typesetter,
      sizer: CellSizer(typesetter: typesetter, cacheCapacity: 0), template: nil, warn: { _ in })
    return try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], out)
  }

  func testUnpairedSurrogateEscapesAreReadAsReplacementCharacters() throws {
    // Foundation's JSON parser rejects every one of these. A browser draws such a string with
    // U+FFFD for each lone half: the record is measured as the text with \ufffd written there,
    // and keeps its id (a warning on standard error says so).
    let cases: [(String, String)] = [
      (#"a\ud800b"#, #"a\ufffdb"#), (#"a\uDC00b"#, #"a\ufffdb"#),
      (#"\udc00\ud800"#, #"\ufffd\ufffd"#), (#"end\ud83d"#, #"end\ufffd"#),
      (#"\ud800\u0041"#, #"\ufffdA"#), (#"\ud800\ud800"#, #"\ufffd\ufffd"#),
      (#"ok \ud83d\ude00 then \ud83d"#, #"ok \ud83d\ude00 then \ufffd"#),
    ]
    for (i, (text, replaced)) in cases.enumerated() {
      let r = try record(#"{"id":"s\#(i)","text":"\#(text)","width":100}"#, line: 40 + i)
      let expected = try record(#"{"id":"s\#(i)","text":"\#(replaced)","width":100}"#)
      XCTAssertNil(r["error"], text)
      XCTAssertEqual(r["id"] as? String, "s\(i)")
      XCTAssertEqual(r["lines"] as? Int, expected["lines"] as? Int, text)
      XCTAssertEqual(r["lineWidths"] as? [Double], expected["lineWidths"] as? [Double], text)
    }
    // In a key: the repaired key is not a field, and the error record keeps the id.
    let inKey = try record(#"{"id":"k","te\udfffxt":"x","width":100}"#)
    XCTAssertEqual(inKey["id"] as? String, "k")
    XCTAssertTrue((inKey["error"] as? String ?? "").contains("te\u{FFFD}xt"), "\(inKey)")
    // Other broken JSON keeps the plain message; an escaped backslash is no escape.
    XCTAssertEqual(
      try record(#"{"id":"x","text":"\u12"}"#)["error"] as? String,
      "invalid JSON: expected four hex digits after \\u at byte 19")
    XCTAssertEqual(try record(#"{"id":"x","text":"\\ud800","width":100}"#)["lines"] as? Int, 1)
    // Broken otherwise too: the reason it cannot be read, where.
    XCTAssertEqual(
      try record(#"{"id":"x","text":"\ud800","width":100"#)["error"] as? String,
      #"invalid JSON: expected "," or "}" at byte 38"#)
  }

  func testNumbersBeyondDoubleRangeAreSpecificErrorRecords() throws {
    // JSON sets no range on numbers; Foundation's parser rejects one that would be infinite.
    for (i, number) in ["1e400", "-2e308", "1.5E+999"].enumerated() {
      let json = #"{"id":"n\#(i)","text":"hello","width":\#(number)}"#
      let r = try record(json, line: 7 + i)
      XCTAssertEqual(
        r["error"] as? String,
        "invalid JSON: number \(number) is beyond the range of a 64-bit float",
        json)
      XCTAssertEqual(r["line"] as? Int, 7 + i)
    }
    // Inside a string, such digits are text; a tiny number reads as 0 (a width error, not JSON).
    let inText = try record(#"{"id":"t","text":"1e400 is big","width":}"#)
    XCTAssertEqual(inText["error"] as? String, "invalid JSON: expected a value at byte 41")
    let quoted = try record(#"{"id":"q","text":"1e400","width":200}"#)
    XCTAssertEqual(quoted["lines"] as? Int, 1)
    let tiny = try record(#"{"id":"z","text":"hello","width":1e-400}"#)
    XCTAssertEqual(tiny["id"] as? String, "z")
    XCTAssertNotNil(tiny["error"] as? String)
  }

  func testPairedSurrogateEscapesAreMeasured() throws {
    let escaped = try record(#"{"id":"p","text":"hi \ud83d\ude00\uD83D\uDC4D","width":300}"#)
    let literal = try record(#"{"id":"p","text":"hi 😀👍","width":300}"#)
    XCTAssertEqual(escaped["lines"] as? Int, 1)
    XCTAssertEqual(escaped["widest"] as? Double, literal["widest"] as? Double)
    XCTAssertEqual(escaped["lineStartsU16"] as? [Int], [0])
  }

  func testSurrogateEscapesAreFoundInOnePassAndOnlyInsideStrings() throws {
    func repaired(_ text: String) throws -> String? {
      try JSONReader.read(Array(text.utf8)).repairedEscape
    }
    XCTAssertNil(try repaired(#"{"a":"\\ud800"}"#))
    XCTAssertNil(try repaired(#"{"a":"\ud83d\ude00"}"#))
    XCTAssertEqual(try repaired(#"["\ud83d"]"#), #"\ud83d"#)
    // A megabyte of escapes is one pass.
    let big = "\"" + String(repeating: #"\ud83d\ude00"#, count: 80_000) + #"\ud800""#
    XCTAssertEqual(try repaired(big), #"\ud800"#)
  }

}

final class StrictRecordTests: XCTestCase {
  /// A repeated key: JSON libraries disagree on which value wins, so the record is an error
  /// naming the key, and the next line is still measured.
  func testARepeatedKeyIsAnErrorRecordNotAGuess() throws {
    let cli = Galley()
    let input = #"{"id":"a","text":"one","width":100,"width":5}"# + "\n"
      + #"{"id":"b","text":"two","width":100}"# + "\n"
    let r = try cli.run(["measure", "-"], stdin: Data(input.utf8))
    XCTAssertEqual(r.status, 1, r.stderr)
    let lines = r.stdout.split(separator: "\n").map {
      try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    XCTAssertEqual(lines.count, 2)
    XCTAssertEqual(lines[0]["error"] as? String, #"invalid JSON: the key "width" appears twice"#)
    XCTAssertEqual(lines[0]["line"] as? Int, 1)
    XCTAssertEqual(lines[1]["id"] as? String, "b")
    XCTAssertEqual(lines[1]["lines"] as? Int, 1)
  }

  /// A record that cannot be read names itself whenever its id was read before the error (a
  /// repeated key, a line cut short, something after the object), but not when the repeated key
  /// is "id" itself; the same in `validate`.
  func testUnreadableRecordsKeepTheIdTheyHave() throws {
    let cli = Galley()
    let input = [
      #"{"id":"a","text":"one","width":100,"width":5}"#, #"{"id":"b","text":"tw"#,
      #"{"id":"c","text":"x","width":100} extra"#, #"{"id":"d","id":"e","text":"x"}"#,
      #"{"text":"x","id":"f","width":100,}"#,
    ].joined(separator: "\n") + "\n"
    let r = try cli.run(["measure", "-"], stdin: Data(input.utf8))
    XCTAssertEqual(r.status, 1, r.stderr)
    let lines = r.stdout.split(separator: "\n").map {
      try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    XCTAssertEqual(lines.map { $0["id"] as? String }, ["a", "b", "c", nil, "f"])
    XCTAssertTrue(lines.allSatisfy { $0["error"] != nil })
    let cells = #"{"id":"v1","template":"bubble","text":"x","estimatedHeight":30,"estimatedHeight":31}"#
    let v = try cli.run(["validate", "-", "--json"], stdin: Data((cells + "\n").utf8))
    XCTAssertTrue(v.stdout.contains(#""id":"v1""#) || v.stdout.contains(#""id": "v1""#), v.stdout)
  }
}
