import Geometry

/// What the chat layout keeps per message.
struct MessageRecord: Sendable {
  var widthPixels: UInt32
  var heightPixels: UInt32
  var sender: Int32
  var day: Int32
}

/// A one-column chat layout whose offset lookups and height updates cost O(log n) (a Fenwick tree of row heights).
///
/// Row i holds, top to bottom: the spacing before message i, its date header (first message of a day), and its
/// bubble. Content shorter than the container is bottom-anchored.
public struct ChatLayout: Sendable {
  /// The settings.
  public let configuration: ChatLayoutConfiguration
  /// Row heights; both ends grow in O(log n), so prepending history does not cost the transcript's length.
  private var rows: FenwickDeque
  /// Per message: bubble size in device pixels (sizes are pixel-aligned), sender and day; 16 bytes.
  private var records: TwoEndedStore<MessageRecord>
  /// The pixel scale (the configured one when positive, else 1).
  private let scale: Double

  /// Lays out a transcript.
  /// - Complexity: O(n).
  public init(configuration: ChatLayoutConfiguration, messages: [ChatMessage]) {
    self.configuration = configuration
    scale = configuration.pixelScale
    records = TwoEndedStore()
    rows = FenwickDeque()
    load(messages)
  }

  private mutating func load(_ messages: [ChatMessage]) {
    let n = messages.count
    records = TwoEndedStore(messages.map(record))
    var rowHeights = [Double](repeating: 0, count: n)
    for i in 0..<n { rowHeights[i] = rowHeight(i) }
    rows = FenwickDeque(rowHeights)
  }

  /// The number of messages.
  public var count: Int { records.count }

  private func record(_ m: ChatMessage) -> MessageRecord {
    MessageRecord(
      widthPixels: bubbleWidthPixels(m.size.width), heightPixels: pixels(m.size.height),
      sender: m.senderID, day: m.day)
  }
  private func width(_ i: Int) -> Double { Double(records[i].widthPixels) / scale }
  private func height(_ i: Int) -> Double { Double(records[i].heightPixels) / scale }

  /// A length rounded up to whole pixels (at most 2³² − 1 of them; negative and non-finite lengths are 0).
  private func pixels(_ v: Double) -> UInt32 {
    guard v.isFinite, v > 0 else { return 0 }
    return UInt32(Swift.min(PixelGrid.pixelsCovering(v, scale: scale), Double(UInt32.max)))
  }

  /// The widest whole-pixel width within the bubble limit, in pixels.
  private var capPixels: UInt32 { UInt32(configuration.bubbleWidthCapPixels) }

  /// A bubble width in pixels, capped at the widest whole-pixel width within the limit.
  private func bubbleWidthPixels(_ w: Double) -> UInt32 { Swift.min(pixels(w), capPixels) }

  private func hasHeader(_ i: Int) -> Bool { i == 0 || records[i].day != records[i - 1].day }

  private func spacingBefore(_ i: Int) -> Double {
    if i == 0 { return 0 }
    if hasHeader(i) || records[i].sender != records[i - 1].sender {
      return configuration.senderChangeSpacing
    }
    return configuration.sameSenderSpacing
  }

  private func headerBlock(_ i: Int) -> Double {
    hasHeader(i) ? configuration.dateHeaderHeight + configuration.dateHeaderSpacing : 0
  }

  private func rowHeight(_ i: Int) -> Double { spacingBefore(i) + headerBlock(i) + height(i) }

  private var transcriptHeight: Double {
    configuration.contentInsets.top + rows.total + configuration.contentInsets.bottom
  }

  /// How far content shorter than the container is pushed down.
  private var bottomShift: Double {
    Swift.max(0, configuration.containerSize.height - transcriptHeight)
  }

  /// The content size (at least the container's height: short transcripts sit at the bottom).
  /// - Complexity: O(log n).
  public var contentSize: Size {
    Size(
      width: configuration.containerSize.width,
      height: Swift.max(transcriptHeight, configuration.containerSize.height))
  }

  private func rowTop(_ i: Int) -> Double {
    bottomShift + configuration.contentInsets.top + rows.prefixSum(i)
  }

  private func bubbleFrame(_ i: Int, rowTop: Double) -> Rect {
    let y = rowTop + spacingBefore(i) + headerBlock(i)
    let w = width(i)
    let ins = configuration.contentInsets
    let trailing = records[i].sender == configuration.currentUserID
    var x = trailing ? configuration.containerSize.width - ins.trailing - w : ins.leading
    if configuration.layoutDirection == .rightToLeft {
      x = configuration.containerSize.width - x - w
    }
    return Rect(x: x, y: y, width: w, height: height(i))
  }

  private func headerFrame(_ i: Int, rowTop: Double) -> Rect? {
    guard hasHeader(i) else { return nil }
    let ins = configuration.contentInsets
    return Rect(
      x: configuration.layoutDirection == .rightToLeft ? ins.trailing : ins.leading,
      y: rowTop + spacingBefore(i),
      width: configuration.contentWidth, height: configuration.dateHeaderHeight)
  }

  /// The bubble frame of message `index`.
  /// - Complexity: O(log n).
  public func frame(ofItem index: Int) -> Rect { bubbleFrame(index, rowTop: rowTop(index)) }

  /// The date header above message `index`, if it starts a day.
  /// - Complexity: O(log n).
  public func dateHeaderFrame(ofItem index: Int) -> Rect? {
    headerFrame(index, rowTop: rowTop(index))
  }

  /// The attributes of message `index` (section 0).
  /// - Complexity: O(log n).
  public func attributes(at index: Int) -> LayoutAttributes {
    LayoutAttributes(
      indexPath: ItemPath(section: 0, item: index), category: .cell, scope: .item, kind: "",
      frame: frame(ofItem: index), zIndex: 0)
  }

  /// The bubbles and date headers meeting `rect`.
  /// - Complexity: O(log n + k).
  public func elements(in rect: Rect) -> [LayoutAttributes] {
    var out: [LayoutAttributes] = []
    let base = bottomShift + configuration.contentInsets.top
    var i = rows.index(containing: rect.minY - base)
    guard i < count else { return out }
    var top = base + rows.prefixSum(i)
    while i < count && top <= rect.maxY {
      if let h = headerFrame(i, rowTop: top), h.intersects(rect) {
        out.append(
          LayoutAttributes(
            indexPath: ItemPath(section: 0, item: i), category: .supplementary, scope: .item,
            kind: "dateHeader",
            frame: h, zIndex: 1))
      }
      let b = bubbleFrame(i, rowTop: top)
      if b.intersects(rect) {
        out.append(
          LayoutAttributes(
            indexPath: ItemPath(section: 0, item: i), category: .cell, scope: .item, kind: "",
            frame: b, zIndex: 0))
      }
      top += rowHeight(i)
      i += 1
    }
    return out
  }

  /// The index of the message whose row contains the content coordinate `y`, or nil past the end.
  /// - Complexity: O(log n).
  public func item(atY y: Double) -> Int? {
    let i = rows.index(containing: y - bottomShift - configuration.contentInsets.top)
    return i < count ? i : nil
  }

  private func anchorPosition(_ anchor: ScrollAnchor?) -> Double? {
    guard let anchor, anchor.indexPath.item >= 0, anchor.indexPath.item < count else { return nil }
    return anchor.position(in: frame(ofItem: anchor.indexPath.item), vertical: true)
  }

  private func update(before: Double?, anchor: ScrollAnchor?, oldSize: Size) -> LayoutUpdate {
    let after = anchorPosition(anchor)
    var correction = 0.0
    if let before, let after {
      correction = ((after - before) * scale).rounded() / scale
    }
    let size = contentSize
    return LayoutUpdate(
      contentSizeDelta: Size(
        width: size.width - oldSize.width, height: size.height - oldSize.height),
      contentOffsetCorrection: correction)
  }

  /// Changes the bubble size of message `index` (self-sizing or an edit), keeping `anchor` still.
  /// - Complexity: O(log n).
  public mutating func setSize(_ size: Size, ofItem index: Int, keeping anchor: ScrollAnchor? = nil)
    -> LayoutUpdate
  {
    let before = anchorPosition(anchor)
    let old = contentSize
    records[index].widthPixels = bubbleWidthPixels(size.width)
    records[index].heightPixels = pixels(size.height)
    rows.set(rowHeight(index), at: index)
    return update(before: before, anchor: anchor, oldSize: old)
  }

  /// The widest a bubble may be, which is the width a measurer should wrap text at.
  public var proposedBubbleWidth: Double { Double(capPixels) / scale }

  /// Measures the messages in `range` (a visible range first, the rest later) and keeps `anchor` still.
  /// The measurer gets each index and the proposed width and returns the bubble size.
  /// - Complexity: O(k log n) for k messages.
  public mutating func measure(
    _ range: Range<Int>, keeping anchor: ScrollAnchor? = nil, using measurer: (Int, Double) -> Size
  ) -> LayoutUpdate {
    let before = anchorPosition(anchor)
    let old = contentSize
    let width = proposedBubbleWidth
    for i in range.clamped(to: 0..<count) {
      let size = measurer(i, width)
      records[i].widthPixels = bubbleWidthPixels(size.width)
      records[i].heightPixels = pixels(size.height)
      rows.set(rowHeight(i), at: i)
    }
    return update(before: before, anchor: anchor, oldSize: old)
  }

  /// Inserts older messages at the top, keeping `anchor` (an index before the insertion) still.
  /// - Complexity: O(k log n) for k messages.
  public mutating func prepend(_ messages: [ChatMessage], keeping anchor: ScrollAnchor? = nil)
    -> LayoutUpdate
  {
    let before = anchorPosition(anchor)
    let old = contentSize
    let k = messages.count
    guard k > 0 else { return update(before: before, anchor: anchor, oldSize: old) }
    for m in messages.reversed() { records.prepend(record(m)) }
    // Row heights depend on the message above, so they go in top-down order of dependency: the new messages'
    // rows are prepended from the last (index k − 1) to the first (index 0), then the old first row changes.
    var heights = [Double](repeating: 0, count: k)
    for i in 0..<k { heights[i] = rowHeight(i) }
    for i in stride(from: k - 1, through: 0, by: -1) { rows.prepend(heights[i]) }
    if k < count { rows.set(rowHeight(k), at: k) }
    var moved = anchor
    moved?.indexPath.item += k
    return update(before: before, anchor: moved, oldSize: old)
  }

  /// Adds newer messages at the bottom, keeping `anchor` still.
  /// - Complexity: O(k log n).
  public mutating func append(_ messages: [ChatMessage], keeping anchor: ScrollAnchor? = nil)
    -> LayoutUpdate
  {
    let before = anchorPosition(anchor)
    let old = contentSize
    for m in messages {
      records.append(record(m))
      rows.append(rowHeight(count - 1))
    }
    return update(before: before, anchor: anchor, oldSize: old)
  }

  /// Bytes held per message, for memory figures.
  public var bytesPerItem: Double {
    guard count > 0 else { return 0 }
    let bytes =
      rows.byteCount + records.byteCount
    return Double(bytes) / Double(count)
  }
}
