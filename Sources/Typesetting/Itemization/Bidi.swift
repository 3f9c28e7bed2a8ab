import CICUShims

/// Bidi embedding levels (UAX #9, by ICU's `ubidi`).
enum Bidi {
  /// Whether any code point is right-to-left or a bidi control, i.e. whether `levels` can differ
  /// from all zeros for a left-to-right paragraph.
  static func needsResolution(_ scalars: [UInt32]) -> Bool {
    // (Ranges in order, so that most characters of other scripts, CJK among them, take two or
    // three comparisons.)
    for c in scalars where c >= 0x590 {
      if c <= 0x8FF { return true }
      if c < 0x200E { continue }
      if c <= 0x2069 {
        if c <= 0x200F || (0x202A...0x202E).contains(c) || c >= 0x2066 { return true }
        continue
      }
      if c < 0xFB1D { continue }
      if c <= 0xFDFF || (0xFE70...0xFEFF).contains(c) || (0x10800...0x10FFF).contains(c)
        || (0x1E800...0x1EFFF).contains(c)
      {
        return true
      }
    }
    return false
  }

  /// One level per code point, and the paragraph level.
  static func levels(_ scalars: [UInt32], direction: TextStyle.Direction) -> (
    levels: [UInt8], paragraph: UInt8
  ) {
    var levels: [UInt8] = []
    let paragraph = Bidi.levels(scalars, direction: direction, into: &levels)
    return (levels, paragraph)
  }

  /// Replaces the contents of `levels` with one level per code point; returns the paragraph level.
  static func levels(
    _ scalars: [UInt32], direction: TextStyle.Direction, into levels: inout [UInt8]
  ) -> UInt8 {
    let base: UInt8 = direction == .rightToLeft ? 1 : 0
    levels.removeAll(keepingCapacity: true)
    guard !scalars.isEmpty, direction == .rightToLeft || needsResolution(scalars) else {
      levels.append(contentsOf: repeatElement(base, count: scalars.count))
      return base
    }
    var utf16: [UInt16] = []
    utf16.reserveCapacity(scalars.count)
    var owner: [Int32] = []
    owner.reserveCapacity(scalars.count)
    for (i, c) in scalars.enumerated() {
      if c >= 0x10000 {
        let v = c - 0x10000
        utf16.append(UInt16(0xD800 + (v >> 10)))
        utf16.append(UInt16(0xDC00 + (v & 0x3FF)))
        owner.append(Int32(i))
        owner.append(Int32(i))
      } else {
        utf16.append(UInt16(c))
        owner.append(Int32(i))
      }
    }
    var u16Levels = [UInt8](filling: 0, count: utf16.count)
    let dir: Int32 = direction == .auto ? -1 : direction == .rightToLeft ? 1 : 0
    let para = galley_bidi_levels(utf16, Int32(utf16.count), dir, &u16Levels)
    guard para >= 0 else {
      levels.append(contentsOf: repeatElement(base, count: scalars.count))
      return base
    }
    levels.append(contentsOf: repeatElement(0, count: scalars.count))
    for (k, i) in owner.enumerated() { levels[Int(i)] = u16Levels[k] }
    return UInt8(para)
  }
}
