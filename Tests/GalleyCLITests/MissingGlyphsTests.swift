import Foundation
import GalleyService
import XCTest

/// A measurement that is wrong for a known reason says so: characters no font has.
final class MissingGlyphsTests: XCTestCase {
  let cli = Galley()
  let tofu = #"{"id":"tofu","text":"민지 안녕","fonts":["NotoSans-Regular.ttf"],"width":200,"size":17}"#

  func testTextResultsCountTheCharactersNoFontHas() throws {
    let input = tofu + "\n" + #"{"id":"ok","text":"Hello 민지","width":200}"# + "\n"
    let r = try cli.run(["measure", "-"], stdin: Data(input.utf8))
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.lines.map { $0["missingGlyphs"] as? Int }, [4, 0])
    // One warning, with the line and the characters.
    XCTAssertTrue(r.stderr.contains("1 record holds characters no font"), r.stderr)
    XCTAssertTrue(r.stderr.contains("line 1 (tofu): U+BBFC 민, U+C9C0 지, U+C548 안, U+B155 녕"), r.stderr)
  }

  func testStrictGlyphsMakesThemErrorRecords() throws {
    let r = try cli.run(["measure", "-", "--strict-glyphs"], stdin: Data((tofu + "\n").utf8))
    XCTAssertEqual(r.status, 1)
    XCTAssertEqual(r.lines.count, 1)
    XCTAssertEqual(r.lines[0]["id"] as? String, "tofu")
    XCTAssertTrue((r.lines[0]["error"] as? String ?? "").contains("4 characters no font"), r.stdout)
  }

  func testCellsCountEveryPart() throws {
    // The message's stack has no Hangul: the sender name's two characters are boxes.
    let cell =
      #"{"id":"b","template":"bubble","text":"hi","senderName":"민지","style":{"fonts":["Inter-Regular.otf"]},"containerWidth":390}"#
    let r = try cli.run(["measure", "-"], stdin: Data((cell + "\n").utf8))
    XCTAssertEqual(r.lines.first?["missingGlyphs"] as? Int, 2)
    let covered = cell.replacingOccurrences(
      of: #"["Inter-Regular.otf"]"#, with: #"["Inter-Regular.otf","NanumGothic.ttf"]"#)
    let ok = try cli.run(["measure", "-"], stdin: Data((covered + "\n").utf8))
    XCTAssertEqual(ok.lines.first?["missingGlyphs"] as? Int, 0)
    XCTAssertEqual(ok.stderr, "")
  }
}

import Rasterizer

/// `galley render --overlay` outlines tofu in red; without it nothing red is drawn.
final class MissingGlyphPictureTests: XCTestCase {
  let cli = Galley()

  func redPixels(_ text: String, _ args: [String]) throws -> Int {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("tofu-\(getpid()).png")
    let r = try cli.run(
      ["render", "--text", text, "--fonts", "Inter-Regular.otf", "--width", "200", "--scale", "1",
       "-o", out.path] + args)
    XCTAssertEqual(r.status, 0, r.stderr)
    let png = try PNGImage.read(out.path)
    var red = 0
    for y in 0..<png.height {
      for x in 0..<png.width {
        let c = png.color(x: x, y: y)
        if c.r > 200 && c.g < 120 && c.b < 120 { red += 1 }
      }
    }
    return red
  }

  func testTofuIsOutlinedOnlyWithOverlay() throws {
    // (The overlay also outlines each line's ink, dashed red: the same text without tofu, of
    // the same width, is the baseline.)
    // (Egyptian hieroglyphs: no font of the directory has them, so system fallback finds none.)
    let tofu = try redPixels("Hi \u{13000}\u{13001}", ["--overlay"])
    let plain = try redPixels("Hi WW", ["--overlay"])
    XCTAssertGreaterThan(tofu, plain + 60, "tofu \(tofu), plain \(plain)")
    XCTAssertEqual(try redPixels("Hi \u{13000}\u{13001}", []), 0)
  }
}
