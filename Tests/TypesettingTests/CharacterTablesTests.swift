import CHarfBuzz
import CICUShims
import XCTest

@testable import Typesetting

/// The tables that preparing reads for every character answer, for every BMP code point, what
/// the lookups they stand for answer: HarfBuzz's script, ICU's line-break class, and the
/// grapheme, font-selection and white-space lists.
final class CharacterTablesTests: XCTestCase {
  func testScriptsAreHarfBuzzs() {
    let funcs = hb_unicode_funcs_get_default()
    var differ: [UInt32] = []
    ScriptTable.withLookup { table in
      for c in UInt32(0)..<0x10000 where table.script(of: c) != hb_unicode_script(funcs, c) {
        differ.append(c)
      }
    }
    // Beyond the BMP the table asks HarfBuzz.
    for c: UInt32 in [0x1F600, 0x10400, 0x20000, 0xE0001] {
      XCTAssertEqual(ScriptTable.script(of: c), hb_unicode_script(funcs, c))
    }
    XCTAssertEqual(differ.prefix(5), [])
  }

  /// The table's mark and letter-or-number bits are ICU's General_Category, the Unicode
  /// version the line breaker reads (the standard library's may be newer: it knew 9,755 more
  /// code points and called U+1171E a spacing mark).
  func testGeneralCategoriesAreICUs() {
    var differ: [UInt32] = []
    for c in UInt32(0)..<0x110000 where Unicode.Scalar(c) != nil {
      let t = galley_char_type(c)
      let mark = t == 6 || t == 7 || t == 8
      let nonspacing = t == 6 || t == 7
      let letterOrNumber = (1...5).contains(t) || (9...11).contains(t)
      if CharacterTable.has(c, CharacterTable.combiningMark) != mark
        || CharacterTable.has(c, CharacterTable.nonspacingMark) != nonspacing
        || CharacterTable.has(c, CharacterTable.letterOrNumber) != letterOrNumber
      {
        differ.append(c)
      }
    }
    XCTAssertEqual(differ.prefix(5), [])
  }

  func testLineBreakClassesAreICUs() {
    var differ: [UInt32] = []
    for c in UInt32(0)..<0x10000
    where BreakOpportunities.lineBreakClass(c) != galley_line_break_class(c) {
      differ.append(c)
    }
    XCTAssertEqual(differ.prefix(5), [])
    XCTAssertEqual(BreakOpportunities.lineBreakClass(0x1F600), galley_line_break_class(0x1F600))
  }

  func testListBitsAreTheLists() {
    var differ: [String] = []
    for c in UInt32(0)..<0x10000 {
      let bits = CharacterTable.bmp[Int(c)]
      let expected: [(UInt8, Bool)] = [
        (CharacterTable.graphemeStandalone, Graphemes.isStandalone(c)),
        (CharacterTable.plainMark, Graphemes.isPlainMark(c)),
        (CharacterTable.primaryFontAlone, FontSelection.takesPrimaryFont(c)),
        (CharacterTable.reportWhitespace, CharacterTable.isReportWhitespace(c)),
      ]
      for (bit, value) in expected where (bits & bit != 0) != value {
        differ.append("U+\(String(c, radix: 16)) bit \(bit)")
      }
    }
    XCTAssertEqual(differ.prefix(5), [])
    // Lookups beyond the BMP skip the lists of BMP code points only: none holds another.
    var beyond: [UInt32] = []
    for c in UInt32(0x10000)..<0x110000
    where Graphemes.isStandalone(c) || Graphemes.isPlainMark(c) || CharacterTable.isReportWhitespace(c)
    {
      beyond.append(c)
    }
    XCTAssertEqual(beyond.prefix(5), [])
    XCTAssertTrue(CharacterTable.has(0xE0020, CharacterTable.primaryFontAlone))  // a tag space
    XCTAssertTrue(CharacterTable.has(0x1D167, CharacterTable.combiningMark))  // a musical mark
    XCTAssertTrue(CharacterTable.has(0x10400, CharacterTable.letterOrNumber))
    XCTAssertFalse(CharacterTable.has(0x1F600, CharacterTable.letterOrNumber))
    // Some code points of each list, so that the lists are not all empty.
    XCTAssertNotEqual(CharacterTable.bmp[0x41] & CharacterTable.graphemeStandalone, 0)
    XCTAssertNotEqual(CharacterTable.bmp[0x301] & CharacterTable.plainMark, 0)
    XCTAssertNotEqual(CharacterTable.bmp[0x200D] & CharacterTable.primaryFontAlone, 0)
    XCTAssertNotEqual(CharacterTable.bmp[0x3000] & CharacterTable.reportWhitespace, 0)
  }

  /// Bidi resolution is asked for exactly when a text holds a right-to-left letter or a
  /// directional control: every code point, against the ranges as listed.
  func testBidiIsAskedForExactlyTheRightToLeftRanges() {
    let ranges: [ClosedRange<UInt32>] = [
      0x590...0x8FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
      0x200E...0x200F, 0x202A...0x202E, 0x2066...0x2069,
    ]
    var differ: [UInt32] = []
    for c in UInt32(0)...0x10FFFF
    where Bidi.needsResolution([0x61, c]) != ranges.contains(where: { $0.contains(c) }) {
      differ.append(c)
    }
    XCTAssertEqual(differ, [])
    XCTAssertFalse(Bidi.needsResolution([]))
  }

  /// The ranges hold every code point that ICU's bidi algorithm sets apart: after a Latin
  /// letter in a left-to-right paragraph, any code point whose levels are not all 0 (a
  /// right-to-left letter, an Arabic number, a directional control) asks for resolution. (They
  /// hold more — whole blocks, marks and all — which costs a resolution and changes nothing.)
  func testBidiRangesHoldEveryCodePointICUSetsApart() {
    var missed: [UInt32] = []
    var levels = [UInt8](repeating: 0, count: 4)
    for c in UInt32(0)...0x10FFFF where !(0xD800...0xDFFF).contains(c) {
      let units = Array(String(Character(Unicode.Scalar(c)!)).utf16)
      let text = [UInt16(0x61)] + units
      let paragraph = galley_bidi_levels(text, Int32(text.count), 0, &levels)
      XCTAssertGreaterThanOrEqual(paragraph, 0)
      if levels.prefix(text.count).contains(where: { $0 != 0 }) && !Bidi.needsResolution([0x61, c]) {
        missed.append(c)
      }
    }
    XCTAssertEqual(missed.prefix(10).map { String($0, radix: 16) }, [])
  }
}

/// The white space that line widths leave out, from Unicode's data: exactly CSS's breakable
/// spaces and separators (worked out by hand from White_Space, less the no-break spaces and NEL).
final class ReportWhitespaceTests: XCTestCase {
  func testReportWhitespaceIsTheBreakableWhiteSpace() {
    var expected = Set<UInt32>([0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x1680, 0x2028, 0x2029, 0x205F, 0x3000, 0x200B])
    expected.formUnion(0x2000...0x2006)
    expected.formUnion(0x2008...0x200A)
    XCTAssertEqual(galley_line_break_class(0xA0), CharacterTable.glue)
    XCTAssertEqual(galley_line_break_class(0x85), CharacterTable.nextLine)
    let found = Set((UInt32(0)...0x10FFFF).filter { CharacterTable.isReportWhitespace($0) })
    XCTAssertEqual(found.sorted(), expected.sorted())
  }
}
