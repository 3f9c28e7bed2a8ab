import Foundation
import Typesetting
import XCTest

/// Paragraph layout behaviours: line heights, truncation, white space, profiles.
final class LayoutTests: XCTestCase {
  let typesetter = Typesetter(cacheCapacity: 0)

  func style(_ fonts: [String] = ["Inter-Regular.otf", "NanumGothic.ttf"], size: Double = 17) throws
    -> TextStyle
  {
    try Fixtures.style(fonts, size: size)
  }

  func testFixedAndMultipleLineHeights() throws {
    var s = try style()
    s.lineHeight = .points(25.5)
    let text = "one two three four five six seven"
    let l = try typesetter.prepare(text, style: s).layout(width: 60)
    XCTAssertGreaterThan(l.lineCount, 2)
    XCTAssertEqual(l.height, Double(l.lineCount) * 25.5)
    s.lineHeight = .multiple(1.5)
    let m = try typesetter.prepare(text, style: s).layout(width: 60)
    XCTAssertEqual(m.height, Double(m.lineCount) * 1.5 * 17)
  }

  func testNormalLineHeightRoundsAscentAndDescentInBrowserProfile() throws {
    // Inter at 15 px: ascent 14.53 → 15 and descent 3.63 → 4 (Chromium on Linux): 19 per line.
    var s = try style(["Inter-Regular.otf"], size: 15)
    let l = try typesetter.prepare("Hello", style: s).layout(width: 300)
    XCTAssertEqual(l.height, 19)
    s.profile = .apple
    let a = try typesetter.prepare("Hello", style: s).layout(width: 300)
    let inter = s.fonts.primary
    XCTAssertEqual(a.height, 15 * (inter.ascender + inter.descender), accuracy: 1e-9)
    XCTAssertNotEqual(a.height, l.height)
    XCTAssertEqual(a.height(roundedUpToScale: 3), (a.height * 3).rounded(.up) / 3)
  }

  func testFallbackFontGrowsNormalLineHeight() throws {
    // A line with Korean set in NanumGothic is as tall as Nanum's box if that is taller.
    let s = try style(["Inter-Regular.otf", "NanumGothic.ttf"], size: 17)
    let latin = try typesetter.prepare("abc", style: s).layout(width: 300)
    let mixed = try typesetter.prepare("abc 가나다", style: s).layout(width: 300)
    XCTAssertGreaterThanOrEqual(mixed.height, latin.height)
  }

  func testAppleLineSpacingAndBounds() throws {
    var s = try style(["Inter-Regular.otf"], size: 17)
    s.profile = .apple
    s.minimumLineHeight = 30
    s.lineSpacing = 4
    let l = try typesetter.prepare("one\ntwo\nthree", style: s).layout(width: 300)
    XCTAssertEqual(l.lineCount, 3)
    XCTAssertEqual(l.height, 3 * 30 + 2 * 4, accuracy: 1e-9)
    s.minimumLineHeight = nil
    s.maximumLineHeight = 10
    let m = try typesetter.prepare("one\ntwo", style: s).layout(width: 300)
    XCTAssertEqual(m.height, 2 * 10 + 4, accuracy: 1e-9)
  }

  func testLineSeparatorsBreakOnlyInAppleProfile() throws {
    var s = try style()
    let text = "first\u{2028}second"
    XCTAssertEqual(try typesetter.prepare(text, style: s).layout(width: 500).lineCount, 1)
    s.profile = .apple
    let a = try typesetter.prepare(text, style: s).layout(width: 500)
    XCTAssertEqual(a.lineCount, 2)
    XCTAssertEqual(a.lines[1].start, 6)
  }

  func testForcedBreaksAndTrailingNewline() throws {
    let s = try style()
    let l = try typesetter.prepare("a\n\nb\n", style: s).layout(width: 500)
    XCTAssertEqual(l.lineCount, 3)  // a trailing newline adds no line (Chromium)
    XCTAssertEqual(l.lines.map(\.start), [0, 2, 3])
    XCTAssertEqual(l.lines[1].width, 0)
    let crlf = try typesetter.prepare("a\r\nb", style: s).layout(width: 500)
    XCTAssertEqual(crlf.lines.map(\.start), [0, 3])
  }

  func testWhiteSpaceModes() throws {
    var s = try style()
    let text = "  a    b  \n c"
    s.whiteSpace = .normal
    let normal = try typesetter.prepare(text, style: s).layout(width: 500)
    XCTAssertEqual(normal.lineCount, 1)
    s.whiteSpace = .preWrap
    let preWrap = try typesetter.prepare(text, style: s).layout(width: 500)
    XCTAssertEqual(preWrap.lineCount, 2)
    XCTAssertGreaterThan(preWrap.lines[0].width, normal.widest / 2)
    s.whiteSpace = .nowrap
    XCTAssertEqual(try typesetter.prepare("a b c d e f g", style: s).layout(width: 5).lineCount, 1)
    s.whiteSpace = .pre
    XCTAssertEqual(try typesetter.prepare("a b c\nd e", style: s).layout(width: 5).lineCount, 2)
  }

  func testHangingSpacesDoNotCountInWidth() throws {
    let s = try style()
    let a = try typesetter.prepare("word", style: s).layout(width: 500)
    let b = try typesetter.prepare("word     ", style: s).layout(width: 500)
    XCTAssertEqual(a.widest, b.widest)
    XCTAssertEqual(b.lineCount, 1)
  }

  func testKeepAllKeepsKoreanWordsWhole() throws {
    var s = try style(["NanumGothic.ttf"], size: 17)
    s.language = "ko"
    let text = "데비안 패키지 관리 시스템"
    s.wordBreak = .keepAll
    let keep = try typesetter.prepare(text, style: s).layout(width: 90)
    for line in keep.lines.dropFirst() {
      let before = Array(text.unicodeScalars)[line.start - 1]
      XCTAssertEqual(before, " ", "keep-all broke inside a word at \(line.start)")
    }
    s.wordBreak = .normal
    let normal = try typesetter.prepare(text, style: s).layout(width: 90)
    XCTAssertTrue(
      normal.lines.dropFirst().contains { Array(text.unicodeScalars)[$0.start - 1] != " " })
  }

  func testTruncationAtEndMiddleStart() throws {
    var s = try style(["Inter-Regular.otf"], size: 17)
    s.maxLines = 1
    let text = "The quick brown fox jumps over the lazy dog"
    for mode in TextStyle.Truncation.allCases {
      s.truncation = mode
      let l = try typesetter.prepare(text, style: s).layout(width: 120)
      XCTAssertEqual(l.lineCount, 1, "\(mode)")
      XCTAssertTrue(l.isTruncated)
      XCTAssertLessThanOrEqual(l.widest, 120 + 1.0 / 64, "\(mode)")
      XCTAssertGreaterThan(l.widest, 60, "\(mode)")
      XCTAssertNotNil(l.ellipsisOffset)
      XCTAssertLessThan(l.visibleRange.upperBound, text.unicodeScalars.count)
    }
    s.maxLines = 2
    s.truncation = .end
    let two = try typesetter.prepare(text, style: s).layout(width: 120)
    XCTAssertEqual(two.lineCount, 2)
    s.maxLines = nil
    let single = try typesetter.prepare("x", style: s).layout(width: 120)
    XCTAssertEqual(two.height, 2 * single.height)
  }

  func testPrepareOnceLayoutManyEqualsFreshLayouts() throws {
    var s = try style(["Inter-Regular.otf", "NanumGothic.ttf", "NotoColorEmoji.ttf"], size: 15)
    s.language = "ko"
    let text = "데비안 패키지 관리 시스템은 dpkg와 apt로 이루어져 있습니다 👋 자세한 내용은 문서를 보세요."
    let prepared = try typesetter.prepare(text, style: s)
    var lastLines = Int.max
    for w in stride(from: 40.0, through: 600, by: 13.25) {
      let reused = try prepared.layout(width: w)
      let fresh = try Typesetter(cacheCapacity: 0).prepare(text, style: s).layout(width: w)
      XCTAssertEqual(reused, fresh)
      XCTAssertLessThanOrEqual(reused.lineCount, lastLines, "wider must not add lines (w=\(w))")
      lastLines = reused.lineCount
      for line in reused.lines { XCTAssertLessThanOrEqual(line.width, w + 1.0 / 32) }
    }
  }

  func testTabsAdvanceToTabStops() throws {
    var s = try style(["NotoSans-Regular.ttf"], size: 16)
    s.tabSize = 8  // stops every 8 spaces: "a" and "aa" both tab to the first stop
    let one = try typesetter.prepare("a\tb", style: s).layout(width: 500).widest
    let two = try typesetter.prepare("aa\tb", style: s).layout(width: 500).widest
    XCTAssertEqual(one, two, accuracy: 0.02)  // both tabs end at the same stop
  }

  func testLetterSpacingWidensEveryCluster() throws {
    var s = try style(["Inter-Regular.otf"], size: 17)
    let plain = try typesetter.prepare("abcde", style: s).layout(width: 500).widest
    s.letterSpacing = 2
    let spaced = try typesetter.prepare("abcde", style: s).layout(width: 500).widest
    XCTAssertEqual(spaced - plain, 10, accuracy: 0.05)
  }
}

final class LineOffsetTests: XCTestCase {
  func testLineStartsInScalarsUTF16AndCharacters() throws {
    var s = try Fixtures.style(["NotoSans-Regular.ttf", "NotoColorEmoji.ttf"], size: 17)
    s.whiteSpace = .preWrap
    let text = "👩‍👩‍👧 e\u{301}\nsecond 😀\nthird"
    let prepared = try Typesetter.shared.prepare(text, style: s)
    let l = try prepared.layout(width: 500)
    XCTAssertEqual(l.lineCount, 3)
    let scalars = Array(text.unicodeScalars)
    let chars = Array(text)
    let startCharacters = prepared.lineStartCharacters(l)
    for (line, startCharacter) in zip(l.lines, startCharacters) {
      // The same position in three units.
      let prefixScalars = String(String.UnicodeScalarView(scalars[..<line.start]))
      XCTAssertEqual(prefixScalars.utf16.count, line.startUTF16)
      XCTAssertEqual(String(chars[..<startCharacter]), prefixScalars)
    }
    XCTAssertEqual(startCharacters, [0, 4, 13])
  }
}

final class GlyphRunTests: XCTestCase {
  func testGlyphRunsSpanEachLine() throws {
    var s = try Fixtures.style(
      ["Inter-Regular.otf", "NanumGothic.ttf", "NotoColorEmoji.ttf"], size: 17)
    s.language = "ko"
    let text = "오늘 저녁 7시에 만나요 👋 and then some more English words to wrap"
    let prepared = try Typesetter.shared.prepare(text, style: s)
    let layout = try prepared.layout(width: 200)
    let runs = prepared.glyphRuns(layout)
    XCTAssertGreaterThan(layout.lineCount, 1)
    for (i, line) in layout.lines.enumerated() {
      let mine = runs.filter { $0.line == i }
      XCTAssertFalse(mine.isEmpty)
      // Visible glyphs end where the line's measured width ends (trailing spaces aside).
      let end = mine.flatMap { r in zip(r.x, r.advances).map { $0 + $1 } }.max() ?? 0
      XCTAssertGreaterThanOrEqual(end + 0.02, line.width - 0.02, "line \(i)")
      XCTAssertEqual(mine.first?.baseline, line.baseline)
    }
    // The emoji comes from the colour font.
    XCTAssertTrue(runs.contains { $0.font.hasColorGlyphs })
    XCTAssertGreaterThan(prepared.style.fonts.primary.withFileData { $0.count }, 1000)
  }

  func testRightToLeftRunsComeInVisualOrder() throws {
    let s = try Fixtures.style(["NotoSansHebrew-Regular.ttf", "NotoSans-Regular.ttf"], size: 17)
    let prepared = try Typesetter.shared.prepare("שלום abc עולם", style: s)
    XCTAssertTrue(prepared.isRightToLeft)
    let runs = prepared.glyphRuns(try prepared.layout(width: 500))
    // The shaped runs: "שלום " and "עולם" right to left, "abc" left to right, and the space
    // after it (Latin, by the script before it) right to left, at the paragraph's level.
    XCTAssertEqual(runs.count, 4)
    // Visual order left to right: עולם, the space, abc, "שלום " (the RTL paragraph reverses
    // the runs), each starting where the one before it ends.
    XCTAssertEqual(runs.map(\.isRightToLeft), [true, true, false, true])
    XCTAssertEqual(runs.map(\.glyphs.count), [4, 1, 3, 5])
    for k in 1..<runs.count {
      XCTAssertEqual(runs[k].origin, runs[k - 1].origin + runs[k - 1].width, accuracy: 1e-9)
    }
    XCTAssertLessThan(runs[0].x.min()!, runs[2].x.min()!)
  }
}

final class AppleProfileTests: XCTestCase {
  func testAppleProfileBreaksByUnicodeRules() throws {
    var s = try Fixtures.style(["Inter-Regular.otf"], size: 17)
    // Chromium never breaks after "/" between letters; UAX #14 (and TextKit) may.
    let text = "see/usr/share/doc/packages/galley/README"
    s.profile = .browser
    let browser = try Typesetter.shared.prepare(text, style: s).layout(width: 120)
    s.profile = .apple
    let apple = try Typesetter.shared.prepare(text, style: s).layout(width: 120)
    XCTAssertTrue(
      apple.lines.dropFirst().allSatisfy { Array(text.unicodeScalars)[$0.start - 1] == "/" })
    XCTAssertNotEqual(browser.lines.map(\.start), apple.lines.map(\.start))
  }
}
