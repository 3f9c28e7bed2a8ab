/// A short list of entries found by comparing, not by a table: what was used lately moves one
/// place towards the front each time it is found again, and a new entry goes in front of the
/// others, the last one dropping out once `capacity` are kept. Each entry has a word of its own
/// (a hash of what it is found by, or 0): a search compares the words, kept together with each
/// entry's place in storage, and looks at an entry only when its word matches; moving an entry
/// forward moves its word and place, not the entry. For keys that are cheaper to compare a few
/// times than to hash into a table (a handful of font names, a few dozen bytes). Not locked:
/// its owner locks it.
package struct RecentList<Entry> {
  package let capacity: Int
  /// The entries where they were put (a place is reused when its entry drops out).
  private var stored: [Entry] = []
  /// The search order, most recently useful first: each entry's word and place in `stored`.
  private var order: [(word: UInt64, place: Int)] = []

  package init(capacity: Int) { self.capacity = capacity }

  /// The entries in the search order.
  package var entries: [Entry] { order.map { stored[$0.place] } }

  /// The first entry whose word is `word` and that `matches` accepts, moved one place towards
  /// the front.
  package mutating func find(word: UInt64 = 0, _ matches: (Entry) -> Bool) -> Entry? {
    for k in order.indices where order[k].word == word && matches(stored[order[k].place]) {
      let hit = stored[order[k].place]
      if k > 0 { order.swapAt(k, k - 1) }
      return hit
    }
    return nil
  }

  /// Puts `entry`, with its word, in front.
  package mutating func insert(_ entry: Entry, word: UInt64 = 0) {
    let place: Int
    if order.count >= capacity {
      place = order.removeLast().place
      stored[place] = entry
    } else {
      place = stored.count
      stored.append(entry)
    }
    order.insert((word, place), at: 0)
  }

  /// Drops every entry that `matches` accepts.
  package mutating func removeAll(where matches: (Entry) -> Bool) {
    order.removeAll { matches(stored[$0.place]) }
    // (Stored again compactly: an insert appends while the list is not full.)
    let kept = order.map { stored[$0.place] }
    stored = kept
    order = order.enumerated().map { ($1.word, $0) }
  }
}
