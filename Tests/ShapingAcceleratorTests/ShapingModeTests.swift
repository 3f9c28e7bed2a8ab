import Foundation
import XCTest

@testable import ShapingAccelerator
@testable import Typesetting

/// The accelerator's fence and switch: on only where verified, and the same answers either way.
final class ShapingModeTests: XCTestCase {
  override func setUp() { ShapingAccelerator.install() }

  /// Installed behind a closed fence (as on a HarfBuzz it was not verified against), the
  /// accelerator refuses: typesetters shape with HarfBuzz alone and give the fence as reason.
  func testInstalledBehindAClosedFenceTheAcceleratorStaysOff() throws {
    let fence = try XCTUnwrap(ShapingAccelerator.fence(linked: "7.0.0"))
    XCTAssertEqual(ShapingAccelerator.install(fence: fence), fence)
    defer { ShapingAccelerator.install() }
    for asked in [nil, ShapingMode.accelerated] {
      let t = Typesetter(cacheCapacity: 0, wordCacheCapacity: 100, shaping: asked)
      XCTAssertEqual(t.shaping, .harfBuzz)
      XCTAssertEqual(t.shapingReason, fence)
      for c in Fixtures.corpus.prefix(200) { _ = try t.prepare(c.text, style: c.style) }
      XCTAssertEqual(t.shapingCounts.direct, 0)
      XCTAssertEqual(t.wordCacheCount, 0)
    }
  }

  func testTheAcceleratorRunsWhereHarfBuzzIsVerified() throws {
    try XCTSkipIf(
      ShapingAccelerator.fence != nil,
      """
      \(ShapingAccelerator.fence ?? "") (ShapingAccelerator.verifiedHarfBuzzVersions): the \
      accelerator is off in this build, and its comparison tests skip. Run DirectShapingTests, FeatureGateTests and this file's comparisons \
      against it with the version added to the list, and keep it there only when they pass.
      """)
    XCTAssertEqual(Typesetter(cacheCapacity: 0).shaping, .accelerated)
    XCTAssertEqual(ShapingMode.resolve(.accelerated).mode, .accelerated)
  }

  /// On a HarfBuzz that is not verified, nothing runs the accelerator, whatever is asked.
  func testAnUnverifiedHarfBuzzFencesTheAcceleratorOff() {
    XCTAssertNil(ShapingAccelerator.fence(linked: ShapingAccelerator.verifiedHarfBuzzVersions[0]))
    let fence = ShapingAccelerator.fence(linked: "7.0.0")
    XCTAssertEqual(
      fence, "the accelerator is verified on HarfBuzz 6.0.0 only; this is HarfBuzz 7.0.0")
    if ShapingAccelerator.fence != nil {
      XCTAssertEqual(Typesetter(cacheCapacity: 0, shaping: .accelerated).shaping, .harfBuzz)
      XCTAssertEqual(ShapingMode.resolve(.accelerated).reason, ShapingAccelerator.fence)
    }
  }

  func testHarfBuzzModeShapesEveryRunWithHarfBuzzAndKeepsNoWords() throws {
    let cases = Array(Fixtures.corpus.prefix(400))
    XCTAssertFalse(cases.isEmpty)
    let harfBuzz = Typesetter(cacheCapacity: 0, wordCacheCapacity: 1000, shaping: .harfBuzz)
    let accelerated = Typesetter(cacheCapacity: 0, shaping: .accelerated)
    XCTAssertEqual(harfBuzz.shaping, .harfBuzz)
    XCTAssertNil(harfBuzz.shapingReason)
    XCTAssertEqual(harfBuzz.wordCacheCapacity, 0, "the word cache is part of the accelerator")
    for c in cases {
      _ = try harfBuzz.prepare(c.text, style: c.style)
      _ = try accelerated.prepare(c.text, style: c.style)
    }
    XCTAssertGreaterThan(harfBuzz.shapingCounts.runs, 0)
    XCTAssertEqual(harfBuzz.shapingCounts.direct, 0)
    if ShapingAccelerator.fence == nil {
      XCTAssertGreaterThan(accelerated.shapingCounts.direct, 0)
    } else {
      XCTAssertEqual(accelerated.shapingCounts.direct, 0, "fenced off: HarfBuzz alone")
    }
  }

  /// Glyph ids, clusters, advances and offsets of every corpus text, and its lines at three
  /// widths, are the same in both modes.
  func testBothModesGiveTheSameGlyphsAndLines() throws {
    let cases = Fixtures.corpus
    XCTAssertGreaterThan(cases.count, 1000)
    let harfBuzz = Typesetter(cacheCapacity: 0, shaping: .harfBuzz)
    let accelerated = Typesetter(cacheCapacity: 0, shaping: .accelerated)
    var differing: [String] = []
    for c in cases {
      let a = try accelerated.prepare(c.text, style: c.style)
      let h = try harfBuzz.prepare(c.text, style: c.style)
      var same = a.glyphs == h.glyphs && a.runs == h.runs
      for f in [0.5, 1.0, 1.7] where same {
        let w = c.width * f
        same = try a.layout(width: w) == h.layout(width: w)
      }
      if !same { differing.append(c.id) }
    }
    XCTAssertEqual(differing, [], "\(differing.count) texts shape differently")
  }

  func testModesByName() throws {
    XCTAssertEqual(ShapingMode(name: "HarfBuzz"), .harfBuzz)
    XCTAssertEqual(ShapingMode(name: "accelerated"), .accelerated)
    XCTAssertNil(ShapingMode(name: "fast"))
    XCTAssertEqual(ShapingMode.resolve(.harfBuzz).mode, .harfBuzz)
    XCTAssertNil(ShapingMode.resolve(.harfBuzz).reason)
  }
}

/// Characters no font of the stack has.
final class MissingCharactersTests: XCTestCase {
  func testTofuIsCountedControlsAndJoinersAreNot() throws {
    let noto = try FontLibrary.bundled.stack(["NotoSans-Regular.ttf"])
    let style = TextStyle(fonts: noto, size: 17)
    let t = Typesetter(cacheCapacity: 0)
    XCTAssertEqual(
      try t.prepare("민지 안녕", style: style).missingCharacters.map(\.value),
      [0xBBFC, 0xC9C0, 0xC548, 0xB155])
    XCTAssertEqual(try t.prepare("Hello, world", style: style).missingCharacters, [])
    // A control, a zero-width joiner and a soft hyphen need no glyph.
    XCTAssertEqual(try t.prepare("a\u{0001}b\u{200D}c\u{00AD}d", style: style).missingCharacters, [])
    let both = try FontLibrary.bundled.stack(["NotoSans-Regular.ttf", "NanumGothic.ttf"])
    XCTAssertEqual(
      try t.prepare("민지 안녕", style: TextStyle(fonts: both, size: 17)).missingCharacters, [])
  }
}
