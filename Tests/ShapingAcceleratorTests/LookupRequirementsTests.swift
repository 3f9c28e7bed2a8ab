import XCTest

@testable import ShapingAccelerator
@testable import Typesetting

/// The GSUB reader behind feature gates on tables no font editor would write: it must stop
/// (with "cannot tell") instead of listing billions of glyphs or nesting without end.
final class LookupRequirementsTests: XCTestCase {
  /// Big-endian 16-bit values as bytes.
  func bytes(_ values: [Int]) -> [UInt8] {
    values.flatMap { [UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] }
  }

  /// A GSUB header whose lookup list starts right after it (offset 10).
  let header: [Int] = [1, 0, 0, 0, 10]

  /// One single-substitution lookup of 1,000 subtables, all the same, whose coverage lists the
  /// whole glyph range 10,000 times: 655 billion glyphs described in 60 KB.
  func testAHugeCoverageGivesNoAnswer() throws {
    let subtables = 1000
    let ranges = 10_000
    var lookup = [1, 0, subtables]
    let sub = 6 + 2 * subtables
    lookup += Array(repeating: sub, count: subtables)
    // Single substitution format 1: coverage right after it, delta 1.
    lookup += [1, 6, 1]
    lookup += [2, ranges] + Array(repeating: [0, 0xFFFF, 0], count: ranges).flatMap { $0 }
    let table = bytes(header + [1, 4] + lookup)
    let reader = try XCTUnwrap(
      LookupRequirements(gsub: TableBytes(data: table), weights: [Int](repeating: 1, count: 0x10000)))
    XCTAssertNil(reader.requirement(ofLookup: 0))
    XCTAssertNil(reader.outputs(ofLookup: 0))
  }

  /// 100 chained-context lookups, each calling the next: HarfBuzz stops nesting at 64, and so
  /// does the reader (an answer would need all 100).
  func testCallsNestedTooDeepGiveNoAnswer() throws {
    let count = 100
    // Each lookup: type 6, flag 0, one subtable at 8; format 3 with one input coverage (at 20
    // from the subtable), one call; the coverage lists glyph 5.
    let size = 2 * (3 + 1 + 10 + 3)
    var list = [count]
    for k in 0..<count { list.append(2 + 2 * count + k * size) }
    for k in 0..<count {
      let next = min(k + 1, count - 1)
      list += [6, 0, 1, 8]
      list += [3, 0, 1, 20, 0, 1, 0, next, 0, 0]
      list += [1, 1, 5]
    }
    let table = bytes(header + list)
    let reader = try XCTUnwrap(
      LookupRequirements(gsub: TableBytes(data: table), weights: [Int](repeating: 1, count: 0x10000)))
    XCTAssertEqual(reader.requirement(ofLookup: 0), [5])
    XCTAssertNil(reader.outputs(ofLookup: 0))
    // A short chain ends in a lookup that makes nothing of its own: an answer, and no glyph.
    XCTAssertEqual(reader.outputs(ofLookup: count - 10), [])
  }

  /// Offsets past the end of the table, and a truncated table, give no answer (and no trap).
  func testTruncatedTablesGiveNoAnswer() throws {
    let table = bytes(header + [1, 4, 1, 0, 1, 500])
    let reader = try XCTUnwrap(LookupRequirements(gsub: TableBytes(data: table), weights: []))
    XCTAssertNil(reader.requirement(ofLookup: 0))
    XCTAssertNil(reader.outputs(ofLookup: 0))
    XCTAssertNil(reader.requirement(ofLookup: 7))
    XCTAssertNil(LookupRequirements(gsub: TableBytes(data: [0, 1, 0]), weights: []))
  }
}
