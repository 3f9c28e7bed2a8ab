@testable import GalleyRecords
import Foundation
import XCTest

@testable import Typesetting

/// `measure(width:)` (no allocation) must agree exactly with the full `layout(width:)` on every
/// case at many widths, and the two indices the one greedy rule reads — prefix sums searched
/// (``FastIndex``) and segments walked one by one (``SegmentWalk``) — must find the same lines.
final class MeasureFastPathTests: XCTestCase {
  /// Whether the fast index and the segment walk find the same lines at `width`; the first
  /// difference otherwise.
  static func walkAndSearchDiffer(_ p: PreparedText, width: Double) -> String? {
    let walked = p.breakLines(width: width, walking: true)
    let searched = p.breakLines(width: width)
    guard walked.count == searched.count else {
      return "\(walked.count) lines walked, \(searched.count) searched"
    }
    for (k, (a, b)) in zip(walked, searched).enumerated() {
      if a.start != b.start || a.end != b.end || a.fonts != b.fonts
        || a.reportStart != b.reportStart || a.visibleEnd != b.visibleEnd
        || a.hyphenated != b.hyphenated || abs(a.width - b.width) > 1e-9
      {
        return "line \(k): walked \(a), searched \(b)"
      }
    }
    return nil
  }

  func testMeasureAgreesWithLayoutOnTheCorpus() throws {
    let cases = try Fixtures.jsonLines("corpus.jsonl").map {
      try TextCase(json: $0, library: Fixtures.library)
    }
    var checked = 0
    var fast = 0
    var endAdjusted = 0
    for c in cases {
      let prepared = try Typesetter.shared.prepare(c.text, style: c.style)
      // Only tabs (those white-space processing keeps) keep a text from the fast index.
      let tabs = prepared.segmentFlags.contains { $0 & PreparedText.SegmentFlag.hasTab != 0 }
      XCTAssertEqual(prepared.fast == nil, tabs, c.id)
      if !prepared.endAdjustments.isEmpty { endAdjusted += 1 }
      for f in [0.31, 0.5, 0.77, 1.0, 1.13, 1.6, 3.0] {
        let w = c.width * f
        let full = try prepared.layout(width: w)
        let quick = try prepared.measure(width: w)
        // The fast index answers every width that does not truncate, as the segment walk does
        // (texts that fit on one line included, which `measure(width:)` answers before it).
        if prepared.fast != nil {
          XCTAssertNil(Self.walkAndSearchDiffer(prepared, width: w), "\(c.id) at \(w)")
          fast += 1
        }
        XCTAssertEqual(quick.lines, full.lineCount, "\(c.id) at \(w)")
        XCTAssertEqual(quick.height, full.height, accuracy: 1e-9, "\(c.id) at \(w)")
        XCTAssertEqual(quick.widest, full.widest, accuracy: 1e-9, "\(c.id) at \(w)")
        XCTAssertEqual(
          quick.lastLineWidth, full.lines.last?.width ?? 0, accuracy: 1e-9, "\(c.id) at \(w)")
        checked += 1
      }
    }
    XCTAssertEqual(checked, 3000 * 7)
    XCTAssertGreaterThan(fast, 3000 * 7 * 95 / 100)
    // (Lines that may end inside a kerning pair: the search and the walk agree on them too.)
    XCTAssertGreaterThan(endAdjusted, 50)
  }

  /// Texts whose lines may end inside kerning pairs (``LineEndKerning``), or hang a closing
  /// mark or start wider (``PunctuationTrim``), at every quarter point from 40 points to one
  /// line: measuring (the search compiled for such texts), layout
  /// and the segment walk find the same lines. (A line's end there may not grow along the
  /// text, which the search alone would not follow.)
  func testSearchAndWalkAgreeWhereLinesEndInsideKerningPairs() throws {
    let cases = try Fixtures.jsonLines("corpus.jsonl").map {
      try TextCase(json: $0, library: Fixtures.library)
    }
    var texts = 0
    var trimmed = 0
    for c in cases where texts < 24 || trimmed < 10 {
      let prepared = try Typesetter.shared.prepare(c.text, style: c.style)
      guard prepared.fast != nil else { continue }
      // (Also texts whose closing marks may hang or whose lines may start wider.)
      if !prepared.endAdjustments.isEmpty && texts < 24 {
        texts += 1
      } else if (!prepared.endHangs.isEmpty || !prepared.startGains.isEmpty) && trimmed < 10 {
        trimmed += 1
      } else {
        continue
      }
      let oneLine = try prepared.measure(width: 1e6).widest
      var w = 40.0
      while w <= oneLine + 0.5 {
        if let difference = Self.walkAndSearchDiffer(prepared, width: w) {
          XCTFail("\(c.id) at \(w): \(difference)")
          break
        }
        let full = try prepared.layout(width: w)
        let quick = try prepared.measure(width: w)
        XCTAssertEqual(quick.lines, full.lineCount, "\(c.id) at \(w)")
        XCTAssertEqual(quick.widest, full.widest, accuracy: 1e-9, "\(c.id) at \(w)")
        w += 0.25
      }
    }
    XCTAssertEqual(texts, 24)
    XCTAssertEqual(trimmed, 10)
  }

  /// Zero-width spaces (alone, leading, trailing, doubled) and other white space the reported
  /// widths trim, with the search's guesses far off (one long word among short ones), at widths
  /// one point apart.
  func testMeasureAgreesWithLayoutAroundZeroWidthSpaces() throws {
    let style = try Fixtures.style(["NotoSans-Regular.ttf", "NotoSansCJK-Regular.ttc"], size: 15)
    let texts = [
      "a\u{200B}b\u{200B}\u{200B}c d\u{200B} \u{200B}e", "\u{200B}start and end\u{200B}",
      "https://\u{200B}example.\u{200B}com/\u{200B}a/\u{200B}b/\u{200B}c \u{200B}",
      "x Pneumonoultramicroscopicsilicovolcanoconiosis y z w v u t s r q p o n m",
      "全角\u{3000}スペース\u{3000}の\u{3000}行", "\u{200B}", "a \u{200B} b",
    ]
    for text in texts {
      let prepared = try Typesetter.shared.prepare(text, style: style)
      for w in stride(from: 4.0, through: 400, by: 1) {
        let full = try prepared.layout(width: w)
        let quick = try prepared.measure(width: w)
        XCTAssertEqual(quick.lines, full.lineCount, "\(text.debugDescription) at \(w)")
        XCTAssertEqual(
          quick.height, full.height, accuracy: 1e-9, "\(text.debugDescription) at \(w)")
        XCTAssertEqual(
          quick.widest, full.widest, accuracy: 1e-9, "\(text.debugDescription) at \(w)")
      }
    }
  }

  /// Widths from a hair to the largest finite number: the walks along the sums meet no infinite
  /// limit (the fast index caps it), and every line still holds at least one grapheme.
  func testMeasureAgreesWithLayoutAtExtremeWidths() throws {
    let style = try Fixtures.style(["NotoSans-Regular.ttf", "NotoSansCJK-Regular.ttc"], size: 15)
    let texts = [
      "one line", "first\nsecond paragraph here\n\nfourth", "Pneumonoultramicroscopic x",
      "全角の文字列と English words", "a\u{2028}b",
    ]
    for text in texts {
      let prepared = try Typesetter.shared.prepare(text, style: style)
      XCTAssertNotNil(prepared.fast, text.debugDescription)
      for w in [1e-300, 0.001, 1, 1e6, 1e300, Double.greatestFiniteMagnitude] {
        let full = try prepared.layout(width: w)
        let quick = try prepared.measure(width: w)
        XCTAssertEqual(quick.lines, full.lineCount, "\(text.debugDescription) at \(w)")
        XCTAssertEqual(quick.height, full.height, "\(text.debugDescription) at \(w)")
        XCTAssertEqual(quick.widest, full.widest, "\(text.debugDescription) at \(w)")
        XCTAssertEqual(
          quick.lastLineWidth, full.lines.last?.width ?? 0, "\(text.debugDescription) at \(w)")
      }
    }
  }

  /// Soft hyphens (a hyphen that must fit too, or the line ends a segment earlier), ideographic
  /// and other spaces inside, before and after words, in every white-space mode and with a
  /// line limit, with words broken by overflow-wrap or not, at widths a quarter point apart.
  func testMeasureAgreesWithLayoutAroundSoftHyphensAndInnerSpaces() throws {
    let texts = [
      "in\u{AD}ter\u{AD}na\u{AD}tion\u{AD}al\u{AD}iza\u{AD}tion of ex\u{AD}tra\u{AD}or\u{AD}di\u{AD}nary",
      "a\u{AD}b\u{AD}c\u{AD}d\u{AD}e\u{AD}f\u{AD}g\u{AD}h i\u{AD}j",
      "全角\u{3000}スペース\u{3000}の\u{3000}行、\u{3000}\u{3000}二つ\u{3000}続く。",
      "\u{3000}先頭の全角スペース\u{3000}と末尾\u{3000}",
      "word\u{3000}word word\u{2003}word \u{3000} x\u{AD}y\u{3000}z",
      "soft\u{AD}\nhy\u{AD}phen\u{AD} and\u{3000}\nnew\u{AD}lines",
      "Pneumonoultramicroscopicsilicovolcanoconiosis\u{3000}\u{3000}x https://example.com/a/very/long/path",
      "x \u{3000}\u{3000}\u{3000}Pneumonoultramicroscopic\u{3000}\u{3000} \u{3000}\u{3000}\u{3000}\u{3000}y",
      "長い\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}\u{3000}空白 ab\u{200B}\u{3000}\u{3000}cd 🇯🇵🇰🇷👍🏽👍🏽👍🏽👍🏽",
    ]
    for (k, text) in texts.enumerated() {
      for ws in TextStyle.WhiteSpace.allCases {
        for ow in TextStyle.OverflowWrap.allCases {
          var style = try Fixtures.style(
            ["NotoSans-Regular.ttf", "NotoSansCJK-Regular.ttc", "NotoColorEmoji.ttf"], size: 15)
          style.whiteSpace = ws
          style.overflowWrap = ow
          style.maxLines = k % 2 == 0 ? nil : 3
          let prepared = try Typesetter.shared.prepare(text, style: style)
          XCTAssertNotNil(prepared.fast, text.debugDescription)
          for w in stride(from: 3.0, through: 320, by: 0.25) {
            let full = try prepared.layout(width: w)
            let quick = try prepared.measure(width: w)
            let label = "\(text.debugDescription) \(ws) \(ow) at \(w)"
            XCTAssertEqual(quick.lines, full.lineCount, label)
            XCTAssertEqual(quick.height, full.height, accuracy: 1e-9, label)
            XCTAssertEqual(quick.widest, full.widest, accuracy: 1e-9, label)
            XCTAssertEqual(quick.lastLineWidth, full.lines.last?.width ?? 0, accuracy: 1e-9, label)
            XCTAssertEqual(quick.isTruncated, full.isTruncated, label)
            XCTAssertNil(Self.walkAndSearchDiffer(prepared, width: w), label)
          }
        }
      }
    }
  }

  /// Widths snap to the next 1/64 as `floor(w × 64 + 10⁻⁴) + 1` over 64, computed with libm's
  /// floor: on every 1/64 step up to 10,000 points, either side of it, and at random widths.
  func testSnappingToTheNext64thIsFloorPlusOne() {
    func expected(_ w: Double) -> Double { (Foundation.floor(w * 64 + 1e-4) + 1) / 64 }
    var generator = SystemRandomNumberGenerator()
    var widths: [Double] = [1e-9, 1e13, 1e15, 7e13, 1e300]
    for k in 1...640_000 {
      let w = Double(k) / 64
      widths += [w, w.nextUp, w.nextDown, w - 1e-4 / 64, w + 1e-7]
    }
    for _ in 0..<100_000 { widths.append(Double.random(in: 0.001...5000, using: &generator)) }
    var differ: [Double] = []
    for w in widths where PreparedText.snapToNext64th(w) != expected(w) { differ.append(w) }
    XCTAssertEqual(differ, [])
  }
}
