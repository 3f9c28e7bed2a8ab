import Foundation
import GalleyRecords
import GalleyService

/// Where a command reads and writes.
enum Streams {
  static func input(_ path: String?) throws -> FileHandle {
    guard let path, path != "-" else { return FileHandle.standardInput }
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
      throw CLIError.input("\(path): no such file")
    }
    if isDir.boolValue { throw CLIError.input("\(path): is a directory, not a file") }
    guard let h = FileHandle(forReadingAtPath: path) else {
      throw CLIError.input("\(path): cannot be read (permission denied?)")
    }
    return h
  }

  /// Writes a line to standard error.
  static func error(_ message: String) { writeToStandardError(message) }

  static func output(_ path: String?) throws -> OutputStream {
    guard let path, path != "-" else { return OutputStream(fd: 1) }
    guard let fd = Optional(open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)), fd >= 0 else {
      throw CLIError.output("\(path): cannot be written (\(String(cString: strerror(errno))))")
    }
    return OutputStream(fd: fd)
  }

  /// Writes a whole file (a PNG, a report, frames), or throws the error of an output file that
  /// cannot be written (exit 73), as every command reports it.
  static func writeFile(_ path: String, _ data: Data) throws {
    guard FileManager.default.createFile(atPath: path, contents: data) else {
      throw CLIError.output("\(path): cannot be written")
    }
  }
}

/// A buffered writer to a file descriptor that exits quietly on a broken pipe.
final class OutputStream {
  private let fd: Int32
  init(fd: Int32) { self.fd = fd }

  func write(_ s: String) {
    var s = s
    s.withUTF8 { buf in write(UnsafeRawBufferPointer(buf)) }
  }

  /// Writes bytes (a PNG, say).
  func write(_ data: Data) {
    data.withUnsafeBytes { write($0) }
  }

  func write(_ buf: UnsafeRawBufferPointer) {
    guard let base = buf.baseAddress else { return }
    var off = 0
    while off < buf.count {
      let n = Foundation.write(fd, base + off, buf.count - off)
      if n < 0 {
        if errno == EINTR { continue }
        // The reader went away (`| head`): stop quietly, 141 as a shell reports SIGPIPE. `_exit`:
        // there is nothing left to flush, and no exit-time work (such as a leak checker's scan of
        // the batch still in flight) should run or change the status.
        if errno == EPIPE { _exit(141) }
        FileHandle.standardError.write(
          "galley: writing the output failed: \(String(cString: strerror(errno)))\n"
            .data(using: .utf8)!)
        exit(74)
      }
      off += n
    }
  }
}

extension Records {
  /// A record as the commands read it, a repair warned of on standard error.
  static func read(_ data: some Collection<UInt8>, line: Int, command: String) -> Parsed {
    read(data, line: line, command: command, warn: Streams.error)
  }
}
