import CHarfBuzz
import Foundation
import GalleyRecords
import XCTest

@testable import ShapingAccelerator
@testable import Typesetting

/// Every way the accelerator shapes (feature gates, direct shaping, the word cache; on one
/// thread or many) keeps the glyphs HarfBuzz gives, at the places it gives them.
final class ShapingPathTests: XCTestCase {
  override func setUpWithError() throws { try requireVerifiedAccelerator() }

  /// What a line draws, as numbers: font, glyph ids, positions and advances of each run.
  func drawing(_ prepared: PreparedText, _ layout: TextLayout) -> [[Double]] {
    prepared.glyphRuns(layout).map { run in
      [Double(run.line), run.origin, run.width, run.isRightToLeft ? 1 : 0]
        + run.glyphs.map(Double.init) + run.x + run.y + run.advances
    }
  }

  /// The glyphs kept are those HarfBuzz gives: shaping every run with HarfBuzz (no feature
  /// gates, no shaping without it) and shaping through a word cache draw the same glyphs at the
  /// same places as the default typesetter, on the whole corpus.
  func testEveryShapingPathKeepsTheSameGlyphs() throws {
    let plain = Typesetter(cacheCapacity: 0)
    let harfBuzzOnly = Typesetter(cacheCapacity: 0, shaping: .harfBuzz)
    let words = Typesetter(cacheCapacity: 0, wordCacheCapacity: 4096)
    var differ: [String] = []
    var compared = 0
    for pass in 0..<2 {  // the second pass finds the words in the cache
      for c in Fixtures.corpus {
        let reference = try plain.prepare(c.text, style: c.style)
        let layout = try reference.layout(width: c.width)
        let expected = drawing(reference, layout)
        for (name, t) in [("harfbuzz", harfBuzzOnly), ("words", words)] where pass == 1 || name == "words" {
          let other = try t.prepare(c.text, style: c.style)
          XCTAssertEqual(try other.layout(width: c.width), layout, c.id)
          if drawing(other, layout) != expected && differ.count < 10 {
            differ.append("\(c.id) (\(name), pass \(pass))")
          }
          compared += 1
        }
      }
    }
    XCTAssertGreaterThan(compared, 8000)
    XCTAssertEqual(differ, [], "glyphs differ")
  }

  /// Feature gates are worked out once per font and plan and shared by every thread: eight
  /// threads meeting fresh fonts at once (each making, or waiting for, the same gates) give the
  /// layouts of shaping every run with all of its features.
  func testFeatureGatesMadeOnEightThreadsAtOnce() throws {
    let fresh = FontLibrary(directory: Fixtures.root.appendingPathComponent("fonts").path)
    let cases = Array(Fixtures.corpus(library: fresh).prefix(1200))
    XCTAssertEqual(cases.count, 1200)
    let whole = Typesetter(cacheCapacity: 0, shaping: .harfBuzz)
    let expected = try cases.map { try whole.prepare($0.text, style: $0.style).layout(width: $0.width) }
    let gated = Typesetter(cacheCapacity: 0)
    XCTAssertEqual(gated.shaping, .accelerated)
    let lock = NSLock()
    nonisolated(unsafe) var differ: [String] = []
    let done = DispatchGroup()
    for t in 0..<8 {
      done.enter()
      Thread {
        for i in stride(from: t, to: cases.count, by: 8) {
          let c = cases[i]
          let got = try? gated.prepare(c.text, style: c.style).layout(width: c.width)
          if got != expected[i] {
            lock.lock()
            differ.append(c.id)
            lock.unlock()
          }
        }
        done.leave()
      }.start()
    }
    done.wait()
    XCTAssertEqual(differ, [])
  }
}
