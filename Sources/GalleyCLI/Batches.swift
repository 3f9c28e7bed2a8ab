import Foundation
import Typesetting

/// Runs a per-line function over a stream on several threads, writing results in input order
/// and keeping at most one batch in memory. Warnings `work` gives for a line go to standard
/// error in input order too, whatever the number of threads.
enum Batches {
  static let batchSize = 512

  struct Item: Sendable {
    var line: Int
    var data: [UInt8]
  }

  static func process(
    reader: LineReader, jobs: Int, output: OutputStream, progress: ProgressBar? = nil,
    work: @escaping @Sendable (Int, [UInt8], _ warn: (String) -> Void) -> (String, Bool),
    onResult: (Bool) -> Void
  ) throws {
    var batch: [(Int, [UInt8])] = []
    var done = 0
    func flush() {
      guard !batch.isEmpty else { return }
      let items = batch.map { Item(line: $0.0, data: $0.1) }
      let results = concurrentMap(items, threads: jobs) { item in
        var warnings: [String] = []
        let (text, isError) = work(item.line, item.data) { warnings.append($0) }
        return (text, isError, warnings)
      }
      var text = ""
      for r in results {
        text += r.0
        text += "\n"
        onResult(r.1)
        for w in r.2 { Streams.error(w) }
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
