import Foundation
import XCTest

/// Galley's version lives in one constant (`EngineVersions.galley`); the files that cannot read
/// it (galley.pc, the Python package's pyproject.toml) must say the same.
final class VersionTests: XCTestCase {
  func testEveryPlaceStatesTheOneVersion() throws {
    let r = try Galley().run(["version"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let first = try XCTUnwrap(r.stdout.split(separator: "\n").first)
    XCTAssertTrue(first.hasPrefix("galley "), String(first))
    let version = String(first.dropFirst("galley ".count))
    func stated(_ path: String, _ pattern: String) throws -> String? {
      let text = try String(
        contentsOf: Galley.root.appendingPathComponent(path), encoding: .utf8)
      guard let r = text.range(of: pattern, options: .regularExpression) else { return nil }
      return text[r].split(separator: "\"").dropFirst().first.map(String.init)
        ?? text[r].split(separator: " ").last.map(String.init)
    }
    XCTAssertEqual(try stated("galley.pc", #"(?m)^Version: \S+"#), version)
    XCTAssertEqual(try stated("python/pyproject.toml", #"(?m)^version = "[^"]+""#), version)
  }
}
