import Foundation
import Typesetting

/// The font lists records lately spelled, by their bytes, with their stacks: records name the
/// same few stacks over and over, and a reader that meets the same bytes again skips decoding
/// the names and looking them up. Kept with the font library (``FontLibrary/clientCache(_:)``)
/// and emptied when the library drops a font, so that its memory is given back.
final class FontSpellings: @unchecked Sendable {
  // @unchecked: `entries` and `evictions` are read and written only under `lock`.
  private let lock = NSLock()
  /// The 64 spellings noted last, each found by its hash.
  private var entries = RecentList<(spelling: [UInt8], names: [String], stack: FontStack)>(
    capacity: 64)
  /// The library's eviction count when the entries were checked last.
  private var evictions = 0

  /// The spellings kept with `library`.
  static func of(_ library: FontLibrary) -> FontSpellings {
    library.clientCache { FontSpellings() }
  }

  /// The stack whose names were written as `spelling` (the bytes of a field, as ``note`` was
  /// told), with those names; nil when none was noted so spelled lately.
  func stack(spelledAs spelling: UnsafeBufferPointer<UInt8>, library: FontLibrary) -> (
    names: [String], stack: FontStack
  )? {
    guard let base = spelling.baseAddress else { return nil }
    // (Found by a hash first: the entries' own bytes are each elsewhere in memory.)
    let hash = FontSpellings.hash(spelling)
    let dropped = library.evictions
    lock.lock()
    defer { lock.unlock() }
    if dropped != evictions {
      entries.removeAll { _ in true }
      evictions = dropped
      return nil
    }
    let hit = entries.find(word: hash) { e in
      e.spelling.count == spelling.count
        && e.spelling.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, $0.count) == 0 }
    }
    return hit.map { ($0.names, $0.stack) }
  }

  /// Notes that `names`, whose stack is `stack`, were written as `spelling` in a record.
  func note(_ spelling: UnsafeBufferPointer<UInt8>, of names: [String], _ stack: FontStack) {
    guard !spelling.isEmpty else { return }
    lock.lock()
    defer { lock.unlock() }
    entries.insert((Array(spelling), names, stack), word: FontSpellings.hash(spelling))
  }

  /// A hash of a few dozen bytes, a word at a time (equal hashes are then compared byte for
  /// byte: no need for the standard library's keyed one).
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let n = bytes.count
    var h = UInt64(n) &* 0x9E37_79B9_7F4A_7C15
    guard let p = bytes.baseAddress.map(UnsafeRawPointer.init) else { return h }
    func mix(_ w: UInt64) { h = (h ^ w) &* 0x0000_0100_0000_01B3 ^ (h >> 29) }
    var i = 0
    while i + 8 <= n {
      mix(p.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      i += 8
    }
    if i < n {
      // (The last eight bytes again, overlapping, or the few there are.)
      if n >= 8 {
        mix(p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
      } else {
        var w: UInt64 = 0
        for k in 0..<n { w |= UInt64(bytes[k]) << (8 * k) }
        mix(w)
      }
    }
    return h
  }
}
