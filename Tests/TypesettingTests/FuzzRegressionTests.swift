import Foundation
import GalleyBench
import XCTest

@testable import Typesetting

/// The inputs that once made the `typeset` fuzz target fail (`Fuzz/regressions/typeset/`),
/// read as the fuzzer reads them (``FuzzCase``) and checked for what the target checks first:
/// a layout whose numbers are finite and not negative, and measuring that agrees with laying
/// out at the input's width and narrower ones.
final class FuzzRegressionTests: XCTestCase {
  func testTypesetRegressionsReplay() throws {
    let dir = Fixtures.root.appendingPathComponent("Fuzz/regressions/typeset")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    XCTAssertGreaterThanOrEqual(files.count, 7)
    let stacks = try FuzzCase.stackNames.map { try Fixtures.library.stack($0) }
    for name in files {
      let bytes = try Data(contentsOf: dir.appendingPathComponent(name))
      guard let (text, style, width) = FuzzCase.decode(bytes, stacks: stacks) else { continue }
      guard let prepared = try? Typesetter(cacheCapacity: 0).prepare(text, style: style) else {
        continue  // a style refused with a typesetting error: what the target accepts
      }
      for w in [width, width * 0.71, width * 0.37, width * 0.13] {
        let layout = try prepared.layout(width: w)
        XCTAssertTrue(layout.height.isFinite && layout.height >= 0, "\(name): height")
        XCTAssertTrue(layout.widest.isFinite && layout.widest >= 0, "\(name): widest")
        for line in layout.lines {
          XCTAssertTrue(
            line.width.isFinite && line.width >= 0 && line.width <= layout.widest,
            "\(name) at \(w): line width \(line.width), widest \(layout.widest)")
        }
        let m = try prepared.measure(width: w)
        XCTAssertEqual(m.lines, layout.lineCount, "\(name) at \(w)")
        XCTAssertEqual(m.widest, layout.widest, accuracy: 1e-9 * max(1, layout.widest), name)
      }
    }
  }
}
