import CHarfBuzz

/// Arrays that the stages of preparing need only while one text is prepared, kept from one
/// text to the next so that preparing allocates only what the prepared text keeps. One per
/// ``PreparationWorker``: used by one thread at a time.
final class Scratch {
  var fonts: [UInt8] = []
  var levels: [UInt8] = []
  var scripts: [hb_script_t] = []
  var advances: [Double] = []

  /// Longer arrays than this are not kept (a huge text would hold on to its memory).
  static let keptCapacity = 16_384

  /// `storage`'s array (now empty there) holding `count` copies of `value`.
  static func take<T>(_ storage: inout [T], count: Int, value: T) -> [T] {
    var a: [T] = []
    swap(&a, &storage)
    a.removeAll(keepingCapacity: true)
    a.append(contentsOf: repeatElement(value, count: count))
    return a
  }

  /// Puts `array` back into `storage` for the next text, unless it is too large to keep.
  static func giveBack<T>(_ array: inout [T], to storage: inout [T]) {
    if array.capacity <= keptCapacity { swap(&array, &storage) }
  }
}
