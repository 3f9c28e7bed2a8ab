import CHarfBuzz
import Typesetting
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One shaper's side of direct shaping (one thread at a time): per shape plan, its direct plan
/// once the plan has been used often enough, what each character met is to it, and the pair
/// adjustments met. Flat memory, so that the loop over a run's characters checks no ownership.
final class DirectShaper {
  private final class Entry {
    var uses = 0
    var decided = false
    var plan: DirectPlan?
    /// Per code point of the memo's planes: 0 until first seen, then bit 63, and when a run may
    /// hold it, bit 62, its glyph in bits 32–47 and its advance in the low 32 bits.
    var characters: CharacterMemo?
    /// Pair adjustments met: 4,096 keys (`1 << 32 | first << 16 | second`), then their values
    /// (the first glyph's adjustment in the high half), then the first glyph's x placements; a
    /// slot per hash, overwritten.
    var pairs: UnsafeMutablePointer<UInt64>?

    deinit { free(pairs) }
  }

  private static let pairSlots = 4096
  private var entries = PlanEntries<Entry>()
  /// Each character's packed glyph and advance for the run being shaped (grown as needed).
  private var scratch = UnsafeMutablePointer<UInt64>.allocate(capacity: 256)
  /// The character each glyph of `scratch` comes from, once ligatures formed (grown with it).
  private var clusters = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
  /// Each glyph's x offset in font units: a `kern` table's pair moves the second glyph by its
  /// share, as HarfBuzz splits such kerning (grown with it).
  private var offsets = UnsafeMutablePointer<Int32>.allocate(capacity: 256)
  private var scratchCapacity = 256
  /// Runs shaped.
  private(set) var runs = 0

  deinit {
    scratch.deallocate()
    clusters.deallocate()
    offsets.deallocate()
  }

  /// Forgets every plan (their addresses may be reused).
  func clear() {
    entries.removeAll()
  }

  /// Adds the advances of `text[start..<end]` (points at `size`) to `advances[k - offset]` when `plan`
  /// has a direct plan and every character allows it; returns whether it did. A plan's direct
  /// plan is asked of `find(true)` (which makes it when missing) at its `decideAfter`-th use;
  /// before that, at a few uses (``AcceleratedShaper/Warmup``), of `find(false)`, which gives it only when
  /// it was made already (nil when not; `.some(nil)` when the plan has none).
  func shape(
    _ text: UnsafeBufferPointer<UInt32>, _ start: Int, _ end: Int, font: Font, size: Double,
    plan: OpaquePointer, decideAfter: Int, into advances: UnsafeMutablePointer<Double>, offset: Int,
    glyphs: inout [ShapedGlyph], find: (_ mayMake: Bool) -> DirectPlan??
  ) -> Bool {
    let entry = entries.entry(plan) { Entry() }
    if !entry.decided && !decide(entry, decideAfter: decideAfter, find: find) { return false }
    guard let direct = entry.plan, let characters = entry.characters else { return false }
    var n = end - start
    reserve(n)
    let scratch = self.scratch
    for k in 0..<n {
      let c = text[start + k]
      let v = characters.value(c) { Self.packed(c, direct, font) }
      guard v & (1 << 62) != 0 else { return false }
      scratch[k] = v
    }
    // From here on, n counts glyphs (fewer than characters once ligatures form).
    var ligated = false
    if !direct.guarded.isEmpty && direct.guarded.mayApply(scratch, count: n) {
      guard direct.guarded.appliesAny,
        let count = direct.applyGuarded(scratch, count: n, clusters: clusters, font: font)
      else { return false }
      n = count
      ligated = true
    }
    var shifted = false
    if let pairs = entry.pairs, n > 1 {
      guard let s = kern(n, pairs: pairs, direct) else { return false }
      shifted = s
    }
    append(
      n, text, start: start, ligated: ligated, shifted: shifted,
      scale: size / direct.advanceUnitsPerEm, rtl: direct.rightToLeft, font: font,
      characters: characters, into: advances, offset: offset, glyphs: &glyphs)
    runs += 1
    return true
  }

  /// Counts a use of `entry`'s plan and, at a check (``AcceleratedShaper/Warmup``), asks for its direct
  /// plan; true once it is decided.
  private func decide(
    _ entry: Entry, decideAfter: Int, find: (_ mayMake: Bool) -> DirectPlan??
  ) -> Bool {
    entry.uses += 1
    guard AcceleratedShaper.Warmup.isCheck(entry.uses, after: decideAfter),
      let found = find(entry.uses >= decideAfter)
    else { return false }
    entry.decided = true
    entry.plan = found
    if let made = entry.plan {
      entry.characters = CharacterMemo()
      if !made.kerning.isEmpty {
        entry.pairs = calloc(3 * Self.pairSlots, 8)!.bindMemory(
          to: UInt64.self, capacity: 3 * Self.pairSlots)
      }
    }
    return true
  }

  /// Room for `n` glyphs in the scratch buffers.
  private func reserve(_ n: Int) {
    guard scratchCapacity < n else { return }
    scratch.deallocate()
    clusters.deallocate()
    offsets.deallocate()
    scratchCapacity = max(n, 2 * scratchCapacity)
    scratch = .allocate(capacity: scratchCapacity)
    clusters = .allocate(capacity: scratchCapacity)
    offsets = .allocate(capacity: scratchCapacity)
  }

  /// Kerns the `n` glyphs of `scratch` pair by pair (each pair's adjustment kept in `pairs`, a
  /// table of the plan's), the placements in `offsets`; whether any glyph was moved, nil when
  /// a `kern` table's split would move one right to left (such a run is left to HarfBuzz).
  private func kern(_ n: Int, pairs: UnsafeMutablePointer<UInt64>, _ direct: DirectPlan) -> Bool? {
    let scratch = self.scratch
    let offsets = self.offsets
    var shifted = false
    offsets.update(repeating: 0, count: n)
    let values = pairs + Self.pairSlots
    let placements = pairs + 2 * Self.pairSlots
    // What the pair before each glyph did to its advance (a glyph whose advance comes out
    // other than its own is kerned: bit 48).
    var before: UInt32 = 0
    for k in 0..<(n - 1) {
      let key = 1 << 32 | (scratch[k] >> 16 & 0xFFFF_0000) | (scratch[k + 1] >> 32 & 0xFFFF)
      let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 52)
      if pairs[slot] != key {
        let a = direct.kerning.adjustment(
          UInt16(truncatingIfNeeded: scratch[k] >> 32),
          UInt16(truncatingIfNeeded: scratch[k + 1] >> 32))
        pairs[slot] = key
        values[slot] =
          UInt64(UInt32(bitPattern: a.first)) << 32
          | UInt64(UInt32(bitPattern: a.second))
        placements[slot] = UInt64(UInt32(bitPattern: a.placement))
      }
      let value = values[slot]
      // Adjust the low 32 bits (the advances) in place.
      let first = UInt32(truncatingIfNeeded: value >> 32)
      scratch[k] =
        scratch[k] & ~0xFFFF_FFFF | UInt64(UInt32(truncatingIfNeeded: scratch[k]) &+ first)
        | (before &+ first != 0 ? Self.kernedBit : 0)
      before = UInt32(truncatingIfNeeded: value)
      scratch[k + 1] =
        scratch[k + 1] & ~0xFFFF_FFFF
        | UInt64(UInt32(truncatingIfNeeded: scratch[k + 1]) &+ before)
      let moved = Int32(truncatingIfNeeded: placements[slot])
      if moved != 0 {
        offsets[k] &+= moved
        shifted = true
      }
      // A `kern` table's split moves the second glyph by its share (left to right; right to
      // left, such a run is left to HarfBuzz).
      let secondShare = Int32(truncatingIfNeeded: value)
      if secondShare != 0 {
        if direct.rightToLeft { return nil }
        offsets[k + 1] &+= secondShare
        shifted = true
      }
    }
    if before != 0 { scratch[n - 1] |= Self.kernedBit }
    return shifted
  }

  /// The own advance of kerned glyph `id` (packed as `packed`) of `scalar`, as
  /// ``ShapedGlyph/ownAdvance`` keeps it (as HarfBuzz's shaping keeps it): the memo's advance
  /// when the glyph is the memo's and the character's nominal glyph (``ownBit``), else asked of
  /// the font (a glyph a lookup made).
  private static func ownAdvance(
    _ packed: UInt64, _ id: UInt32, of scalar: UInt32, _ font: Font, _ characters: CharacterMemo
  ) -> Int32? {
    // (The memo keeps the words of its planes only, each met while the run was read; past them
    // the packed glyph holds its advance after kerning, and the font is asked.)
    if packed & ownBit != 0 && scalar < CharacterMemo.limit {
      return Int32(truncatingIfNeeded: characters.value(scalar) { packed })
    }
    guard font.bitmapStrikePPEM == nil, HarfBuzzShaper.isNominal(id, of: scalar, in: font.hbFont)
    else { return nil }
    return hb_font_get_glyph_h_advance(font.hbFont, id)
  }

  /// The bit of a packed glyph that says it is its character's nominal glyph in an outline
  /// font, its advance (the low 32 bits, before kerning) the glyph's own: set in the memo.
  private static let ownBit: UInt64 = 1 << 49

  /// The bit of a packed glyph in `scratch` that says it is ``ShapedGlyph/kerned``.
  private static let kernedBit: UInt64 = 1 << 48

  /// Adds the `n` glyphs' advances (points: font units times `scale`) to their characters and
  /// appends the glyphs. (Ligated: a ligature's advance goes to its first character, as
  /// HarfBuzz's clusters give it. Written in place, then appended at once; right to left,
  /// HarfBuzz gives the glyphs right to left, clusters falling.)
  private func append(
    _ n: Int, _ text: UnsafeBufferPointer<UInt32>, start: Int, ligated: Bool, shifted: Bool,
    scale: Double, rtl: Bool, font: Font, characters: CharacterMemo,
    into advances: UnsafeMutablePointer<Double>, offset: Int, glyphs: inout [ShapedGlyph]
  ) {
    let scratch = self.scratch
    let clusters = self.clusters
    let offsets = self.offsets
    withUnsafeTemporaryAllocation(of: ShapedGlyph.self, capacity: n) { out in
      for k in 0..<n {
        let cluster = start + (ligated ? Int(clusters[k]) : k)
        let advance = Double(Int32(truncatingIfNeeded: scratch[k])) * scale
        advances[cluster - offset] += advance
        let id = UInt32(truncatingIfNeeded: scratch[k] >> 32 & 0xFFFF)
        let kerned = scratch[k] & Self.kernedBit != 0
        out.initializeElement(
          at: rtl ? n - 1 - k : k,
          to: ShapedGlyph(
            id: id, cluster: Int32(cluster),
            advance: advance, offsetX: shifted ? Float(Double(offsets[k]) * scale) : 0,
            offsetY: 0, kerned: kerned,
            ownAdvance: kerned
              ? Self.ownAdvance(scratch[k], id, of: text[cluster], font, characters) : nil))
      }
      glyphs.append(contentsOf: UnsafeBufferPointer(out))
      _ = out.deinitialize()
    }
  }

  /// What the memo keeps of `c`: bit 63 (known), bit 62 (shaped directly), the glyph in bits
  /// 32–47 and the advance in the low 32 bits.
  static func packed(_ c: UInt32, _ direct: DirectPlan, _ font: Font) -> UInt64 {
    var v: UInt64 = 1 << 63
    if let g = direct.glyph(c, font: font) {
      v |= 1 << 62 | UInt64(g.glyph) << 32 | UInt64(UInt32(bitPattern: g.advance))
      if font.bitmapStrikePPEM == nil && font.glyph(for: c) == UInt32(g.glyph) { v |= ownBit }
    }
    return v
  }
}
