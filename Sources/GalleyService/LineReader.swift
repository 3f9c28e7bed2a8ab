import Foundation
import GalleyRecords
import Typesetting

/// Reads a file or standard input as lines of bytes, in constant memory (one chunk and one line).
///
/// Reads with `read(2)` straight into its own buffer (no intermediate `Data` per chunk). A line
/// longer than ``maximumLineBytes`` is cut: its first bytes are returned (the record's `id`
/// is read from them) and the rest is skipped as it is read, so one endless line cannot take
/// the memory; ``lastLineLength`` tells the whole length. A UTF-8 byte order mark before the
/// first line is skipped.
package final class LineReader {
  /// The longest line kept whole: a text at ``Typesetter/maximumTextBytes`` written with
  /// JSON escapes fits.
  package static let maximumLineBytes = 8 * Typesetter.maximumTextBytes
  /// How much of a longer line is kept (enough to read the `id` of most records).
  package static let keptOfCutLine = 4096
  private let handle: FileHandle?
  private var buffer: [UInt8] = []
  private var start = 0
  private var eof = false
  package private(set) var lineNumber = 0
  /// The length in bytes of the line returned last, more than its bytes when it was cut.
  package private(set) var lastLineLength = 0
  /// Whether the line returned last was cut (longer than ``maximumLineBytes``).
  package var lastLineWasCut: Bool { lastLineLength > LineReader.maximumLineBytes }
  /// Bytes of the line being cut that were skipped so far.
  private var skipped = 0
  /// Bytes read from the input so far.
  package private(set) var bytesRead: Int64 = 0
  /// Bytes of the lines returned so far (what progress is measured in).
  package var bytesConsumed: Int64 { bytesRead - Int64(buffer.count - start) }

  package init(handle: FileHandle) { self.handle = handle }

  /// Lines of bytes already in memory (the C ABI's input), split as a file's would be.
  package init(bytes: [UInt8]) {
    handle = nil
    buffer = bytes
    eof = true
    bytesRead = Int64(bytes.count)
  }

  /// The next line without its terminator (a CR before the LF is dropped), or nil at the end.
  package func next() -> [UInt8]? {
    nextRange().map { Array(buffer[$0]) }
  }

  /// The error of the line returned last when it was cut for its length (`kept`: the bytes
  /// returned), with the record's `id` when it stands before the cut; nil for a whole line.
  package func cutLineError(_ kept: [UInt8]) -> (message: String, id: String?)? {
    guard lastLineWasCut else { return nil }
    return Records.cutRecordError(
      kept: kept, length: lastLineLength, limit: LineReader.maximumLineBytes)
  }

  /// Appends up to `count` lines to `batch` (each line's bytes, its range among them, its
  /// number and whole length), stopping early once the batch holds ``LineBatch/maximumBytes``;
  /// false when there was none left. One array for all the lines of a batch, not one each.
  package func next(_ count: Int, into batch: inout LineBatch) -> Bool {
    var any = false
    for _ in 0..<count {
      guard batch.bytes.count < LineBatch.maximumBytes, let r = nextRange() else { break }
      let start = batch.bytes.count
      batch.bytes.append(contentsOf: buffer[r])
      batch.lines.append((lineNumber, start..<batch.bytes.count, lastLineLength))
      any = true
    }
    return any
  }

  /// Where the next line's bytes are in `buffer` (until the next call), without its terminator.
  private func nextRange() -> Range<Int>? {
    var scanFrom = start
    while true {
      let newline = buffer.withUnsafeBufferPointer { b -> Int? in
        guard scanFrom < b.count else { return nil }
        let p = memchr(b.baseAddress! + scanFrom, 0x0A, b.count - scanFrom)
        return p.map { UnsafeRawPointer($0) - UnsafeRawPointer(b.baseAddress!) }
      }
      if let nl = newline {
        var end = nl
        if end > start && buffer[end - 1] == 0x0D { end -= 1 }
        return finish(start..<end, next: nl + 1)
      }
      if eof {
        guard start < buffer.count || skipped > 0 else { return nil }
        return finish(start..<buffer.count, next: buffer.count)
      }
      // A line too long to keep: its first bytes stay, the rest goes as it is read.
      if buffer.count - start > LineReader.maximumLineBytes {
        let keep = start + LineReader.keptOfCutLine
        skipped += buffer.count - keep
        buffer.removeSubrange(keep...)
      }
      // Keep only the unread part, then read more.
      if start > 0 {
        buffer.removeSubrange(0..<start)
        start = 0
      }
      scanFrom = buffer.count
      let n = readChunk()
      if n <= 0 {
        eof = true
      } else {
        bytesRead += Int64(n)
      }
    }
  }

  /// Ends the line `range` of `buffer` (bytes of it skipped are counted in its length, and a
  /// cut line keeps only its first bytes); reading goes on at `next`.
  private func finish(_ range: Range<Int>, next: Int) -> Range<Int> {
    var line = range
    // (A byte order mark before the first line is not part of the record.)
    if lineNumber == 0 && skipped == 0 && buffer[line].starts(with: [0xEF, 0xBB, 0xBF]) {
      line = line.lowerBound + 3..<line.upperBound
    }
    lastLineLength = line.count + skipped
    // (A line that was skipped in part is longer than the limit: skipping starts past it.)
    if lastLineLength > LineReader.maximumLineBytes {
      line = line.lowerBound..<min(line.upperBound, line.lowerBound + LineReader.keptOfCutLine)
    }
    skipped = 0
    start = next
    lineNumber += 1
    return line
  }

  /// Appends up to 64 KiB read from the descriptor to `buffer`; returns the count (0 at the end,
  /// -1 on a read error, which ends the input like EOF).
  private func readChunk() -> Int {
    // (Bytes given in memory are all there: nothing to read.)
    guard let fd = handle?.fileDescriptor else { return 0 }
    let size = 1 << 16
    let old = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: size))
    var n = 0
    repeat {
      n = buffer.withUnsafeMutableBufferPointer { p in
        Foundation.read(fd, p.baseAddress! + old, size)
      }
    } while n < 0 && errno == EINTR
    buffer.removeSubrange((old + max(0, n))...)
    return n
  }
}

/// Lines read together: their bytes one after another, and each line's number, range there
/// and whole length (more than its range when it was cut).
package struct LineBatch: Sendable {
  /// The bytes past which a batch takes no more lines (one line may still bring up to
  /// ``LineReader/maximumLineBytes``).
  package static let maximumBytes = 16 << 20
  package var bytes: [UInt8] = []
  package var lines: [(number: Int, range: Range<Int>, length: Int)] = []

  package init() {}

  package var isEmpty: Bool { lines.isEmpty }

  package mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    lines.removeAll(keepingCapacity: true)
  }
}
