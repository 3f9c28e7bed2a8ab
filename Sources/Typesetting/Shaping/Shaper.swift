import CHarfBuzz
import CICUShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Shapes runs of text with HarfBuzz's OpenType functions and reports advances per code point.
///
/// One `hb_buffer_t` per shaper; a shaper is used by one thread at a time (``Typesetter`` keeps
/// one per thread). Nor does any of its methods reach back into it while changing its state,
/// so the state it changes per run skips Swift's dynamic exclusivity checks
/// (`@exclusivity(unchecked)`: ~2% of preparing a bubble), as does ``DirectShaper``'s.
/// This file is HarfBuzz's part; the accelerator's (feature gates, the word cache, direct
/// shaping) is in `Shaping/Accelerator/`, its state among the stored properties below.
final class Shaper: ShapingEngine {
  let buffer: OpaquePointer
  /// When set, every shaped run is recorded (for ``ShapingBaseline``).
  var recorder: ((ShapingBaseline.Item) -> Void)? = nil
  /// When set, runs are shaped word by word through this cache where that changes nothing.
  var cache: WordCache? = nil
  /// Every glyph shaped since it was last emptied, in the order runs were shaped: the shaping
  /// stage's output, which ``Typesetter`` cuts into a prepared text's runs.
  @exclusivity(unchecked) var glyphs: [ShapedGlyph] = []

  /// Shape plans this shaper has used, so that each run skips HarfBuzz's search of its plan cache.
  @exclusivity(unchecked) private var plans: [PlanKey: OpaquePointer] = [:]
  /// Whether runs leave off the features none of whose lookups can change them (``FeatureGate``;
  /// the results are the same either way). Off unless asked for (``init(accelerated:)``).
  var featureGating = false
  /// Per shape plan: its feature gate once the plan has been used often enough to be worth one.
  @exclusivity(unchecked) var gateEntries = PlanEntries<GateEntry>()
  /// Uses of a plan before its gate is worked out (a plan used a few times is not worth it).
  var gateAfterUses = 32
  /// Whether runs that need only nominal glyphs, advances and pair kerning are shaped without
  /// HarfBuzz (``DirectPlan``; the same advances either way), when gating is on too. Off
  /// unless asked for.
  var directShaping = false
  /// Runs shaped without HarfBuzz, and what that needs per plan.
  private let direct = DirectShaper()
  /// Runs shaped without HarfBuzz (for tests and benchmarks).
  var directRuns: Int { direct.runs }
  /// Runs (or stretches of a run) shaped, either way.
  private(set) var rangesShaped = 0


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

  /// A shaper: plain HarfBuzz, or with `accelerated` the accelerator in front of it (feature
  /// gates and direct shaping). The accelerator is only ever on when asked for; whether it may
  /// be (``ShapingMode/fence``) is the asker's to decide.
  init(accelerated: Bool = false) {
    buffer = hb_buffer_create()!
    featureGating = accelerated
    directShaping = accelerated
  }

  deinit {
    for plan in plans.values { hb_shape_plan_destroy(plan) }
    hb_buffer_destroy(buffer)
  }

  /// The segment properties of a run.
  static func properties(run: ShapingRun, language: hb_language_t?) -> hb_segment_properties_t {
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
  func plan(
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
      language: Shaper.languageKey(props.language), features: features)
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

  /// Drops every plan, and every answer keyed by a plan's address (an address may be reused),
  /// once there are too many — only between runs (``shape(_:run:size:language:features:into:)``),
  /// never while a run holds a plan, a context id or words to store.
  private func forgetPlansIfMany() {
    guard plans.count > 512 else { return }
    for old in plans.values { hb_shape_plan_destroy(old) }
    plans.removeAll()
    planSplits.removeAll()
    recentPlans.removeAll()
    lastPlain = nil
    gateEntries.removeAll()
    direct.clear()
    junctions.removeAll()
    contexts.removeAll()
    cache?.clear()
  }

  /// The plans of the last runs, first in first out (cleared with the plans).
  @exclusivity(unchecked) private var recentPlans: [(key: PlanKey, plan: OpaquePointer)] = []

  private func remember(_ key: PlanKey, _ plan: OpaquePointer) {
    if recentPlans.count >= 4 { recentPlans.removeFirst() }
    recentPlans.append((key, plan))
  }

  /// Adds the advance (in points) of every glyph of `run` to `advances[cluster]`, where the cluster
  /// is the index of the code point the glyph came from.
  func shape(
    _ text: [UInt32], run: ShapingRun, size: Double, language: hb_language_t?, features: [hb_feature_t],
    into advances: inout [Double]
  ) {
    forgetPlansIfMany()
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

  // The word cache's state (see Shaper+Words.swift; the accelerator's, one shaper's own).
  /// Advances of the run being shaped word by word (reused).
  @exclusivity(unchecked) var wordScratch: [Double] = []
  /// Per shape plan: which runs no lookup it applies can see across a space in.
  @exclusivity(unchecked) var planSplits = PlanTable<SpaceSplit>()
  /// Per shape plan and first character of a word: whether shaping leaves "space, character"
  /// apart (see `junctionIsSafe`).
  @exclusivity(unchecked) var junctions: [Junction: Bool] = [:]
  @exclusivity(unchecked) var hits: [HitWord] = []
  @exclusivity(unchecked) var hitGlyphs: [ShapedGlyph] = []
  /// The words of the run being shaped that the cache did not have (reused).
  @exclusivity(unchecked) var missing: [MissingWord] = []
  @exclusivity(unchecked) var contexts: [Context: Int32] = [:]

  /// Fills the buffer with `text[start..<end]` (the rest of `text` is context) and shapes it
  /// with the run's plan, one cluster per character.
  func execute(
    _ text: [UInt32], _ start: Int, _ end: Int, run: ShapingRun, language: hb_language_t?,
    features: [hb_feature_t]
  ) {
    let chosen = choosePlan(text, start, end, run: run, language: language, features: features)
    runHarfBuzz(
      text, start, end, font: run.font, props: chosen.props, plan: chosen.plan,
      features: chosen.features)
  }

  /// The run's properties and plan: the run's, or a variant with the features that cannot
  /// change `text[start..<end]` left off.
  func choosePlan(
    _ text: [UInt32], _ start: Int, _ end: Int, run: ShapingRun, language: hb_language_t?,
    features: [hb_feature_t]
  ) -> (props: hb_segment_properties_t, plan: OpaquePointer, features: [hb_feature_t]) {
    let props = Shaper.properties(run: run, language: language)
    let plan = plan(font: run.font, props: props, features: features)
    if featureGating && !run.rtl,
      let variant = gated(plan, text, start, end, font: run.font, props: props, features: features)
    {
      return (props, variant.plan, variant.features)
    }
    return (props, plan, features)
  }

  /// Fills the buffer with `text[start..<end]` (the rest of `text` is context) and shapes it
  /// with `plan`, one cluster per character.
  private func runHarfBuzz(
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

  /// Runs shaped with features left off (for tests and benchmarks).
  var gatedRuns = 0

  /// The glyphs HarfBuzz gives for `text[start..<end]` as this shaper shapes it: glyph, cluster
  /// and position (for checking that gates change nothing).
  func harfBuzzGlyphs(
    _ text: [UInt32], _ start: Int, _ end: Int, run: ShapingRun, language: hb_language_t?,
    features: [hb_feature_t]
  ) -> [[Int32]] {
    execute(text, start, end, run: run, language: language, features: features)
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

  /// Advances go to `advances[cluster - offset]`.
  func shapeRange(
    _ text: [UInt32], _ start: Int, _ end: Int, run: ShapingRun, size: Double, language: hb_language_t?,
    features: [hb_feature_t], into advances: inout [Double], offset: Int = 0
  ) {
    rangesShaped += 1
    let chosen = choosePlan(text, start, end, run: run, language: language, features: features)
    if featureGating && directShaping && end > start {
      let font = run.font
      let done = text.withUnsafeBufferPointer { t in
        advances.withUnsafeMutableBufferPointer { a in
          direct.shape(
            t, start, end, font: font, size: size, plan: chosen.plan, decideAfter: gateAfterUses,
            into: a.baseAddress!, offset: offset, glyphs: &glyphs
          ) { mayMake in
            // Made once per font and plan properties, shared by all threads.
            let props = chosen.props
            let key = Shaper.gateKey(props, chosen.features)
            guard mayMake else { return font.featureGates.knownDirectPlan(key) }
            return .some(
              font.featureGates.directPlan(key) {
                DirectPlan.make(
                  font: font, plan: chosen.plan, props: props, features: chosen.features)
              })
          }
        }
      }
      if done { return }
    }
    runHarfBuzz(
      text, start, end, font: run.font, props: chosen.props, plan: chosen.plan,
      features: chosen.features)
    var count: UInt32 = 0
    let infos = hb_buffer_get_glyph_infos(buffer, &count)!
    let positions = hb_buffer_get_glyph_positions(buffer, &count)!
    let font = run.font
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
            at: k, to: Shaper.glyph(infos[k], positions[k], advance: advance, unit: unit))
        }
      } else {
        for k in 0..<Int(count) {
          let cluster = Int(infos[k].cluster)
          var advance = Double(positions[k].x_advance) * unit
          // A combining mark the font lacks takes no room (a browser falls back for it and
          // sets it over its base), rather than the width of a missing-glyph box.
          if infos[k].codepoint == 0 && cluster < text.count && Shaper.isMark(text[cluster]) {
            advance = 0
          } else {
            advances[cluster - offset] += advance
          }
          out.initializeElement(
            at: k, to: Shaper.glyph(infos[k], positions[k], advance: advance, unit: unit))
        }
      }
      glyphs.append(contentsOf: UnsafeBufferPointer(out))
      _ = out.deinitialize()
    }
  }

  /// A HarfBuzz glyph as the shaping stage keeps it (`unit`: points per font unit).
  static func glyph(
    _ info: hb_glyph_info_t, _ position: hb_glyph_position_t, advance: Double, unit: Double
  ) -> ShapedGlyph {
    ShapedGlyph(
      id: info.codepoint, cluster: Int32(bitPattern: info.cluster), advance: advance,
      offsetX: Float(Double(position.x_offset) * unit),
      offsetY: Float(Double(position.y_offset) * unit))
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
  static func script(of c: UInt32) -> hb_script_t {
    ScriptTable.script(of: c)
  }

  static func isCommonOrInherited(_ s: hb_script_t) -> Bool {
    s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN
  }

  /// Parses `["kern": 0, "ss01": 1]` into HarfBuzz features over the whole buffer.
  static func features(_ map: [FeatureTag: UInt32]) -> [hb_feature_t] {
    map.sorted { $0.key < $1.key }.map { key, value in
      hb_feature_t(tag: key.value, value: value, start: 0, end: UInt32.max)
    }
  }
}
