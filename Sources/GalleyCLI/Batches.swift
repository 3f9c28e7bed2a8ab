import Foundation
import Typesetting

/// Runs a per-line function over a stream on several threads, writing results in input order
/// and keeping at most one batch in memory.
enum Batches {
  static let batchSize = 512

  struct Item: Sendable {
    var line: Int
    var data: [UInt8]
  }

  static func process(
    reader: LineReader, jobs: Int, output: OutputStream, progress: ProgressBar? = nil,
    work: @escaping @Sendable (Int, [UInt8]) -> (String, Bool),
    onResult: (Bool) -> Void
  ) throws {
    var batch: [(Int, [UInt8])] = []
    var done = 0
    func flush() {
      guard !batch.isEmpty else { return }
      let items = batch.map { Item(line: $0.0, data: $0.1) }
      let results = concurrentMap(items, threads: jobs) { work($0.line, $0.data) }
      var text = ""
      for r in results {
        text += r.0
        text += "\n"
        onResult(r.1)
      }
      if isatty(1) == 1 { progress?.clear() }
      output.write(text)
      done += items.count
      progress?.update(items: done, bytes: reader.bytesConsumed)
      batch.removeAll(keepingCapacity: true)
    }
    while let line = reader.next() {
      // Ctrl-C: stop between lines; everything written so far is whole lines.
      if Interrupt.requested { throw CLIError.interrupted(done) }
      batch.append((reader.lineNumber, line))
      if batch.count >= batchSize { flush() }
    }
    if Interrupt.requested { throw CLIError.interrupted(done) }
    flush()
  }
}
