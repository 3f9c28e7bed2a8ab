import Foundation

/// Reads a file or standard input as lines of bytes, in constant memory (one chunk and one line).
///
/// Reads with `read(2)` straight into its own buffer (no intermediate `Data` per chunk).
package final class LineReader {
  private let handle: FileHandle?
  private var buffer: [UInt8] = []
  private var start = 0
  private var eof = false
  package private(set) var lineNumber = 0
  /// Bytes read from the input so far.
  private(set) var bytesRead: Int64 = 0
  /// Bytes of the lines returned so far (what progress is measured in).
  var bytesConsumed: Int64 { bytesRead - Int64(buffer.count - start) }

  init(handle: FileHandle) { self.handle = handle }

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

  /// Appends up to `count` lines to `batch` (each line's bytes, its range among them and its
  /// number); false when there was none left. One array for all the lines of a batch, not one
  /// each.
  func next(_ count: Int, into batch: inout LineBatch) -> Bool {
    var any = false
    for _ in 0..<count {
      guard let r = nextRange() else { break }
      let start = batch.bytes.count
      batch.bytes.append(contentsOf: buffer[r])
      batch.lines.append((lineNumber, start..<batch.bytes.count))
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
        let line = start..<end
        start = nl + 1
        lineNumber += 1
        return line
      }
      if eof {
        guard start < buffer.count else { return nil }
        let line = start..<buffer.count
        start = buffer.count
        lineNumber += 1
        return line
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

/// Lines read together: their bytes one after another, and each line's number and range there.
struct LineBatch: Sendable {
  var bytes: [UInt8] = []
  var lines: [(number: Int, range: Range<Int>)] = []

  var isEmpty: Bool { lines.isEmpty }

  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    lines.removeAll(keepingCapacity: true)
  }
}
