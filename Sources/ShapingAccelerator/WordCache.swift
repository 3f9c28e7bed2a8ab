import Typesetting
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Shaped words of one ``AcceleratedShaper`` (so of one thread at a time): chat messages are new, their
/// words mostly are not.
///
/// An open-addressing table over flat memory, so that a lookup is a hash of the word, a probe
/// or two and a comparison of code points, with no reference counting, no lock and no
/// copy-on-write check: the code points, advances and glyphs of the words live in arenas, and when
/// one is full (or the table is), everything is dropped at once and filling starts again.
/// The memory comes zeroed from the system, so pages the cache never reaches cost nothing.
final class WordCache {
  private struct Slot {
    var hash: UInt64  // 0: empty
    var start: Int32  // in the arenas
    var count: Int32
    var context: Int32
    var glyphStart: Int32
    var glyphCount: Int32
  }

  /// The most words held.
  let capacity: Int
  private let slots: UnsafeMutablePointer<Slot>
  private let mask: Int
  private let characters: UnsafeMutablePointer<UInt32>
  private let advances: UnsafeMutablePointer<Double>
  /// The words' glyphs, clusters counted from the word's first code point.
  private let glyphs: UnsafeMutablePointer<ShapedGlyph>
  private let arenaSize: Int
  private var used = 0
  private var glyphsUsed = 0
  /// Number of words held.
  private(set) var count = 0

  /// Probes before giving up (a miss) or overwriting (a store).
  private static let probes = 8

  init(capacity: Int) {
    // (A million words per thread at most: about 150 MB, reserved but touched only as used.)
    self.capacity = max(1, min(capacity, 1 << 20))
    var size = 16
    while size < self.capacity * 2 { size <<= 1 }
    mask = size - 1
    // Room for words of 8 code points on average (spaces included).
    arenaSize = self.capacity * 8
    // All-zero bytes are empty slots; calloc hands out untouched pages without writing them.
    slots = calloc(size, MemoryLayout<Slot>.stride)!.bindMemory(to: Slot.self, capacity: size)
    characters = calloc(arenaSize, 4)!.bindMemory(to: UInt32.self, capacity: arenaSize)
    advances = calloc(arenaSize, 8)!.bindMemory(to: Double.self, capacity: arenaSize)
    glyphs = calloc(arenaSize, MemoryLayout<ShapedGlyph>.stride)!.bindMemory(
      to: ShapedGlyph.self, capacity: arenaSize)
  }

  deinit {
    free(slots)
    free(characters)
    free(advances)
    free(glyphs)
  }

  /// The hash of a word in a context (never 0).
  static func hash(context: Int32, _ text: UnsafeBufferPointer<UInt32>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(UInt32(bitPattern: context))
    for c in text { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
    h ^= h >> 29
    return h == 0 ? 1 : h
  }

  /// Whether `slot` holds `text` in `context` (hash, context and length first, then every code
  /// point: equal hashes are not enough).
  private func holds(
    _ slot: Slot, context: Int32, _ text: UnsafeBufferPointer<UInt32>, hash: UInt64
  ) -> Bool {
    guard slot.hash == hash && slot.context == context && Int(slot.count) == text.count else {
      return false
    }
    let start = Int(slot.start)
    for k in 0..<text.count where characters[start + k] != text[k] { return false }
    return true
  }

  /// Copies the advances of `text` in `context` to `into` and returns the word's glyphs
  /// (valid until the next store), or returns nil.
  func lookup(
    context: Int32, _ text: UnsafeBufferPointer<UInt32>, hash: UInt64,
    into: UnsafeMutablePointer<Double>
  ) -> UnsafeBufferPointer<ShapedGlyph>? {
    var i = Int(truncatingIfNeeded: hash) & mask
    for _ in 0..<WordCache.probes {
      let slot = slots[i]
      if slot.hash == 0 { return nil }
      if holds(slot, context: context, text, hash: hash) {
        let start = Int(slot.start)
        for k in 0..<text.count { into[k] = advances[start + k] }
        return UnsafeBufferPointer(start: glyphs + Int(slot.glyphStart), count: Int(slot.glyphCount))
      }
      i = (i + 1) & mask
    }
    return nil
  }

  /// Keeps the advances and glyphs of `text` in `context` (glyph clusters counted from the
  /// word's first code point).
  func store(
    context: Int32, _ text: UnsafeBufferPointer<UInt32>, hash: UInt64,
    advances values: UnsafeBufferPointer<Double>, glyphs wordGlyphs: ArraySlice<ShapedGlyph>
  ) {
    let n = text.count
    let g = wordGlyphs.count
    guard n > 0, n <= arenaSize, g <= arenaSize else { return }
    if used + n > arenaSize || glyphsUsed + g > arenaSize || count >= capacity { clear() }
    var i = Int(truncatingIfNeeded: hash) & mask
    var target = i
    for _ in 0..<WordCache.probes {
      let slot = slots[i]
      if slot.hash == 0 {
        target = i
        break
      }
      // The same word twice in a run: keep the first copy.
      if holds(slot, context: context, text, hash: hash) { return }
      i = (i + 1) & mask
    }
    if slots[target].hash == 0 { count += 1 }
    slots[target] = Slot(
      hash: hash, start: Int32(used), count: Int32(n), context: context,
      glyphStart: Int32(glyphsUsed), glyphCount: Int32(g))
    for k in 0..<n {
      characters[used + k] = text[k]
      advances[used + k] = values[k]
    }
    for (k, glyph) in wordGlyphs.enumerated() { glyphs[glyphsUsed + k] = glyph }
    used += n
    glyphsUsed += g
  }

  /// Drops every word.
  func clear() {
    memset(slots, 0, (mask + 1) * MemoryLayout<Slot>.stride)
    used = 0
    glyphsUsed = 0
    count = 0
  }
}
