import CHarfBuzz
import XCTest

@testable import Typesetting

/// Which characters need no glyph (font selection skips them, missing glyphs do not count them)
/// is read from Unicode's Default_Ignorable_Code_Point with HarfBuzz's exceptions: checked here
/// against HarfBuzz itself, character by character.
final class IgnorableTests: XCTestCase {
  func testCharactersThatNeedNoGlyphAreThoseHarfBuzzHides() throws {
    let font = try FontLibrary.bundled.font(named: "NotoSans-Regular.ttf")
    var checked = 0
    for c in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(c), c != 0x2028, c != 0x2029 else { continue }
      // Every default ignorable, everything the table holds, and their neighbours.
      let near = (c > 0 && Unicode.Scalar(c - 1)?.properties.isDefaultIgnorableCodePoint == true)
      guard scalar.properties.isDefaultIgnorableCodePoint || FontSelection.isIgnorable(c) || near,
        !font.covers(c)
      else { continue }
      let buffer = hb_buffer_create()
      defer { hb_buffer_destroy(buffer) }
      let text: [UInt32] = [0x61, c, 0x61]
      hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_CHARACTERS)
      hb_buffer_add_codepoints(buffer, text, 3, 0, 3)
      hb_buffer_guess_segment_properties(buffer)
      hb_shape(font.hbFont, buffer, nil, 0)
      var count: UInt32 = 0
      let infos = hb_buffer_get_glyph_infos(buffer, &count)!
      let hidden = !(0..<Int(count)).contains { infos[$0].cluster == 1 && infos[$0].codepoint == 0 }
      checked += 1
      // (HarfBuzz's own ranges predate U+180F, made default ignorable by Unicode 14; newer
      // HarfBuzz hides it too.)
      if c == 0x180F && !hidden { continue }
      XCTAssertEqual(
        FontSelection.isIgnorable(c), hidden, "U+\(String(c, radix: 16, uppercase: true))")
    }
    XCTAssertGreaterThan(checked, 4_000)
    // The separators end lines before shaping: no glyph either.
    XCTAssertTrue(FontSelection.isIgnorable(0x2028))
    XCTAssertTrue(FontSelection.isIgnorable(0x2029))
  }
}
