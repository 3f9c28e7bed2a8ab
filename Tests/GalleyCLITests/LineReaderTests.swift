import Foundation
import GalleyService
import XCTest

@testable import GalleyCLI

/// The line reader against the rule it documents, worked out here byte by byte: lines end at
/// LF, a CR before the LF is dropped, the last line needs no LF, and nothing follows a final LF.
/// Files are read in 64 KiB chunks, so lines are made to cross them.
final class LineReaderTests: XCTestCase {
  func expectedLines(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var current: [UInt8] = []
    for b in bytes {
      if b == 0x0A {
        if current.last == 0x0D { current.removeLast() }
        lines.append(current)
        current = []
      } else {
        current.append(b)
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }

  func randomInput(_ rng: inout SystemRandomNumberGenerator) -> [UInt8] {
    var bytes: [UInt8] = []
    for _ in 0..<Int.random(in: 0...40, using: &rng) {
      let length = [0, 1, 7, 300, 70_000, Int.random(in: 0...140_000, using: &rng)]
        .randomElement(using: &rng)!
      // (CRs inside a line stay; only one right before its LF goes.)
      let unit: [UInt8] = [UInt8(ascii: "a"), 0x0D, 0xC3, 0xA9, 0x20, UInt8(ascii: "b"), 0x0D]
      bytes += Array(repeatElement(unit, count: length / unit.count + 1).joined().prefix(length))
      bytes += Bool.random(using: &rng) ? [0x0A] : [0x0D, 0x0A]
    }
    if Bool.random(using: &rng) { bytes += Array("last".utf8) }
    return bytes
  }

  func reader(for bytes: [UInt8]) throws -> LineReader {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-lines-\(getpid())-\(UUID().uuidString)")
    try Data(bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    // (Open, then unlink: the reader keeps reading the open file.)
    return LineReader(handle: try FileHandle(forReadingFrom: url))
  }

  func testLinesOneByOneAndInBatchesFollowTheRule() throws {
    var rng = SystemRandomNumberGenerator()
    for _ in 0..<12 {
      let bytes = randomInput(&rng)
      let expected = expectedLines(bytes)

      let single = try reader(for: bytes)
      var got: [[UInt8]] = []
      while let line = single.next() {
        got.append(line)
        XCTAssertEqual(single.lineNumber, got.count)
      }
      XCTAssertEqual(got.map(\.count), expected.map(\.count))
      XCTAssertTrue(got == expected)

      let batched = try reader(for: bytes)
      var batch = LineBatch()
      var lines: [[UInt8]] = []
      var numbers: [Int] = []
      let size = Int.random(in: 1...600, using: &rng)
      while batched.next(size, into: &batch) {
        XCTAssertLessThanOrEqual(batch.lines.count, size)
        for (number, range, length) in batch.lines {
          XCTAssertEqual(length, range.count)
          lines.append(Array(batch.bytes[range]))
          numbers.append(number)
        }
        batch.removeAll()
      }
      XCTAssertTrue(lines == expected)
      XCTAssertEqual(numbers, Array(stride(from: 1, through: expected.count, by: 1)))
      XCTAssertEqual(batched.bytesConsumed, Int64(bytes.count))
    }
  }

  /// A line longer than the limit is cut as it is read: its first bytes come back, its whole
  /// length is told, the lines after it are whole, and memory holds about one limit's worth.
  func testALineLongerThanTheLimitIsCut() throws {
    let limit = LineReader.maximumLineBytes
    let long = Array(#"{"id": "long", "text": ""#.utf8) + [UInt8](repeating: 0x61, count: limit + 200_000)
    let bytes = long + [0x0A] + Array(#"{"id": "next"}"#.utf8) + [0x0A] + long
    for batched in [false, true] {
      let r = try reader(for: bytes)
      var got: [(line: [UInt8], length: Int)] = []
      if batched {
        var batch = LineBatch()
        while r.next(10, into: &batch) {
          for (_, range, length) in batch.lines { got.append((Array(batch.bytes[range]), length)) }
          batch.removeAll()
        }
      } else {
        while let line = r.next() { got.append((line, r.lastLineLength)) }
      }
      XCTAssertEqual(got.map(\.length), [long.count, 14, long.count])
      XCTAssertEqual(got.map(\.line.count), [LineReader.keptOfCutLine, 14, LineReader.keptOfCutLine])
      XCTAssertTrue(got[0].line == Array(long.prefix(LineReader.keptOfCutLine)))
      if !batched {
        // (The error of the line returned last, with the id read from its first bytes.)
        let (message, id) = try XCTUnwrap(r.cutLineError(got[2].line))
        XCTAssertEqual(id, "long")
        XCTAssertEqual(
          message, "record of \(long.count) bytes is longer than the limit of \(limit) bytes")
      }
    }
  }

  func testAByteOrderMarkBeforeTheFirstLineIsSkipped() throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let r = try reader(for: bom + Array("a\n".utf8) + bom + Array("b".utf8))
    XCTAssertEqual(r.next(), Array("a".utf8))
    XCTAssertEqual(r.next(), bom + Array("b".utf8), "only before the first line")
    XCTAssertNil(r.next())
  }
}
