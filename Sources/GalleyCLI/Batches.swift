import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import Typesetting

/// Runs a per-line function over a stream on several threads, writing results in input order
/// and keeping at most one batch in memory. Warnings `work` gives for a line go to standard
/// error in input order too, whatever the number of threads.
package enum Batches {
  static let batchSize = 512
  /// Lines one thread takes in a row, writing their records into one buffer.
  static let runLength = 64

  /// `work` gets a line's number and bytes, a function for its warnings and the writer its
  /// record goes to (one line, without the newline); it returns whether the record is an error.
  static func process(
    reader: LineReader, jobs: Int, output: OutputStream, progress: ProgressBar? = nil,
    work: @escaping @Sendable (
      Int, ArraySlice<UInt8>, _ warn: (String) -> Void, _ record: inout JSONWriter
    ) -> Bool,
    onResult: (Bool) -> Void
  ) throws {
    var batch = LineBatch()
    var done = 0
    func flush() {
      guard !batch.isEmpty else { return }
      let lines = batch
      let runs = Array(stride(from: 0, to: lines.lines.count, by: runLength))
      let results = concurrentMap(runs, threads: jobs) { first in
        var out = JSONWriter()
        var errors: [Bool] = []
        var warnings: [String] = []
        let run = lines.lines[first..<min(first + runLength, lines.lines.count)]
        for (number, range, length) in run {
          if length > range.count {
            out.raw(RecordMeasuring.cutRecord(lines.bytes[range], line: number, length: length))
            errors.append(true)
          } else {
            errors.append(work(number, lines.bytes[range], { warnings.append($0) }, &out))
          }
          out.raw(UInt8(ascii: "\n"))
        }
        return (out, errors, warnings)
      }
      for (_, errors, warnings) in results {
        errors.forEach(onResult)
        for w in warnings { Streams.error(w) }
      }
      if isatty(1) == 1 { progress?.clear() }
      for (out, _, _) in results { out.withBytes { output.write(UnsafeRawBufferPointer($0)) } }
      done += lines.lines.count
      progress?.update(items: done, bytes: reader.bytesConsumed)
      batch.removeAll()
    }
    while reader.next(batchSize - batch.lines.count, into: &batch) {
      // Ctrl-C: stop between batches; everything written so far is whole lines.
      if Interrupt.requested { throw CLIError.interrupted(done) }
      if batch.lines.count >= batchSize { flush() }
    }
    if Interrupt.requested { throw CLIError.interrupted(done) }
    flush()
  }
}
