import Foundation
import XCTest

/// Every example of the documentation that shows a command with its output is run here and its
/// output compared, numbers included, so that a changed output fails the suite instead of
/// drifting from the docs. How a doc marks its examples (HTML comments, unseen when rendered):
///
/// - a fenced block with lines `$ COMMAND` is a session: each command runs (`sh -c`, in a
///   scratch directory that holds `Examples/` and `fonts/`, `galley` on the PATH) and the lines
///   after it, up to the next `$`, are its exact output; `$ cat FILE` instead writes the lines
///   after it into FILE, for the commands below;
/// - `<!-- input: FILE -->` before a block writes the block into FILE;
/// - `<!-- setup: COMMAND -->` before a block runs COMMAND first (its output is not shown);
/// - `<!-- output of: COMMAND -->` before a block runs COMMAND and compares its output with the
///   block (`wrapped output of`: a long line shown wrapped, compared with the lines joined);
/// - `<!-- not run: WHY -->` before a block says why it cannot be run here.
///
/// Every block that shows JSON, text or output must be one of these (the test fails on one
/// that is none): a new example is checked from the day it is written.
final class DocExampleTests: XCTestCase {
  static let documents = [
    "README.md", "python/README.md", "docs/CASE-FORMAT.md", "docs/CELLS.md",
    "docs/LAYOUT-SPEC.md", "docs/CompositionalLayout.md", "docs/ARCHITECTURE.md", "docs/SPARK.md",
    "Sources/GalleyRecords/GalleyRecords.docc/GalleyRecords.md",
    "Sources/Rasterizer/Rasterizer.docc/Rasterizer.md",
    "Sources/SelfSizing/SelfSizing.docc/SelfSizing.md",
    "Sources/Typesetting/Typesetting.docc/Typesetting.md",
  ]

  struct Block {
    var info: String
    var lines: [String]
    /// The directives before it: ("setup" | "input" | "output of" | "not run", its text).
    var directives: [(kind: String, text: String)]
    var line: Int
  }

  /// The fenced blocks of a Markdown text, each with the directive comment before it.
  static func blocks(_ text: String) -> [Block] {
    var out: [Block] = []
    var pending: [(kind: String, text: String)] = []
    var current: Block?
    for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = String(raw)
      if var b = current {
        if line.hasPrefix("```") {
          out.append(b)
          current = nil
        } else {
          b.lines.append(line)
          current = b
        }
        continue
      }
      if line.hasPrefix("```") {
        current = Block(info: String(line.dropFirst(3)), lines: [], directives: pending, line: n + 1)
        pending = []
      } else if line.hasPrefix("<!-- "), line.hasSuffix(" -->"),
        let colon = line.firstIndex(of: ":")
      {
        let kind = line[line.index(line.startIndex, offsetBy: 5)..<colon]
        let body = line[line.index(after: colon)..<line.index(line.endIndex, offsetBy: -4)]
        pending.append((String(kind), body.trimmingCharacters(in: .whitespaces)))
      } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
        pending = []
      }
    }
    return out
  }

  /// Whether a block shows output (and so must be run, be an input, or say why not).
  static func showsOutput(_ b: Block) -> Bool {
    if b.lines.contains(where: { $0.hasPrefix("$ ") }) { return true }
    return ["", "json", "text", "console", "python"].contains(b.info)
  }

  /// A scratch directory with the checkout's Examples/ and fonts/, where examples run.
  func scratch() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-docs-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
    for name in ["Examples", "fonts"] {
      try FileManager.default.createSymbolicLink(
        at: dir.appendingPathComponent(name),
        withDestinationURL: Galley.root.appendingPathComponent(name))
    }
    return dir
  }

  /// Standard output of `command` run by the shell in `dir`, with the built `galley` and
  /// `libGalleyC.so` the ones it finds.
  func shell(_ command: String, in dir: URL) throws -> String {
    let products = Galley.binary.deletingLastPathComponent()
    var env = ProcessInfo.processInfo.environment
    env["PATH"] = products.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
    env["GALLEY_FONTS"] = Galley.root.appendingPathComponent("fonts").path
    env["GALLEY_LIBRARY"] = products.appendingPathComponent("libGalleyC.so").path
    env["PYTHONPATH"] = Galley.root.appendingPathComponent("python").path
    env["GALLEY_SHAPING"] = nil
    return try outputOf(
      URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: dir, environment: env
    ).output
  }

  /// Lines as a doc shows them: trailing spaces and the final newline do not count.
  static func normalized(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }
    while lines.last == "" { lines.removeLast() }
    return lines
  }

  /// Runs the examples of one document (its text, its path for messages): how many commands
  /// ran, and every place where the doc and the command differ or a block is unmarked.
  func check(_ text: String, path: String) throws -> (ran: Int, problems: [String]) {
    let dir = try scratch()
    var ran = 0
    var problems: [String] = []
    func compare(_ command: String, _ shown: [String], _ place: String, wrapped: Bool = false)
      throws
    {
      var got = Self.normalized(try shell(command, in: dir))
      if wrapped { got = [got.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")] }
      let want = Self.normalized(shown.joined(separator: "\n"))
      if got != want {
        problems.append(
          "\(place): `\(command)` prints\n\(got.joined(separator: "\n"))\nbut the doc shows\n"
            + want.joined(separator: "\n"))
      }
      ran += 1
    }
    for b in Self.blocks(text) {
      let place = "\(path):\(b.line)"
      var handled = false
      for (kind, argument) in b.directives {
        switch kind {
        case "setup":
          _ = try shell(argument, in: dir)
        case "input":
          try (b.lines.joined(separator: "\n") + "\n").write(
            to: dir.appendingPathComponent(argument), atomically: true, encoding: .utf8)
          handled = true
        case "output of":
          try compare(argument, b.lines, place)
          handled = true
        case "wrapped output of":
          // (A long line shown wrapped: compared with every line trimmed and joined by a space.)
          try compare(argument, [b.lines.map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")], place, wrapped: true)
          handled = true
        case "not run":
          if argument.isEmpty { problems.append("\(place): say why it is not run") }
          handled = true
        default:
          problems.append("\(place): unknown directive \(kind)")
        }
      }
      if handled { continue }
      guard b.lines.contains(where: { $0.hasPrefix("$ ") }) else {
        if Self.showsOutput(b) {
          problems.append(
            "\(place): a block that shows output needs a session, <!-- output of: … -->, "
              + "<!-- input: … --> or <!-- not run: … -->")
        }
        continue
      }
      // A session: commands and what each prints.
      var k = 0
      while k < b.lines.count {
        guard b.lines[k].hasPrefix("$ ") else {
          problems.append("\(place): a session's first line is a command")
          break
        }
        let command = String(b.lines[k].dropFirst(2))
        var shown: [String] = []
        k += 1
        while k < b.lines.count && !b.lines[k].hasPrefix("$ ") {
          shown.append(b.lines[k])
          k += 1
        }
        if command.hasPrefix("cat "), !command.contains("|") {
          let file = String(command.dropFirst(4)).trimmingCharacters(in: .whitespaces)
          try (shown.joined(separator: "\n") + "\n").write(
            to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
          continue
        }
        try compare(command, shown, "\(place): $ \(command)")
      }
    }
    return (ran, problems)
  }

  func document(_ path: String) throws -> String {
    try String(contentsOf: Galley.root.appendingPathComponent(path), encoding: .utf8)
  }

  func testEveryDocumentedOutputIsWhatTheCommandPrints() throws {
    var ran = 0
    for path in Self.documents {
      let (n, problems) = try check(try document(path), path: path)
      ran += n
      for p in problems { XCTFail(p) }
    }
    XCTAssertGreaterThanOrEqual(ran, 10, "the docs' examples were found and run")
  }

  /// The test is not blind: one documented number changed (a line's width in the case
  /// format's session) is one difference found.
  func testAChangedNumberFails() throws {
    let path = "docs/CASE-FORMAT.md"
    let text = try document(path)
    XCTAssertTrue(try check(text, path: path).problems.isEmpty)
    let changed = text.replacingOccurrences(of: "\"widest\": 115.15625", with: "\"widest\": 115.15626")
    XCTAssertNotEqual(changed, text)
    XCTAssertEqual(try check(changed, path: path).problems.count, 2, "the session and the result")
  }
}
