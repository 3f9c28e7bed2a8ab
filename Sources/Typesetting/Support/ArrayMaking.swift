extension Array where Element: BitwiseCopyable {
  // `Array(repeating:count:)` and `Array(unsafeUninitializedCapacity:initializingWith:)`
  // allocate through a standard-library function that is not specialized for the element type:
  // it looks the type's storage class up at run time. Copying from a buffer allocates through
  // code specialized here; a prepared text makes about fifteen arrays, so they are made this
  // way (the cost: docs/PERFORMANCE.md).

  /// An array of at most `capacity` elements that `body` initializes in place (in the
  /// uninitialized buffer it gets, from the start) and counts: as
  /// `init(unsafeUninitializedCapacity:initializingWith:)`, written in temporary memory (on
  /// the stack when small) and copied once.
  init(
    capacity: Int, writing body: (UnsafeMutableBufferPointer<Element>, inout Int) throws -> Void
  ) rethrows {
    self = try withUnsafeTemporaryAllocation(of: Element.self, capacity: capacity) { buffer in
      var count = 0
      try body(buffer, &count)
      precondition(count >= 0 && count <= capacity, "more elements than room for them")
      return Array(UnsafeBufferPointer(rebasing: buffer[..<count]))
    }
  }

  /// `count` copies of `value` (as `init(repeating:count:)`).
  init(filling value: Element, count: Int) {
    self = withUnsafeTemporaryAllocation(of: Element.self, capacity: count) { buffer in
      buffer.initialize(repeating: value)
      return Array(UnsafeBufferPointer(buffer))
    }
  }
}
