import CHarfBuzz
import Typesetting
/// Bounds-checked reading of an OpenType table's bytes (big-endian), and the two lookup
/// structures layout tables share: coverage tables and class definitions.
///
/// Searches follow HarfBuzz's: a binary search over the table's own order, so that a font whose
/// arrays are not sorted gives the answers HarfBuzz gives.
struct TableBytes: Sendable {
  let data: [UInt8]

  func u16(_ at: Int) -> UInt16? {
    guard at >= 0, at + 2 <= data.count else { return nil }
    return UInt16(data[at]) << 8 | UInt16(data[at + 1])
  }

  func i16(_ at: Int) -> Int16? { u16(at).map { Int16(bitPattern: $0) } }

  func u32(_ at: Int) -> UInt32? {
    guard let hi = u16(at), let lo = u16(at + 2) else { return nil }
    return UInt32(hi) << 16 | UInt32(lo)
  }

  /// The offset at `field` of the table at `base`, as an absolute position (nil when 0 or out of
  /// bounds).
  func offset(_ base: Int, _ field: Int) -> Int? {
    guard let o = u16(base + field), o != 0, base + Int(o) < data.count else { return nil }
    return base + Int(o)
  }
}

/// The index of the element `order` finds equal (negative: the key is before the element,
/// positive: after it) among `count` elements, by HarfBuzz's binary search over the table's own
/// order (so unsorted data gives HarfBuzz's answers), or nil.
func harfBuzzSearch(_ count: Int, _ order: (Int) -> Int) -> Int? {
  var lo = 0
  var hi = count - 1
  while lo <= hi {
    let mid = (lo + hi) >> 1
    let o = order(mid)
    if o < 0 {
      hi = mid - 1
    } else if o > 0 {
      lo = mid + 1
    } else {
      return mid
    }
  }
  return nil
}

/// How `key` orders against `element` for ``harfBuzzSearch(_:_:)``.
func searchOrder<T: Comparable>(_ key: T, _ element: T) -> Int {
  key < element ? -1 : key > element ? 1 : 0
}

/// How `key` orders against the range `first...last` (0 inside it).
func searchOrder(_ key: UInt16, _ first: UInt16, _ last: UInt16) -> Int {
  key < first ? -1 : key > last ? 1 : 0
}

/// A coverage table: glyph → coverage index.
struct Coverage: Sendable {
  /// Format 1: sorted glyphs (index = position); format 2: ranges with their start index.
  private let glyphs: [UInt16]
  private let ranges: [(first: UInt16, last: UInt16, start: UInt16)]

  init?(_ t: TableBytes, at: Int) {
    guard let format = t.u16(at), let count = t.u16(at + 2) else { return nil }
    let n = Int(count)
    switch format {
    case 1:
      guard at + 4 + 2 * n <= t.data.count else { return nil }
      glyphs = (0..<n).map { t.u16(at + 4 + 2 * $0)! }
      ranges = []
    case 2:
      guard at + 4 + 6 * n <= t.data.count else { return nil }
      glyphs = []
      ranges = (0..<n).map { k in
        let r = at + 4 + 6 * k
        return (t.u16(r)!, t.u16(r + 2)!, t.u16(r + 4)!)
      }
    default:
      return nil
    }
  }

  /// The glyph's coverage index, or nil when it is not covered.
  func index(_ g: UInt16) -> Int? {
    if !glyphs.isEmpty { return harfBuzzSearch(glyphs.count) { searchOrder(g, glyphs[$0]) } }
    return harfBuzzSearch(ranges.count) { searchOrder(g, ranges[$0].first, ranges[$0].last) }.map {
      Int(ranges[$0].start) + Int(g - ranges[$0].first)
    }
  }

  /// Entries read (glyphs or ranges): what reading it cost.
  var size: Int { glyphs.count + ranges.count }

  /// Every covered glyph, into `set` (a bit per glyph id; 1,024 words), a word at a time.
  func add(to set: inout [UInt64]) {
    for g in glyphs { set[Int(g) >> 6] |= 1 << UInt64(g & 63) }
    for r in ranges where r.first <= r.last {
      let lo = Int(r.first)
      let hi = Int(r.last)
      for w in (lo >> 6)...(hi >> 6) {
        let from = max(lo, w << 6) & 63
        let to = min(hi, (w << 6) | 63) & 63
        // Bits from..to of word w.
        let bits = (~UInt64(0) >> UInt64(63 - to)) & (~UInt64(0) << UInt64(from))
        set[w] |= bits
      }
    }
  }
}

/// A class definition table: glyph → class (0 for glyphs it does not list).
struct ClassDefinition: Sendable {
  private let start: UInt16
  private let classes: [UInt16]
  private let ranges: [(first: UInt16, last: UInt16, value: UInt16)]

  init?(_ t: TableBytes, at: Int) {
    guard let format = t.u16(at) else { return nil }
    switch format {
    case 1:
      guard let first = t.u16(at + 2), let count = t.u16(at + 4),
        at + 6 + 2 * Int(count) <= t.data.count
      else { return nil }
      start = first
      classes = (0..<Int(count)).map { t.u16(at + 6 + 2 * $0)! }
      ranges = []
    case 2:
      guard let count = t.u16(at + 2), at + 4 + 6 * Int(count) <= t.data.count else { return nil }
      start = 0
      classes = []
      ranges = (0..<Int(count)).map { k in
        let r = at + 4 + 6 * k
        return (t.u16(r)!, t.u16(r + 2)!, t.u16(r + 4)!)
      }
    default:
      return nil
    }
  }

  func `class`(_ g: UInt16) -> UInt16 {
    if !classes.isEmpty {
      let k = Int(g) - Int(start)
      return k >= 0 && k < classes.count ? classes[k] : 0
    }
    return harfBuzzSearch(ranges.count) { searchOrder(g, ranges[$0].first, ranges[$0].last) }.map {
      ranges[$0].value
    } ?? 0
  }
}

extension Font {
  /// The bytes of the font's table `tag` (empty when it has none), for the layout table readers.
  func tableBytes(_ tag: String) -> TableBytes {
    let blob = hb_face_reference_table(hb_font_get_face(hbFont), Font.tag(tag))
    defer { hb_blob_destroy(blob) }
    var length: UInt32 = 0
    let bytes =
      hb_blob_get_data(blob, &length).map {
        [UInt8](UnsafeRawBufferPointer(start: $0, count: Int(length)))
      } ?? []
    return TableBytes(data: bytes)
  }
}
