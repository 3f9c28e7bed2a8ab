import XCTest

@testable import Typesetting

/// Grapheme boundaries (simple stretches taken one code point at a time, the rest by the full
/// rules) agree with Swift's `Character` on the corpus and on random mixes of hard cases.
final class GraphemeTests: XCTestCase {
  /// Boundaries by Swift's `Character` over the whole text.
  func reference(_ scalars: [UInt32]) -> [Int32] {
    var view = String.UnicodeScalarView()
    for c in scalars { view.append(Unicode.Scalar(c)!) }
    var out: [Int32] = []
    var p: Int32 = 0
    for ch in String(view) {
      out.append(p)
      p += Int32(ch.unicodeScalars.count)
    }
    out.append(p)
    return out
  }

  /// Every character taken one at a time joins nothing: a cluster of its own next to a letter,
  /// a mark, a joiner, a prepended sign, itself (a regional indicator would pair) and jamo.
  func testStandaloneCharactersJoinNothing() {
    let neighbours: [UInt32] = [0x61, 0x301, 0x200D, 0x600, 0x1100, 0x1161, 0xE31, 0x94D, 0xFE0F]
    var checked = 0
    for c in UInt32(0)...0xFFFF where Graphemes.isStandalone(c) {
      guard let s = Unicode.Scalar(c) else { continue }
      checked += 1
      for n in neighbours {
        let x = Unicode.Scalar(n)!
        var before = String.UnicodeScalarView()
        before.append(s)
        before.append(x)
        var after = String.UnicodeScalarView()
        after.append(x)
        after.append(s)
        // c never joins what is before it (but a prepended sign or a leading jamo, which are
        // not taken one at a time, may join c), nor a letter, sign or jamo after it (a mark
        // after it extends it).
        if n != 0x600 && n != 0x1100 {
          XCTAssertEqual(
            String(after).count, 2, "U+\(String(n, radix: 16)) before U+\(String(c, radix: 16))")
        }
        if n == 0x61 || n == 0x600 || n == 0x1100 {
          XCTAssertEqual(
            String(before).count, 2, "U+\(String(c, radix: 16)) before U+\(String(n, radix: 16))")
        }
      }
      var twice = String.UnicodeScalarView()
      twice.append(s)
      twice.append(s)
      XCTAssertEqual(String(twice).count, 2, "U+\(String(c, radix: 16)) twice")
    }
    XCTAssertGreaterThan(checked, 30_000)
  }

  func testCorpusAndRandomMixes() throws {
    var texts = try Fixtures.jsonLines("corpus.jsonl").map { $0["text"] as! String }
    // Pieces that join in every way UAX #29 knows: marks, ZWJ emoji, flags, keycaps, skin tones,
    // jamo, prepend, spacing marks, CR LF, Hangul syllables before jamo.
    let pieces: [[UInt32]] = [
      [0x61], [0x20], [0x301], [0x200D], [0x1F468], [0x1F469], [0x1F1F0], [0x1F1F7], [0x23],
      [0xFE0F], [0x20E3], [0x1F3FD], [0x1100], [0x1161], [0x11A8], [0xAC00], [0x0915], [0x094D],
      [0x093F], [0x0600], [0x0E01], [0x0E31], [0x0D], [0x0A], [0xA9], [0x4E2D], [0x3099],
      [0x0628], [0x064E], [0x0E40], [0x0E33], [0x0915], [0x203C], [0x2014], [0x06DD], [0x3000],
    ]
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<3000 {
      var v = String.UnicodeScalarView()
      for _ in 0..<Int.random(in: 1...12, using: &rng) {
        for c in pieces.randomElement(using: &rng)! { v.append(Unicode.Scalar(c)!) }
      }
      texts.append(String(v))
    }
    for t in texts {
      let scalars = t.unicodeScalars.map(\.value)
      var continuations: [Int32] = []
      XCTAssertEqual(
        Graphemes.boundaries(of: scalars, continuations: &continuations), reference(scalars),
        t.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
    }
  }
}
