import Typesetting

/// A square table of width changes in em, one per ordered pair of a set of characters (the row
/// is the first of the pair), in memory of its own: a reader holding the table reads it per
/// character without a retain. What ``KerningPairs`` and ``ConjunctPairs`` keep.
final class PairTable: @unchecked Sendable {
  // @unchecked: written while its owner is made, only read afterwards.
  /// Row-major: the change in em of pair (row, column).
  let values: UnsafeMutablePointer<Float>
  /// Rows (and columns).
  let count: Int

  /// A table of `count` × `count` zeros.
  init(count: Int) {
    self.count = count
    values = .allocate(capacity: max(1, count * count))
    values.initialize(repeating: 0, count: max(1, count * count))
  }

  deinit { values.deallocate() }

  /// The change in em when the character of row `a` is followed by that of column `b`.
  subscript(a: Int, b: Int) -> Float {
    get { values[a &* count &+ b] }
    set { values[a &* count &+ b] = newValue }
  }
}
