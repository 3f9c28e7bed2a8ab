import CHarfBuzz
import CICUShims
import XCTest

@testable import Typesetting

/// Script runs follow Chromium's `ScriptRunIterator` with Unicode 17.0's Script_Extensions.
/// (Expected scripts worked out by hand from that rule; the widths are Chromium 156's.)
final class ScriptRunsTests: XCTestCase {
  func scripts(_ text: String) -> [String] {
    let scalars = text.unicodeScalars.map(\.value)
    var scripts = [hb_script_t](repeating: HB_SCRIPT_COMMON, count: scalars.count)
    Itemization.resolveScripts(scalars, into: &scripts)
    return scripts.map { s in
      let tag = hb_script_to_iso15924_tag(s)
      return String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: UTF8.self)
    }
  }

  /// U+00B7 MIDDLE DOT's extensions (Unicode 17.0) do not name Hangul: after Hangul it begins a
  /// run of its own, in the lowest-coded script they name but Latin (Coptic), and the space
  /// after it stays with it. In Noto Sans CJK that run takes the default forms, not the Korean
  /// ones: Chromium's line is 111.953 px wide (faker-ko_KR-0018).
  func testAMiddleDotAfterHangulBeginsARunOfItsOwn() throws {
    XCTAssertEqual(scripts("자 · 주"), ["Hang", "Hang", "Copt", "Copt", "Hang"])
    let (prepared, c) = try LineEndKerningTests.prepared("faker-ko_KR-0018", of: "classes.jsonl")
    XCTAssertEqual(c.text, "박순자 · 주유원")
    XCTAssertEqual(try prepared.measure(width: c.width).widest, 111.953125, accuracy: 1.0 / 64)
  }

  /// Katakana and hiragana are one run (one OpenType script); common code points go on with
  /// the run before them, or at the start with the first script after them.
  func testKanaIsOneRunAndCommonGoesOnWithItsRun() {
    XCTAssertEqual(scripts("ひらカタ"), ["Hira", "Hira", "Hira", "Hira"])
    XCTAssertEqual(scripts("1 ab, 漢"), ["Latn", "Latn", "Latn", "Latn", "Latn", "Latn", "Hani"])
  }

  /// A closing bracket takes the script its opening bracket's run ended in: "(" closes the
  /// Latin run, so ")" is Latin too and does not go on with the Han run inside.
  func testAClosingBracketTakesItsOpeningBracketsScript() {
    XCTAssertEqual(
      scripts("ab (漢字) cd"),
      ["Latn", "Latn", "Latn", "Latn", "Hani", "Hani", "Latn", "Latn", "Latn", "Latn"])
  }

  /// An inherited mark with extensions lends them to a common code point before it: "5" with
  /// U+0301 (extensions Cher Cyrl Grek Latn Osge Sunu Tale Todr) prefers Cherokee, the lowest
  /// coded but Latin, and a Latin letter after it narrows the run to Latin.
  func testAnInheritedMarkLendsItsExtensionsToACommonBase() {
    XCTAssertEqual(scripts("5\u{301}"), ["Cher", "Cher"])
    XCTAssertEqual(scripts("5\u{301}x"), ["Latn", "Latn", "Latn"])
  }

  /// The brackets the rule reads are ICU's, found among opening and closing punctuation only:
  /// the same as asking every code point of the plane (and the pairs ASCII has among them).
  func testThePairedBracketsAreEveryCodePointWithABracketType() {
    var all: [UInt32] = []
    for c in UInt32(0)..<0x10000 {
      let type = galley_paired_bracket_type(c)
      if type != 0 { all += [c, UInt32(type)] }
    }
    XCTAssertEqual(ScriptSets.pairedBrackets(), all)
    XCTAssertEqual(Array(all.prefix(4)), [0x28, 1, 0x29, 2])
  }
}
