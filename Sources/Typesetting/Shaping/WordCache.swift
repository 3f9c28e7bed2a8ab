/// Shaped words of one ``Shaper`` (so of one thread at a time): chat messages are new, their
/// words mostly are not.
///
/// An open-addressing table over flat arrays, so that a lookup is a hash of the word, a probe
/// or two and a comparison of code points, with no reference counting and no lock: the
/// code points and advances of the words live in two arenas, and when either is full (or the
/// table is), everything is dropped at once and filling starts again.
final class WordCache {
  private struct Slot {
    var hash: UInt64 = 0  // 0: empty
    var start: Int32 = 0  // in the arenas
    var count: Int32 = 0
    var context: Int32 = 0
  }

  /// The most words held.
  let capacity: Int
  private var slots: [Slot]
  private let mask: Int
  private var characters: [UInt32]
  private var advances: [Double]
  private var used = 0
  /// Number of words held.
  private(set) var count = 0

  /// Probes before giving up (a miss) or overwriting (a store).
  private static let probes = 8

  init(capacity: Int) {
    self.capacity = max(1, capacity)
    var size = 16
    while size < self.capacity * 2 { size <<= 1 }
    slots = [Slot](repeating: Slot(), count: size)
    mask = size - 1
    // Room for words of 8 code points on average (spaces included).
    characters = [UInt32](repeating: 0, count: self.capacity * 8)
    advances = [Double](repeating: 0, count: self.capacity * 8)
  }

  /// The hash of a word in a context (never 0).
  @inline(__always)
  static func hash(context: Int32, _ text: UnsafeBufferPointer<UInt32>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(UInt32(bitPattern: context))
    for c in text { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
    h ^= h >> 29
    return h == 0 ? 1 : h
  }

  /// Copies the advances of `text` in `context` to `into` and returns true, or returns false.
  func lookup(
    context: Int32, _ text: UnsafeBufferPointer<UInt32>, hash: UInt64,
    into: UnsafeMutablePointer<Double>
  ) -> Bool {
    var i = Int(truncatingIfNeeded: hash) & mask
    for _ in 0..<WordCache.probes {
      let slot = slots[i]
      if slot.hash == 0 { return false }
      if slot.hash == hash && slot.context == context && Int(slot.count) == text.count {
        let start = Int(slot.start)
        let same = characters.withUnsafeBufferPointer { c in
          for k in 0..<text.count where c[start + k] != text[k] { return false }
          return true
        }
        if same {
          advances.withUnsafeBufferPointer { a in
            for k in 0..<text.count { into[k] = a[start + k] }
          }
          return true
        }
      }
      i = (i + 1) & mask
    }
    return false
  }

  /// Keeps the advances of `text` in `context`.
  func store(
    context: Int32, _ text: UnsafeBufferPointer<UInt32>, hash: UInt64,
    advances values: UnsafeBufferPointer<Double>
  ) {
    let n = text.count
    guard n > 0, n <= characters.count else { return }
    if used + n > characters.count || count >= capacity { clear() }
    var i = Int(truncatingIfNeeded: hash) & mask
    var target = i
    for _ in 0..<WordCache.probes {
      if slots[i].hash == 0 {
        target = i
        break
      }
      i = (i + 1) & mask
    }
    if slots[target].hash == 0 { count += 1 }
    slots[target] = Slot(hash: hash, start: Int32(used), count: Int32(n), context: context)
    for k in 0..<n {
      characters[used + k] = text[k]
      advances[used + k] = values[k]
    }
    used += n
  }

  /// Drops every word.
  func clear() {
    for i in slots.indices { slots[i] = Slot() }
    used = 0
    count = 0
  }
}
