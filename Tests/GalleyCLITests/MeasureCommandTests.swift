import Foundation
import XCTest

/// The `galley` executable as a user runs it: streams, errors as records, exit codes.
final class MeasureCommandTests: XCTestCase {
  let cli = Galley()

  func run(_ args: [String], stdin: Data = Data()) throws -> Galley.Run {
    try cli.run(args, stdin: stdin)
  }

  func testBadLinesBecomeErrorRecordsAndTheRestIsMeasured() throws {
    var input = Data()
    input.append(
      Data(#"{"id":"ok1","text":"hello world","width":100,"size":17}"#.utf8) + Data([0x0A]))
    input.append(Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D, 0x0A]))  // invalid UTF-8
    input.append(Data("{not json\n".utf8))
    input.append(Data(#"{"id":"neg","text":"x","width":-5}"#.utf8) + Data([0x0A]))
    input.append(Data(#"{"id":"nan","text":"x","width":"wide"}"#.utf8) + Data([0x0A]))
    input.append(Data(#"{"id":"unk","text":"x","width":10,"colour":"red"}"#.utf8) + Data([0x0A]))
    input.append(
      Data(#"{"id":"font","text":"x","width":10,"fonts":["Nope.ttf"]}"#.utf8) + Data([0x0A]))
    input.append(Data(#"{"id":"empty","text":"","width":10}"#.utf8) + Data([0x0A]))
    // The last line has no final newline.
    input.append(Data(#"{"id":"ok2","text":"안녕하세요","width":100,"size":17}"#.utf8))
    let r = try run(["measure", "-"], stdin: input)
    XCTAssertEqual(r.status, 1, r.stderr)
    let lines = r.lines
    XCTAssertEqual(lines.count, 9)
    XCTAssertEqual(lines[0]["id"] as? String, "ok1")
    XCTAssertEqual(lines[0]["lines"] as? Int, 1)
    XCTAssertEqual(lines[1]["error"] as? String, "invalid UTF-8")
    XCTAssertEqual(lines[1]["line"] as? Int, 2)
    XCTAssertEqual(lines[2]["error"] as? String, "invalid JSON: expected a key in quotes at byte 2")
    XCTAssertTrue((lines[3]["error"] as? String ?? "").contains("width"), "\(lines[3])")
    XCTAssertEqual(lines[3]["id"] as? String, "neg")
    XCTAssertTrue((lines[4]["error"] as? String ?? "").contains("width"))
    XCTAssertTrue((lines[5]["error"] as? String ?? "").contains("colour"))
    XCTAssertTrue((lines[6]["error"] as? String ?? "").contains("Nope.ttf"))
    XCTAssertEqual(lines[7]["lines"] as? Int, 0)
    XCTAssertEqual(lines[7]["height"] as? Int, 0)
    XCTAssertEqual(lines[8]["id"] as? String, "ok2")
  }

  func testJobsDoNotChangeOutput() throws {
    let corpus = Galley.root.appendingPathComponent(
      "Corpus/corpus.jsonl"
    ).path
    let one = try run(["measure", corpus, "--jobs", "1"])
    let two = try run(["measure", corpus, "--jobs", "2"])
    let eight = try run(["measure", corpus, "--jobs", "8"])
    XCTAssertEqual(one.status, 0, one.stderr)
    XCTAssertEqual(one.stdout.split(separator: "\n").count, 3000)
    XCTAssertEqual(one.stdout, two.stdout)
    XCTAssertEqual(one.stdout, eight.stdout)
  }

  /// What a run says on standard error per line (repaired escapes, `--explain`) comes in input
  /// order on any number of threads, as the records do.
  func testJobsDoNotChangeWarningsOrExplanations() throws {
    var input = ""
    for i in 0..<600 {
      let words = String(repeating: "word ", count: 1 + (i * 7) % 40)
      input += #"{"id":"w\#(i)","text":"\#(words)a\ud800b","width":90}"# + "\n"
    }
    let one = try run(["measure", "-", "--jobs", "1"], stdin: Data(input.utf8))
    let two = try run(["measure", "-", "--jobs", "2"], stdin: Data(input.utf8))
    XCTAssertEqual(one.status, 0, one.stderr)
    XCTAssertEqual(one.stderr.split(separator: "\n").count, 600)
    XCTAssertEqual(one.stdout, two.stdout)
    XCTAssertEqual(one.stderr, two.stderr)
    let explainedOne = try run(["measure", "-", "--jobs", "1", "--explain"], stdin: Data(input.utf8))
    let explainedTwo = try run(["measure", "-", "--jobs", "2", "--explain"], stdin: Data(input.utf8))
    XCTAssertEqual(explainedOne.stderr, explainedTwo.stderr)
  }

  func testUnreadableInputsAndUsage() throws {
    let missing = try run(["measure", "/nonexistent/file.jsonl"])
    XCTAssertEqual(missing.status, 66)
    XCTAssertTrue(missing.stderr.contains("no such file"), missing.stderr)
    let dir = try run(["measure", "/tmp"])
    XCTAssertEqual(dir.status, 66)
    XCTAssertTrue(dir.stderr.contains("directory"), dir.stderr)
    let bad = try run(["measure", "--bogus"])
    XCTAssertEqual(bad.status, 64)
    let unknown = try run(["frobnicate"])
    XCTAssertEqual(unknown.status, 64)
    let help = try run(["measure", "--help"])
    XCTAssertEqual(help.status, 0)
    XCTAssertTrue(help.stdout.contains("usage: galley measure"))
  }
}
