/// A short list of entries found by comparing, not hashing: what was used lately moves one place
/// towards the front each time it is found again, and a new entry goes in front of the others,
/// the last one dropping out once `capacity` are kept. For keys that are cheaper to compare a few
/// times than to hash once (a handful of font names, a few dozen bytes). Not locked: its owner
/// locks it.
struct RecentList<Entry> {
  let capacity: Int
  private(set) var entries: [Entry] = []

  init(capacity: Int) { self.capacity = capacity }

  /// The first entry `matches` accepts, moved one place towards the front.
  mutating func find(_ matches: (Entry) -> Bool) -> Entry? {
    guard let k = entries.firstIndex(where: matches) else { return nil }
    let hit = entries[k]
    if k > 0 { entries.swapAt(k, k - 1) }
    return hit
  }

  /// Puts `entry` in front.
  mutating func insert(_ entry: Entry) {
    if entries.count >= capacity { entries.removeLast() }
    entries.insert(entry, at: 0)
  }
}
