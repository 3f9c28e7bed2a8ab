import Typesetting
import CHarfBuzz
import CICUShims

/// Shaping a run word by word through the cache of shaped words (``WordCache``), where that
/// gives exactly what shaping the whole run gives: part of the accelerator. Its per-shaper state
/// is among ``AcceleratedShaper``'s stored properties ("The word cache's state").
extension AcceleratedShaper {
  /// The longest word (with its trailing spaces, in code points) kept in the cache.
  static let longestCachedWord = 48

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
  func shapeByWords(
    _ text: [UInt32], run: ShapingRun, size: Double, language: hb_language_t?, features: [hb_feature_t],
    cache: WordCache, into advances: inout [Double]
  ) -> Bool {
    if run.start > 0 && AcceleratedShaper.joinsAcross(text[run.start - 1]) { return false }
    if run.end < text.count && AcceleratedShaper.joinsAcross(text[run.end]) { return false }
    // A word boundary inside the run: a space followed by something else.
    var cut = false
    for k in (run.start + 1)..<max(run.start + 1, run.end)
    where text[k] != 0x20 && text[k - 1] == 0x20 {
      cut = true
      break
    }
    let plan = harfBuzz.plan(
      font: run.font, props: HarfBuzzShaper.properties(run: run, language: language), features: features)
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
        guard k - a <= AcceleratedShaper.longestCachedWord,
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
  func storeMissingWords(
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
  func arrangeWordGlyphs(base: Int, stretch: Range<Int>, rtl: Bool) {
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

  /// A word the cache did not have: code points `[start, end)` of the text.
  struct MissingWord {
    var start: Int
    var end: Int
    var hash: UInt64
  }

  /// What a shaped word's advances depend on besides its code points — the plan (face,
  /// direction, script, language, features), the font and the size — as a small number.
  struct Context: Hashable {
    var plan: OpaquePointer
    var font: FontKey
    var size: UInt64
  }

  func contextID(plan: OpaquePointer, font: Font, size: Double) -> Int32 {
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
  func spaceSplit(_ plan: OpaquePointer, font: Font) -> SpaceSplit {
    if let known = planSplits[plan] { return known }
    let split = SpaceSplit(plan: plan, font: font)
    planSplits[plan] = split
    return split
  }

  /// Whether a space followed by `first` shape as they would apart: HarfBuzz leaves the boundary
  /// between them safe to break (no kerning pair, ligature or mark attachment across it). Found
  /// by shaping the two characters once per plan and character.
  func junctionIsSafe(
    _ plan: OpaquePointer, first: UInt32, run: ShapingRun, language: hb_language_t?,
    features: [hb_feature_t]
  ) -> Bool {
    let key = Junction(plan: plan, first: first)
    if let known = junctions[key] { return known }
    var safe = !CharacterTable.isCombiningMark(first)
    if safe {
      execute([0x20, first], 0, 2, run: run, language: language, features: features)
      var count: UInt32 = 0
      let infos = hb_buffer_get_glyph_infos(harfBuzz.buffer, &count)!
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
}
