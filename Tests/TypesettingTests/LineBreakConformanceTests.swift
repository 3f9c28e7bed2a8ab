import Foundation
import Typesetting
import XCTest

/// Unicode's own line-breaking test data (LineBreakTest.txt, Unicode 15.0, from Debian's
/// `unicode-data`) through the public break-opportunity API.
final class LineBreakConformanceTests: XCTestCase {
  struct TestCase {
    var text: String
    var breaks: [Int]  // code point offsets where ÷ stands (after the first character)
    var line: Int
  }

  static func load() throws -> [TestCase] {
    let text = try String(contentsOf: Fixtures.url("LineBreakTest.txt"), encoding: .utf8)
    var cases: [TestCase] = []
    for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.firstIndex(of: "#").map { String(raw[..<$0]) } ?? String(raw)
      let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard !tokens.isEmpty else { continue }
      var scalars = String.UnicodeScalarView()
      var breaks: [Int] = []
      var count = 0
      for t in tokens {
        if t == "÷" {
          if count > 0 { breaks.append(count) }
        } else if t == "×" {
          continue
        } else if let v = UInt32(t, radix: 16), let s = Unicode.Scalar(v) {
          scalars.append(s)
          count += 1
        }
      }
      cases.append(TestCase(text: String(scalars), breaks: breaks, line: n + 1))
    }
    return cases
  }

  /// Where ICU 72 (Unicode 15.0 data) knowingly differs from LineBreakTest.txt 15.0, by line:
  /// - a hyphen at the start of the text does not break before a letter: ICU already applies the
  ///   rule Unicode 15.1 added as LB20a ("don't break after a word-initial hyphen");
  /// - IS before NU (".5", ",0", "a.2") stays together: ICU's tailoring of LB25 keeps numbers
  ///   with a leading separator whole (and so breaks before " .35" at the space, not after ".").
  static let knownICUDeviations: [Int: String] = {
    var d: [Int: String] = [:]
    for l in [2265, 2267, 2421, 2423, 2425, 2427, 2429, 2431] {
      d[l] = "LB20a (15.1) word-initial hyphen"
    }
    for l in [2873, 2875, 7477, 7576, 7577, 7578, 7579, 7580, 7581, 7583, 7584, 7585, 7586, 7587] {
      d[l] = "ICU LB25 tailoring: IS × NU"
    }
    return d
  }()

  func testUnicodeRulesMatchLineBreakTest() throws {
    let cases = try LineBreakConformanceTests.load()
    XCTAssertGreaterThan(cases.count, 7000)
    var failures: [String] = []
    for c in cases {
      let got = try LineBreaker.opportunities(in: c.text, rules: .unicode)
      if got != c.breaks && LineBreakConformanceTests.knownICUDeviations[c.line] == nil {
        failures.append("line \(c.line): expected \(c.breaks), got \(got)")
      }
      if got == c.breaks && LineBreakConformanceTests.knownICUDeviations[c.line] != nil {
        failures.append("line \(c.line): listed as a known deviation but now passes")
      }
    }
    let known = LineBreakConformanceTests.knownICUDeviations.count
    let exact = cases.count - failures.count - known
    print(
      "LineBreakTest.txt vs ICU (Unicode \(LineBreaker.unicodeVersion)): \(exact)/\(cases.count) identical, "
        + "\(known) known ICU deviations, \(failures.count) unexplained")
    XCTAssertEqual(
      failures.count, 0,
      "\(failures.count) deviations:\n" + failures.prefix(30).joined(separator: "\n"))
  }

  /// The browser rules deviate from UAX #14 on purpose (Chromium's tailoring). Count the
  /// deviations so that a change in them is seen, and check the documented ones.
  func testBrowserTailoring() throws {
    // No break after "/" or before "?" between ASCII letters; a break after "-" and "?".
    XCTAssertEqual(try LineBreaker.opportunities(in: "GNU/Linux"), [9])
    XCTAssertEqual(try LineBreaker.opportunities(in: "a?b"), [2, 3])
    XCTAssertEqual(try LineBreaker.opportunities(in: "front-end"), [6, 9])
    // "-" before a digit: a break after letters or digits, none after a space (a minus sign).
    XCTAssertEqual(try LineBreaker.opportunities(in: "ABCD-1234"), [5, 9])
    XCTAssertEqual(try LineBreaker.opportunities(in: "x -5"), [2, 4])
    // Unicode's rules put no break in "ABCD-1234" (LB25) and one after "/" (LB13 allows it).
    XCTAssertEqual(try LineBreaker.opportunities(in: "ABCD-1234", rules: .unicode), [9])
    XCTAssertEqual(try LineBreaker.opportunities(in: "GNU/Linux", rules: .unicode), [4, 9])
    // Spaces: one opportunity after the whole run.
    XCTAssertEqual(try LineBreaker.opportunities(in: "a   b"), [4, 5])
    // keep-all keeps Korean words whole; normal breaks between syllables.
    XCTAssertEqual(try LineBreaker.opportunities(in: "한국어 문장", wordBreak: .keepAll), [4, 6])
    XCTAssertEqual(try LineBreaker.opportunities(in: "한국어 문장"), [1, 2, 4, 5, 6])
    // Japanese (line-break: normal) allows a break before small kana and ー.
    XCTAssertEqual(try LineBreaker.opportunities(in: "ケーキ", language: "ja"), [1, 2, 3])
  }
}
