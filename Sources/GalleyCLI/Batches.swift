import Dispatch
import Foundation

/// Runs a per-line function over a stream on several threads, writing results in input order
/// and keeping at most one batch in memory.
enum Batches {
  static let batchSize = 512

  static func process(
    reader: LineReader, jobs: Int, output: OutputStream, progress: ProgressBar? = nil,
    work: @escaping @Sendable (Int, Data) -> (String, Bool),
    onResult: (Bool) -> Void
  ) throws {
    var batch: [(Int, Data)] = []
    var done = 0
    func flush() {
      guard !batch.isEmpty else { return }
      let items = batch
      let results = UnsafeMutableBufferPointer<(String, Bool)>.allocate(capacity: items.count)
      results.initialize(repeating: ("", false))
      defer {
        // Release the strings too: deallocate alone leaked every output line.
        results.deinitialize()
        results.deallocate()
      }
      let box = ResultsBox(results)
      if jobs <= 1 || items.count < 8 {
        for (k, item) in items.enumerated() { box.set(k, work(item.0, item.1)) }
      } else {
        let chunks = min(jobs * 4, items.count)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
          var k = c
          while k < items.count {
            box.set(k, work(items[k].0, items[k].1))
            k += chunks
          }
        }
      }
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

/// Lets worker threads write disjoint slots of one buffer.
final class ResultsBox: @unchecked Sendable {
  // @unchecked: each index is written by exactly one thread, and read only after all finish.
  let buffer: UnsafeMutableBufferPointer<(String, Bool)>
  init(_ buffer: UnsafeMutableBufferPointer<(String, Bool)>) { self.buffer = buffer }
  func set(_ i: Int, _ v: (String, Bool)) { buffer[i] = v }
}
