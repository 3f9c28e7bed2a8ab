import XCTest

@testable import Typesetting

/// Pairs of letters, digits, ideographs, kana, Hangul and some punctuation are decided by their
/// classes alone (``BreakOpportunities/classPair(_:_:)``), without ICU's iterator: the answer
/// must be ICU's for the whole text, in every locale the typesetter uses.
final class ClassPairTests: XCTestCase {
  func check(_ texts: [String], locales: [String]) throws -> Int {
    var decided = 0
    for locale in locales {
      for text in texts {
        let scalars = text.unicodeScalars.map(\.value)
        guard scalars.count > 1 else { continue }
        let icu = try BreakOpportunities.icuBoundaries(scalars, locale: locale)
        for i in 1..<scalars.count {
          let japanese = BreakOpportunities.isJapanese(locale)
          guard
            let verdict = BreakOpportunities.classPair(
              scalars[i - 1], scalars[i], japanese: japanese)
          else {
            continue
          }
          decided += 1
          XCTAssertEqual(
            verdict, icu[i],
            "\(locale): U+\(String(scalars[i - 1], radix: 16)) U+\(String(scalars[i], radix: 16)) in \(text.debugDescription)"
          )
        }
      }
    }
    return decided
  }

  func testCorpusPairsAgreeWithICU() throws {
    let texts = try Fixtures.jsonLines("corpus.jsonl").map { $0["text"] as! String }
    let decided = try check(texts, locales: ["en", "ko", "ja@lb=normal", "zh-Hans", "zh-Hant"])
    XCTAssertGreaterThan(decided, 50_000)
  }

  /// Every class the rule knows next to every other, in runs that put each pair in the contexts
  /// UAX #14's longer rules look at (spaces, marks, numbers, quotes around it).
  func testEveryClassPairInContext() throws {
    // ID, H2, H3, kana, small kana, AL, HL, NU, OP, CL, CP, EX, IS, QU, HY, BA, EB, EM — and
    // neighbours outside the rule.
    let members: [UInt32] = [
      0x4E2D, 0xAC00, 0xAC01, 0x30AB, 0x3042, 0x61, 0x31, 0xFF08, 0x3001, 0xFF09, 0xFF01, 0x2C,
      0x28, 0x29, 0x21, 0x3002, 0x300C, 0x300D, 0x1F600, 0xFF11, 0x5B57, 0x436, 0x3B1, 0x628,
      0x5D0, 0x915, 0x2019, 0x201C, 0x201D, 0xAB, 0xBB, 0x2E, 0x3A, 0x660, 0xE51, 0x2018,
      0x2D, 0x2010, 0x5BE, 0x1F44D, 0x270C, 0x1F3FB, 0x1F3FF, 0x1F373, 0x3063, 0x30E3, 0x22,
      0x27, 0x201E, 0x2039,
    ]
    let others: [UInt32] = [
      0x20, 0x301, 0x22, 0x3063, 0x30FC, 0x2D, 0x24, 0x25, 0x200B, 0x2014, 0x2026, 0x2F, 0x5BE,
    ]
    var texts: [String] = []
    func text(_ cs: [UInt32]) -> String {
      String(String.UnicodeScalarView(cs.compactMap(Unicode.Scalar.init)))
    }
    for a in members {
      for b in members {
        texts.append(text([a, b]))
        for o in others {
          texts.append(text([o, a, b]))
          texts.append(text([a, b, o]))
          texts.append(text([o, o, a, b, o]))
          texts.append(text([0x31, o, a, b]))
        }
      }
    }
    let decided = try check(texts, locales: ["en", "ko", "ja@lb=normal", "zh-Hans", "ja-JP@lb=normal"])
    XCTAssertGreaterThan(decided, 10_000)
  }
}
