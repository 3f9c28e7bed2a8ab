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
    var features: Int
    var rtl: Bool
    var script: UInt32
    var text: ArraySlice<UInt32>
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
    let shard = shards[Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))]
    shard.lock.lock()
    defer { shard.lock.unlock() }
    return shard.entries[key]
  }

  func store(_ key: Key, _ advances: [Double]) {
    var key = key
    key.text = ArraySlice(Array(key.text))  // own the text, not the message it came from
    let shard = shards[Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))]
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
