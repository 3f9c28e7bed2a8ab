import Typesetting
import CHarfBuzz
import Foundation

extension FeatureGate {
  /// How often a character comes in running text, roughly per 100,000 characters of chat, for
  /// choosing which glyphs to require: a set's weight is the sum of its glyphs', so it stands for
  /// how likely a run is to hold one of them. The space outweighs whole classes of punctuation
  /// (Inter's `calt` rules each name a set of 16 spaces and one of 46 brackets and dashes: the
  /// brackets are the rarer requirement), and `x` is rarer than `e`.
  static func likelihood(_ c: UInt32) -> Int {
    switch c {
    case 0x20: return 18_000
    case 0x61...0x7A: return letterFrequency[Int(c - 0x61)]
    case 0x41...0x5A: return max(letterFrequency[Int(c - 0x41)] / 10, 10)
    case 0x30...0x39: return 300
    case 0x2C, 0x2E: return 1_000
    case 0x21, 0x22, 0x27, 0x2D, 0x3F: return 200
    case 0x21...0x7E: return 50
    case 0x3000...0x303F, 0xFF00...0xFFEF: return 50
    case 0xA0...0x24F: return 20
    default: return 1
    }
  }

  /// English letters a to z per 100,000 characters of text.
  private static let letterFrequency = [
    6_500, 1_200, 2_200, 3_400, 10_000, 1_800, 1_600, 4_900, 5_600, 120, 620, 3_200, 2_000, 5_400,
    6_000, 1_500, 75, 4_800, 5_000, 7_300, 2_200, 780, 1_900, 120, 1_600, 60,
  ]

  /// Whether HarfBuzz hands `c` to the substitutions as its nominal glyph whatever surrounds it
  /// (given that the run holds no marks): not a mark, control or format character, nor one that
  /// HarfBuzz hides or rewrites first — a default ignorable (Unicode's property), a Hangul jamo
  /// (which its Hangul shaper composes), the Thai and Lao SARA AM (which its Thai shaper splits)
  /// — and not changed by the normalizer: a canonical decomposition must compose back to `c`
  /// step by step through glyphs the font has.
  static func reachesShapingAsItself(_ c: UInt32, font: Font) -> Bool {
    if c == 0xE33 || c == 0xEB3 || UnicodeProperties.isDefaultIgnorable(c)
      || UnicodeProperties.isJamo(c)
    {
      return false
    }
    let funcs = hb_unicode_funcs_get_default()
    switch hb_unicode_general_category(funcs, c) {
    case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK, HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK,
      HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK, HB_UNICODE_GENERAL_CATEGORY_CONTROL,
      HB_UNICODE_GENERAL_CATEGORY_FORMAT, HB_UNICODE_GENERAL_CATEGORY_SURROGATE,
      HB_UNICODE_GENERAL_CATEGORY_UNASSIGNED:
      return false
    default:
      return roundTrips(c, font: font)
    }
  }

  private static func roundTrips(_ x: UInt32, font: Font) -> Bool {
    let funcs = hb_unicode_funcs_get_default()
    var a: hb_codepoint_t = 0
    var b: hb_codepoint_t = 0
    guard hb_unicode_decompose(funcs, x, &a, &b) != 0 else { return font.covers(x) }
    // A singleton decomposition is never composed back.
    guard b != 0 else { return false }
    // Without a glyph for the mark HarfBuzz leaves `x` whole.
    guard font.covers(b) else { return font.covers(x) }
    var composed: hb_codepoint_t = 0
    guard font.covers(x), hb_unicode_compose(funcs, a, b, &composed) != 0, composed == x else {
      return false
    }
    return roundTrips(a, font: font)
  }
}
