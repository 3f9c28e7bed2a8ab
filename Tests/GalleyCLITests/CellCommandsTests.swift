import GalleyRecords
import Foundation
import XCTest

/// `galley measure --template`, `galley validate` and `galley layout` as a user runs them.
final class CellCommandsTests: XCTestCase {
  let cli = Galley()

  func testMeasureCellsOneRecordPerLineWithErrors() throws {
    let input = """
      {"id":"a","template":"bubble","text":"안녕하세요 👋","containerWidth":390,"maxWidthFraction":0.75}
      {"id":"b","template":"bubble","containerWidth":390}
      {"id":"c","template":"bubble","text":"x","containerWidth":390,"padding":{"top":-4}}
      {"id":"d","template":"bubble","text":"x","containerWidth":20,"padding":{"leading":12,"trailing":12}}
      {"id":"e","template":"sticker","text":"x"}
      {"id":"f","width":187,"title":"[단독] 한강 야경 선셋 카약 투어 + 인생샷 촬영","price":"39,000원"}
      """
    let r = try cli.run(["measure", "--template", "productCard", "-"], stdin: Data(input.utf8))
    let lines = r.lines
    XCTAssertEqual(lines.count, 6)
    XCTAssertEqual(r.status, 1)
    XCTAssertNotNil(lines[0]["height"])
    XCTAssertEqual(lines[1]["error"] as? String, "missing field \"text\"")
    XCTAssertTrue((lines[2]["error"] as? String ?? "").contains("padding.top"))
    XCTAssertTrue((lines[3]["error"] as? String ?? "").contains("no room"))
    XCTAssertTrue((lines[4]["error"] as? String ?? "").contains("unknown template"))
    XCTAssertEqual(lines[5]["width"] as? Int, 187)  // the default template applies
    XCTAssertEqual(lines[5]["lines"] as? Int, 2)
  }

  /// `--template` names a kind of cell, in every command that takes it: anything else is a
  /// usage error (exit 64) that lists the kinds, before any record is read.
  func testTemplateOptionIsAKindOfCell() throws {
    let record = Data(#"{"id":"a","text":"hi","containerWidth":390}"#.utf8)
    for command in ["measure", "validate"] {
      let r = try cli.run([command, "--template", "sticker", "-"], stdin: record)
      XCTAssertEqual(r.status, 64, command)
      XCTAssertTrue(
        r.stderr.contains("--template must be bubble or productCard (got sticker)"),
        command + ": " + r.stderr)
      XCTAssertEqual(r.lines.count, 0, command)
    }
  }

  /// A bubble record without `maxWidthFraction` takes the library's default, 0.75 of the
  /// container (`BubbleCell`), so the command line and the library size it alike; `null` lifts
  /// the limit. 60 words wrap at either width: the bubble is as wide as its text box allows.
  func testBubbleRecordTakesTheLibrarysMaxWidthFraction() throws {
    let text = String(repeating: "word ", count: 60)
    let cell = #"{"template":"bubble","text":"\#(text)","containerWidth":390%@}"#
    func width(_ extra: String) throws -> Double {
      let r = try cli.run(["measure", "-"], stdin: Data(String(format: cell, extra).utf8))
      XCTAssertEqual(r.status, 0, r.stderr)
      return try XCTUnwrap((r.lines.first?["width"] as? NSNumber)?.doubleValue)
    }
    let absent = try width("")
    XCTAssertLessThanOrEqual(absent, 390 * 0.75)
    XCTAssertGreaterThan(absent, 390 * 0.75 - 40)  // a line of words fills most of it
    XCTAssertEqual(absent, try width(#","maxWidthFraction":0.75"#))
    let unlimited = try width(#","maxWidthFraction":null"#)
    XCTAssertGreaterThan(unlimited, 390 * 0.75)
  }

  /// An output file that cannot be written is exit 73 for every command (it was 66, the code
  /// of unreadable input, for `measure` and `layout`), with the reason.
  func testUnwritableOutputIsExit73() throws {
    let cell = Data(#"{"template":"bubble","text":"hi","containerWidth":390}"#.utf8)
    let spec = Data(#"{"container":{"width":390,"height":844},"sections":[]}"#.utf8)
    for (args, input) in [
      (["measure", "-", "-o", "/nonexistent/dir/x.jsonl"], cell),
      (["layout", "-", "-o", "/nonexistent/dir/x.json"], spec),
      (["render", "--text", "hi", "-o", "/nonexistent/dir/x.png"], Data()),
    ] {
      let r = try cli.run(args, stdin: input)
      XCTAssertEqual(r.status, 73, "\(args): \(r.stderr)")
      XCTAssertTrue(r.stderr.contains("/nonexistent/dir/x"), r.stderr)
      XCTAssertTrue(r.stderr.contains("cannot be written"), r.stderr)
    }
  }

  /// `validate` with unusable records exits 1 and says how many, however loose `--max-error`
  /// (a CI gate must not pass on broken input); an empty input exits 2 with a message; `-o`
  /// writes the report to a file.
  func testValidateCountsUnusableRecordsAndEmptyInput() throws {
    let good = #"{"id":"%@","template":"bubble","text":"hello","containerWidth":390,"estimatedHeight":40}"#
    let input = [
      String(format: good, "a"), #"{"id":"b","template":"bubble","containerWidth":390}"#,
      String(format: good, "c"), "{nope", String(format: good, "e"),
      #"{"id":"f","template":"sticker","text":"x","estimatedHeight":1}"#,
    ].joined(separator: "\n")
    let r = try cli.run(["validate", "-", "--max-error", "100"], stdin: Data(input.utf8))
    XCTAssertEqual(r.status, 1, r.stderr)
    XCTAssertTrue(r.stderr.contains("3 of 6 records could not be measured"), r.stderr)
    XCTAssertTrue(r.stderr.contains("line 2"), r.stderr)
    let empty = try cli.run(["validate", "-"], stdin: Data())
    XCTAssertEqual(empty.status, 2, empty.stderr)
    XCTAssertTrue(empty.stderr.contains("the input holds no record"), empty.stderr)
    // (Blank lines are records that cannot be measured, as in `measure`.)
    let blank = try cli.run(["validate", "-"], stdin: Data("\n\n".utf8))
    XCTAssertEqual(blank.status, 2, blank.stderr)
    XCTAssertTrue(blank.stderr.contains("none of the 2 records"), blank.stderr)
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-validate-\(getpid()).json")
    defer { try? FileManager.default.removeItem(at: out) }
    let o = try cli.run(
      ["validate", "-", "--json", "-o", out.path], stdin: Data(String(format: good, "a").utf8))
    XCTAssertEqual(o.status, 0, o.stderr)
    XCTAssertEqual(o.stdout, "")
    let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any]
    XCTAssertEqual(report?["count"] as? Int, 1)
  }

  func testValidateExitCodeFollowsMaxError() throws {
    // Two bubbles whose estimates are off by known amounts against their measured heights.
    let cell =
      #"{"id":"%@","template":"bubble","text":"hello","containerWidth":390,"style":{"fonts":["Inter-Regular.otf"],"size":17,"lineHeight":20},"padding":{"top":8,"leading":12,"bottom":8,"trailing":12},"scale":1,"estimatedHeight":%@}"#
    // Measured height: 8 + 20 + 8 = 36.
    let input = [String(format: cell, "x", "30"), String(format: cell, "y", "40")].joined(
      separator: "\n")
    let json = try cli.run(["validate", "-", "--json"], stdin: Data(input.utf8))
    XCTAssertEqual(json.status, 0, json.stderr)
    let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
    XCTAssertEqual(report["count"] as? Int, 2)
    XCTAssertEqual((report["meanAbsError"] as? NSNumber)?.doubleValue, 5)
    XCTAssertEqual((report["max"] as? NSNumber)?.doubleValue, 6)
    XCTAssertEqual((report["maxJump"] as? NSNumber)?.doubleValue, 6)  // +6, then +6 − 4 = 2
    XCTAssertEqual(
      try cli.run(["validate", "-", "--max-error", "6"], stdin: Data(input.utf8)).status, 0)
    XCTAssertEqual(
      try cli.run(["validate", "-", "--max-error", "5.5"], stdin: Data(input.utf8)).status, 1)
    XCTAssertEqual(try cli.run(["validate", "-"], stdin: Data("{nope\n".utf8)).status, 2)
  }

  func testLayoutSpecWithCellsAndBadSpecs() throws {
    let spec = """
      {"container": {"width": 390, "height": 844, "scale": 3},
       "sections": [{"items": 2,
         "group": {"axis": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 300}},
                   "subitems": [{"item": {"size": {"width": {"absolute": 187}, "height": {"estimated": 300}}}}],
                   "interItemSpacing": {"fixed": 1}},
         "cells": [{"template": "productCard", "title": "Short"},
                   {"template": "productCard", "title": "A much longer product title that wraps onto a second line"}]}]}
      """
    let r = try cli.run(["layout", "-"], stdin: Data(spec.utf8))
    XCTAssertEqual(r.status, 0, r.stderr)
    let out = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    let attrs = out["attributes"] as! [[String: Any]]
    let frames = attrs.map { ($0["frame"] as! [NSNumber]).map(\.doubleValue) }
    XCTAssertEqual(frames.count, 2)
    XCTAssertGreaterThan(frames[1][3], frames[0][3], "the two-line title makes a taller card")
    // One card that cannot be measured: the rest is laid out, it keeps its estimated 300, its
    // error is listed, and the exit status is 1.
    let oneBad = spec.replacingOccurrences(
      of: #"{"template": "productCard", "title": "Short"}"#,
      with: #"{"template": "productCard", "title": "Short", "imageAspectRatio": -1}"#)
    let partial = try cli.run(["layout", "-"], stdin: Data(oneBad.utf8))
    XCTAssertEqual(partial.status, 1, partial.stderr)
    XCTAssertTrue(partial.stderr.contains("sections[0].cells[0]"), partial.stderr)
    let partialOut =
      try JSONSerialization.jsonObject(with: Data(partial.stdout.utf8)) as! [String: Any]
    let partialFrames = (partialOut["attributes"] as! [[String: Any]]).map {
      ($0["frame"] as! [NSNumber]).map(\.doubleValue)
    }
    XCTAssertEqual(partialFrames[0][3], 300)
    XCTAssertEqual(partialFrames[1], frames[1])
    let errors = partialOut["errors"] as? [[String: Any]]
    XCTAssertEqual(errors?.count, 1)
    XCTAssertEqual(errors?.first?["item"] as? Int, 0)
    XCTAssertEqual(errors?.first?["estimated"] as? Bool, true)
    let bad = try cli.run(
      ["layout", "-"],
      stdin: Data(
        #"{"container": {"width": 390, "height": 844}, "sections": [{"items": 1, "grop": {}}]}"#
          .utf8))
    XCTAssertEqual(bad.status, 2)
    XCTAssertTrue(bad.stderr.contains("sections[0]"), bad.stderr)
  }
}
