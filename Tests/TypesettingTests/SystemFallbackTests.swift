import Foundation
import XCTest

@testable import Typesetting

/// A cluster no font of its stack has is set in another font of the library's directory, the
/// first that fontconfig ranks for the text's language with the cluster's hint character, as
/// Chromium's system fallback on Linux does with a fontconfig that sees only that directory.
/// (Expected values: Chromium 156.0.8078.114 laying out each text alone at 100 px in the
/// directory's fonts, `line-height: normal`; the widths are those of the fonts named in each
/// test, not Galley's output.)
final class SystemFallbackTests: XCTestCase {
  func layout(_ text: String, _ fonts: [String], language: String = "en") throws -> TextLayout {
    var style = TextStyle(fonts: try Fixtures.library.stack(fonts), size: 100)
    style.language = language
    return try Typesetter(cacheCapacity: 0).prepare(text, style: style).layout(width: 5000)
  }

  /// DejaVu Sans lacks U+0364: the whole cluster takes Inter (fontconfig's first face for
  /// English that has `x`), whose taller line box sets the line's height.
  func testAClusterTheStackLacksTakesTheDirectorysFirstFaceWithIt() throws {
    let l = try layout("x\u{0364}", ["DejaVuSans.ttf"])
    XCTAssertEqual(l.widest, 53.984375, accuracy: 1.0 / 64)
    XCTAssertEqual(l.height, 121)
  }

  /// The hint is looked up in the order of the text's language: Noto Sans Hebrew ranks before
  /// DejaVu Sans (which has Hebrew too) for English, and DejaVu Sans before Noto Sans Arabic
  /// for Arabic.
  func testTheLanguagesOrderDecides() throws {
    XCTAssertEqual(try layout("\u{05D0}", ["Inter-Regular.otf"]).widest, 63.203125, accuracy: 1.0 / 64)
    XCTAssertEqual(
      try layout("\u{0628}", ["Inter-Regular.otf"], language: "ar").widest, 94.140625,
      accuracy: 1.0 / 64)
    // Hangul in a Latin-only stack: NanumGothic, not the missing-glyph box.
    let hangul = try layout("\u{AC00}", ["DejaVuSans.ttf"])
    XCTAssertEqual(hangul.widest, 94, accuracy: 1.0 / 64)
    XCTAssertEqual(hangul.height, 117)
  }

  /// A mark the font lacks but whose composition it has is not missing: HarfBuzz composes
  /// U+0061 U+0300 into NanumGothic's U+00E0.
  func testACompositionTheFontHasIsNotMissing() throws {
    let l = try layout("a\u{0300}", ["NanumGothic.ttf"])
    XCTAssertEqual(l.widest, 52.203125, accuracy: 1.0 / 64)
    XCTAssertEqual(l.height, 115)
  }

  /// The characters still count as missing from the stack, and the prepared text's stack ends
  /// with the font fallback added.
  func testTheStackStillLacksThem() throws {
    var style = TextStyle(fonts: try Fixtures.library.stack(["DejaVuSans.ttf"]), size: 100)
    style.language = "en"
    let p = try Typesetter(cacheCapacity: 0).prepare("ax\u{0364}b", style: style)
    XCTAssertEqual(p.missingCharacters, ["\u{0364}"])
    XCTAssertEqual(p.style.fonts.askedCount, 1)
    XCTAssertEqual(p.style.fonts.fonts.map(\.name), ["DejaVuSans.ttf", "Inter-Regular.otf"])
  }

  /// A character counts as missing from the stack whichever piece of its cluster it is in:
  /// U+2DE0 (a Cyrillic mark, which only Noto Sans has) on a Latin "a" of DejaVu Sans.
  func testAMissingCharacterInALaterScriptPieceCounts() throws {
    var style = TextStyle(fonts: try Fixtures.library.stack(["DejaVuSans.ttf"]), size: 100)
    style.language = "en"
    let p = try Typesetter(cacheCapacity: 0).prepare("a\u{2DE0} b", style: style)
    XCTAssertEqual(p.style.fonts.fonts.map(\.name), ["DejaVuSans.ttf", "NotoSans-Regular.ttf"])
    XCTAssertEqual(p.missingCharacters, ["\u{2DE0}"])
  }

  /// A stack whose primary font was loaded on its own, not by a library, has nothing to fall
  /// back to: the missing-glyph box.
  func testAStackWithoutALibraryKeepsTheBox() throws {
    let fonts = try FontStack([try Font(contentsOf: Fixtures.fontsDir + "/DejaVuSans.ttf")])
    XCTAssertFalse(fonts.hasSystemFallback)
    let p = try Typesetter(cacheCapacity: 0).prepare(
      "x\u{0364}", style: TextStyle(fonts: fonts, size: 100))
    XCTAssertEqual(p.style.fonts.fonts.count, 1)
    XCTAssertGreaterThan(try p.layout(width: 5000).widest, 59)  // DejaVu's x and its box
  }

  /// Private-use characters are not looked up (Chromium does not: U+E000 stays a box though
  /// Inter has it), and a character no face of the directory has keeps the box.
  func testWhatNoFaceHasKeepsTheBox() throws {
    var style = TextStyle(fonts: try Fixtures.library.stack(["DejaVuSans.ttf"]), size: 100)
    style.language = "en"
    let p = try Typesetter(cacheCapacity: 0).prepare("\u{E000}\u{13000}", style: style)
    XCTAssertEqual(p.style.fonts.fonts.map(\.name), ["DejaVuSans.ttf"])
    XCTAssertEqual(p.missingCharacters, ["\u{E000}", "\u{13000}"])
  }

  /// A cluster is taken a font whole (the space of a space with marks too, which line breaking
  /// splits off), and a piece of it in another script on its own: U+0489 (Cyrillic) on a
  /// Latin "p" keeps DejaVu Sans, which has it, while "p" and U+036B, which DejaVu Sans lacks,
  /// take Inter (Chromium: 61.0 + 41.8 px).
  func testAClusterOfTwoScriptsTakesAFontPerPiece() throws {
    XCTAssertEqual(
      try layout("p\u{036B}\u{0489}", ["DejaVuSans.ttf"]).widest, 102.734375, accuracy: 1.0 / 64)
    XCTAssertEqual(try layout("e \u{0306}\u{20DD}\u{0351}t", ["DejaVuSans.ttf"]).widest, 128.859375,
      accuracy: 1.0 / 64)
  }

  /// Threads that meet a library's directory for the first time at once find what one thread
  /// finds (the directory is read once, under the fallback's lock).
  func testThreadsFallBackAsOneThreadDoes() throws {
    let texts = ["x\u{0364}", "\u{AC00}\u{B098}", "\u{6F22}\u{5B57}", "\u{05D0}", "a\u{0300}b", "\u{1F600}"]
    @Sendable func widths(_ library: FontLibrary, _ indices: [Int]) throws -> [Double] {
      let style = TextStyle(fonts: try library.stack(["DejaVuSans.ttf"]), size: 17)
      return try indices.map {
        try Typesetter(cacheCapacity: 0).prepare(texts[$0], style: style).layout(width: 300).widest
      }
    }
    let alone = try widths(FontLibrary(directory: Fixtures.fontsDir), Array(texts.indices))
    let shared = FontLibrary(directory: Fixtures.fontsDir)
    final class Failures: @unchecked Sendable {
      let lock = NSLock()
      var list: [String] = []
      func add(_ s: String) {
        lock.lock()
        list.append(s)
        lock.unlock()
      }
    }
    let failures = Failures()
    DispatchQueue.concurrentPerform(iterations: 12) { i in
      let order = (0..<texts.count).map { ($0 + i) % texts.count }
      do {
        let got = try widths(shared, order)
        for (k, t) in order.enumerated() where got[k] != alone[t] {
          failures.add("thread \(i): \(texts[t].debugDescription) \(got[k]) vs \(alone[t])")
        }
      } catch {
        failures.add("thread \(i): \(error)")
      }
    }
    XCTAssertEqual(failures.list, [])
  }
}
