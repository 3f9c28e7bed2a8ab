import Typesetting
import CHarfBuzz

/// Whether a shape plan lets a run be shaped word by word: shaping each word alone (with the
/// spaces after it) must give what shaping the whole run gives, so no lookup the plan applies
/// may read a space together with other glyphs.
///
/// A lookup that reads the space only as context (before or after its input) changes nothing
/// in a run where its input glyphs never appear: Inter, for one, raises hyphens, brackets and
/// arrows beside capitals across spaces ("A - B"), and is otherwise free to split. Such a plan
/// splits runs free of the characters whose glyphs those lookups take as input — checked only
/// when no other glyph can turn into one of them by substitution (the closure of every other
/// glyph under the plan's GSUB lookups stays clear of them), and only for left-to-right runs of
/// characters the font has (HarfBuzz mirrors characters in right-to-left runs and decomposes
/// those the font lacks, which could bring a guarded glyph in).
///
/// What this cannot see (as Blink's word cache, which asks HarfBuzz the same question, cannot):
/// a context given by glyph classes whose class 0 — every glyph the class table leaves out,
/// the space among them — stands next to other glyphs; HarfBuzz does not list class 0 when it
/// collects a lookup's glyphs. A pair of a space and the letter after it is covered anyway (the
/// shaper checks each such junction by shaping it); a longer context of that kind is not, which
/// is one reason the word cache is off by default.
struct SpaceSplit {
  /// No run splits (a lookup reads the space with other glyphs as input, the font has Apple
  /// layout tables, or no space glyph).
  static let never = SpaceSplit(splits: false, asciiMask: (0, 0), others: [])

  let splits: Bool
  /// Characters that keep a run whole (their glyphs are the input of a lookup that sees spaces
  /// as context): ASCII as two bit masks, the rest in a set.
  private let asciiMask: (UInt64, UInt64)
  private let others: Set<UInt32>

  private init(splits: Bool, asciiMask: (UInt64, UInt64), others: Set<UInt32>) {
    self.splits = splits
    self.asciiMask = asciiMask
    self.others = others
  }

  /// Whether `text` (a run in `font`, right to left or not) may be shaped word by word.
  func allows(_ text: ArraySlice<UInt32>, font: Font, rtl: Bool) -> Bool {
    guard splits else { return false }
    if asciiMask == (0, 0) && others.isEmpty { return true }
    if rtl { return false }
    for c in text {
      if c < 64 {
        if asciiMask.0 >> UInt64(c) & 1 != 0 { return false }
      } else if c < 128 {
        if asciiMask.1 >> UInt64(c - 64) & 1 != 0 { return false }
      } else if others.contains(c) || !font.covers(c) {
        return false
      }
    }
    return true
  }

  /// Reads the plan's GSUB and GPOS lookups.
  init(plan: OpaquePointer, font: Font) {
    var space: hb_codepoint_t = 0
    // (Apple's layout tables, which HarfBuzz applies instead of GSUB/GPOS, are not inspected.)
    guard hb_font_get_nominal_glyph(font.hbFont, 0x20, &space) != 0, !font.hasAppleLayoutTables,
      let guarded = SpaceSplit.guardedGlyphs(plan: plan, font: font, space: space)
    else {
      self = .never
      return
    }
    defer { hb_set_destroy(guarded) }
    if hb_set_is_empty(guarded) != 0 {
      self.init(splits: true, asciiMask: (0, 0), others: [])
      return
    }
    guard hb_set_has(guarded, space) == 0,
      let (mask, others) = SpaceSplit.guardedCharacters(plan: plan, font: font, guarded: guarded)
    else {
      self = .never
      return
    }
    self.init(splits: true, asciiMask: mask, others: others)
  }

  /// The input glyphs of the plan's lookups that read a space as context (the caller destroys
  /// the set); nil when a lookup reads the space as input with other glyphs (context, or a
  /// ligature or pair of it with others; a lookup that maps the space alone reads one).
  private static func guardedGlyphs(plan: OpaquePointer, font: Font, space: hb_codepoint_t)
    -> OpaquePointer?
  {
    let face = hb_font_get_face(font.hbFont)
    let lookups = hb_set_create()!
    let before = hb_set_create()!
    let input = hb_set_create()!
    let after = hb_set_create()!
    let guarded = hb_set_create()!
    defer { for set in [lookups, before, input, after] { hb_set_destroy(set) } }
    for table in [Font.tag("GSUB"), Font.tag("GPOS")] {
      hb_set_clear(lookups)
      hb_ot_shape_plan_collect_lookups(plan, table, lookups)
      var lookup: hb_codepoint_t = UInt32.max  // HB_SET_VALUE_INVALID: start before the first
      while hb_set_next(lookups, &lookup) != 0 {
        hb_set_clear(before)
        hb_set_clear(input)
        hb_set_clear(after)
        hb_ot_layout_lookup_collect_glyphs(face, table, lookup, before, input, after, nil)
        if hb_set_has(input, space) != 0 && hb_set_get_population(input) > 1 {
          hb_set_destroy(guarded)
          return nil
        }
        if hb_set_has(before, space) != 0 || hb_set_has(after, space) != 0 {
          hb_set_union(guarded, input)
        }
      }
    }
    return guarded
  }

  /// The characters whose glyphs are `guarded` (printable ASCII as a mask, the others as a
  /// set); nil when substitution can turn some other glyph into a guarded one.
  private static func guardedCharacters(plan: OpaquePointer, font: Font, guarded: OpaquePointer)
    -> ((UInt64, UInt64), Set<UInt32>)?
  {
    let face = hb_font_get_face(font.hbFont)
    let unicodes = hb_set_create()!
    let free = hb_set_create()!
    let lookups = hb_set_create()!
    defer { for set in [unicodes, free, lookups] { hb_set_destroy(set) } }
    hb_face_collect_unicodes(face, unicodes)
    var mask: (UInt64, UInt64) = (0, 0)
    var others: Set<UInt32> = []
    var c: hb_codepoint_t = UInt32.max
    while hb_set_next(unicodes, &c) != 0 {
      var glyph: hb_codepoint_t = 0
      guard hb_font_get_nominal_glyph(font.hbFont, c, &glyph) != 0 else { continue }
      if hb_set_has(guarded, glyph) != 0 {
        if c < 64 {
          mask.0 |= 1 << UInt64(c)
        } else if c < 128 {
          mask.1 |= 1 << UInt64(c - 64)
        } else {
          others.insert(c)
        }
      } else {
        hb_set_add(free, glyph)
      }
    }
    hb_ot_shape_plan_collect_lookups(plan, Font.tag("GSUB"), lookups)
    hb_ot_layout_lookups_substitute_closure(face, lookups, free)
    hb_set_intersect(free, guarded)
    guard hb_set_is_empty(free) != 0 else { return nil }
    return (mask, others)
  }
}
