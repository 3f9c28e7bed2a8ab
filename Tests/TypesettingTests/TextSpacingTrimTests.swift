import XCTest

@testable import Typesetting

/// CSS `text-spacing-trim: normal` where lines end and start: a fullwidth closing bracket or
/// quote that would not fit ends the line all the same when its trailing half, set half-width,
/// makes it fit (`allow-end`); the ideographic comma and full stop never do; an opening mark the
/// paragraph trimmed after the mark before it is whole again where it starts a line.
/// (Expected values: headless Chromium 156 with the same font files, Noto Sans CJK,
/// `word-break: keep-all`, each grapheme's line and position read from the page.)
final class TextSpacingTrimTests: XCTestCase {
  func style(_ language: String) throws -> TextStyle {
    var style = try Fixtures.style(["NotoSansCJK-Regular.ttc", "NotoColorEmoji.ttf"], size: 15)
    style.language = language
    style.whiteSpace = .preWrap
    style.wordBreak = .keepAll
    style.overflowWrap = .breakWord
    return style
  }

  /// Thirteen ideographs (195 px) and a closing mark, then two more ideographs.
  func layout(_ mark: String, width: Double, language: String = "zh-CN") throws -> TextLayout {
    let text = String(repeating: "有", count: 13) + mark + "有有"
    return try Typesetter(cacheCapacity: 0).prepare(text, style: style(language))
      .layout(width: width)
  }

  func testAClosingBracketThatFitsOnlyAtHalfWidthEndsTheLineSo() throws {
    for (mark, language) in [("）", "zh-CN"), ("」", "ja"), ("）", "ko"), ("”", "zh-TW")] {
      let l = try layout(mark, width: 203, language: language)
      XCTAssertEqual(l.lines.map(\.start), [0, 14], "\(mark) \(language)")
      XCTAssertEqual(l.lines.map(\.width), [202.515625, 30.015625], "\(mark) \(language)")
    }
  }

  func testAClosingBracketThatFitsWholeKeepsItsWidth() throws {
    let l = try layout("）", width: 210)
    XCTAssertEqual(l.lines.map(\.width), [210.015625, 30.015625])
  }

  func testTheIdeographicCommaAndFullStopNeverHang() throws {
    for mark in ["、", "。", "，"] {
      let l = try layout(mark, width: 203)
      XCTAssertEqual(l.lines.map(\.start), [0, 13], mark)
      XCTAssertEqual(l.lines.map(\.width), [195.015625, 45.015625], mark)
    }
  }

  /// A proportional quote (as Japanese sets ”) fits whole: nothing to hang.
  func testAProportionalQuoteDoesNotHang() throws {
    let l = try layout("”", width: 203, language: "ja")
    XCTAssertEqual(l.lines.map(\.width), [202.140625, 30.015625])
  }

  /// "“" and "（" after closing marks are set half-width in the paragraph; "“" starts the
  /// second line whole (17 px): the line ends before "（top）", which would fit only with its
  /// own "（" trimmed (a fresh corpus's edge-cjkpunct-0061, 17 px, `white-space: normal`).
  func testAnOpeningMarkTrimmedInTheParagraphStartsALineWhole() throws {
    var style = try style("zh-CN")
    style.size = 17
    style.whiteSpace = .normal
    style.overflowWrap = .anywhere
    let l = try Typesetter(cacheCapacity: 0).prepare(Self.quoted, style: style).layout(width: 320)
    XCTAssertEqual(l.lines.map(\.start), [0, 8, 25])
    XCTAssertEqual(l.lines.map(\.width), [123.734375, 276.734375, 61])
  }

  static let quoted = "查看活动密码.，“空间社区责任自己环境决定空间.”（top）"

  /// Measuring, layout, the segment walk and drawing agree where a line hangs its mark or
  /// starts with one made whole.
  func testMeasuringWalkingAndDrawingAgree() throws {
    let hung = String(repeating: "有", count: 13) + "）有有"
    for (text, widths) in [
      (hung, stride(from: 190.0, through: 215, by: 0.25)),
      (Self.quoted, stride(from: 100.0, through: 400, by: 0.5)),
    ] {
      let p = try Typesetter(cacheCapacity: 0).prepare(text, style: style("zh-CN"))
      for width in widths {
        let l = try p.layout(width: width)
        XCTAssertEqual(try p.measure(width: width).widest, l.widest, "\(width)")
        XCTAssertEqual(try p.measure(width: width).lines, l.lineCount, "\(width)")
        XCTAssertNil(MeasureFastPathTests.walkAndSearchDiffer(p, width: width), "\(width)")
        for i in 0..<l.lineCount {
          let drawn = p.glyphRuns(forLine: i, of: l).reduce(0) { $0 + $1.width }
          XCTAssertEqual(drawn, l.lines[i].width, accuracy: 1.0 / 64 + 1e-9, "\(width) \(i)")
        }
      }
    }
  }
}
