import XCTest

@testable import CompositionalLayout

/// Golden (c) and properties of the chat layout.
///
/// Configuration: 390 × 844, scale 3, insets top 8 leading 12 bottom 8 trailing 12 (content width 366), current
/// user 0 on the trailing side, bubbles at most 0.75 × 366 = 274.5 wide (on the pixel grid: 274⅓), 2 pt inside a run, 12 pt on a sender
/// change or before a date header, date headers 32 pt + 8 pt.
final class ChatLayoutTests: XCTestCase {
  static let config = ChatLayoutConfiguration(
    containerSize: Size(width: 390, height: 844), displayScale: 3,
    contentInsets: DirectionalEdgeInsets(top: 8, leading: 12, bottom: 8, trailing: 12))

  static let transcript = [
    ChatMessage(senderID: 1, day: 1, size: Size(width: 200, height: 40)),
    ChatMessage(senderID: 1, day: 1, size: Size(width: 300, height: 60)),
    ChatMessage(senderID: 0, day: 1, size: Size(width: 150, height: 40)),
    ChatMessage(senderID: 0, day: 1, size: Size(width: 120, height: 36)),
    ChatMessage(senderID: 1, day: 2, size: Size(width: 180, height: 52)),
  ]

  /// Rows: 0 + 40 + 40 = 80 | 2 + 60 = 62 | 12 + 40 = 52 | 2 + 36 = 38 | 12 + 40 + 52 = 104 → 336;
  /// with insets 352 < 844, so everything moves down by 844 − 352 = 492: rows start at 500, 580, 642, 694, 732.
  func testGoldenShortTranscriptIsBottomAnchored() {
    let chat = ChatLayout(configuration: Self.config, messages: Self.transcript)
    XCTAssertEqual(chat.contentSize, Size(width: 390, height: 844))
    assertFrame(chat.dateHeaderFrame(ofItem: 0), 12, 500, 366, 32)
    assertFrame(chat.frame(ofItem: 0), 12, 540, 200, 40)  // 500 + 40 (header block), leading
    // 580 + 2; 300 capped at 274.5, floored to the 1/3 pt pixel grid: 823 / 3.
    assertFrame(chat.frame(ofItem: 1), 12, 582, 823.0 / 3.0, 60)
    assertFrame(chat.frame(ofItem: 2), 228, 654, 150, 40)  // 642 + 12; trailing: 390 − 12 − 150
    assertFrame(chat.frame(ofItem: 3), 258, 696, 120, 36)  // 694 + 2; 390 − 12 − 120
    XCTAssertNil(chat.dateHeaderFrame(ofItem: 1))
    assertFrame(chat.dateHeaderFrame(ofItem: 4), 12, 744, 366, 32)  // 732 + 12
    assertFrame(chat.frame(ofItem: 4), 12, 784, 180, 52)  // 744 + 40; ends at 836 = 844 − 8
  }

  /// Prepending 50 older messages (alternating senders, day 0, 100 × 44): rows 0 + 40 + 44 = 84, then 49 × (12 + 44)
  /// = 2744 → 2828. The old first message now follows a day-0 message: its row becomes 12 + 40 + 40 = 92.
  /// New transcript 8 + 2828 + 92 + 62 + 52 + 38 + 104 + 8 = 3192 > 844: no bottom shift. Old message 2 moves from
  /// 654 to 8 + 2828 + 92 + 62 + 12 = 3002: correction 2348, and the content grows by 3192 − 844 = 2348.
  func testGoldenPrependKeepsVisibleBubblesStill() {
    var chat = ChatLayout(configuration: Self.config, messages: Self.transcript)
    let before = chat.elements(in: Rect(x: 0, y: 0, width: 390, height: 844))
    XCTAssertEqual(before.count, 7)  // 5 bubbles and 2 headers
    let older = (0..<50).map {
      ChatMessage(senderID: Int32($0 % 2), day: 0, size: Size(width: 100, height: 44))
    }
    let update = chat.prepend(
      older, keeping: ScrollAnchor(indexPath: ItemPath(section: 0, item: 2), edge: .top))
    XCTAssertEqual(update.contentOffsetCorrection, 2348)
    XCTAssertEqual(update.contentSizeDelta, Size(width: 0, height: 2348))
    assertFrame(chat.frame(ofItem: 52), 228, 3002, 150, 40)
    // Every element that was on screen is at the same screen position (content offset 0 → 2348).
    let after = chat.elements(in: Rect(x: 0, y: 2348, width: 390, height: 844))
    for old in before {
      let moved = after.first {
        $0.indexPath.item == old.indexPath.item + 50 && $0.category == old.category
      }
      XCTAssertNotNil(moved, "\(old)")
      if let moved {
        XCTAssertEqual(moved.frame.minY - 2348, old.frame.minY, accuracy: 1.0 / 3.0)
        XCTAssertEqual(moved.frame.minX, old.frame.minX)
      }
    }
  }

  func testPrependOnLongScrolledTranscriptKeepsEveryVisibleBubble() {
    var rng = TestRNG(7)
    let messages = (0..<400).map { i in
      ChatMessage(
        senderID: Int32(rng.int(3)), day: Int32(i / 40),
        size: Size(width: rng.double(40, 400), height: rng.double(30, 200)))
    }
    var chat = ChatLayout(configuration: Self.config, messages: messages)
    let offset = 5000.0
    let screen = Rect(x: 0, y: offset, width: 390, height: 844)
    let before = chat.elements(in: screen).filter { $0.category == .cell }
    let anchorItem = before[before.count / 2].indexPath.item
    let older = (0..<50).map { i in
      ChatMessage(
        senderID: Int32(i % 3), day: -1,
        size: Size(width: rng.double(40, 400), height: rng.double(30, 200)))
    }
    let update = chat.prepend(
      older,
      keeping: ScrollAnchor(
        indexPath: ItemPath(section: 0, item: anchorItem), edge: .top, offset: 3))
    let newOffset = offset + update.contentOffsetCorrection
    for old in before {
      let f = chat.frame(ofItem: old.indexPath.item + 50)
      XCTAssertEqual(f.minY - newOffset, old.frame.minY - offset, accuracy: 1.0 / 3.0 + 1e-9)
    }
  }

  func testGrowingAMessageAboveTheAnchorCorrectsByTheGrowth() {
    var chat = ChatLayout(
      configuration: Self.config,
      messages: (0..<100).map {
        ChatMessage(senderID: Int32($0 % 2), day: 0, size: Size(width: 100, height: 50))
      })
    let anchor = ScrollAnchor(indexPath: ItemPath(section: 0, item: 60), edge: .bottom, offset: 10)
    let y0 = chat.frame(ofItem: 60).maxY
    let grow = chat.setSize(Size(width: 120, height: 80.1), ofItem: 10, keeping: anchor)
    // 80.1 rounds up to the pixel grid: 80.333…; the message grows by 30.333…
    XCTAssertEqual(grow.contentOffsetCorrection, 91.0 / 3.0, accuracy: 1e-9)
    XCTAssertEqual(chat.frame(ofItem: 60).maxY - y0, grow.contentOffsetCorrection, accuracy: 1e-9)
    XCTAssertEqual(grow.contentSizeDelta.height, 91.0 / 3.0, accuracy: 1e-9)
    // Growing a message below the anchor moves nothing on screen.
    let below = chat.setSize(Size(width: 120, height: 200), ofItem: 90, keeping: anchor)
    XCTAssertEqual(below.contentOffsetCorrection, 0)
    XCTAssertEqual(below.contentSizeDelta.height, 150)
  }

  func testTighterSpacingInsideARunAndAlignmentBySender() {
    let chat = ChatLayout(
      configuration: Self.config,
      messages: [
        ChatMessage(senderID: 0, day: 0, size: Size(width: 100, height: 500)),
        ChatMessage(senderID: 0, day: 0, size: Size(width: 100, height: 500)),
        ChatMessage(senderID: 3, day: 0, size: Size(width: 100, height: 500)),
      ])
    // Tall enough (8 + 40 + 500 + 2 + 500 + 12 + 500 + 8 > 844): no bottom shift.
    XCTAssertEqual(chat.frame(ofItem: 1).minY - chat.frame(ofItem: 0).maxY, 2)
    XCTAssertEqual(chat.frame(ofItem: 2).minY - chat.frame(ofItem: 1).maxY, 12)
    XCTAssertEqual(chat.frame(ofItem: 0).maxX, 378)
    XCTAssertEqual(chat.frame(ofItem: 2).minX, 12)
    assertFrame(chat.frame(ofItem: 0), 278, 48, 100, 500)
  }

  func testRightToLeftMirrorsSides() {
    var config = Self.config
    config.layoutDirection = .rightToLeft
    let chat = ChatLayout(configuration: config, messages: Self.transcript)
    // Other sender: leading is now the right side.
    assertFrame(chat.frame(ofItem: 0), 390 - 12 - 200, 540, 200, 40)
    assertFrame(chat.frame(ofItem: 2), 12, 654, 150, 40)  // current user: trailing = left
  }

  func testElementsInRectMatchesBruteForce() {
    var rng = TestRNG(11)
    let messages = (0..<2000).map { i in
      ChatMessage(
        senderID: Int32(rng.int(2)), day: Int32(i / 100),
        size: Size(width: 200, height: rng.double(20, 150)))
    }
    let chat = ChatLayout(configuration: Self.config, messages: messages)
    var all: [LayoutAttributes] = []
    for i in 0..<chat.count {
      if let h = chat.dateHeaderFrame(ofItem: i) {
        all.append(
          LayoutAttributes(
            indexPath: ItemPath(section: 0, item: i), category: .supplementary, scope: .item,
            kind: "dateHeader", frame: h, zIndex: 1))
      }
      all.append(chat.attributes(at: i))
    }
    for _ in 0..<300 {
      let rect = Rect(
        x: rng.double(-50, 380), y: rng.double(-100, chat.contentSize.height + 100),
        width: rng.double(0, 400),
        height: rng.double(0, 1200))
      // Running sums and prefix sums may differ in the last bits: compare identities, then frames to 1e-6.
      let fast = chat.elements(in: rect)
      let slow = all.filter { $0.frame.intersects(rect) }
      let key = { (a: LayoutAttributes) in "\(a.indexPath.item)\(a.category)" }
      XCTAssertEqual(Set(fast.map(key)), Set(slow.map(key)), "\(rect)")
      let byKey = Dictionary(uniqueKeysWithValues: slow.map { (key($0), $0.frame) })
      for a in fast {
        guard let f = byKey[key(a)] else { continue }
        XCTAssertEqual(a.frame.minY, f.minY, accuracy: 1e-6)
        XCTAssertEqual(a.frame.height, f.height, accuracy: 1e-6)
      }
    }
  }

  func testAppendMatchesABuildFromScratch() {
    var rng = TestRNG(5)
    let messages = (0..<300).map { i in
      ChatMessage(
        senderID: Int32(rng.int(2)), day: Int32(i / 50),
        size: Size(width: 200, height: rng.double(20, 150)))
    }
    var grown = ChatLayout(configuration: Self.config, messages: Array(messages[0..<123]))
    _ = grown.append(Array(messages[123...]))
    let built = ChatLayout(configuration: Self.config, messages: messages)
    for i in 0..<messages.count {
      let a = grown.frame(ofItem: i)
      let b = built.frame(ofItem: i)
      XCTAssertEqual(a.minY, b.minY, accuracy: 1e-6)
      XCTAssertEqual(a.height, b.height, accuracy: 1e-9)
    }
    XCTAssertEqual(grown.contentSize.height, built.contentSize.height, accuracy: 1e-6)
  }

  func testMeasuringAVisibleRangeThenTheRest() {
    // 200 messages on estimates (100 × 40, one sender: rows 40 + 2 = 42 after the first's 40 + 40 header).
    var chat = ChatLayout(
      configuration: Self.config,
      messages: (0..<200).map { _ in
        ChatMessage(senderID: 1, day: 0, size: Size(width: 100, height: 40))
      })
    XCTAssertEqual(chat.proposedBubbleWidth, 823.0 / 3.0, accuracy: 1e-9)
    // The reader looks at message 150's top; measure 140..<160 (above and below the anchor) at 50 pt:
    // messages 140…149 grow by 10 each above the anchor → correction 100.
    let anchor = ScrollAnchor(indexPath: ItemPath(section: 0, item: 150))
    let y0 = chat.frame(ofItem: 150).minY
    let visible = chat.measure(140..<160, keeping: anchor) { _, width in
      XCTAssertEqual(width, 823.0 / 3.0, accuracy: 1e-9)
      return Size(width: 120, height: 50)
    }
    XCTAssertEqual(visible.contentOffsetCorrection, 100)
    XCTAssertEqual(visible.contentSizeDelta.height, 200)
    XCTAssertEqual(chat.frame(ofItem: 150).minY - y0, 100)
    // Then everything above: 140 more messages grow by 10 → correction 1400; the range is clamped to the count.
    let rest = chat.measure(0..<140, keeping: anchor) { _, _ in Size(width: 120, height: 50) }
    XCTAssertEqual(rest.contentOffsetCorrection, 1400)
    XCTAssertEqual(
      chat.measure(190..<500) { _, _ in Size(width: 1, height: 40) }.contentSizeDelta.height, 0)
  }

  func testPrependsAndAppendsMatchABuildFromScratch() {
    var rng = TestRNG(31)
    let messages = (0..<500).map { i in
      ChatMessage(
        senderID: Int32(rng.int(3)), day: Int32(i / 60),
        size: Size(width: rng.double(30, 380), height: rng.double(20, 150)))
    }
    // Start from the middle, then load history in chunks of 50 and new messages in chunks of 30.
    var grown = ChatLayout(configuration: Self.config, messages: Array(messages[200..<300]))
    var lo = 200
    var hi = 300
    while lo > 0 || hi < 500 {
      if lo > 0 {
        _ = grown.prepend(Array(messages[(lo - 50)..<lo]))
        lo -= 50
      }
      if hi < 500 {
        _ = grown.append(Array(messages[hi..<min(500, hi + 30)]))
        hi = min(500, hi + 30)
      }
    }
    let built = ChatLayout(configuration: Self.config, messages: messages)
    XCTAssertEqual(grown.count, 500)
    for i in 0..<500 {
      let a = grown.frame(ofItem: i)
      let b = built.frame(ofItem: i)
      XCTAssertEqual(a.minY, b.minY, accuracy: 1e-6, "item \(i)")
      XCTAssertEqual(a.minX, b.minX, accuracy: 1e-9)
      XCTAssertEqual(a.size, b.size)
      XCTAssertEqual(
        grown.dateHeaderFrame(ofItem: i)?.minY ?? -1, built.dateHeaderFrame(ofItem: i)?.minY ?? -1,
        accuracy: 1e-6)
    }
    XCTAssertEqual(grown.contentSize.height, built.contentSize.height, accuracy: 1e-6)
  }

  func testItemAtY() {
    let chat = ChatLayout(configuration: Self.config, messages: Self.transcript)
    XCTAssertEqual(chat.item(atY: 560), 0)
    XCTAssertEqual(chat.item(atY: 700), 3)
    XCTAssertNil(chat.item(atY: 900))
  }
}
