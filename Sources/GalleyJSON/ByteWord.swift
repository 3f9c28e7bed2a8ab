/// Tests on eight bytes at once (a little-endian word of a buffer), for the reader's and the
/// writer's scans of strings: exact answers to "does any byte…", no per-byte loop.
enum ByteWord {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// Whether any byte of `w` equals `b`.
  static func has(_ b: UInt8, in w: UInt64) -> Bool { firstMatch(b, in: w) != 0 }

  /// Whether any byte of `w` is below `n` (at most 0x80).
  static func hasByte(below n: UInt8, in w: UInt64) -> Bool { firstByte(below: n, in: w) != 0 }

  /// A mask whose lowest set bit is the high bit of the first byte of `w` equal to `b` (bits
  /// above it may be set by a borrow; zero when there is none).
  static func firstMatch(_ b: UInt8, in w: UInt64) -> UInt64 {
    let x = w ^ (ones &* UInt64(b))
    return (x &- ones) & ~x & highs
  }

  /// The same for the first byte of `w` below `n` (at most 0x80).
  static func firstByte(below n: UInt8, in w: UInt64) -> UInt64 {
    (w &- ones &* UInt64(n)) & ~w & highs
  }
}
