import CHarfBuzz
import CICUShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The text engine's shaping engine: every run shaped by HarfBuzz's OpenType functions, the
/// advances reported per code point.
///
/// One `hb_buffer_t` per shaper; a shaper is used by one thread at a time (``Typesetter`` keeps
/// one per thread), and none of its methods reaches back into it while changing its state, so
/// that state skips Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`: ~2% of
/// preparing a bubble). The accelerator (the `ShapingAccelerator` target) puts itself in front
/// of one: it asks for plans, runs HarfBuzz and reads its glyphs through the `package` methods
/// below.
package final class HarfBuzzShaper: ShapingEngine {
  package let buffer: OpaquePointer
  /// When set, every shaped run is recorded (for ``ShapingBaseline``).
  var recorder: ((ShapingBaseline.Item) -> Void)? = nil
  /// Every glyph shaped since it was last emptied, in the order runs were shaped: the shaping
  /// stage's output, which ``Typesetter`` cuts into a prepared text's runs.
  package var glyphs: [ShapedGlyph] = []

  /// Shape plans this shaper has used, so that each run skips HarfBuzz's search of its plan cache.
  @exclusivity(unchecked) private var plans: [PlanKey: OpaquePointer] = [:]
  /// Runs (or stretches of a run) shaped.
  private(set) var rangesShaped = 0

  package var shapingCounts: (runs: Int, direct: Int) { (rangesShaped, 0) }
  package var cachedWords: Int { 0 }

  struct PlanKey: Hashable {
    var font: FontKey
    var rtl: Bool
    var script: UInt32
    var language: UInt
    /// The run's features as given (compared and hashed field by field: no key array to make).
    var features: [hb_feature_t]

    static func == (a: PlanKey, b: PlanKey) -> Bool {
      a.font == b.font && a.rtl == b.rtl && a.script == b.script && a.language == b.language
        && a.features.count == b.features.count
        && zip(a.features, b.features).allSatisfy {
          $0.tag == $1.tag && $0.value == $1.value && $0.start == $1.start && $0.end == $1.end
        }
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(font)
      hasher.combine(rtl)
      hasher.combine(script)
      hasher.combine(language)
      hasher.combine(features.count)
      for f in features {
        hasher.combine(f.tag)
        hasher.combine(f.value)
        hasher.combine(f.start)
        hasher.combine(f.end)
      }
    }
  }

  package init() {
    buffer = hb_buffer_create()!
  }

  deinit {
    for plan in plans.values { hb_shape_plan_destroy(plan) }
    hb_buffer_destroy(buffer)
  }

  /// The segment properties of a run.
  package static func properties(run: ShapingRun, language: hb_language_t?)
    -> hb_segment_properties_t
  {
    var props = hb_segment_properties_t()
    props.direction = run.rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR
    props.script = run.script
    props.language = language
    return props
  }

  /// The plan of the last run shaped with no features of its own (most runs): its font and
  /// properties answer the next run's without a key.
  @exclusivity(unchecked) private var lastPlain:
    (font: Font, props: hb_segment_properties_t, plan: OpaquePointer)?

  /// The shape plan for a run's properties (made once per shaper).
  package func plan(
    font: Font, props: hb_segment_properties_t, features: [hb_feature_t]
  ) -> OpaquePointer {
    if features.isEmpty, let last = lastPlain, last.font === font,
      last.props.direction == props.direction, last.props.script == props.script,
      last.props.language == props.language
    {
      return last.plan
    }
    let key = PlanKey(
      font: FontKey(font), rtl: props.direction == HB_DIRECTION_RTL,
      script: props.script.rawValue,
      language: HarfBuzzShaper.languageKey(props.language), features: features)
    let found: OpaquePointer
    if let k = recentPlans.firstIndex(where: { $0.key == key }) {
      // The last few plans made or found answer most other runs without hashing a key.
      found = recentPlans[k].plan
    } else if let p = plans[key] {
      remember(key, p)
      found = p
    } else {
      var props = props
      found = features.withUnsafeBufferPointer { f in
        hb_shape_plan_create_cached(
          hb_font_get_face(font.hbFont), &props, f.baseAddress, UInt32(f.count), nil)!
      }
      plans[key] = found
      remember(key, found)
    }
    if features.isEmpty { lastPlain = (font, props, found) }
    return found
  }

  /// Drops every plan once there are too many, and returns whether it did: then every answer
  /// keyed by a plan's address (an address may be reused) must go too. Only between runs,
  /// never while a run holds a plan.
  package func forgetPlansIfMany() -> Bool {
    guard plans.count > 512 else { return false }
    for old in plans.values { hb_shape_plan_destroy(old) }
    plans.removeAll()
    recentPlans.removeAll()
    lastPlain = nil
    return true
  }

  /// The plans of the last runs, first in first out (cleared with the plans).
  @exclusivity(unchecked) private var recentPlans: [(key: PlanKey, plan: OpaquePointer)] = []

  private func remember(_ key: PlanKey, _ plan: OpaquePointer) {
    if recentPlans.count >= 4 { recentPlans.removeFirst() }
    recentPlans.append((key, plan))
  }

  /// Adds the advance (in points) of every glyph of `run` to `advances[cluster]`, where the cluster
  /// is the index of the code point the glyph came from.
  package func shape(
    _ text: [UInt32], run: ShapingRun, size: Double, language: hb_language_t?, features: [hb_feature_t],
    into advances: inout [Double]
  ) {
    _ = forgetPlansIfMany()
    if let recorder {
      recorder(
        .init(
          text: Array(text[run.start..<run.end]), font: run.font, rtl: run.rtl, script: run.script,
          language: language, features: features))
    }
    rangesShaped += 1
    let props = HarfBuzzShaper.properties(run: run, language: language)
    let plan = plan(font: run.font, props: props, features: features)
    execute(text, run.start, run.end, font: run.font, props: props, plan: plan, features: features)
    appendGlyphs(text, font: run.font, size: size, to: &glyphs, advances: &advances)
  }

  /// Fills the buffer with `text[start..<end]` (the rest of `text` is context) and shapes it
  /// with `plan`, one cluster per character.
  package func execute(
    _ text: [UInt32], _ start: Int, _ end: Int, font: Font, props: hb_segment_properties_t,
    plan: OpaquePointer, features: [hb_feature_t]
  ) {
    hb_buffer_clear_contents(buffer)
    text.withUnsafeBufferPointer { p in
      hb_buffer_add_utf32(buffer, p.baseAddress, Int32(p.count), UInt32(start), Int32(end - start))
    }
    hb_buffer_set_direction(buffer, props.direction)
    hb_buffer_set_script(buffer, props.script)
    if let language = props.language { hb_buffer_set_language(buffer, language) }
    // Per-character clusters: every glyph's advance goes to the character it came from (a
    // ligature's to its first), so advances sum correctly into any cluster boundaries we use.
    hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_CHARACTERS)
    features.withUnsafeBufferPointer { f in
      _ = hb_shape_plan_execute(plan, font.hbFont, buffer, f.baseAddress, UInt32(f.count))
    }
  }

  /// The glyphs HarfBuzz gives for `text[start..<end]` with every feature of the run: glyph,
  /// cluster, x and y advance, x and y offset, in font units (for tests comparing engines).
  package func harfBuzzGlyphs(
    _ text: [UInt32], _ start: Int, _ end: Int, run: ShapingRun, language: hb_language_t?,
    features: [hb_feature_t]
  ) -> [[Int32]] {
    let props = HarfBuzzShaper.properties(run: run, language: language)
    execute(
      text, start, end, font: run.font, props: props,
      plan: plan(font: run.font, props: props, features: features), features: features)
    return bufferGlyphs()
  }

  /// The glyphs the buffer holds (after ``execute(_:_:_:font:props:plan:features:)``), as
  /// ``harfBuzzGlyphs(_:_:_:run:language:features:)`` gives them.
  package func bufferGlyphs() -> [[Int32]] {
    var count: UInt32 = 0
    let infos = hb_buffer_get_glyph_infos(buffer, &count)!
    let positions = hb_buffer_get_glyph_positions(buffer, &count)!
    return (0..<Int(count)).map { k in
      [
        Int32(bitPattern: infos[k].codepoint), Int32(bitPattern: infos[k].cluster),
        positions[k].x_advance, positions[k].y_advance, positions[k].x_offset,
        positions[k].y_offset,
      ]
    }
  }

  /// Appends the glyphs the buffer holds (shaped from `text` in `font` at `size`) to `glyphs`
  /// and adds their advances to `advances[cluster - offset]`.
  package func appendGlyphs(
    _ text: [UInt32], font: Font, size: Double, to glyphs: inout [ShapedGlyph],
    advances: inout [Double], offset: Int = 0
  ) {
    var count: UInt32 = 0
    let infos = hb_buffer_get_glyph_infos(buffer, &count)!
    let positions = hb_buffer_get_glyph_positions(buffer, &count)!
    let unit = size / Double(font.unitsPerEm)
    // (Written in place, then appended at once: an append per glyph checks the array each time.)
    withUnsafeTemporaryAllocation(of: ShapedGlyph.self, capacity: Int(count)) { out in
      if let ppem = font.bitmapStrikePPEM, !font.bitmapAdvances.isEmpty {
        // Bitmap-only fonts are measured in whole pixels of their strike, then scaled.
        let scale = size / Double(ppem)
        for k in 0..<Int(count) {
          let g = Int(infos[k].codepoint)
          let adv = g < font.bitmapAdvances.count ? font.bitmapAdvances[g] : 0
          let hbAdv = Double(positions[k].x_advance)
          let advance = hbAdv == 0 ? 0 : adv * scale
          advances[Int(infos[k].cluster) - offset] += advance
          out.initializeElement(
            at: k, to: HarfBuzzShaper.glyph(infos[k], positions[k], advance: advance, unit: unit))
        }
      } else {
        let face = font.hbFont
        // Whether HarfBuzz marks glyphs k - 1, k and k + 1 unsafe to break.
        var unsafe = (false, count > 0 && HarfBuzzShaper.isUnsafe(infos), false)
        for k in 0..<Int(count) {
          unsafe.2 = k + 1 < Int(count) && HarfBuzzShaper.isUnsafe(infos + k + 1)
          let cluster = Int(infos[k].cluster)
          var advance = Double(positions[k].x_advance) * unit
          // A combining mark the font lacks takes no room (a browser falls back for it and
          // sets it over its base), rather than the width of a missing-glyph box.
          if infos[k].codepoint == 0 && cluster < text.count && HarfBuzzShaper.isMark(text[cluster]) {
            advance = 0
          } else {
            advances[cluster - offset] += advance
          }
          let pair =
            unsafe.0 || unsafe.1 || unsafe.2
            ? HarfBuzzShaper.pairAdjusted(
              infos[k].codepoint, positions[k].x_advance,
              of: cluster < text.count ? text[cluster] : nil, in: face)
            : (kerned: false, own: nil)
          out.initializeElement(
            at: k,
            to: HarfBuzzShaper.glyph(
              infos[k], positions[k], advance: advance, unit: unit, kerned: pair.kerned,
              ownAdvance: pair.own))
          unsafe = (unsafe.1, unsafe.2, false)
        }
      }
      glyphs.append(contentsOf: UnsafeBufferPointer(out))
      _ = out.deinitialize()
    }
  }

  /// A HarfBuzz glyph as the shaping stage keeps it (`unit`: points per font unit).
  package static func glyph(
    _ info: hb_glyph_info_t, _ position: hb_glyph_position_t, advance: Double, unit: Double,
    kerned: Bool = false, ownAdvance: Int32? = nil
  ) -> ShapedGlyph {
    ShapedGlyph(
      id: info.codepoint, cluster: Int32(bitPattern: info.cluster), advance: advance,
      offsetX: Float(Double(position.x_offset) * unit),
      offsetY: Float(Double(position.y_offset) * unit), kerned: kerned, ownAdvance: ownAdvance)
  }

  /// Whether glyph `glyph` of `scalar`, unsafe to break and set with advance `advance` (font
  /// units), is ``ShapedGlyph/kerned`` (its own advance is another), and that own advance when
  /// the glyph is the scalar's nominal glyph (``ShapedGlyph/ownAdvance``).
  static func pairAdjusted(
    _ glyph: UInt32, _ advance: hb_position_t, of scalar: UInt32?, in face: OpaquePointer
  ) -> (kerned: Bool, own: Int32?) {
    let own = hb_font_get_glyph_h_advance(face, glyph)
    guard own != advance else { return (false, nil) }
    guard let scalar, isNominal(glyph, of: scalar, in: face) else { return (true, nil) }
    return (true, own)
  }

  /// Whether `glyph` is the nominal glyph of `scalar` in `face` (the cmap's: no lookup chose it).
  package static func isNominal(_ glyph: UInt32, of scalar: UInt32, in face: OpaquePointer) -> Bool {
    var nominal: hb_codepoint_t = 0
    return hb_font_get_nominal_glyph(face, scalar, &nominal) != 0 && nominal == glyph
  }

  /// Whether HarfBuzz marks a glyph unsafe to break: a glyph set with an advance other than
  /// its own, in a pair where it or a neighbour is so marked (HarfBuzz marks the pair's later
  /// glyph), is ``ShapedGlyph/kerned``.
  static func isUnsafe(_ info: UnsafeMutablePointer<hb_glyph_info_t>) -> Bool {
    hb_glyph_info_get_glyph_flags(info).rawValue & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0
  }

  /// A HarfBuzz language (interned: equal tags give the same pointer) as a number for keys.
  package static func languageKey(_ language: hb_language_t?) -> UInt {
    UInt(bitPattern: language.map { Int(bitPattern: UnsafeRawPointer($0)) } ?? 0)
  }

  /// Whether a code point is a nonspacing or enclosing mark.
  package static func isMark(_ c: UInt32) -> Bool {
    CharacterTable.has(c, CharacterTable.nonspacingMark)
  }

  /// The Unicode script of a code point.
  package static func script(of c: UInt32) -> hb_script_t {
    ScriptTable.script(of: c)
  }

  package static func isCommonOrInherited(_ s: hb_script_t) -> Bool {
    s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN
  }

  /// Parses `["kern": 0, "ss01": 1]` into HarfBuzz features over the whole buffer.
  package static func features(_ map: [FeatureTag: UInt32]) -> [hb_feature_t] {
    map.sorted { $0.key < $1.key }.map { key, value in
      hb_feature_t(tag: key.value, value: value, start: 0, end: UInt32.max)
    }
  }
}
