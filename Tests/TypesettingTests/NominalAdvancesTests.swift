import Typesetting
import XCTest

/// Advances straight from `cmap` + `hmtx` (the estimator's input), checked against the shaper.
final class NominalAdvancesTests: XCTestCase {
  func testAdvancesAgreeWithTheFontsOwnTables() throws {
    let inter = try Fixtures.library.font(named: "Inter-Regular.otf")
    let table = inter.nominalAdvances()
    for c in UInt32(0x20)..<0x7F {
      XCTAssertEqual(Double(table[c]), inter.asciiAdvances[Int(c)], accuracy: 1e-6, "U+\(c)")
    }
    XCTAssertLessThan(table[0xAC00], 0, "Inter has no Hangul")
    XCTAssertLessThan(table[0x1F600], 0, "outside the BMP: not in the table")
    XCTAssertNil(inter.nominalAdvance(0xAC00))
    XCTAssertTrue(table === inter.nominalAdvances(), "made once, then shared")
  }

  func testUniformBlocksAndMarks() throws {
    let cjk = try Fixtures.library.font(named: "NotoSansCJK-Regular.ttc")
    let table = cjk.nominalAdvances()
    // Every Hangul syllable has the same advance in Noto Sans CJK (0.92 em; uniform blocks).
    XCTAssertEqual(table[0xAC00], 0.92, accuracy: 1e-6)
    for c in stride(from: UInt32(0xAC00), through: 0xD7A3, by: 97) {
      XCTAssertEqual(table[c], table[0xAC00], "U+\(String(c, radix: 16))")
    }
    // A combining mark is placed by shaping, not advanced.
    let dejavu = try Fixtures.library.font(named: "DejaVuSans.ttf")
    XCTAssertEqual(dejavu.nominalAdvances()[0x0301], 0)
    XCTAssertEqual(dejavu.nominalAdvance(0x0301), 0)
    // The colour emoji font: whole strike pixels over the strike's size (136 / 109).
    let emoji = try Fixtures.library.font(named: "NotoColorEmoji.ttf")
    XCTAssertEqual(emoji.nominalAdvance(0x1F600) ?? 0, 136.0 / 109.0, accuracy: 1e-6)
  }

  func testAdvancesMatchUnkernedShaping() throws {
    // Without kerning or ligatures, a Latin word is exactly the sum of its nominal advances.
    var style = try Fixtures.style(["NotoSans-Regular.ttf"], size: 100)
    style.features = ["kern": 0, "liga": 0]
    let text = "Nominal widths"
    let width = try Typesetter().prepare(text, style: style).layout(width: 1e6).widest
    let table = try Fixtures.library.font(named: "NotoSans-Regular.ttf").nominalAdvances()
    let sum = text.unicodeScalars.reduce(0.0) { $0 + Double(table[$1.value]) * 100 }
    XCTAssertEqual(width, sum, accuracy: 0.02)
  }
}
