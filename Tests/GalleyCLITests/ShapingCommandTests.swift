import Foundation
import ShapingAccelerator
import Typesetting
import XCTest

/// `--shaping`, `GALLEY_SHAPING` and `galley version`, as a user runs them.
final class ShapingCommandTests: XCTestCase {
  let cli = Galley()
  let corpus = "Corpus/corpus.jsonl"

  func testHarfBuzzAndAcceleratedMeasureTheCorpusToTheSameBytes() throws {
    let unset: [String: String?] = ["GALLEY_SHAPING": nil]
    let accelerated = try cli.run(["measure", corpus, "--quiet"], environment: unset)
    let option = try cli.run(["measure", corpus, "--quiet", "--shaping", "harfbuzz"], environment: unset)
    let variable = try cli.run(
      ["measure", corpus, "--quiet"], environment: ["GALLEY_SHAPING": "harfbuzz"])
    XCTAssertEqual(accelerated.status, 0, accelerated.stderr)
    XCTAssertEqual(accelerated.lines.count, 3000)
    XCTAssertEqual(option.status, 0, option.stderr)
    XCTAssertEqual(variable.status, 0, variable.stderr)
    XCTAssertTrue(accelerated.stdout == option.stdout, "--shaping harfbuzz changed the output")
    XCTAssertTrue(accelerated.stdout == variable.stdout, "GALLEY_SHAPING=harfbuzz changed the output")
  }

  func testVersionNamesTheLibrariesAndTheShaping() throws {
    let plain = try cli.run(["version"], environment: ["GALLEY_SHAPING": nil])
    XCTAssertEqual(plain.status, 0)
    let lines = plain.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.map { $0.split(separator: " ").first.map(String.init) ?? "" }, [
      "galley", "harfbuzz", "freetype", "icu", "fontconfig", "libpng", "shaping:",
    ])
    // (The versions as loaded: numbers and dots.)
    for line in lines.dropFirst().dropLast() {
      let version = line.split(separator: " ")[1]
      XCTAssertTrue(version.allSatisfy { $0.isNumber || $0 == "." } && version.contains("."), line)
    }
    XCTAssertEqual(
      lines.last, ShapingAccelerator.fence.map { "shaping: harfbuzz (\($0))" } ?? "shaping: accelerated")
    let variable = try cli.run(["version"], environment: ["GALLEY_SHAPING": "harfbuzz"])
    XCTAssertEqual(
      variable.stdout.split(separator: "\n").last, "shaping: harfbuzz (GALLEY_SHAPING=harfbuzz)")
    let option = try cli.run(["version", "--shaping", "harfbuzz"], environment: ["GALLEY_SHAPING": "accelerated"])
    XCTAssertEqual(
      option.stdout.split(separator: "\n").last, "shaping: harfbuzz (--shaping harfbuzz)")
  }

  /// A machine whose HarfBuzz is not a verified version (simulated: the fence judges as if
  /// HarfBuzz 7.0.0 were linked) runs without the accelerator, says why, and measures the
  /// same bytes.
  func testAnUnverifiedHarfBuzzRunsWithoutTheAcceleratorToTheSameBytes() throws {
    let fenced: [String: String?] = [
      "GALLEY_SHAPING": nil, "GALLEY_FENCE_HARFBUZZ_VERSION": "7.0.0",
    ]
    let reason = "the accelerator is verified on HarfBuzz 6.0.0 only; this is HarfBuzz 7.0.0"
    let linked = EngineVersions.harfBuzz
    let expected = linked == "6.0.0" ? reason : try XCTUnwrap(ShapingAccelerator.fence)
    for args in [["version"], ["version", "--shaping", "accelerated"]] {
      let v = try cli.run(args, environment: fenced)
      XCTAssertEqual(v.stdout.split(separator: "\n").last.map(String.init), "shaping: harfbuzz (\(expected))")
    }
    let plain = try cli.run(["measure", corpus, "--quiet"], environment: ["GALLEY_SHAPING": nil])
    let off = try cli.run(["measure", corpus, "--quiet"], environment: fenced)
    XCTAssertEqual(off.status, 0, off.stderr)
    XCTAssertTrue(plain.stdout == off.stdout, "the fenced run measured differently")
  }

  func testBadShapingValuesAreUsageErrors() throws {
    let text = Data(#"{"id":"a","text":"Hello","width":100}"#.utf8)
    for command in ["measure", "validate", "layout", "render"] {
      let r = try cli.run([command, "-", "--shaping", "fast", "-o", "/tmp/galley-shaping.png"], stdin: text)
      XCTAssertEqual(r.status, 64, command)
      XCTAssertTrue(r.stderr.contains("--shaping must be harfbuzz or accelerated (got 'fast')"), r.stderr)
    }
    let v = try cli.run(["measure", "-"], stdin: text, environment: ["GALLEY_SHAPING": "quick"])
    XCTAssertEqual(v.status, 64)
    XCTAssertTrue(v.stderr.contains("GALLEY_SHAPING"), v.stderr)
    XCTAssertEqual(v.stdout, "")
  }
}
