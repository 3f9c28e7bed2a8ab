import GalleyRecords
import Foundation
import Typesetting
import XCTest

/// A drawn line is as wide as the measured line: the glyph runs a renderer places move the pen
/// from the line's first counted grapheme to its last visible one by exactly the width that
/// layout reports (within the 1/64 pt to which the browser profile snaps reported widths).
final class DrawnWidthTests: XCTestCase {
  static let tolerance = 1.0 / 64 + 1e-6

  /// The pen's extent of each line, from the runs alone.
  func drawnWidths(_ prepared: PreparedText, _ layout: TextLayout) -> [Double] {
    var lo = [Double](repeating: .infinity, count: layout.lineCount)
    var hi = [Double](repeating: -.infinity, count: layout.lineCount)
    for run in prepared.glyphRuns(layout) {
      lo[run.line] = min(lo[run.line], run.origin)
      hi[run.line] = max(hi[run.line], run.origin + run.width)
      // The run's width is the sum of what its glyphs move the pen (a tab has no glyph).
      if !run.glyphs.isEmpty {
        XCTAssertEqual(run.advances.reduce(0, +), run.width, accuracy: 1e-9)
        XCTAssertEqual(run.x.count, run.glyphs.count)
      }
    }
    return zip(lo, hi).map { $0.isFinite ? $1 - $0 : 0 }
  }

  /// Lines whose drawn width differs from the measured one, described.
  func mismatches(_ text: String, _ style: TextStyle, width: Double, id: String) throws -> [String]
  {
    let prepared = try Typesetter.shared.prepare(text, style: style)
    let layout = try prepared.layout(width: width)
    let drawn = drawnWidths(prepared, layout)
    var out: [String] = []
    for (i, line) in layout.lines.enumerated()
    where abs(drawn[i] - line.width) > DrawnWidthTests.tolerance {
      out.append("\(id) @\(width) line \(i): drawn \(drawn[i]) vs measured \(line.width)")
    }
    return out
  }

  /// The mismatches of every case of `file` laid out at its width times each of `scales`, and
  /// how many layouts that was.
  func mismatches(ofEveryCaseIn file: String, scales: [Double]) throws -> ([String], Int) {
    var failures: [String] = []
    var layouts = 0
    for object in try Fixtures.jsonLines(file) {
      let c = try TextCase(json: object, library: Fixtures.library)
      for scale in scales {
        failures += try mismatches(c.text, c.style, width: c.width * scale, id: c.id)
        layouts += 1
      }
    }
    return (failures, layouts)
  }

  func testEveryCorpusCaseDrawsItsMeasuredWidthsAtThreeWidths() throws {
    let (failures, layouts) = try mismatches(ofEveryCaseIn: "corpus.jsonl", scales: [1, 0.55, 1.6])
    XCTAssertGreaterThan(layouts, 8000)
    XCTAssertEqual(failures.count, 0, failures.prefix(12).joined(separator: "\n"))
  }

  /// Lines that end or start inside ligatures draw those ends shaped on their own, as layout
  /// measured them (``LigatureSplits``).
  func testEveryLigatureCaseDrawsItsMeasuredWidthsAtThreeWidths() throws {
    let (failures, layouts) = try mismatches(
      ofEveryCaseIn: "ligatures.jsonl", scales: [1, 0.7, 1.3])
    XCTAssertEqual(layouts, 4500)
    XCTAssertEqual(failures.count, 0, failures.prefix(12).joined(separator: "\n"))
  }

  func testTabsLetterSpacingPunctuationAndScriptsDrawTheirMeasuredWidths() throws {
    var failures: [String] = []
    func check(_ text: String, _ fonts: [String], width: Double, id: String,
      _ change: (inout TextStyle) -> Void = { _ in }) throws
    {
      var style = try Fixtures.style(fonts, size: 20)
      change(&style)
      for w in [width, width / 2, width / 3] {
        failures += try mismatches(text, style, width: w, id: id)
      }
    }
    let latin = ["Inter-Regular.otf", "NotoSansCJK-Regular.ttc", "NotoColorEmoji.ttf"]
    try check("a\tb  tab 「括弧」、テスト", latin, width: 358, id: "tabs+cjk")
    try check("col\tcol2\tcol3 and\ta few\twords", latin, width: 300, id: "tabs") {
      $0.tabSize = 4
    }
    try check("Letter spacing widens every grapheme: office ffi 👋🏽", latin, width: 240, id: "ls") {
      $0.letterSpacing = 1.5
    }
    try check("「括弧」、テスト。（全角）！「引用」『二重』", latin, width: 200, id: "ja") {
      $0.language = "ja"
    }
    try check(
      "مرحبا بالعالم، هذه رسالة طويلة بعض الشيء with English inside ١٢٣",
      ["NotoSansArabic-Regular.ttf", "NotoSans-Regular.ttf"], width: 220, id: "arabic")
    try check(
      "ภาษาไทยไม่มีช่องว่างระหว่างคำแต่ตัดบรรทัดได้ตามพจนานุกรม",
      ["NotoSansThai-Regular.ttf", "NotoSans-Regular.ttf"], width: 180, id: "thai")
    try check(
      "super\u{AD}cali\u{AD}fragi\u{AD}listic\u{AD}expi\u{AD}ali\u{AD}docious words",
      ["NotoSans-Regular.ttf"], width: 150, id: "soft hyphens")
    for truncation in [TextStyle.Truncation.end, .middle, .start] {
      try check(
        "A message long enough to need more than two lines when it is laid out narrow, cut.",
        latin, width: 200, id: "truncated \(truncation)"
      ) {
        $0.maxLines = 2
        $0.truncation = truncation
      }
    }
    XCTAssertEqual(failures.count, 0, failures.joined(separator: "\n"))
  }

  func testATruncatedLineEndsWithTheEllipsisAndAHyphenatedLineWithTheHyphen() throws {
    var style = try Fixtures.style(["NotoSans-Regular.ttf"], size: 20)
    style.maxLines = 1
    let cut = try Typesetter.shared.prepare("one two three four five six", style: style)
    let layout = try cut.layout(width: 120)
    XCTAssertTrue(layout.isTruncated)
    let runs = cut.glyphRuns(forLine: 0, of: layout)
    let ellipsis = try XCTUnwrap(style.fonts.fonts[0].glyph(for: 0x2026))
    XCTAssertEqual(runs.last?.glyphs, [ellipsis])

    style.maxLines = nil
    let soft = try Typesetter.shared.prepare("extra\u{AD}ordinary", style: style)
    let broken = try soft.layout(width: 100)
    XCTAssertEqual(broken.lineCount, 2)
    let hyphen = try XCTUnwrap(style.fonts.fonts[0].glyph(for: 0x2010))
    XCTAssertEqual(soft.glyphRuns(forLine: 0, of: broken).last?.glyphs, [hyphen])
  }
}
