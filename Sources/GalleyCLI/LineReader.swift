import Foundation

/// Reads a file or standard input as lines of bytes, in constant memory.
final class LineReader {
  private let handle: FileHandle
  private var buffer = Data()
  private var eof = false
  private(set) var lineNumber = 0

  init(handle: FileHandle) { self.handle = handle }

  /// The next line without its terminator (a CR before the LF is dropped), or nil at the end.
  func next() -> Data? {
    while true {
      if let nl = buffer.firstIndex(of: 0x0A) {
        var line = buffer[buffer.startIndex..<nl]
        buffer.removeSubrange(buffer.startIndex...nl)
        if line.last == 0x0D { line = line.dropLast() }
        lineNumber += 1
        return Data(line)
      }
      if eof {
        guard !buffer.isEmpty else { return nil }
        let line = buffer
        buffer = Data()
        lineNumber += 1
        return line
      }
      let chunk = handle.readData(ofLength: 1 << 16)
      if chunk.isEmpty { eof = true } else { buffer.append(chunk) }
    }
  }
}
