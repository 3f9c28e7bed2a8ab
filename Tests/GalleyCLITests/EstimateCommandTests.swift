import Foundation
import XCTest

/// `galley calibrate` and `galley measure --estimate`, as a user runs them.
final class EstimateCommandTests: XCTestCase {
  let cli = Galley()

  func temp(_ name: String, _ text: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("galley-estimate-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  func testCalibrateThenEstimateInTheSameFormat() throws {
    let file = try temp("cal.json", "")
    let c = try cli.run(["calibrate", "Examples/transcript.jsonl", "-o", file])
    XCTAssertEqual(c.status, 0, c.stderr)
    XCTAssertTrue(c.stderr.contains("held out"), c.stderr)
    let json = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
    XCTAssertEqual(json["format"] as? String, "galley-calibration")
    XCTAssertEqual(json["version"] as? Int, 1)
    let e = try cli.run(["measure", "--estimate", "--calibration", file, "Examples/transcript.jsonl"])
    let exact = try cli.run(["measure", "Examples/transcript.jsonl"])
    XCTAssertEqual(e.status, 0, e.stderr)
    XCTAssertEqual(e.lines.count, exact.lines.count)
    var within = 0
    for (a, b) in zip(e.lines, exact.lines) {
      XCTAssertEqual(a["estimated"] as? Bool, true)
      XCTAssertEqual(a["id"] as? String, b["id"] as? String)
      if abs((a["height"] as? Double ?? 0) - (b["height"] as? Double ?? 0)) <= 1 { within += 1 }
    }
    // Most estimates are exact on the transcript they were fitted to.
    XCTAssertGreaterThan(within, e.lines.count * 8 / 10)
  }

  func testBadCalibrationInputsAreClearErrors() throws {
    let empty = try temp("empty.jsonl", "")
    let out = try temp("out.json", "")
    let none = try cli.run(["calibrate", empty, "-o", out])
    XCTAssertEqual(none.status, 2)
    XCTAssertTrue(none.stderr.contains("need at least 5 bubbles to calibrate (got 0)"), none.stderr)
    let one = try temp("one.jsonl", #"{"id":"a","text":"hi","containerWidth":390}"# + "\n" + "{oops\n")
    let single = try cli.run(["calibrate", one, "-o", out])
    XCTAssertEqual(single.status, 2)
    XCTAssertTrue(single.stderr.contains("1 record left out"), single.stderr)
    XCTAssertTrue(single.stderr.contains("(got 1)"), single.stderr)
    let input = Data(#"{"id":"a","text":"hi","width":100}"#.utf8)
    let corrupt = try temp("corrupt.json", "{not json")
    let c = try cli.run(["measure", "--estimate", "--calibration", corrupt, "-"], stdin: input)
    XCTAssertEqual(c.status, 64)
    XCTAssertTrue(c.stderr.contains("not JSON"), c.stderr)
    let other = try temp(
      "other.json", #"{"format": "galley-calibration", "version": 1, "fontScales": {"Helvetica.ttc": 1.02}}"#)
    let o = try cli.run(["measure", "--estimate", "--calibration", other, "-"], stdin: input)
    XCTAssertEqual(o.status, 64)
    XCTAssertTrue(o.stderr.contains("fitted to fonts none of which are in"), o.stderr)
    let later = try temp("later.json", #"{"format": "galley-calibration", "version": 2, "fontScales": {}}"#)
    let l = try cli.run(["measure", "--estimate", "--calibration", later, "-"], stdin: input)
    XCTAssertEqual(l.status, 64)
    XCTAssertTrue(l.stderr.contains("version 2"), l.stderr)
    let card = try cli.run(
      ["measure", "--estimate", "-"],
      stdin: Data(#"{"id":"p","template":"productCard","title":"t","width":180}"#.utf8))
    XCTAssertEqual(card.status, 1)
    XCTAssertTrue((card.lines.first?["error"] as? String ?? "").contains("not product cards"))
  }

  func testValidateAgainstTheEstimatorByScript() throws {
    let r = try cli.run([
      "validate", "Examples/transcript.jsonl", "--against", "estimator", "--group-by", "script",
      "--json",
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    XCTAssertEqual(json["count"] as? Int, 200)
    let groups = try XCTUnwrap(json["byScript"] as? [String: Any])
    XCTAssertTrue(Set(groups.keys).isSuperset(of: ["latin", "korean", "arabic", "mixed"]), "\(groups.keys)")
    // No estimatedHeight in the records: the estimator's guess stands for it.
    XCTAssertEqual(json["errors"] as? Int, 0)
    let bad = try cli.run(["validate", "Examples/transcript.jsonl", "--group-by", "font"])
    XCTAssertEqual(bad.status, 64)
    let stray = try cli.run(["validate", "Examples/transcript.jsonl", "--calibration", "x.json"])
    XCTAssertEqual(stray.status, 64)
    XCTAssertTrue(stray.stderr.contains("--calibration goes with --against: it calibrates the estimator"), stray.stderr)
  }
}
