import Foundation
import GalleyService
import XCTest

/// What a newcomer met in a first hour with the command (issue 38): options that did not apply
/// were ignored silently, messages did not name their subject, the samples warned about
/// themselves. Each test failed on the commit before it.
final class FirstHourTests: XCTestCase {
  let cli = Galley()

  func testHelpOfHelpIsTheHelp() throws {
    let r = try cli.run(["help", "--help"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stdout.contains("usage: galley COMMAND"))
    // The top-level help lists validate among the commands that exit 1.
    XCTAssertTrue(try cli.run(["help"]).stdout.contains("(measure, validate, render)"))
  }

  func testRenderOptionsThatDoNotApplyAreUsageErrors() throws {
    let png = FileManager.default.temporaryDirectory.appendingPathComponent("galley-fh-\(getpid()).png").path
    addTeardownBlock { try? FileManager.default.removeItem(atPath: png) }
    let cases: [([String], String)] = [
      (["render", "Examples/brand-grid.json", "--batch", "1", "-o", png], "--batch goes with --updates: it picks a batch"),
      (["render", "Examples/transcript.jsonl", "--updates", "Examples/brand-grid-updates.json", "-o", png],
       "Examples/transcript.jsonl is not one"),
      (["render", "--text", "hi", "--updates", "Examples/brand-grid-updates.json", "-o", png], "--updates does not go with --text"),
    ]
    let more: [([String], String)] = [
      (["render", "Examples/transcript.jsonl", "--size", "20", "-o", png], "--size goes with --text"),
      (["render", "Examples/brand-grid.json", "--updates", "Examples/brand-grid-updates.json", "--overlay", "-o", png],
       "--overlay does not go with --updates"),
      (["measure", "--estimate", "--strict-glyphs", "Examples/transcript.jsonl"], "--strict-glyphs does not go with --estimate"),
      (["measure", "--calibration", "c.json", "Examples/transcript.jsonl"], "--calibration goes with --estimate"),
    ]
    for (args, message) in cases + more {
      let r = try cli.run(args)
      XCTAssertEqual(r.status, 64, args.joined(separator: " "))
      XCTAssertTrue(r.stderr.contains(message), r.stderr)
    }
  }

  func testUpdatesMessagesNameTheFileAndTheBatch() throws {
    let empty = try temporaryFile("empty.json", "")
    let r = try cli.run(["layout", "Examples/brand-grid.json", "--updates", empty])
    XCTAssertEqual(r.status, 2)
    XCTAssertTrue(r.stderr.contains("\(empty): not valid JSON: the file is empty"), r.stderr)
    let unnamed = try temporaryFile("unnamed.json", #"{"batches": [{"deleteSections": [9]}]}"#)
    let u = try cli.run(["layout", "Examples/brand-grid.json", "--updates", unnamed])
    XCTAssertEqual(u.status, 2)
    XCTAssertTrue(u.stderr.contains("batches[0]: deleteSections[0]:"), u.stderr)
    XCTAssertFalse(u.stderr.contains("()"), u.stderr)
  }

  func testAFailedWriteSaysWhyInWords() throws {
    guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
    let p = Process()
    p.executableURL = Galley.binary
    p.arguments = ["measure", "Examples/messages.jsonl", "--quiet"]
    p.currentDirectoryURL = Galley.root
    p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    let err = Pipe()
    p.standardError = err
    try p.run()
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    XCTAssertEqual(p.terminationStatus, 74)
    XCTAssertTrue(message.contains("No space left on device"), message)
    XCTAssertFalse(message.contains("errno"), message)
  }

  func testTheSamplesMeasureWithoutWarnings() throws {
    for args in [
      ["measure", "Examples/transcript.jsonl", "--quiet"],
      ["measure", "Examples/messages.jsonl", "--quiet"],
      ["validate", "Examples/estimates.jsonl", "--quiet"], ["layout", "Examples/home-screen.json"],
    ] {
      let r = try cli.run(args)
      XCTAssertEqual(r.status, 0, args.joined(separator: " "))
      XCTAssertEqual(r.stderr, "", "the samples' own characters all have a font")
    }
  }

  func testOneLineIsOneLine() throws {
    let png = FileManager.default.temporaryDirectory.appendingPathComponent("galley-fh1-\(getpid()).png").path
    addTeardownBlock { try? FileManager.default.removeItem(atPath: png) }
    let r = try cli.run(["render", "--text", "hi", "-o", png])
    XCTAssertEqual(r.status, 0)
    XCTAssertTrue(r.stderr.contains("text, 1 line)"), r.stderr)
  }

  /// One warning rule for characters no font has, in every command that measures.
  func testEveryCommandThatMeasuresWarnsOfMissingGlyphs() throws {
    let bubble = #"{"id": "x", "template": "bubble", "text": "Hi 민지", "style": {"fonts": ["Inter-Regular.otf"]}, "containerWidth": 390, "estimatedHeight": 40}"#
    let records = try temporaryFile("tofu.jsonl", bubble + "\n")
    let spec = try temporaryFile("tofu.json", #"""
      {"container": {"width": 390, "height": 800}, "sections": [{"items": 1,
       "group": {"axis": "vertical", "size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 44}},
                 "subitems": [{"item": {"size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 44}}}}]},
       "cells": [{"template": "bubble", "text": "Hi 민지", "style": {"fonts": ["Inter-Regular.otf"]}}]}]}
      """#)
    let png = FileManager.default.temporaryDirectory.appendingPathComponent("galley-fh2-\(getpid()).png").path
    addTeardownBlock { try? FileManager.default.removeItem(atPath: png) }
    let runs: [([String], String)] = [
      (["measure", records], "line 1 (x)"), (["validate", records], "line 1 (x)"),
      (["render", records, "-o", png], "line 1 (x)"), (["layout", spec], "sections[0].cells[0]"),
      (["render", spec, "-o", png], "sections[0].cells[0]"),
      (["render", "--text", "Hi 민지", "--fonts", "Inter-Regular.otf", "-o", png], "--text"),
    ]
    for (args, place) in runs {
      let r = try cli.run(args)
      XCTAssertTrue(
        r.stderr.contains("1 record holds characters no font of their stack has"),
        "\(args.joined(separator: " ")): \(r.stderr)")
      XCTAssertTrue(r.stderr.contains("\(place): U+BBFC 민, U+C9C0 지"), r.stderr)
    }
  }

  /// LAYOUT-SPEC.md's updates example scrolls to 4000 on a grid 844 tall: the offset before is
  /// clamped to the content, as a scroll view holds it, and no cell is said to teleport (5 were,
  /// moving 130 pt, measured from a screen no reader could see).
  func testOffsetsBeforeABatchAreClampedToTheContent() throws {
    let batches = try temporaryFile("older.json", #"""
      {"batches": [
        {"name": "a fourth brand", "reloadSections": [0], "itemCounts": [4, 1]},
        {"name": "older messages", "insertItems": [{"section": 0, "item": 0}],
         "itemSizes": [{"section": 0, "index": 0, "height": 52}], "contentOffset": 4000, "anchor": "firstVisible"}
      ]}
      """#)
    let r = try cli.run(["layout", "Examples/brand-grid.json", "--updates", batches])
    XCTAssertEqual(r.status, 0, r.stderr)
    let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let second = try XCTUnwrap((root["batches"] as? [[String: Any]])?.last)
    let checks = try XCTUnwrap(second["checks"] as? [String: Any])
    XCTAssertEqual(checks["teleports"] as? Int, 0)
    let offset = try XCTUnwrap(second["contentOffset"] as? [String: Any])
    XCTAssertEqual(offset["before"] as? Double, 0, "clamped to the content (0…0)")
    let note = (second["anchor"] as? [String: Any])?["note"] as? String ?? ""
    XCTAssertTrue(note.contains("the offset before, 4000, lies outside the content"), note)
  }

  /// An option of another command is named as such, not left without a hint.
  func testAnOptionOfAnotherCommandSaysWhoseItIs() throws {
    let r = try cli.run(["measure", "--widht", "300", "Examples/messages.jsonl"])
    XCTAssertEqual(r.status, 64)
    XCTAssertTrue(
      r.stderr.contains("unknown option --widht (--width is an option of render, not of measure)"),
      r.stderr)
    XCTAssertTrue(try cli.run(["render", "--widht", "3", "--text", "x", "-o", "x.png"]).stderr
      .contains("(did you mean --width?)"))
  }
}
