import CHarfBuzz
import Foundation

/// A font file's bytes, read into memory once and shared by the faces made from it.
///
/// Read, not mapped: a mapped file that another process truncates under a live engine kills
/// the host with SIGBUS on the next glyph, and one rewritten in place changes its metrics
/// silently. A copy costs the file's size in memory (see docs/RELIABILITY.md) and keeps every
/// face what it was when it was loaded.
final class FontFile: @unchecked Sendable {
  // @unchecked: the blob is made immutable and only read after `init`.
  /// The HarfBuzz blob that owns the bytes.
  let blob: OpaquePointer
  /// The number of bytes.
  var count: Int { Int(hb_blob_get_length(blob)) }

  /// Reads the regular file at `path` (symbolic links followed).
  /// - Throws: ``TypesettingError/fontFileUnreadable(path:reason:)`` when it is missing, not a
  ///   regular file (a device or a pipe would be read forever or block), larger than
  ///   ``Font/maximumFileSize``, or changes size while it is read.
  init(path: String) throws {
    func unreadable(_ reason: String) -> TypesettingError {
      .fontFileUnreadable(path: path, reason: reason)
    }
    // (Non-blocking, so that opening a FIFO does not wait for a writer; regular files read
    // as usual.)
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      throw unreadable(errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw unreadable(String(cString: strerror(errno))) }
    if info.st_mode & S_IFMT == S_IFDIR { throw unreadable("is a directory") }
    guard info.st_mode & S_IFMT == S_IFREG else { throw unreadable("not a regular file") }
    let size = Int(info.st_size)
    guard UInt64(size) <= Font.maximumFileSize else {
      throw unreadable("\(size) bytes is larger than \(Font.maximumFileSize)")
    }
    let bytes = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
    var done = 0
    while done < size {
      let n = read(fd, bytes + done, size - done)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        bytes.deallocate()
        throw unreadable(
          n == 0 ? "it changed size while being read" : String(cString: strerror(errno)))
      }
      done += n
    }
    // HarfBuzz frees the bytes with the blob.
    let blob = hb_blob_create(
      bytes.assumingMemoryBound(to: CChar.self), UInt32(size), HB_MEMORY_MODE_READONLY, bytes,
      { $0?.deallocate() })!
    hb_blob_make_immutable(blob)
    self.blob = blob
  }

  deinit { hb_blob_destroy(blob) }
}
