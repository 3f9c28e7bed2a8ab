import CHarfBuzz

/// Shapes runs of text with HarfBuzz's OpenType functions and reports advances per code point.
///
/// One `hb_buffer_t` per shaper; a shaper is used by one thread at a time (``Typesetter`` keeps
/// one per thread).
final class Shaper {
  private let buffer: OpaquePointer
  /// When set, every shaped run is recorded (for ``ShapingBaseline``).
  var recorder: ((ShapingBaseline.Item) -> Void)? = nil
  /// When set, short runs go through this cache of shaped runs.
  var cache: ShapeCache? = nil
  /// The longest run (in code points) kept in the cache.
  static let cachedRunLength = 24

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
      language: UInt(bitPattern: props.language.map { Int(bitPattern: UnsafeRawPointer($0)) } ?? 0),
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
    // Short runs (a word or two: text that switches font or script often) go through the cache
    // whole, unless a feature applies to part of the run only; long runs are shaped directly.
    if let cache, run.end - run.start <= Shaper.cachedRunLength,
      features.allSatisfy({ $0.start == 0 && $0.end == UInt32.max })
    {
      let featureKey = features.reduce(0) { $0 &* 31 &+ Int($1.tag) &* 7 &+ Int($1.value) }
      let lang = UInt(bitPattern: language.map { Int(bitPattern: UnsafeRawPointer($0)) } ?? 0)
      let key = ShapeCache.Key(
        font: FontKey(run.font), size: size, language: lang, features: featureKey,
        rtl: run.rtl, script: run.script.rawValue, text: text[run.start..<run.end])
      if let hit = cache.lookup(key) {
        for k in 0..<hit.count { advances[run.start + k] += hit[k] }
      } else {
        var local = [Double](repeating: 0, count: run.end - run.start)
        shapeRange(
          Array(text[run.start..<run.end]), 0, run.end - run.start, run: run, size: size,
          language: language, features: features, into: &local)
        cache.store(key, local)
        for k in 0..<local.count { advances[run.start + k] += local[k] }
      }
      return
    }
    shapeRange(
      text, run.start, run.end, run: run, size: size, language: language, features: features,
      into: &advances)
  }

  /// Shapes `text[start..<end]` (the rest of `text` is context) and adds advances by cluster.
  private func shapeRange(
    _ text: [UInt32], _ start: Int, _ end: Int, run: Run, size: Double, language: hb_language_t?,
    features: [hb_feature_t], into advances: inout [Double]
  ) {
    hb_buffer_clear_contents(buffer)
    text.withUnsafeBufferPointer { p in
      hb_buffer_add_utf32(buffer, p.baseAddress, Int32(p.count), UInt32(start), Int32(end - start))
    }
    hb_buffer_set_direction(buffer, run.rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
    hb_buffer_set_script(buffer, run.script)
    if let language { hb_buffer_set_language(buffer, language) }
    // Per-character clusters: every glyph's advance goes to the character it came from (a
    // ligature's to its first), so advances sum correctly into any cluster boundaries we use.
    hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_CHARACTERS)
    let plan = plan(font: run.font, features: features)
    features.withUnsafeBufferPointer { f in
      _ = hb_shape_plan_execute(plan, run.font.hbFont, buffer, f.baseAddress, UInt32(f.count))
    }
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
        advances[Int(infos[k].cluster)] += hbAdv == 0 ? 0 : adv * scale
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
        advances[cluster] += Double(positions[k].x_advance) * scale
      }
    }
  }

  /// Whether a code point is a nonspacing or enclosing mark.
  static func isMark(_ c: UInt32) -> Bool {
    guard let s = Unicode.Scalar(c) else { return false }
    switch s.properties.generalCategory {
    case .nonspacingMark, .enclosingMark: return true
    default: return false
    }
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
