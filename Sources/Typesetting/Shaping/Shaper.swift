import CHarfBuzz

/// Shapes runs of text with HarfBuzz's OpenType functions and reports advances per code point.
///
/// One `hb_buffer_t` per shaper; a shaper is used by one thread at a time (``Typesetter`` keeps
/// one per thread).
final class Shaper {
  private let buffer: OpaquePointer
  /// When set, every shaped run is recorded (for ``ShapingBaseline``).
  var recorder: ((ShapingBaseline.Item) -> Void)? = nil
  /// When set, runs are shaped word by word through this cache where that changes nothing.
  var cache: ShapeCache? = nil

  /// The style of the last text prepared with this shaper and its constants (a shaper belongs to
  /// one typesetter).
  var lastStyleConstants: (Typesetter.ConstantsKey, Typesetter.StyleConstants)? = nil

  /// Shape plans this shaper has used, so that each run skips HarfBuzz's search of its plan cache.
  private var plans: [PlanKey: OpaquePointer] = [:]

  struct PlanKey: Hashable {
    var font: FontKey
    var rtl: Bool
    var script: UInt32
    var language: UInt
    var features: [UInt64]
  }

  init() {
    buffer = hb_buffer_create()!
  }

  deinit {
    for plan in plans.values { hb_shape_plan_destroy(plan) }
    hb_buffer_destroy(buffer)
  }

  /// The shape plan for a run's properties (made once per shaper).
  private func plan(font: Font, features: [hb_feature_t]) -> OpaquePointer {
    var props = hb_segment_properties_t()
    hb_buffer_get_segment_properties(buffer, &props)
    let key = PlanKey(
      font: FontKey(font), rtl: props.direction == HB_DIRECTION_RTL,
      script: props.script.rawValue,
      language: Shaper.languageKey(props.language),
      features: features.map {
        UInt64($0.tag) << 32 | UInt64($0.value) ^ UInt64($0.start) << 40 ^ UInt64($0.end)
      })
    if let p = plans[key] { return p }
    let p = features.withUnsafeBufferPointer { f in
      hb_shape_plan_create_cached(
        hb_font_get_face(font.hbFont), &props, f.baseAddress, UInt32(f.count), nil)!
    }
    if plans.count > 512 {
      for old in plans.values { hb_shape_plan_destroy(old) }
      plans.removeAll()
      // Answers keyed by plan address go with the plans (an address may be reused).
      planSplits.removeAll()
      junctions.removeAll()
    }
    plans[key] = p
    return p
  }

  /// A run: code points `[start, end)` of `text`, all in one font, direction and script.
  struct Run {
    var start: Int
    var end: Int
    var font: Font
    var rtl: Bool
    var script: hb_script_t
  }

  /// Adds the advance (in points) of every glyph of `run` to `advances[cluster]`, where the cluster
  /// is the index of the code point the glyph came from.
  func shape(
    _ text: [UInt32], run: Run, size: Double, language: hb_language_t?, features: [hb_feature_t],
    into advances: inout [Double]
  ) {
    if let recorder {
      recorder(
        .init(
          text: Array(text[run.start..<run.end]), font: run.font, rtl: run.rtl, script: run.script,
          language: language, features: features))
    }
    if let cache, features.allSatisfy({ $0.start == 0 && $0.end == UInt32.max }),
      shapeByWords(
        text, run: run, size: size, language: language, features: features, cache: cache,
        into: &advances)
    {
      return
    }
    shapeRange(
      text, run.start, run.end, run: run, size: size, language: language, features: features,
      into: &advances)
  }

  /// The longest word (with its trailing spaces, in code points) kept in the cache.
  static let longestCachedWord = 48
  /// Advances of the run being shaped word by word (reused).
  private var wordScratch: [Double] = []
  /// Per shape plan: whether no lookup it applies can see across a space (see `splitsAtSpaces`).
  private var planSplits: [OpaquePointer: Bool] = [:]
  /// Per shape plan and first character of a word: whether shaping leaves "space, character"
  /// apart (see `junctionIsSafe`).
  private var junctions: [Junction: Bool] = [:]

  struct Junction: Hashable {
    var plan: OpaquePointer
    var first: UInt32
  }

  /// Shapes a run word by word (each word with the spaces after it) through the cache of shaped
  /// words, when that gives exactly what shaping the whole run gives: no lookup of the run's plan
  /// sees a space as context, no glyph interacts with the space before each word (kerning,
  /// ligature, mark attachment — checked once per plan and first character), and the text just
  /// outside the run cannot change its shaping (no joining character). Returns whether it did;
  /// if not, the run is to be shaped whole.
  private func shapeByWords(
    _ text: [UInt32], run: Run, size: Double, language: hb_language_t?, features: [hb_feature_t],
    cache: ShapeCache, into advances: inout [Double]
  ) -> Bool {
    if run.start > 0 && Shaper.joinsAcross(text[run.start - 1]) { return false }
    if run.end < text.count && Shaper.joinsAcross(text[run.end]) { return false }
    // A word boundary inside the run: a space followed by something else.
    var cut = false
    for k in (run.start + 1)..<max(run.start + 1, run.end)
    where text[k] != 0x20 && text[k - 1] == 0x20 {
      cut = true
      break
    }
    hb_buffer_clear_contents(buffer)
    setProperties(run: run, language: language)
    let plan = plan(font: run.font, features: features)
    if cut && !splitsAtSpaces(plan, font: run.font) { return false }
    let n = run.end - run.start
    if wordScratch.count < n { wordScratch = [Double](repeating: 0, count: max(n, 256)) }
    let featureKey = features.map { UInt64($0.tag) << 32 | UInt64($0.value) }
    let lang = Shaper.languageKey(language)
    var missing: [ShapeCache.Key] = []
    var k = run.start
    while k < run.end {
      let a = k
      while k < run.end && text[k] != 0x20 { k += 1 }
      while k < run.end && text[k] == 0x20 { k += 1 }
      guard k - a <= Shaper.longestCachedWord else { return false }
      if a > run.start
        && !junctionIsSafe(plan, first: text[a], run: run, language: language, features: features)
      {
        return false
      }
      let key = ShapeCache.Key(
        font: FontKey(run.font), size: size, language: lang, features: featureKey,
        rtl: run.rtl, script: run.script.rawValue, text: text[a..<k])
      if let hit = cache.lookup(key) {
        for j in 0..<hit.count { wordScratch[a - run.start + j] = hit[j] }
      } else {
        missing.append(key)
      }
    }
    if !missing.isEmpty {
      // Shape the run whole (one HarfBuzz call, as without the cache), then keep each missing
      // word's slice of it: the checks above make a slice what shaping the word alone gives.
      var whole = [Double](repeating: 0, count: n)
      shapeRange(
        text, run.start, run.end, run: run, size: size, language: language, features: features,
        into: &whole, offset: run.start)
      for key in missing {
        let start = key.text.startIndex - run.start
        cache.store(key, Array(whole[start..<(start + key.text.count)]))
      }
      for j in 0..<n { advances[run.start + j] += whole[j] }
      return true
    }
    for j in 0..<n { advances[run.start + j] += wordScratch[j] }
    return true
  }

  /// Whether every lookup the plan applies leaves spaces alone: the space glyph is in no
  /// lookup's backtrack or lookahead, and in the input only of lookups that read the space alone.
  /// (A legacy `kern` pair with the space shows in `junctionIsSafe`.)
  private func splitsAtSpaces(_ plan: OpaquePointer, font: Font) -> Bool {
    if let known = planSplits[plan] { return known }
    var space: hb_codepoint_t = 0
    var splits = hb_font_get_nominal_glyph(font.hbFont, 0x20, &space) != 0
    let face = hb_font_get_face(font.hbFont)
    // Apple's layout tables (which HarfBuzz applies instead of GSUB/GPOS) are not inspected here.
    for table in ["morx", "mort", "kerx"] where splits {
      let blob = hb_face_reference_table(face, Font.tag(table))
      if hb_blob_get_length(blob) > 0 { splits = false }
      hb_blob_destroy(blob)
    }
    let lookups = hb_set_create()!
    let before = hb_set_create()!
    let input = hb_set_create()!
    let after = hb_set_create()!
    defer { for set in [lookups, before, input, after] { hb_set_destroy(set) } }
    for table in [Font.tag("GSUB"), Font.tag("GPOS")] where splits {
      hb_set_clear(lookups)
      hb_ot_shape_plan_collect_lookups(plan, table, lookups)
      var lookup: hb_codepoint_t = UInt32.max  // HB_SET_VALUE_INVALID: start before the first
      while splits && hb_set_next(lookups, &lookup) != 0 {
        hb_set_clear(before)
        hb_set_clear(input)
        hb_set_clear(after)
        hb_ot_layout_lookup_collect_glyphs(face, table, lookup, before, input, after, nil)
        // The space as context, or as the input of a lookup that reads more than one glyph
        // (context, or a ligature or pair of it with others; a lookup that maps the space
        // alone to another glyph reads one).
        if hb_set_has(before, space) != 0 || hb_set_has(after, space) != 0
          || (hb_set_has(input, space) != 0 && hb_set_get_population(input) > 1)
        {
          splits = false
        }
      }
    }
    planSplits[plan] = splits
    return splits
  }

  /// Whether a space followed by `first` shape as they would apart: HarfBuzz leaves the boundary
  /// between them safe to break (no kerning pair, ligature or mark attachment across it). Found
  /// by shaping the two characters once per plan and character.
  private func junctionIsSafe(
    _ plan: OpaquePointer, first: UInt32, run: Run, language: hb_language_t?,
    features: [hb_feature_t]
  ) -> Bool {
    let key = Junction(plan: plan, first: first)
    if let known = junctions[key] { return known }
    var safe = !Typesetter.isCombiningMark(first)
    if safe {
      execute([0x20, first], 0, 2, run: run, language: language, features: features)
      var count: UInt32 = 0
      let infos = hb_buffer_get_glyph_infos(buffer, &count)!
      // The character must keep a glyph of its own (no ligature with the space), and nothing
      // may be unsafe to break.
      var own = false
      for g in 0..<Int(count) {
        if infos[g].cluster == 1 { own = true }
        if hb_glyph_info_get_glyph_flags(infos + g).rawValue
          & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0
        {
          safe = false
        }
      }
      if !own { safe = false }
    }
    if junctions.count > 65_536 { junctions.removeAll() }
    junctions[key] = safe
    return safe
  }

  /// Sets the buffer's direction, script and language for a run.
  private func setProperties(run: Run, language: hb_language_t?) {
    hb_buffer_set_direction(buffer, run.rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
    hb_buffer_set_script(buffer, run.script)
    if let language { hb_buffer_set_language(buffer, language) }
  }

  /// Whether a character next to a run can change how the run is shaped: joining scripts (Arabic,
  /// Syriac, N'Ko, Mongolian, Phags-pa, Manichaean, Psalter Pahlavi, Adlam…), joiners, and marks
  /// (which are transparent, so what decides lies further away).
  static func joinsAcross(_ c: UInt32) -> Bool {
    switch c {
    case 0x0600...0x08FF, 0x1800...0x18AF, 0x200C...0x200D, 0xA840...0xA87F, 0x10AC0...0x10B2F,
      0x10D00...0x10D3F, 0x10F30...0x10FFF, 0x1E900...0x1E95F:
      return true
    default:
      return Typesetter.isCombiningMark(c)
    }
  }

  /// Shapes `text[start..<end]` (the rest of `text` is context) and adds advances by cluster.
  /// Fills the buffer with `text[start..<end]` (the rest of `text` is context) and shapes it
  /// with the run's plan, one cluster per character.
  private func execute(
    _ text: [UInt32], _ start: Int, _ end: Int, run: Run, language: hb_language_t?,
    features: [hb_feature_t]
  ) {
    hb_buffer_clear_contents(buffer)
    text.withUnsafeBufferPointer { p in
      hb_buffer_add_utf32(buffer, p.baseAddress, Int32(p.count), UInt32(start), Int32(end - start))
    }
    setProperties(run: run, language: language)
    // Per-character clusters: every glyph's advance goes to the character it came from (a
    // ligature's to its first), so advances sum correctly into any cluster boundaries we use.
    hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_CHARACTERS)
    let plan = plan(font: run.font, features: features)
    features.withUnsafeBufferPointer { f in
      _ = hb_shape_plan_execute(plan, run.font.hbFont, buffer, f.baseAddress, UInt32(f.count))
    }
  }

  /// Advances go to `advances[cluster - offset]`.
  private func shapeRange(
    _ text: [UInt32], _ start: Int, _ end: Int, run: Run, size: Double, language: hb_language_t?,
    features: [hb_feature_t], into advances: inout [Double], offset: Int = 0
  ) {
    execute(text, start, end, run: run, language: language, features: features)
    var count: UInt32 = 0
    let infos = hb_buffer_get_glyph_infos(buffer, &count)!
    let positions = hb_buffer_get_glyph_positions(buffer, &count)!
    let font = run.font
    if let ppem = font.bitmapStrikePPEM, !font.bitmapAdvances.isEmpty {
      // Bitmap-only fonts are measured in whole pixels of their strike, then scaled.
      let scale = size / Double(ppem)
      for k in 0..<Int(count) {
        let g = Int(infos[k].codepoint)
        let adv = g < font.bitmapAdvances.count ? font.bitmapAdvances[g] : 0
        let hbAdv = Double(positions[k].x_advance)
        advances[Int(infos[k].cluster) - offset] += hbAdv == 0 ? 0 : adv * scale
      }
    } else {
      let scale = size / Double(font.unitsPerEm)
      for k in 0..<Int(count) {
        let cluster = Int(infos[k].cluster)
        // A combining mark the font lacks takes no room (a browser falls back for it and sets
        // it over its base), rather than the width of a missing-glyph box.
        if infos[k].codepoint == 0 && cluster < text.count && Shaper.isMark(text[cluster]) {
          continue
        }
        advances[cluster - offset] += Double(positions[k].x_advance) * scale
      }
    }
  }

  /// A HarfBuzz language (interned: equal tags give the same pointer) as a number for keys.
  static func languageKey(_ language: hb_language_t?) -> UInt {
    UInt(bitPattern: language.map { Int(bitPattern: UnsafeRawPointer($0)) } ?? 0)
  }

  /// Whether a code point is a nonspacing or enclosing mark.
  static func isMark(_ c: UInt32) -> Bool {
    CharacterTable.has(c, CharacterTable.nonspacingMark)
  }

  /// The Unicode script of a code point.
  @inline(__always)
  static func script(of c: UInt32) -> hb_script_t {
    hb_unicode_script(hb_unicode_funcs_get_default(), c)
  }

  static func isCommonOrInherited(_ s: hb_script_t) -> Bool {
    s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN
  }

  /// Parses `["kern": 0, "ss01": 1]` into HarfBuzz features over the whole buffer.
  static func features(_ map: [String: UInt32]) -> [hb_feature_t] {
    map.sorted { $0.key < $1.key }.map { key, value in
      var tag: UInt32 = 0
      for b in key.utf8.prefix(4) { tag = (tag << 8) | UInt32(b) }
      for _ in min(key.utf8.count, 4)..<4 { tag = (tag << 8) | 0x20 }
      return hb_feature_t(tag: tag, value: value, start: 0, end: UInt32.max)
    }
  }
}
