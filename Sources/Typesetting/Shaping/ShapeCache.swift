import CHarfBuzz
import Foundation

/// A bounded cache of shaped words, keyed by font, size, language, features, direction, script
/// and text: chat messages are new, their words mostly are not. Thread-safe, with the entries
/// spread over shards so that threads seldom wait for each other.
final class ShapeCache: @unchecked Sendable {
  // @unchecked: each shard's dictionary is only touched under its own lock.
  struct Key: Hashable {
    var font: FontKey
    var size: Double
    var language: UInt
    var features: [UInt64]
    var rtl: Bool
    var script: UInt32
    var text: ArraySlice<UInt32>
    /// FNV-1a of everything above, computed once: hashing a key feeds the hasher one word.
    let digest: UInt64

    init(
      font: FontKey, size: Double, language: UInt, features: [UInt64], rtl: Bool, script: UInt32,
      text: ArraySlice<UInt32>
    ) {
      self.font = font
      self.size = size
      self.language = language
      self.features = features
      self.rtl = rtl
      self.script = script
      self.text = text
      var h: UInt64 = 0xcbf2_9ce4_8422_2325
      @inline(__always) func mix(_ v: UInt64) { h = (h ^ v) &* 0x100_0000_01b3 }
      mix(UInt64(UInt(bitPattern: ObjectIdentifier(font.font).hashValue)))
      mix((size == 0 ? 0 : size).bitPattern)  // -0.0 == 0.0, so they must hash alike
      mix(UInt64(language))
      for f in features { mix(f) }
      mix(UInt64(script) << 1 | (rtl ? 1 : 0))
      for c in text { mix(UInt64(c)) }
      digest = h
    }

    static func == (a: Key, b: Key) -> Bool {
      a.digest == b.digest && a.font == b.font && a.size == b.size && a.language == b.language
        && a.features == b.features && a.rtl == b.rtl && a.script == b.script && a.text == b.text
    }

    func hash(into hasher: inout Hasher) { hasher.combine(digest) }
  }

  private final class Shard {
    let lock = NSLock()
    var entries: [Key: [Double]] = [:]
    var order: [Key] = []
    var head = 0
  }

  private let shards: [Shard]
  /// The most words kept in each shard; the oldest goes first.
  let perShard: Int
  private(set) var hits = 0

  init(capacity: Int) {
    let count = 16
    shards = (0..<count).map { _ in Shard() }
    perShard = max(1, capacity / count)
  }

  func lookup(_ key: Key) -> [Double]? {
    let shard = shards[Int(key.digest >> 60)]
    shard.lock.lock()
    defer { shard.lock.unlock() }
    return shard.entries[key]
  }

  func store(_ key: Key, _ advances: [Double]) {
    var key = key
    key.text = ArraySlice(Array(key.text))  // own the text, not the message it came from
    let shard = shards[Int(key.digest >> 60)]
    shard.lock.lock()
    defer { shard.lock.unlock() }
    if shard.entries[key] != nil { return }
    if shard.order.count < perShard {
      shard.order.append(key)
    } else {
      shard.entries[shard.order[shard.head]] = nil
      shard.order[shard.head] = key
      shard.head = (shard.head + 1) % perShard
    }
    shard.entries[key] = advances
  }

  /// Number of words held.
  var count: Int {
    shards.reduce(0) { total, s in
      s.lock.lock()
      defer { s.lock.unlock() }
      return total + s.entries.count
    }
  }
}
