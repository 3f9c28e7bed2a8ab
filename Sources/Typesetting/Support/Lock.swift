#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutex for the short critical sections that threads preparing text at once share (the
/// shaper pool, memos of style constants and feature gates): on Linux, glibc's adaptive mutex,
/// which spins a little on a lock held by another core before it sleeps. (`NSLock` there is a
/// plain mutex, which sleeps in the kernel at once: a lock held for a few dozen nanoseconds
/// then costs a futex wait and a wake-up, microseconds each.)
package final class Lock: @unchecked Sendable {
  // @unchecked: the mutex is only touched through pthread calls, which synchronize.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  package init() {
    mutex = .allocate(capacity: 1)
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    #if os(Linux)
      pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
    #endif
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  package func lock() { pthread_mutex_lock(mutex) }

  package func unlock() { pthread_mutex_unlock(mutex) }
}
