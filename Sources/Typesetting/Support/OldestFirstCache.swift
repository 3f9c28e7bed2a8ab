/// At most `capacity` values by key; once full, each new one takes the place of the oldest.
/// Not locked: its owner locks it (``Typesetter`` and the cell sizer each keep one).
package struct OldestFirstCache<Key: Hashable, Value> {
  package let capacity: Int
  private var values: [Key: Value] = [:]
  /// Keys in the order they came, as a ring once full; `next` is the oldest then.
  private var order: [Key] = []
  private var next = 0

  package init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  package subscript(key: Key) -> Value? { values[key] }

  package var count: Int { values.count }

  /// Keeps `value` under `key`, unless there is one already (or no room at all).
  package mutating func insert(_ value: Value, for key: Key) {
    guard capacity > 0, values[key] == nil else { return }
    if order.count < capacity {
      order.append(key)
    } else {
      values[order[next]] = nil
      order[next] = key
      next = (next + 1) % capacity
    }
    values[key] = value
  }

  package mutating func removeAll() {
    values.removeAll()
    order.removeAll()
    next = 0
  }
}
