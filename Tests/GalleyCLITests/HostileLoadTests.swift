import Foundation
import XCTest

/// The probes of issue 39 that take a moment, through the command as a user runs it: each was
/// a crash, an `inf` in the JSON, a silent skip or a runaway before. (The ones that need
/// memory or time to show, a million cells or an endless line, are in Scripts/hostile-probes.)
final class HostileLoadTests: XCTestCase {
  let cli = Galley()

  /// Every line of the output is JSON whose numbers are finite.
  func assertFiniteJSON(_ out: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertFalse(out.contains("inf") || out.contains("nan"), out, file: file, line: line)
    for l in out.split(separator: "\n") {
      XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(l.utf8)), String(l), file: file, line: line)
    }
  }

  func testNumbersJSONCannotHoldAreErrorsNamingTheField() throws {
    let records = [
      (#"{"id": "c", "template": "productCard", "title": "A", "imageAspectRatio": 1e-300, "width": 180}"#, "imageAspectRatio"),
      (#"{"id": "b", "template": "bubble", "text": "hi", "containerWidth": 390, "minSize": {"height": 1e308}}"#, "minSize.height"),
      (#"{"id": "s", "template": "bubble", "text": "hi", "containerWidth": 390, "scale": 1e-10}"#, "scale"),
      (#"{"id": "w", "template": "bubble", "text": "hi", "containerWidth": 1e300}"#, "containerWidth"),
      (#"{"id": "e", "template": "bubble", "text": "hi", "containerWidth": 390, "estimatedHeight": 1e308}"#, "estimatedHeight"),
    ]
    let input = try temporaryFile("numbers.jsonl", records.map(\.0).joined(separator: "\n") + "\n")
    let r = try cli.run(["measure", input])
    XCTAssertEqual(r.status, 1)
    assertFiniteJSON(r.stdout)
    XCTAssertEqual(r.lines.count, records.count)
    for (k, (_, field)) in records.enumerated() {
      XCTAssertTrue((r.lines[k]["error"] as? String)?.contains("\"\(field)\"") ?? false, "\(r.lines[k])")
    }
    let v = try cli.run(["validate", input, "--json"])
    assertFiniteJSON(v.stdout)
  }

  func testUpdatesAndSpecsAreBoundedBeforeMemoryIsSpent() throws {
    let spec = try temporaryFile("spec.json", #"""
      {"container": {"width": 390, "height": 844},
       "sections": [{"items": 3, "group": {"axis": "horizontal",
         "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 44}},
         "subitems": [{"item": {"size": {"width": {"fractionalWidth": 1}, "height": {"fractionalHeight": 1}}}}]}}]}
      """#)
    let huge = try temporaryFile("huge.json", #"{"batches":[{"itemCounts":[100000000],"reloadSections":[0]}]}"#)
    let r = try cli.run(["layout", spec, "--updates", huge])
    XCTAssertEqual(r.status, 2)
    XCTAssertEqual(r.stdout, "", "nothing written")
    XCTAssertTrue(r.stderr.contains("itemCounts: more than 1000000 items in all after the batch"), r.stderr)
    let offset = try temporaryFile("offset.json", #"{"batches":[{"contentOffset":1e308}]}"#)
    let o = try cli.run(["layout", spec, "--updates", offset])
    XCTAssertEqual(o.status, 2)
    XCTAssertTrue(o.stderr.contains("contentOffset"), o.stderr)
    let wide = try temporaryFile("wide.json", try String(contentsOfFile: spec, encoding: .utf8)
      .replacingOccurrences(of: "\"width\": 390", with: "\"width\": 1.7e308"))
    let w = try cli.run(["layout", wide])
    XCTAssertEqual(w.status, 2)
    XCTAssertTrue(w.stderr.contains("container.width: must be at most 10000000"), w.stderr)
  }

  func testRenderRefusesScalesItCannotDrawAndNeverTraps() throws {
    let png = FileManager.default.temporaryDirectory.appendingPathComponent("galley-hostile-\(getpid()).png").path
    addTeardownBlock { try? FileManager.default.removeItem(atPath: png) }
    for scale in ["1e-300", "0.01", "9"] {
      let r = try cli.run(["render", "--text", "hi", "--scale", scale, "-o", png])
      XCTAssertEqual(r.status, 64, scale)
      XCTAssertTrue(r.stderr.contains("--scale must be from 0.1 to 8"), r.stderr)
    }
    let tall = try temporaryFile(
      "tall.jsonl", #"{"id": "t", "template": "bubble", "text": "hi", "containerWidth": 390, "minSize": {"height": 1e308}}"# + "\n")
    let t = try cli.run(["render", tall, "-o", png])
    XCTAssertEqual(t.status, 2, "nothing to draw: \(t.stderr)")
    XCTAssertTrue(t.stderr.contains("minSize.height"), t.stderr)
  }

  func testFontsDirectoryAndFontPaths() throws {
    let input = try temporaryFile(
      "paths.jsonl",
      [#"{"id": "a", "text": "x", "fonts": ["/etc/passwd"], "width": 50}"#,
       #"{"id": "b", "text": "x", "fonts": ["/no/such.ttf"], "width": 50}"#].joined(separator: "\n"))
    let r = try cli.run(["measure", input])
    XCTAssertEqual(r.status, 1)
    let errors = r.lines.map { ($0["error"] as? String) ?? "" }
    XCTAssertEqual(
      errors[0].replacingOccurrences(of: "/etc/passwd", with: "P"),
      errors[1].replacingOccurrences(of: "/no/such.ttf", with: "P"), "one message whether or not it exists")
    XCTAssertTrue(errors[0].contains("outside the font directory"), errors[0])
    let anywhere = try cli.run(["measure", input, "--any-font-path"])
    XCTAssertTrue(((anywhere.lines.first?["error"] as? String) ?? "").contains("invalid font passwd"))
    // A fonts directory that is not there: exit 66 before any record.
    let missing = try cli.run(["measure", "--fonts-dir", "/typo", input])
    XCTAssertEqual(missing.status, 66)
    XCTAssertEqual(missing.stdout, "")
    XCTAssertTrue(missing.stderr.contains("--fonts-dir /typo: no such directory"), missing.stderr)
  }

  func testAByteOrderMarkBeforeTheFirstRecordOrSpecIsSkipped() throws {
    let bom = "\u{FEFF}"
    let input = try temporaryFile("bom.jsonl", bom + #"{"id": "a", "text": "Hello", "width": 100}"# + "\n")
    let r = try cli.run(["measure", input])
    XCTAssertEqual(r.status, 0, r.stdout)
    XCTAssertEqual(r.lines.first?["id"] as? String, "a")
    let spec = try temporaryFile("bom.json", bom + #"{"container": {"width": 390, "height": 844}, "sections": []}"#)
    XCTAssertEqual(try cli.run(["layout", spec]).status, 0)
  }
}
