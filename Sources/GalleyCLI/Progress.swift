import Foundation
import Synchronization

/// Ctrl-C: the first SIGINT asks the running command to stop after the output lines it has
/// already begun (no partial line), exit status 130; a second one ends the process at once.
enum Interrupt {
  /// Set by the signal handler (lock-free, async-signal-safe).
  static let flag = Atomic<Int>(0)

  static func install() {
    signal(SIGINT) { _ in
      let (old, _) = Interrupt.flag.add(1, ordering: .relaxed)
      if old >= 1 { _exit(130) }
    }
  }

  static var requested: Bool { flag.load(ordering: .relaxed) > 0 }
}

/// A progress bar on standard error — only when standard error is a terminal and `--quiet` was
/// not given: items done, items/s and (when the input's size is known) percent and ETA. Redrawn
/// at most ten times a second; erased when the command ends.
final class ProgressBar {
  private let enabled: Bool
  private let totalBytes: Int64?
  private let start = Date()
  private var last = Date.distantPast
  private var drawn = false
  private let label: String

  /// - Parameters:
  ///   - input: the input's file descriptor (its size, when a regular file, gives percent/ETA).
  init(label: String, input: Int32?, quiet: Bool) {
    self.label = label
    enabled = !quiet && isatty(2) == 1
    var size: Int64? = nil
    if let fd = input {
      var st = stat()
      if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && st.st_size > 0 {
        size = Int64(st.st_size)
      }
    }
    totalBytes = size
  }

  /// Reports `items` done and `bytes` of input consumed.
  func update(items: Int, bytes: Int64) {
    guard enabled else { return }
    let now = Date()
    // (At most every 0.1 s, but always the first frame and the one at the end of the input,
    // so that a finished run shows 100%.)
    let atEnd = totalBytes.map { bytes >= $0 } ?? false
    guard !drawn || atEnd || now.timeIntervalSince(last) >= 0.1 else { return }
    last = now
    drawn = true
    let elapsed = max(1e-3, now.timeIntervalSince(start))
    let rate = Double(items) / elapsed
    var line = "\(label): \(items) items, \(Int(rate)) items/s"
    if let total = totalBytes {
      let fraction = min(1, Double(bytes) / Double(total))
      let width = 24
      let filled = Int(fraction * Double(width))
      let bar =
        String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
      var eta = "--:--"
      if fraction > 0 {
        let remaining = Int((elapsed / fraction - elapsed).rounded())
        eta = String(format: "%d:%02d", remaining / 60, remaining % 60)
      }
      line =
        "\(label) [\(bar)] \(Int(fraction * 100))%  \(items) items  \(Int(rate)) items/s  ETA \(eta)"
    }
    FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
  }

  /// Erases the bar before output goes to the same terminal; the next update redraws it.
  func clear() {
    guard enabled, drawn else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    drawn = false
  }

  /// Erases the bar.
  func finish() {
    guard enabled, drawn else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}
