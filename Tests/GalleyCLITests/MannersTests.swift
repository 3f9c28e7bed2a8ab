import Foundation
import XCTest

/// Command-line manners: help with runnable examples, progress only on a terminal, quiet, a
/// closed pipe, Ctrl-C.
final class MannersTests: XCTestCase {
  let cli = Galley()
  static let commands = ["measure", "validate", "layout", "render", "bench"]

  func tempDir() throws -> URL {
    let d = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-manners-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: d) }
    return d
  }

  /// A generated input of `count` short text cases.
  func generated(_ count: Int, in dir: URL) throws -> URL {
    var s = ""
    s.reserveCapacity(count * 80)
    for i in 0..<count {
      s +=
        #"{"id":"g\#(i)","text":"Hello 세계 number \#(i) with words","width":\#(100 + i % 40),"size":17}"#
      s += "\n"
    }
    let url = dir.appendingPathComponent("gen-\(count).jsonl")
    try Data(s.utf8).write(to: url)
    return url
  }

  func testHelpForEveryCommandWithExamples() throws {
    let top = try cli.run(["help"])
    XCTAssertEqual(top.status, 0)
    for c in Self.commands { XCTAssertTrue(top.stdout.contains("  \(c) "), c) }
    XCTAssertTrue(top.stdout.contains("exit status"))
    for code in ["64", "66", "130", "141"] { XCTAssertTrue(top.stdout.contains(code), code) }
    for c in Self.commands {
      let a = try cli.run([c, "--help"])
      let b = try cli.run(["help", c])
      XCTAssertEqual(a.status, 0, c)
      XCTAssertEqual(a.stdout, b.stdout, c)
      XCTAssertTrue(a.stdout.hasPrefix("usage: galley \(c)"), c)
      XCTAssertTrue(a.stdout.contains("examples:\n  galley \(c)"), c)
    }
    XCTAssertEqual(try cli.run(["help", "nope"]).status, 64)
    // An unknown group of bench figures is named, not silently run as the whole bench.
    let bench = try cli.run(["bench", "--only", "nope"])
    XCTAssertEqual(bench.status, 64)
    XCTAssertTrue(bench.stderr.contains("--only nope"), bench.stderr)
  }

  /// A mistyped command or option is usage (64) and names the nearest one; a word far from
  /// every one gets no guess.
  func testMistakesSuggestTheNearestCommandOrOption() throws {
    for (args, suggestion) in [
      (["mesure", "x.jsonl"], "did you mean measure?"),
      (["valdiate", "x.jsonl"], "did you mean validate?"),
      (["help", "rendr"], "did you mean render?"),
      (["validate", "-", "--max-eror", "3"], "did you mean --max-error?"),
      (["measure", "-", "--jbos", "2"], "did you mean --jobs?"),
      (["render", "--text", "hi", "--overlya", "-o", "/tmp/x.png"], "did you mean --overlay?"),
    ] {
      let r = try cli.run(args, stdin: Data())
      XCTAssertEqual(r.status, 64, "\(args)")
      XCTAssertTrue(r.stderr.contains(suggestion), "\(args): \(r.stderr)")
    }
    let far = try cli.run(["frobnicate"])
    XCTAssertEqual(far.status, 64)
    XCTAssertFalse(far.stderr.contains("did you mean"), far.stderr)
  }

  /// A bench corpus with lines that are not cases is timed on the rest, and says which it left
  /// out; one with none left is an error.
  func testBenchSaysWhichCorpusLinesItLeavesOut() throws {
    let cli = Galley()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-bench-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let good = #"{"id":"a","text":"Hello there, how are you today?","width":120}"#
    let mixed = dir.appendingPathComponent("mixed.jsonl")
    try [good, good, "not json", #"{"id":"w","text":"x","width":-1}"#, ""]
      .joined(separator: "\n").write(to: mixed, atomically: true, encoding: .utf8)
    let r = try cli.run(["bench", "--corpus", mixed.path, "--only", "layout", "--repeat", "1"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stderr.contains("2 lines are not usable cases"), r.stderr)
    XCTAssertTrue(r.stderr.contains("(line 3, 4;"), r.stderr)
    XCTAssertTrue(r.stdout.contains("layoutMicrosPerText "), r.stdout)
    let none = dir.appendingPathComponent("none.jsonl")
    try "not json\n".write(to: none, atomically: true, encoding: .utf8)
    let n = try cli.run(["bench", "--corpus", none.path, "--only", "layout"])
    XCTAssertNotEqual(n.status, 0)
    XCTAssertTrue(n.stderr.contains("no usable cases"), n.stderr)
  }

  /// Splits a shell-like line on spaces, keeping "double-quoted" words whole.
  func words(_ line: String) -> [String] {
    var out: [String] = []
    var cur = ""
    var quoted = false
    var any = false
    for ch in line {
      if ch == "\"" {
        quoted.toggle()
        any = true
      } else if ch == " " && !quoted {
        if any || !cur.isEmpty { out.append(cur) }
        cur = ""
        any = false
      } else {
        cur.append(ch)
      }
    }
    if any || !cur.isEmpty { out.append(cur) }
    return out
  }

  func testEveryHelpExampleRuns() throws {
    let dir = try tempDir()
    var ran = 0
    for c in [nil] + Self.commands where c != "bench" {
      let help = try cli.run(c.map { [$0, "--help"] } ?? ["help"]).stdout
      let examples = help.components(separatedBy: "examples:\n").last!
        .split(separator: "\n").prefix { $0.hasPrefix("  ") }
        .map { $0.trimmingCharacters(in: .whitespaces) }
      for example in examples
      where example.hasPrefix("galley ") && !example.contains("|") && !example.contains(" bench") {
        var args = Array(words(example).dropFirst())
        // Outputs go to the temporary directory.
        for i in args.indices.dropFirst()
        where ["-o", "--html", "--frames"].contains(args[i - 1]) {
          args[i] = dir.appendingPathComponent(args[i]).path
        }
        let r = try cli.run(args)
        XCTAssertTrue([0, 1].contains(r.status), "\(example): \(r.status) \(r.stderr)")
        XCTAssertFalse(r.stderr.contains("usage"), example)
        ran += 1
      }
    }
    XCTAssertGreaterThanOrEqual(ran, 15)
  }

  func testProgressBarOnlyOnATerminal() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
      throw XCTSkip("/usr/bin/script (util-linux) is needed to give galley a terminal")
    }
    let dir = try tempDir()
    let input = try generated(3000, in: dir)
    func onTerminal(_ extra: String) throws -> String {
      let (status, output) = try outputOf(
        URL(fileURLWithPath: "/usr/bin/script"),
        [
          "-qec", "\(Galley.binary.path) measure \(input.path) -o /dev/null --jobs 1 \(extra)",
          "/dev/null",
        ],
        in: Galley.root)
      XCTAssertEqual(status, 0)
      return output
    }
    let tty = try onTerminal("")
    XCTAssertTrue(tty.contains("items/s"), tty)
    XCTAssertTrue(tty.contains("100%"), tty)
    XCTAssertTrue(tty.contains("ETA"), tty)
    XCTAssertFalse(try onTerminal("--quiet").contains("items/s"))
    // Piped: standard error stays clean.
    let piped = try cli.run(["measure", input.path, "--jobs", "1"])
    XCTAssertEqual(piped.status, 0)
    XCTAssertEqual(piped.stderr, "")
    XCTAssertEqual(piped.lines.count, 3000)
  }

  func testJobsKeepOrderForValidateToo() throws {
    let input = Galley.root.appendingPathComponent("Examples/estimates.jsonl").path
    let one = try cli.run(["validate", input, "--json", "--jobs", "1"])
    let two = try cli.run(["validate", input, "--json", "--jobs", "2"])
    XCTAssertEqual(one.stdout, two.stdout)
    let m1 = try cli.run(["measure", input, "--jobs", "1"])
    let m2 = try cli.run(["measure", input, "--jobs", "2"])
    XCTAssertEqual(m1.stdout, m2.stdout)
    XCTAssertEqual(m1.lines.count, 200)
  }

  func testClosedPipeStopsQuietlyWithWholeLines() throws {
    let dir = try tempDir()
    let input = try generated(20000, in: dir)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/bash")
    p.arguments = [
      "-c",
      "'\(Galley.binary.path)' measure '\(input.path)' | head -1; echo \"status=${PIPESTATUS[0]}\" >&2",
    ]
    p.currentDirectoryURL = Galley.root
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    XCTAssertEqual(e, "status=141\n", "no message, documented status")
    let lines = o.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(lines.count, 2)
    XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(lines[0].utf8)))
  }

  func testCtrlCStopsCleanlyAtAWholeLine() throws {
    let dir = try tempDir()
    let count = 200_000
    let input = try generated(count, in: dir)
    let p = Process()
    p.executableURL = Galley.binary
    p.arguments = ["measure", input.path, "--jobs", "1"]
    p.currentDirectoryURL = Galley.root
    let out = Pipe()
    let errURL = dir.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let errHandle = try FileHandle(forWritingTo: errURL)
    p.standardOutput = out
    p.standardError = errHandle
    try p.run()
    // Wait until it is producing output, then press Ctrl-C.
    var data = out.fileHandleForReading.availableData
    p.interrupt()
    while true {
      let more = out.fileHandleForReading.availableData
      if more.isEmpty { break }
      data.append(more)
    }
    p.waitUntilExit()
    try errHandle.close()
    let stderr = try String(contentsOf: errURL, encoding: .utf8)
    XCTAssertEqual(p.terminationStatus, 130, stderr)
    XCTAssertTrue(stderr.contains("interrupted"), stderr)
    XCTAssertEqual(data.last, 0x0A, "output ends at a whole line")
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
    XCTAssertLessThan(lines.count, count, "stopped early")
    for (i, l) in lines.enumerated() {
      let o = try XCTUnwrap(
        JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any], "line \(i + 1)")
      XCTAssertEqual(o["id"] as? String, "g\(i)", "in order, none missing")
    }
  }

  /// Peak resident memory (KiB) of `galley measure` on `lines` copies of an invalid record
  /// (every line still makes an output line), through /usr/bin/time.
  func peakKiB(lines: Int, dir: URL) throws -> Int {
    let url = dir.appendingPathComponent("oops-\(lines).jsonl")
    try Data(
      String(repeating: "{oops, not JSON but a line of about the usual length here\n", count: lines)
        .utf8
    )
    .write(to: url)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    p.arguments = ["-f", "peak=%M", Galley.binary.path, "measure", url.path, "-o", "/dev/null"]
    p.currentDirectoryURL = Galley.root
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    let line = try XCTUnwrap(text.split(separator: "\n").last { $0.hasPrefix("peak=") }, text)
    return try XCTUnwrap(Int(line.dropFirst(5)))
  }

  func testMemoryDoesNotGrowWithTheInput() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
      throw XCTSkip("/usr/bin/time (Debian package time) is needed to read the peak memory")
    }
    // Under AddressSanitizer freed memory sits in a quarantine and ThreadSanitizer keeps shadow
    // memory, so resident memory grows with any allocation count: peak figures mean nothing
    // there (Scripts/sanitize sets ASAN_OPTIONS/TSAN_OPTIONS; LeakSanitizer checks leaks then).
    let env = ProcessInfo.processInfo.environment
    if env["ASAN_OPTIONS"] != nil || env["TSAN_OPTIONS"] != nil {
      throw XCTSkip("peak memory is not comparable under a sanitizer")
    }
    let dir = try tempDir()
    let small = try peakKiB(lines: 20_000, dir: dir)
    let large = try peakKiB(lines: 200_000, dir: dir)
    // 180k more output lines: a leak of even 50 bytes a line would add 9 MB.
    XCTAssertLessThan(
      large - small, 4_000, "peak RSS \(small) KiB at 20k lines, \(large) KiB at 200k")
  }
}
