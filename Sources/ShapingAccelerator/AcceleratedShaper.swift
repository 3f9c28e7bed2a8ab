import CHarfBuzz
import Typesetting

/// The accelerator's shaping engine: a ``HarfBuzzShaper`` with feature gates, direct shaping
/// and (when asked for) the word cache in front of it. It answers a run only with HarfBuzz's
/// own glyphs, clusters, advances and offsets, and hands every other run to HarfBuzz.
///
/// Used by one thread at a time, like the engine it wraps; its per-run state skips Swift's
/// dynamic exclusivity checks for the same reason. Gates are in `AcceleratedShaper+Gates.swift`,
/// the word cache in `AcceleratedShaper+Words.swift`, direct shaping in ``DirectShaper``.
final class AcceleratedShaper: ShapingEngine {
  /// The engine that shapes what the accelerator does not, and owns the buffer and the plans.
  let harfBuzz = HarfBuzzShaper()
  /// When set, runs are shaped word by word through this cache where that changes nothing.
  var cache: WordCache? = nil

  /// Every glyph shaped since it was last emptied, in the order runs were shaped (HarfBuzz's
  /// are appended here too).
  @exclusivity(unchecked) var glyphs: [ShapedGlyph] = []

  /// Per shape plan: its feature gate once the plan has been used often enough to be worth one.
  @exclusivity(unchecked) var gateEntries = PlanEntries<GateEntry>()
  /// Uses of a plan before its gate is worked out (a plan used a few times is not worth it).
  var gateAfterUses = 32
  /// Runs shaped without HarfBuzz, and what that needs per plan.
  private let direct = DirectShaper()
  /// Runs shaped with features left off (for tests and benchmarks).
  var gatedRuns = 0
  /// Runs (or stretches of a run) shaped, either way.
  private(set) var rangesShaped = 0

  var shapingCounts: (runs: Int, direct: Int) { (rangesShaped, direct.runs) }
  var cachedWords: Int { cache?.count ?? 0 }

  // The word cache's state (see AcceleratedShaper+Words.swift).
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

  init(wordCacheCapacity: Int = 0) {
    if wordCacheCapacity > 0 { cache = WordCache(capacity: wordCacheCapacity) }
  }

  /// Adds the advance (in points) of every glyph of `run` to `advances[cluster]`, where the
  /// cluster is the index of the code point the glyph came from.
  func shape(
    _ text: [UInt32], run: ShapingRun, size: Double, language: hb_language_t?,
    features: [hb_feature_t], into advances: inout [Double]
  ) {
    forgetPlansIfMany()
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

  /// When the engine drops its plans (too many), every answer keyed by a plan's address goes
  /// too (an address may be reused) — only between runs, never while a run holds a plan, a
  /// context id or words to store.
  private func forgetPlansIfMany() {
    guard harfBuzz.forgetPlansIfMany() else { return }
    planSplits.removeAll()
    gateEntries.removeAll()
    direct.clear()
    junctions.removeAll()
    contexts.removeAll()
    cache?.clear()
  }

  /// Shapes `text[start..<end]` with the run's plan (the rest of `text` is context), one
  /// cluster per character.
  func execute(
    _ text: [UInt32], _ start: Int, _ end: Int, run: ShapingRun, language: hb_language_t?,
    features: [hb_feature_t]
  ) {
    let chosen = choosePlan(text, start, end, run: run, language: language, features: features)
    harfBuzz.execute(
      text, start, end, font: run.font, props: chosen.props, plan: chosen.plan,
      features: chosen.features)
  }

  /// The run's properties and plan: the run's, or a variant with the features that cannot
  /// change `text[start..<end]` left off.
  func choosePlan(
    _ text: [UInt32], _ start: Int, _ end: Int, run: ShapingRun, language: hb_language_t?,
    features: [hb_feature_t]
  ) -> (props: hb_segment_properties_t, plan: OpaquePointer, features: [hb_feature_t]) {
    let props = HarfBuzzShaper.properties(run: run, language: language)
    let plan = harfBuzz.plan(font: run.font, props: props, features: features)
    if !run.rtl,
      let variant = gated(plan, text, start, end, font: run.font, props: props, features: features)
    {
      return (props, variant.plan, variant.features)
    }
    return (props, plan, features)
  }

  /// The glyphs HarfBuzz gives for `text[start..<end]` as this shaper shapes it: glyph, cluster
  /// and position (for checking that gates change nothing).
  func harfBuzzGlyphs(
    _ text: [UInt32], _ start: Int, _ end: Int, run: ShapingRun, language: hb_language_t?,
    features: [hb_feature_t]
  ) -> [[Int32]] {
    execute(text, start, end, run: run, language: language, features: features)
    return harfBuzz.bufferGlyphs()
  }

  /// Shapes `text[start..<end]` directly where its plan and characters allow, else with
  /// HarfBuzz; advances go to `advances[cluster - offset]`.
  func shapeRange(
    _ text: [UInt32], _ start: Int, _ end: Int, run: ShapingRun, size: Double,
    language: hb_language_t?, features: [hb_feature_t], into advances: inout [Double],
    offset: Int = 0
  ) {
    rangesShaped += 1
    let chosen = choosePlan(text, start, end, run: run, language: language, features: features)
    if end > start
      && shapeDirectly(
        text, start, end, font: run.font, size: size, chosen: chosen, into: &advances,
        offset: offset)
    {
      return
    }
    harfBuzz.execute(
      text, start, end, font: run.font, props: chosen.props, plan: chosen.plan,
      features: chosen.features)
    harfBuzz.appendGlyphs(
      text, font: run.font, size: size, to: &glyphs, advances: &advances, offset: offset)
  }

  /// Shapes `text[start..<end]` without HarfBuzz when the plan has a direct plan and every
  /// character allows it; returns whether it did.
  private func shapeDirectly(
    _ text: [UInt32], _ start: Int, _ end: Int, font: Font, size: Double,
    chosen: (props: hb_segment_properties_t, plan: OpaquePointer, features: [hb_feature_t]),
    into advances: inout [Double], offset: Int
  ) -> Bool {
    text.withUnsafeBufferPointer { t in
      advances.withUnsafeMutableBufferPointer { a in
        direct.shape(
          t, start, end, font: font, size: size, plan: chosen.plan, decideAfter: gateAfterUses,
          into: a.baseAddress!, offset: offset, glyphs: &glyphs
        ) { mayMake in
          // Made once per font and plan properties, shared by all threads.
          let props = chosen.props
          let key = AcceleratedShaper.gateKey(props, chosen.features)
          guard mayMake else { return font.featureGates.knownDirectPlan(key) }
          return .some(
            font.featureGates.directPlan(key) {
              DirectPlan.make(
                font: font, plan: chosen.plan, props: props, features: chosen.features)
            })
        }
      }
    }
  }
}
