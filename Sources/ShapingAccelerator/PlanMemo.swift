import Typesetting
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A 64-bit word per code point of the Basic Multilingual Plane and the next (where emoji are),
/// 0 until set: 512 pages of 256, each made when first needed, in flat memory, so that a loop over
/// a run's characters checks no ownership. One shaper's (one thread at a time).
final class CharacterMemo {
  /// Code points below this have a word.
  static let limit: UInt32 = 0x20000
  private static let pageCount = Int(limit >> 8)
  private let pages: UnsafeMutablePointer<UnsafeMutablePointer<UInt64>?>

  init() {
    pages = calloc(Self.pageCount, MemoryLayout<UnsafeMutablePointer<UInt64>?>.stride)!
      .bindMemory(to: UnsafeMutablePointer<UInt64>?.self, capacity: Self.pageCount)
  }

  deinit {
    for k in 0..<Self.pageCount { free(pages[k]) }
    free(pages)
  }

  /// The word of `c`, made by `make` (which never gives 0) the first time; a code point beyond
  /// the memo's planes is made each time.
  func value(_ c: UInt32, _ make: () -> UInt64) -> UInt64 {
    guard c < Self.limit else { return make() }
    let word = word(c)
    if word.pointee == 0 { word.pointee = make() }
    return word.pointee
  }

  /// The word of `c` (below ``limit``).
  private func word(_ c: UInt32) -> UnsafeMutablePointer<UInt64> {
    if let page = pages[Int(c >> 8)] { return page + Int(c & 0xFF) }
    let page = calloc(256, 8)!.bindMemory(to: UInt64.self, capacity: 256)
    pages[Int(c >> 8)] = page
    return page + Int(c & 0xFF)
  }
}

/// A table keyed by shape plans (their addresses): open addressing with linear probing and a
/// multiplicative hash of the address, so that no lookup hashes its key with SipHash (see
/// docs/PERFORMANCE.md, "Measurements that were in the code").
struct PlanTable<Value> {
  /// Addresses (0: empty slot) and values, a power of two of them; at most half full.
  private var keys: [UInt] = []
  private var values: [Value?] = []
  private var count = 0

  private static func home(_ key: UInt, mask: Int) -> Int {
    Int(truncatingIfNeeded: ((UInt64(key) &>> 4) &* 0x9E37_79B9_7F4A_7C15) &>> 40) & mask
  }

  /// The slot holding `key`, or the empty slot where it would go.
  private func slot(_ key: UInt) -> Int {
    let mask = keys.count - 1
    var i = Self.home(key, mask: mask)
    while keys[i] != key && keys[i] != 0 { i = (i + 1) & mask }
    return i
  }

  subscript(plan: OpaquePointer) -> Value? {
    get {
      guard count > 0 else { return nil }
      let i = slot(UInt(bitPattern: Int(bitPattern: plan)))
      return keys[i] == 0 ? nil : values[i]
    }
    set {
      // (Plans are only ever added: a table is emptied all at once.)
      guard let newValue else { preconditionFailure("a plan table removes nothing") }
      if (count + 1) * 2 > keys.count { grow() }
      let key = UInt(bitPattern: Int(bitPattern: plan))
      let i = slot(key)
      if keys[i] == 0 {
        keys[i] = key
        count += 1
      }
      values[i] = newValue
    }
  }

  private mutating func grow() {
    let oldKeys = keys
    let oldValues = values
    keys = Array(repeating: 0, count: max(16, oldKeys.count * 2))
    values = Array(repeating: nil, count: keys.count)
    for (k, key) in oldKeys.enumerated() where key != 0 {
      let i = slot(key)
      keys[i] = key
      values[i] = oldValues[k]
    }
  }

  mutating func removeAll() {
    keys = []
    values = []
    count = 0
  }
}

/// One entry per shape plan, the last one found answering the next run without a lookup.
struct PlanEntries<Entry: AnyObject> {
  private var table = PlanTable<Entry>()
  private var last: (plan: OpaquePointer, entry: Entry)?

  /// The entry of `plan`, made by `make` the first time.
  mutating func entry(_ plan: OpaquePointer, make: () -> Entry) -> Entry {
    if let last, last.plan == plan { return last.entry }
    if let known = table[plan] {
      last = (plan, known)
      return known
    }
    let entry = make()
    table[plan] = entry
    last = (plan, entry)
    return entry
  }

  /// Forgets every plan (their addresses may be reused).
  mutating func removeAll() {
    table.removeAll()
    last = nil
  }
}
