import XCTest

@testable import SelfSizing

/// Texts are grouped by Unicode's Script property (letters and digits; marks with their base),
/// emoji by Extended_Pictographic and Regional_Indicator: expected groups worked out by hand
/// from the rule (four fifths of the counted characters).
final class ScriptGroupTests: XCTestCase {
  func testGroupsFollowUnicodesScripts() {
    // One text of each script.
    let each: [(String, ScriptGroup)] = [
      ("hello", .latin), ("안녕하세요", .korean), ("こんにちは", .japaneseChinese),
      ("漢字", .japaneseChinese), ("カタカナ", .japaneseChinese), ("مرحبا", .arabic),
      ("שלום", .hebrew), ("สวัสดี", .thai), ("नमस्ते", .devanagari), ("привет", .cyrillic),
      ("😀👍", .emoji),
    ]
    for (text, group) in each { XCTAssertEqual(ScriptGroup.of(text), group, text) }
    // Fullwidth Latin letters and halfwidth katakana are of those scripts, wherever their block.
    XCTAssertEqual(ScriptGroup.of("ｈｅｌｌｏ ｗｏｒｌｄ"), .latin)
    XCTAssertEqual(ScriptGroup.of("ﾃｽﾄ ﾒｯｾｰｼﾞ"), .japaneseChinese)
    XCTAssertEqual(ScriptGroup.of("Ꙁꙁ Ꙃꙃ"), .cyrillic)  // Cyrillic Extended-B
    // Pictographs outside the symbol blocks, and flags.
    XCTAssertEqual(ScriptGroup.of("⌚⌛⏰"), .emoji)
    XCTAssertEqual(ScriptGroup.of("🇰🇷🇯🇵"), .emoji)
    // Joiners and variation selectors count for nothing; 12 Hangul letters against 2 pictographs.
    XCTAssertEqual(ScriptGroup.of("플래시 플레이어는 어디 있나요? 🏴‍☠️"), .korean)
    // Marks go with their base: Arabic with its vowel signs, Latin under a pile of marks.
    XCTAssertEqual(ScriptGroup.of("مُحَمَّد"), .arabic)
    XCTAssertEqual(ScriptGroup.of("Z\u{364}\u{489}a\u{36B}\u{20DD}l\u{300}g\u{489}o"), .latin)
    // Nothing counted: digits of no script, punctuation, Greek (no group of its own).
    XCTAssertEqual(ScriptGroup.of("12:30 — !"), .none)
    XCTAssertEqual(ScriptGroup.of("Ελληνικά"), .none)
    // Four fifths: 4 Latin letters of 5 counted is latin; 3 of 5 is mixed.
    XCTAssertEqual(ScriptGroup.of("abcd 가"), .latin)
    XCTAssertEqual(ScriptGroup.of("abc 가나"), .mixed)
  }
}
