import Foundation
import XCTest

@testable import SelfSizing
@testable import Typesetting

/// The estimator follows the text engine's rules; only a word's advance is its own guess. Each
/// test takes texts whose advances the estimator gets right (within a fraction of a point) and
/// checks that lines and heights then come out as the engine's.
final class EstimatorRuleTests: XCTestCase {
  func style(_ fonts: [String], size: Double = 16) throws -> TextStyle {
    TextStyle(fonts: try Fixtures.library.stack(fonts), size: size)
  }

  /// Estimated lines and height of `text` equal measured ones at each width.
  func assertSameLines(
    _ text: String, _ style: TextStyle, widths: [Double], file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    for w in widths {
      let measured = try CellSizer.shared.layOut(text, style, width: w)
      let estimated = BubbleEstimator().estimateText(text, style: style, width: w)
      XCTAssertEqual(estimated.lines, measured.lineCount, "lines at \(w)", file: file, line: line)
      XCTAssertEqual(
        estimated.height, measured.height, accuracy: 1e-6, "height at \(w)", file: file, line: line)
    }
  }

  /// A long word that overflow-wrap breaks between two kerned characters ends without their
  /// pair's change, and where that no longer fits, one character earlier: the engine's rule
  /// (`PreparedText.lineEndGain`), so the estimated lines end where measured ones do.
  func testALongWordBrokenInsideAKernedPairEndsAsTheEngineEndsIt() throws {
    var s = try style(["Inter-Regular.otf", "NanumGothic.ttf"], size: 16)
    s.overflowWrap = .anywhere
    let text = "f609967210e43a2f962b4d4acbb789a1a76da6d7d5007afb8b7059ec9def03cd"
    for w in stride(from: 120.0, through: 260, by: 0.5) {
      let measured = try CellSizer.shared.layOut(text, s, width: w)
      let estimated = BubbleEstimator().estimateText(text, style: s, width: w)
      XCTAssertEqual(estimated.lines, measured.lineCount, "lines at \(w)")
      XCTAssertEqual(estimated.widest, measured.widest, accuracy: 0.05, "widest at \(w)")
    }
  }

  /// Each line is as tall as the fonts on it: one Devanagari word raises only its own line.
  func testEachLineIsAsTallAsTheFontsOnIt() throws {
    let s = try style(["Inter-Regular.otf", "NotoSansDevanagari-Regular.ttf"])
    let text = "one two three four five six seven eight nine ten eleven twelve नमस्ते"
    try assertSameLines(text, s, widths: [90, 120, 200])
  }

  /// `maxLines` keeps the first lines, each with its own box (a tall word on a cut line does
  /// not count).
  func testMaxLinesKeepsTheFirstLinesAsTheyAre() throws {
    var s = try style(["Inter-Regular.otf", "NotoSansDevanagari-Regular.ttf"])
    s.maxLines = 2
    let text = "one two three four five six seven eight nine ten eleven twelve नमस्ते"
    try assertSameLines(text, s, widths: [90, 120])
  }

  /// A word too wide for a line is broken after the characters that fit, as the engine breaks
  /// it, not after its mean character width.
  func testLongWordsBreakAfterTheCharactersThatFit() throws {
    var s = try style(["Inter-Regular.otf"], size: 17)
    s.overflowWrap = .breakWord
    let text = String(repeating: "hear", count: 14) + " " + String(repeating: "mi", count: 30)
    try assertSameLines(text, s, widths: Array(stride(from: 60.0, through: 300, by: 13)))
  }

  /// A skin tone after an emoji that takes none (a ZWJ sequence's last part, a pan) is drawn as
  /// an emoji of its own, and a line may break before it (UAX #14 keeps it only with a base).
  func testASkinToneAfterWhatTakesNoneIsAnEmojiOfItsOwn() throws {
    let s = try style(["NotoSans-Regular.ttf", "NotoColorEmoji.ttf"], size: 17)
    try assertSameLines(String(repeating: "🍳🏿", count: 12), s, widths: [60, 100, 150])
    try assertSameLines(String(repeating: "👩‍🍳🏿 ", count: 8), s, widths: [70, 100, 150])
  }

  /// A line that ends at a soft hyphen shows a hyphen, which must fit.
  func testASoftHyphenShowsAHyphenThatMustFit() throws {
    let s = try style(["Inter-Regular.otf"], size: 17)
    let text = "koch\u{AD}entr\u{AD}agen\u{AD}fall\u{AD}enna\u{AD}sses\u{AD}senv\u{AD}erge"
    let widths = (0..<40).map { 60 + Double($0) * 4.3 }
    try assertSameLines(text, s, widths: widths)
  }

  /// Tabs go to the engine's tab stops: a tab less than half a space before a stop goes to
  /// the next one.
  func testTabsStopWhereTheEnginesDo() throws {
    var s = try style(["Inter-Regular.otf"], size: 16)
    s.whiteSpace = .preWrap
    for tabSize in [1, 2, 4] {
      s.tabSize = tabSize
      for text in ["a\tb", "abcdefg\tx", "mmmm\tmm\tm", "iiiiiiii\tx"] {
        let measured = try CellSizer.shared.layOut(text, s, width: 1e6).widest
        let estimated = BubbleEstimator().estimateText(text, style: s, width: 1e6).widest
        XCTAssertEqual(estimated, measured, accuracy: 0.05, "\(text.debugDescription) \(tabSize)")
      }
    }
  }

  /// A tab on a wrapped line goes to the stops of that line, counted from the line's start
  /// (not the paragraph's).
  func testTabsOnWrappedLinesStopFromTheLinesStart() throws {
    var s = try style(["Inter-Regular.otf"], size: 16)
    s.whiteSpace = .preWrap
    s.overflowWrap = .breakWord
    for tabSize in [2, 4, 8] {
      s.tabSize = tabSize
      let texts = [
        "mmm\tmm iiiii\tx abc\tdef\tg hijk\tl m\tnop\tqr stu\t\tv wx \ty\n\tz ab\tc",
        // (After the last part of a word broken by overflow-wrap, from that part's line.)
        String(repeating: "hear", count: 12) + "\tx\ty z\tw",
      ]
      for text in texts {
        for width in stride(from: 70.0, through: 260, by: 9) {
          let measured = try CellSizer.shared.layOut(text, s, width: width)
          let estimated = BubbleEstimator().estimateText(text, style: s, width: width)
          XCTAssertEqual(estimated.lines, measured.lineCount, "lines at \(width), \(tabSize)")
          XCTAssertEqual(
            estimated.widest, measured.widest, accuracy: 0.05, "widest at \(width), \(tabSize)")
        }
      }
    }
  }

  /// A line up to 1/64 pt wider than the width still fits, as in the engine.
  func testALineWithinTheFitToleranceFits() throws {
    let s = try style(["Inter-Regular.otf"], size: 17)
    let text = "Estimates that fit"
    let natural = BubbleEstimator().estimateText(text, style: s, width: 1e6).widest
    XCTAssertEqual(BubbleEstimator().estimateText(text, style: s, width: natural - 0.01).lines, 1)
    let measured = try CellSizer.shared.layOut(text, s, width: 1e6).widest
    XCTAssertEqual(try CellSizer.shared.layOut(text, s, width: measured - 0.01).lineCount, 1)
  }

  /// Lines break where the engine's rules allow: no break after "?" before "." or after "/";
  /// none before a hyphen or a closing quote; after a hyphen only before a letter.
  func testLinesBreakWhereTheEnginesRulesAllow() throws {
    // (No overflow-wrap: a word too wide for a line stays whole, so only break places count.)
    var s = try style(["Inter-Regular.otf", "NanumGothic.ttf"], size: 16)
    s.overflowWrap = .normal
    let text = "Really?. Yes?! a/b/c (aside) 한국어“인용”입니다 ok-5 $(x) well-known"
    try assertSameLines(text, s, widths: Array(stride(from: 40.0, through: 260, by: 3)))
  }

  /// Natural widths of texts whose advances only the engine's forms get right.
  func assertSameWidth(
    _ text: String, _ style: TextStyle, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let measured = try CellSizer.shared.layOut(text, style, width: 1e6).widest
    let estimated = BubbleEstimator().estimateText(text, style: style, width: 1e6).widest
    XCTAssertEqual(estimated, measured, accuracy: 0.05, text.debugDescription, file: file, line: line)
  }

  /// A consonant takes the form its vowel sign gives it (र with ु or ू).
  func testVowelSignsGiveTheirConsonantsTheirForms() throws {
    let s = try style(["NotoSansDevanagari-Regular.ttf"], size: 16)
    for text in ["गुरुंग", "अरुण", "रूप", "बुरुह"] { try assertSameWidth(text, s) }
  }

  /// An Indic mark with no base is drawn on a dotted circle.
  func testABaselessIndicMarkIsDrawnOnADottedCircle() throws {
    let s = try style(["Inter-Regular.otf", "NotoSansDevanagari-Regular.ttf"], size: 16)
    for text in ["िकशोरी", "x ा", "ुक"] { try assertSameWidth(text, s) }
  }

  /// A character no font of the stack has takes the font system fallback finds in the
  /// directory (☃ and ䷀ in DejaVu Sans), or the primary font's missing-glyph box where none has
  /// it (U+13000); a mark the letter's font lacks moves the letter to the font that has both.
  func testACharacterNoFontHasTakesTheEnginesFallback() throws {
    let s = try style(["Inter-Regular.otf"], size: 17)
    for text in ["a☃b", "䷀䷁ x", "a\u{13000}b"] { try assertSameWidth(text, s) }
    let d = try style(["DejaVuSans.ttf"], size: 17)
    for text in ["x\u{0364} y", "pͫ҉q", "a\u{0300}"] { try assertSameWidth(text, d) }
  }

  /// Pairs of Thai characters and of Arabic-Indic digits change width as shaping sets them
  /// (the font's kerning and contextual digits).
  func testThaiAndArabicIndicDigitPairsAreAsShaped() throws {
    let thai = try style(["NotoSansThai-Regular.ttf", "NotoSans-Regular.ttf"], size: 16)
    for text in ["แจ่มใสไอโอเอสเงากล่องแถบแรก", "เผื่อห่อข้าวโง่แข่งขันไชโย"] {
      try assertSameWidth(text, thai)
    }
    let arabic = try style(["NotoSansArabic-Regular.ttf", "NotoSans-Regular.ttf"], size: 16)
    for text in ["٣٠٣٠", "٢٠٠٤"] { try assertSameWidth(text, arabic) }
  }

  /// A letter that does not join the next one (reh, zain, alef…) kerns with it, alone or
  /// joined onward.
  func testArabicLettersKernAfterTheRightJoiningOnes() throws {
    let s = try style(["NotoSansArabic-Regular.ttf", "NotoSans-Regular.ttf"], size: 16)
    for text in ["بمباركة", "رم", "ركة", "اللازمة", "الشهيرة", "انتصارهم"] {
      try assertSameWidth(text, s)
    }
  }

  /// Thai breaks where the engine's dictionary breaks it, between words with no space.
  func testThaiBreaksWhereTheEnginesDictionaryDoes() throws {
    var s = try style(["NotoSansThai-Regular.ttf", "NotoSans-Regular.ttf"], size: 16)
    s.overflowWrap = .normal
    s.language = "th"
    let text = "แจ่มใสไอโอเอสเงากล่องแถบแรกหม้อพยาธิเบียร์เดี่ยว เผื่อห่อข้าวโง่แข่งขันไชโยแม่โน่นเย็บ"
    try assertSameLines(text, s, widths: Array(stride(from: 60.0, through: 300, by: 7)))
  }

  /// The buffer of characters' ends, kept per thread from text to text, gives back what one very
  /// long word grew it to once the text is read (estimates of it unchanged).
  func testAVeryLongWordLeavesNoLargeBufferBehind() throws {
    let s = try style(["Inter-Regular.otf"], size: 16)
    var fonts = BubbleEstimator.RecentFonts()
    let word = String(repeating: "ab", count: 20_000)
    let b = BubbleEstimator().block(word, s, width: 200, fonts: &fonts)
    XCTAssertEqual(fonts.ends.pointer.pointee.capacity, 256)
    let again = BubbleEstimator().block(word, s, width: 200)
    XCTAssertEqual(b.lines, again.lines)
    XCTAssertGreaterThan(b.lines, 100)
  }
}
