import Dispatch
import Foundation

/// `transform` applied to every element on `threads` threads (default: all cores), results in
/// input order. Element `i` is handled by thread `i % threads`, so the work and the results do not
/// depend on scheduling.
/// - Complexity: O(n / threads) per thread.
package func concurrentMap<T: Sendable, R>(
  _ items: [T], threads: Int = ProcessInfo.processInfo.activeProcessorCount,
  _ transform: (T) -> R
) -> [R] {
  let threads = max(1, min(threads, items.count))
  guard threads > 1 else { return items.map(transform) }
  return withoutActuallyEscaping(transform) { transform in
    let out = UnsafeMutableBufferPointer<R?>.allocate(capacity: items.count)
    out.initialize(repeating: nil)
    defer {
      out.deinitialize()
      out.deallocate()
    }
    let slots = Slots(out, transform)
    DispatchQueue.concurrentPerform(iterations: threads) { k in
      var i = k
      while i < items.count {
        slots.fill(i, items[i])
        i += threads
      }
    }
    return out.map { $0! }
  }
}

/// The output buffer and the transform, carried into `concurrentPerform`.
private final class Slots<T, R>: @unchecked Sendable {
  // @unchecked: each index is written by exactly one thread, and read only after all finish;
  // the transform is called concurrently, as `concurrentMap` documents.
  let out: UnsafeMutableBufferPointer<R?>
  let transform: (T) -> R
  init(_ out: UnsafeMutableBufferPointer<R?>, _ transform: @escaping (T) -> R) {
    self.out = out
    self.transform = transform
  }
  func fill(_ i: Int, _ item: T) { out[i] = transform(item) }
}
