/// An array that grows at both ends in amortized O(1): the front part is stored reversed.
struct TwoEndedStore<Element> {
  /// Elements before the original first one, newest-prepended last.
  private var front: [Element] = []
  /// The original elements and those appended.
  private var back: [Element]

  /// A store holding `elements`.
  init(_ elements: [Element] = []) { back = elements }

  /// The number of elements.
  var count: Int { front.count + back.count }

  /// The element at `index`.
  /// - Complexity: O(1).
  subscript(index: Int) -> Element {
    get { index < front.count ? front[front.count - 1 - index] : back[index - front.count] }
    set {
      if index < front.count {
        front[front.count - 1 - index] = newValue
      } else {
        back[index - front.count] = newValue
      }
    }
  }

  /// Adds an element at the end.
  mutating func append(_ element: Element) { back.append(element) }

  /// Adds an element before the first one.
  mutating func prepend(_ element: Element) { front.append(element) }

  /// Bytes held.
  var byteCount: Int { (front.capacity + back.capacity) * MemoryLayout<Element>.stride }
}
extension TwoEndedStore: Sendable where Element: Sendable {}
