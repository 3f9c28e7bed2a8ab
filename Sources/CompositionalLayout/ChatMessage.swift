/// One message of a chat transcript, as the layout sees it: who sent it, which day, the bubble's size.
public struct ChatMessage: Hashable, Sendable {
  /// The sender; runs of the same sender are spaced tighter.
  public var senderID: Int32
  /// The day (any monotonic day number); a date header starts every new day.
  public var day: Int32
  /// The bubble size (estimated or measured); the width is capped at the configured fraction of the width.
  public var size: Size
  /// Creates a message.
  public init(senderID: Int32, day: Int32, size: Size) {
    self.senderID = senderID
    self.day = day
    self.size = size
  }
}
