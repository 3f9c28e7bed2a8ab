import CompositionalLayout
import Foundation

/// Speed and memory figures of the layouts, for `layoutbench` and `galley bench`.
package enum LayoutBenchmark {
  /// Runs the benchmarks (a few seconds in a release build) and returns the figures:
  /// `layout100kMillis` (the slower of chat and grid initial layout on estimates, 100k items),
  /// `chatLayout100kMillis`, `gridLayout100kMillis`, `queryMicros` (the slower of chat and grid `elements(in:)` for a
  /// 390×844 screen), `chatQueryMicros`, `gridQueryMicros`, `updateMicros1M` (one chat height update with its
  /// offset correction at 1M messages), `prepend50Micros1M` (prepending 50 older messages at 1M, with the
  /// correction), `bytesPerItem` (chat layout at 1M), `gridBytesPerItem` (grid result at 100k),
  /// `batchInsertMicros1M` (one message inserted at the top of the 1M chat, the screen's
  /// transition answered), `batchGridMillis100k` (one item inserted into the first of 100
  /// sections of 1,000 grid items: the touched section laid out again, the screen's transition
  /// answered), `batchGridWholeMillis100k` (one item inserted into a one-section 100k grid: both
  /// layouts from scratch and every change listed).
  package static func run() -> [String: Double] {
    var rng = SplitMix(state: 42)
    let screen = Size(width: 390, height: 844)
    let chat = chatFigures(screen: screen, rng: &rng)
    let grid = gridFigures(screen: screen, rng: &rng)
    var figures = chat.merging(grid) { a, _ in a }
    figures.merge(bigChatFigures(screen: screen, rng: &rng)) { a, _ in a }
    figures.merge(gridBatchFigures(screen: screen)) { a, _ in a }
    figures["layout100kMillis"] = Swift.max(chat["chatLayout100kMillis"]!, grid["gridLayout100kMillis"]!)
    figures["queryMicros"] = Swift.max(chat["chatQueryMicros"]!, grid["gridQueryMicros"]!)
    return figures
  }

  /// Chat, 100k: initial layout on estimates and a screen's query.
  static func chatFigures(screen: Size, rng: inout SplitMix) -> [String: Double] {
    let chatMessages = (0..<100_000).map { _ in randomMessage(&rng) }
    let chatConfig = ChatLayoutConfiguration(containerSize: screen, displayScale: 3)
    var chat = ChatLayout(configuration: chatConfig, messages: [])
    let chatMillis =
      best(of: 5) { chat = ChatLayout(configuration: chatConfig, messages: chatMessages) } / 1e6
    let chatQuery = averageQuery(count: 20_000, height: chat.contentSize.height, rng: &rng) {
      chat.elements(in: $0).count
    }
    return ["chatLayout100kMillis": chatMillis, "chatQueryMicros": chatQuery]
  }

  /// The grid of the benchmarks: two columns of estimated height under a header.
  static func gridLayout() -> CollectionLayout {
    let item = Item(size: LayoutSize(width: .fractionalWidth(0.5), height: .estimated(300)))
    let group = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(300)), subitems: [.item(item)])
    var section = Section(group: group, interGroupSpacing: 8)
    section.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(40)),
        alignment: .top)
    ]
    return CollectionLayout(section: section)
  }

  /// Grid, 100k: initial layout, a screen's query and the result's bytes per item.
  static func gridFigures(screen: Size, rng: inout SplitMix) -> [String: Double] {
    let layout = gridLayout()
    let env = LayoutEnvironment(containerSize: screen)
    var grid = layout.layout(itemCounts: [0], environment: env)
    let gridMillis =
      best(of: 5) { grid = layout.layout(itemCounts: [100_000], environment: env) } / 1e6
    let gridQuery = averageQuery(count: 20_000, height: grid.contentSize.height, rng: &rng) {
      grid.elements(in: $0).count
    }
    return [
      "gridLayout100kMillis": gridMillis, "gridQueryMicros": gridQuery,
      "gridBytesPerItem": Double(grid.approximateByteCount) / 100_000,
    ]
  }

  /// Chat, 1M: one height update with the anchor correction, prepending 50 older messages with
  /// it, and one message inserted at the top with the screen's transition answered (the reader
  /// in the middle, kept still).
  static func bigChatFigures(screen: Size, rng: inout SplitMix) -> [String: Double] {
    let chatConfig = ChatLayoutConfiguration(containerSize: screen, displayScale: 3)
    var big = ChatLayout(
      configuration: chatConfig, messages: (0..<1_000_000).map { _ in randomMessage(&rng) })
    let updates = 20_000
    var indices: [Int] = []
    var heights: [Double] = []
    for _ in 0..<updates {
      indices.append(Int(rng.next() % 1_000_000))
      heights.append(Double(40 + rng.next() % 200))
    }
    var sink = 0.0
    let start = DispatchTime.now().uptimeNanoseconds
    for k in 0..<updates {
      let i = indices[k]
      let anchor = ScrollAnchor(
        indexPath: ItemPath(section: 0, item: Swift.min(i + 5, 999_999)), edge: .top)
      sink +=
        big.setSize(Size(width: 200, height: heights[k]), ofItem: i, keeping: anchor)
        .contentOffsetCorrection
    }
    let updateMicros = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(updates)
    let older = (0..<50).map { _ in randomMessage(&rng) }
    var prependNanos = Double.infinity
    for _ in 0..<20 {
      let t0 = DispatchTime.now().uptimeNanoseconds
      let update = big.prepend(
        older, keeping: ScrollAnchor(indexPath: ItemPath(section: 0, item: 500_000)))
      prependNanos = Swift.min(prependNanos, Double(DispatchTime.now().uptimeNanoseconds - t0))
      sink += update.contentOffsetCorrection
    }
    let one = [randomMessage(&rng)]
    var batchInsertNanos = Double.infinity
    let middle = big.contentSize.height / 2
    for _ in 0..<50 {
      let t0 = DispatchTime.now().uptimeNanoseconds
      let t = big.prepend(one, contentOffset: middle, viewport: screen.height)
      batchInsertNanos = Swift.min(batchInsertNanos, Double(DispatchTime.now().uptimeNanoseconds - t0))
      sink += t.contentOffsetAfter
    }
    if sink.isNaN { print("") }
    return [
      "updateMicros1M": updateMicros, "prepend50Micros1M": prependNanos / 1e3,
      "batchInsertMicros1M": batchInsertNanos / 1e3, "bytesPerItem": big.bytesPerItem,
    ]
  }

  /// One item inserted into the 100k grid: both layouts and the whole transition; and into a
  /// product catalogue (100 categories of 1,000 products, the grid above under a header each),
  /// kept by SelfSizingLayout (the one section laid out again), the screen's transition answered.
  static func gridBatchFigures(screen: Size) -> [String: Double] {
    let layout = gridLayout()
    let env = LayoutEnvironment(containerSize: screen)
    var sink = 0.0
    let gridBatch = BatchUpdate(insertItems: [ItemPath(section: 0, item: 0)])
    let gridWholeMillis =
      best(of: 3) {
        let t = try? layout.transition(itemCounts: [100_000], batch: gridBatch, environment: env)
        sink += Double(t?.changes.count ?? 0)
      } / 1e6
    let catalogue = SelfSizingLayout(
      layout: layout, itemCounts: Array(repeating: 1_000, count: 100), environment: env)
    let gridBatchMillis =
      best(of: 5) {
        var c = catalogue
        let t = try? c.apply(gridBatch, contentOffset: 0, anchor: .top)
        sink += t?.contentOffsetAfter ?? 0
        sink += Double(t?.teleports.count ?? 0)
      } / 1e6
    if sink.isNaN { print("") }
    return ["batchGridWholeMillis100k": gridWholeMillis, "batchGridMillis100k": gridBatchMillis]
  }

  /// The figures as a JSON object with sorted keys.
  package static func json(_ figures: [String: Double]) -> String {
    let fields = figures.keys.sorted().map { key in
      "\"\(key)\": \(fmt((figures[key]! * 1000).rounded() / 1000))"
    }
    return "{" + fields.joined(separator: ", ") + "}"
  }

  private static func randomMessage(_ rng: inout SplitMix) -> ChatMessage {
    let sender = Int32(rng.next() % 3)
    return ChatMessage(
      senderID: sender, day: 0,
      size: Size(width: Double(60 + rng.next() % 260), height: Double(36 + rng.next() % 120)))
  }

  private static func best(of runs: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
      let t0 = DispatchTime.now().uptimeNanoseconds
      body()
      best = Swift.min(best, Double(DispatchTime.now().uptimeNanoseconds - t0))
    }
    return best
  }

  private static func averageQuery(
    count: Int, height: Double, rng: inout SplitMix, _ query: (Rect) -> Int
  ) -> Double {
    var rects: [Rect] = []
    for _ in 0..<count {
      let y = Double(rng.next() % UInt64(Swift.max(1, height - 844)))
      rects.append(Rect(x: 0, y: y, width: 390, height: 844))
    }
    var total = 0
    let t0 = DispatchTime.now().uptimeNanoseconds
    for r in rects { total &+= query(r) }
    let micros = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e3 / Double(count)
    if total < 0 { print("") }
    return micros
  }
}
