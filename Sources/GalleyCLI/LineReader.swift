import Foundation

/// Reads a file or standard input as lines of bytes, in constant memory (one chunk and one line).
final class LineReader {
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private var start = 0
  private var eof = false
  private(set) var lineNumber = 0
  /// Bytes read from the input so far.
  private(set) var bytesRead: Int64 = 0

  init(handle: FileHandle) { self.handle = handle }

  /// The next line without its terminator (a CR before the LF is dropped), or nil at the end.
  func next() -> Data? {
    var scanFrom = start
    while true {
      if let nl = buffer[scanFrom...].firstIndex(of: 0x0A) {
        var end = nl
        if end > start && buffer[end - 1] == 0x0D { end -= 1 }
        let line = Data(buffer[start..<end])
        start = nl + 1
        lineNumber += 1
        return line
      }
      if eof {
        guard start < buffer.count else { return nil }
        let line = Data(buffer[start...])
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
      let chunk = handle.readData(ofLength: 1 << 16)
      if chunk.isEmpty {
        eof = true
      } else {
        bytesRead += Int64(chunk.count)
        buffer.append(contentsOf: chunk)
      }
    }
  }
}
