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
      [0x0903], [0x093C], [0x0941], [0x05B4], [0x0651], [0x0E48], [0x0E34], [0x0300], [0x30AB],
      [0x05D0], [0x0915, 0x094D, 0x0937], [0x20, 0x0301], [0x1F44D, 0x1F3FD], [0x0E01, 0x0E33],
      [0x09], [0x200B], [0x0D, 0x0A],
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

  /// Every plain mark joins the character before it (any standalone one but a space) and
  /// nothing after it; after a space, or run together with a virama, the full rules decide —
  /// in the browser profile too, where a space and its mark are split.
  func testPlainMarksExtendTheirBaseOnly() {
    let bases: [UInt32] = [
      0x61, 0xE9, 0x915, 0xE01, 0x5D0, 0x628, 0x4E2D, 0xAC00, 0x30AB, 0x2014, 0x0A, 0x09, 0x200B,
    ]
    var checked = 0
    for m in UInt32(0)...0xFFFF where Graphemes.isPlainMark(m) {
      checked += 1
      for b in bases {
        for tail in [[], [b], [m], [0x61], [0x915], [0x94D, 0x915], [0x200D, 0x915], [0x0A]]
          as [[UInt32]]
        {
          let text = [b, m] + tail
          for split in [false, true] {
            var continuations: [Int32] = []
            XCTAssertEqual(
              Graphemes.boundaries(of: text, splitModifiers: split, continuations: &continuations),
              reference(text), text.map { String($0, radix: 16) }.joined(separator: " "))
          }
        }
      }
      // After a space the browser profile splits the mark off (a line may start with it).
      var continuations: [Int32] = []
      XCTAssertEqual(
        Graphemes.boundaries(
          of: [0x61, 0x20, m], splitModifiers: true, continuations: &continuations),
        [0, 1, 2, 3])
      XCTAssertEqual(continuations, [2])
    }
    XCTAssertGreaterThan(checked, 150)
    // Every standalone character with a mark after it, and between two letters (a control —
    // a soft hyphen, say — takes no mark).
    var standalone = 0
    for c in UInt32(0)...0xFFFF where Graphemes.isStandalone(c) {
      standalone += 1
      for text in [[c, 0x301], [0x61, c, 0x301, 0x62], [c, 0x93F, 0x301]] as [[UInt32]] {
        var continuations: [Int32] = []
        XCTAssertEqual(
          Graphemes.boundaries(of: text, continuations: &continuations), reference(text),
          text.map { String($0, radix: 16) }.joined(separator: " "))
      }
    }
    XCTAssertGreaterThan(standalone, 30_000)
  }
}

/// Font selection follows Chromium's fallback: the stack in order, whatever a character's
/// default presentation; a variation selector sends its cluster to the fonts of the
/// presentation it asks for first. (Chromium 156 on these fonts: 😂 alone in a stack of DejaVu
/// Sans then Noto Color Emoji is DejaVu's, 19.875 px at 17 px; with VS16 the emoji font's,
/// 21.21875; ❤ with VS15 in Noto Sans, Noto Color Emoji, DejaVu Sans is DejaVu's, 14.25.)
final class FontSelectionTests: XCTestCase {
  func font(_ cluster: [UInt32], _ names: [String]) throws -> String {
    let fonts = try Fixtures.library.stack(names).fonts
    return fonts[FontSelection.font(for: cluster[...], in: fonts)].name
  }

  func testTheStackInOrderUnlessAVariationSelectorAsks() throws {
    let dejaVuFirst = ["DejaVuSans.ttf", "NotoColorEmoji.ttf"]
    let emojiBeforeDejaVu = ["NotoSans-Regular.ttf", "NotoColorEmoji.ttf", "DejaVuSans.ttf"]
    let dejaVu = try font([0x41], dejaVuFirst)
    let emoji = try font([0x1F914], dejaVuFirst)  // DejaVu Sans has no 🤔
    XCTAssertNotEqual(dejaVu, emoji)
    // Emoji by default, and DejaVu Sans has them: DejaVu's.
    XCTAssertEqual(try font([0x1F602], dejaVuFirst), dejaVu)
    XCTAssertEqual(try font([0x231A], dejaVuFirst), emoji)  // DejaVu has no ⌚
    // VS16: the colour font first; VS15: the others first.
    XCTAssertEqual(try font([0x1F602, 0xFE0F], dejaVuFirst), emoji)
    XCTAssertEqual(try font([0x270C, 0xFE0F], dejaVuFirst), emoji)
    XCTAssertEqual(try font([0x2764, 0xFE0E], emojiBeforeDejaVu), dejaVu)
    XCTAssertEqual(try font([0x2764], emojiBeforeDejaVu), emoji)
    // A sequence no text font covers whole: the colour font.
    XCTAssertEqual(try font([0x1F44D, 0x1F3FD], dejaVuFirst), emoji)
    XCTAssertEqual(try font([0x1F1F0, 0x1F1F7], dejaVuFirst), emoji)
    // A selector no font answers: the stack in order.
    XCTAssertEqual(try font([0x41, 0xFE0F], dejaVuFirst), dejaVu)
  }

  /// Widths as Chromium 156 measured them (edge-emoji-only-0000 of the corpus broke a line
  /// early when every emoji was taken from the colour font).
  func testEmojiThatTheTextFontHasAreMeasuredInIt() throws {
    let style = try Fixtures.style(["DejaVuSans.ttf", "NotoColorEmoji.ttf"])
    let t = Typesetter(cacheCapacity: 0)
    XCTAssertEqual(try t.prepare("😂", style: style).layout(width: 1000).widest, 19.875)
    XCTAssertEqual(try t.prepare("😍", style: style).layout(width: 1000).widest, 17.734375)
    XCTAssertEqual(try t.prepare("😂\u{FE0F}", style: style).layout(width: 1000).widest, 21.21875)
    XCTAssertEqual(try t.prepare("✌\u{FE0F}", style: style).layout(width: 1000).widest, 21.21875)
  }
}
