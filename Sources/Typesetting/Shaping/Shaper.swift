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
final class Shaper: ShapingEngine {
  private let buffer: OpaquePointer
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
  @exclusivity(unchecked) private var gateEntries = PlanEntries<GateEntry>()
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

  private final class GateEntry {
    @exclusivity(unchecked) var uses = 0
    @exclusivity(unchecked) var decided = false
    @exclusivity(unchecked) var gate: FeatureGate?
    /// Per code point of the memo's planes, 0 until first seen, then what it blocks
    /// (``FeatureGate/blocks(_:font:)``, never 0) in the low byte and its
    /// ``FeatureGate/pairBits(_:font:)`` above (with a gate).
    @exclusivity(unchecked) var memo: CharacterMemo?
    /// Per set of candidates left off: the plan and features (nil: that combination is not
    /// exact), once worked out.
    @exclusivity(unchecked) var variants = [Variant](repeating: .unknown, count: 256)

    enum Variant {
      case unknown
      case inexact
      case exact(plan: OpaquePointer, features: [hb_feature_t])
    }
  }

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
  private static func properties(run: ShapingRun, language: hb_language_t?) -> hb_segment_properties_t {
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
  private func plan(
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

  /// The longest word (with its trailing spaces, in code points) kept in the cache.
  static let longestCachedWord = 48
  /// Advances of the run being shaped word by word (reused).
  @exclusivity(unchecked) private var wordScratch: [Double] = []
  /// Per shape plan: which runs no lookup it applies can see across a space in.
  @exclusivity(unchecked) private var planSplits = PlanTable<SpaceSplit>()
  /// Per shape plan and first character of a word: whether shaping leaves "space, character"
  /// apart (see `junctionIsSafe`).
  @exclusivity(unchecked) private var junctions: [Junction: Bool] = [:]

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
    _ text: [UInt32], run: ShapingRun, size: Double, language: hb_language_t?, features: [hb_feature_t],
    cache: WordCache, into advances: inout [Double]
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
    let plan = plan(
      font: run.font, props: Shaper.properties(run: run, language: language), features: features)
    if cut
      && !spaceSplit(plan, font: run.font).allows(
        text[run.start..<run.end], font: run.font, rtl: run.rtl)
    {
      return false
    }
    let n = run.end - run.start
    if wordScratch.count < n { wordScratch = [Double](repeating: 0, count: max(n, 256)) }
    let context = contextID(plan: plan, font: run.font, size: size)
    missing.removeAll(keepingCapacity: true)
    hits.removeAll(keepingCapacity: true)
    hitGlyphs.removeAll(keepingCapacity: true)
    var complete = true
    text.withUnsafeBufferPointer { t in
      var k = run.start
      while k < run.end {
        let a = k
        while k < run.end && t[k] != 0x20 { k += 1 }
        while k < run.end && t[k] == 0x20 { k += 1 }
        guard k - a <= Shaper.longestCachedWord,
          a == run.start
            || junctionIsSafe(plan, first: t[a], run: run, language: language, features: features)
        else {
          complete = false
          return
        }
        let word = UnsafeBufferPointer(rebasing: t[a..<k])
        let hash = WordCache.hash(context: context, word)
        let found = wordScratch.withUnsafeMutableBufferPointer { w in
          cache.lookup(context: context, word, hash: hash, into: w.baseAddress! + (a - run.start))
        }
        if let found {
          // (Copied now: a store below may drop the cache's arenas.)
          let from = hitGlyphs.count
          for var g in found {
            g.cluster += Int32(a)
            hitGlyphs.append(g)
          }
          hits.append(HitWord(start: a, glyphs: from..<hitGlyphs.count))
        } else {
          missing.append(MissingWord(start: a, end: k, hash: hash))
        }
      }
    }
    guard complete else { return false }
    let base = glyphs.count
    var stretch = 0..<0  // code points shaped afresh
    if let first = missing.first, let last = missing.last {
      // Shape the stretch from the first missing word to the end of the last (one HarfBuzz
      // call), then keep each missing word's slice of it: the checks above make a slice what
      // shaping the word alone gives, and the words around it shape as they would alone too.
      let lo = first.start
      let hi = last.end
      stretch = lo..<hi
      var part = [Double](repeating: 0, count: hi - lo)
      shapeRange(
        text, lo, hi, run: run, size: size, language: language, features: features,
        into: &part, offset: lo)
      storeMissingWords(text, part: part, lo: lo, context: context, glyphsFrom: base, cache: cache)
      for j in 0..<(hi - lo) { wordScratch[lo - run.start + j] = part[j] }
    }
    arrangeWordGlyphs(base: base, stretch: stretch, rtl: run.rtl)
    for j in 0..<n { advances[run.start + j] += wordScratch[j] }
    return true
  }

  /// Keeps each missing word's advances and its slice of the glyphs shaped for the stretch
  /// (`glyphs[from...]`, in shaping order) in the cache.
  private func storeMissingWords(
    _ text: [UInt32], part: [Double], lo: Int, context: Int32, glyphsFrom from: Int,
    cache: WordCache
  ) {
    // Each glyph to its word (binary search on the words' starts), in shaping order.
    var perWord = [[ShapedGlyph]](repeating: [], count: missing.count)
    for g in glyphs[from...] {
      let c = Int(g.cluster)
      var w = 0
      var past = missing.count
      while past - w > 1 {
        let mid = (w + past) / 2
        if missing[mid].start <= c { w = mid } else { past = mid }
      }
      guard c >= missing[w].start && c < missing[w].end else { continue }
      var g = g
      g.cluster -= Int32(missing[w].start)
      perWord[w].append(g)
    }
    text.withUnsafeBufferPointer { t in
      part.withUnsafeBufferPointer { values in
        for (w, word) in missing.enumerated() {
          cache.store(
            context: context, UnsafeBufferPointer(rebasing: t[word.start..<word.end]),
            hash: word.hash,
            advances: UnsafeBufferPointer(rebasing: values[(word.start - lo)..<(word.end - lo)]),
            glyphs: perWord[w][...])
        }
      }
    }
  }

  /// Puts the run's glyphs (`glyphs[base...]` holds the stretch shaped afresh) in the order
  /// shaping the whole run gives: the words found in the cache before the stretch, the stretch,
  /// the words after it — reversed for a right-to-left run, whose glyphs go right to left.
  private func arrangeWordGlyphs(base: Int, stretch: Range<Int>, rtl: Bool) {
    var units: [ArraySlice<ShapedGlyph>] = []
    let fresh = glyphs[base...]
    var freshPlaced = stretch.isEmpty
    for hit in hits {
      if !freshPlaced && hit.start >= stretch.upperBound {
        units.append(fresh)
        freshPlaced = true
      }
      if stretch.contains(hit.start) { continue }  // shaped again within the stretch
      units.append(hitGlyphs[hit.glyphs])
    }
    if !freshPlaced { units.append(fresh) }
    if rtl { units.reverse() }
    var arranged: [ShapedGlyph] = []
    arranged.reserveCapacity(glyphs.count - base + hitGlyphs.count)
    for u in units { arranged.append(contentsOf: u) }
    glyphs.replaceSubrange(base..., with: arranged)
  }

  /// A word the cache had: code points from `start`, its glyphs in `hitGlyphs`.
  struct HitWord {
    var start: Int
    var glyphs: Range<Int>
  }
  @exclusivity(unchecked) private var hits: [HitWord] = []
  @exclusivity(unchecked) private var hitGlyphs: [ShapedGlyph] = []

  /// A word the cache did not have: code points `[start, end)` of the text.
  struct MissingWord {
    var start: Int
    var end: Int
    var hash: UInt64
  }
  /// The words of the run being shaped that the cache did not have (reused).
  @exclusivity(unchecked) private var missing: [MissingWord] = []

  /// What a shaped word's advances depend on besides its code points — the plan (face,
  /// direction, script, language, features), the font and the size — as a small number.
  struct Context: Hashable {
    var plan: OpaquePointer
    var font: FontKey
    var size: UInt64
  }
  @exclusivity(unchecked) private var contexts: [Context: Int32] = [:]

  private func contextID(plan: OpaquePointer, font: Font, size: Double) -> Int32 {
    let key = Context(plan: plan, font: FontKey(font), size: (size == 0 ? 0 : size).bitPattern)
    if let id = contexts[key] { return id }
    if contexts.count >= 4096 {
      // Ids are about to be reused: the words stored under the old ones go with them.
      contexts.removeAll()
      cache?.clear()
    }
    let id = Int32(contexts.count)
    contexts[key] = id
    return id
  }

  /// How the plan lets runs split at spaces (worked out once per plan).
  private func spaceSplit(_ plan: OpaquePointer, font: Font) -> SpaceSplit {
    if let known = planSplits[plan] { return known }
    let split = SpaceSplit(plan: plan, font: font)
    planSplits[plan] = split
    return split
  }

  /// Whether a space followed by `first` shape as they would apart: HarfBuzz leaves the boundary
  /// between them safe to break (no kerning pair, ligature or mark attachment across it). Found
  /// by shaping the two characters once per plan and character.
  private func junctionIsSafe(
    _ plan: OpaquePointer, first: UInt32, run: ShapingRun, language: hb_language_t?,
    features: [hb_feature_t]
  ) -> Bool {
    let key = Junction(plan: plan, first: first)
    if let known = junctions[key] { return known }
    var safe = !CharacterTable.isCombiningMark(first)
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

  /// Whether a character next to a run can change how the run is shaped: a character that
  /// joins (Unicode's Joining_Type, which HarfBuzz's joining shapers read: Arabic, Syriac, N'Ko,
  /// Mongolian, Phags-pa, Manichaean, Psalter Pahlavi, Adlam…, and the join-causing ZWJ and
  /// tatweel), the zero width non-joiner, which stops joining, and marks (transparent, so what
  /// decides lies further away).
  static func joinsAcross(_ c: UInt32) -> Bool {
    CharacterTable.isCombiningMark(c) || c == 0x200C || galley_joining_type(c) != 0
  }

  /// Fills the buffer with `text[start..<end]` (the rest of `text` is context) and shapes it
  /// with the run's plan, one cluster per character.
  private func execute(
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
  private func choosePlan(
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

  /// The plan (and its features) that shapes `text[start..<end]` exactly as `base` does with the
  /// features that cannot change it left off, or nil when there are none (or the plan is new).
  private func gated(
    _ base: OpaquePointer, _ text: [UInt32], _ start: Int, _ end: Int, font: Font,
    props: hb_segment_properties_t, features: [hb_feature_t]
  ) -> (plan: OpaquePointer, features: [hb_feature_t])? {
    let entry = gateEntries.entry(base) { GateEntry() }
    if !entry.decided {
      entry.uses += 1
      guard Shaper.Warmup.isCheck(entry.uses, after: gateAfterUses) else { return nil }
      let key = Shaper.gateKey(props, features)
      if entry.uses >= gateAfterUses {
        entry.gate = font.featureGates.gate(key) {
          FeatureGate.make(font: font, plan: base, props: props, features: features)
        }
      } else {
        // Another shaper (a thread, an earlier typesetter) had the gate made: no need to wait.
        guard let known = font.featureGates.knownGate(key) else { return nil }
        entry.gate = known
      }
      entry.decided = true
      if entry.gate != nil { entry.memo = CharacterMemo() }
    }
    guard let gate = entry.gate, let memo = entry.memo else { return nil }
    let keep: UInt8 = text.withUnsafeBufferPointer { t in
      var keep: UInt8 = ~gate.usable
      var previous: UInt64 = 0
      for k in start..<end {
        let c = t[k]
        let v = memo.value(c) { UInt64(gate.blocks(c, font: font)) | gate.pairBits(c, font: font) }
        keep |= UInt8(truncatingIfNeeded: v)
        // Pairs side by side: a glyph of a pair's first set right before one of its second.
        let pairs = v & ~0xFF
        if previous != 0 && pairs != 0 { keep |= gate.pairKeeps(previous, pairs) }
        previous = pairs
      }
      return keep
    }
    let mask = gate.off(keeping: keep)
    guard mask != 0 else { return nil }
    switch entry.variants[Int(mask)] {
    case .exact(let plan, let features):
      gatedRuns += 1
      return (plan, features)
    case .inexact:
      return nil
    case .unknown:
      let off = FeatureGate.features(features, off: mask)
      let variant = plan(font: font, props: props, features: off)
      guard gate.isExact(variant, mask: mask) else {
        entry.variants[Int(mask)] = .inexact
        return nil
      }
      entry.variants[Int(mask)] = .exact(plan: variant, features: off)
      gatedRuns += 1
      return (variant, off)
    }
  }

  /// When a plan met for the first time is looked up in what its font already knows (gates and
  /// direct plans made for it by other shapers), before it has been used `after` times and may
  /// have them made: at its 1st, 2nd, 4th, 8th… use, and at the `after`-th.
  enum Warmup {
    static func isCheck(_ uses: Int, after: Int) -> Bool {
      uses >= after || uses & (uses - 1) == 0
    }
  }

  /// Runs shaped with features left off (for tests and benchmarks).
  private(set) var gatedRuns = 0

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

  /// What a plan's gate and direct plan are kept under in its font (``FeatureGates``).
  static func gateKey(_ props: hb_segment_properties_t, _ features: [hb_feature_t])
    -> FeatureGates.Key
  {
    FeatureGates.Key(
      script: props.script.rawValue, direction: props.direction.rawValue,
      language: languageKey(props.language), features: featureKeys(features))
  }

  /// Features as numbers for keys, without loss: tag and value, then start and end.
  static func featureKeys(_ features: [hb_feature_t]) -> [UInt64] {
    var keys: [UInt64] = []
    keys.reserveCapacity(2 * features.count)
    for f in features {
      keys.append(UInt64(f.tag) << 32 | UInt64(f.value))
      keys.append(UInt64(f.start) << 32 | UInt64(f.end))
    }
    return keys
  }

  /// Advances go to `advances[cluster - offset]`.
  private func shapeRange(
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
