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

    // Chat, 100k.
    let chatMessages = (0..<100_000).map { _ in randomMessage(&rng) }
    let chatConfig = ChatLayoutConfiguration(containerSize: screen, displayScale: 3)
    var chat = ChatLayout(configuration: chatConfig, messages: [])
    let chatMillis =
      best(of: 5) { chat = ChatLayout(configuration: chatConfig, messages: chatMessages) } / 1e6
    let chatQuery = averageQuery(count: 20_000, height: chat.contentSize.height, rng: &rng) {
      chat.elements(in: $0).count
    }

    // Grid, 100k: two columns of estimated height under a header.
    let item = Item(size: LayoutSize(width: .fractionalWidth(0.5), height: .estimated(300)))
    let group = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(300)), subitems: [.item(item)])
    var section = Section(group: group, interGroupSpacing: 8)
    section.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(40)),
        alignment: .top)
    ]
    let layout = CollectionLayout(section: section)
    let env = LayoutEnvironment(containerSize: screen)
    var grid = layout.layout(itemCounts: [0], environment: env)
    let gridMillis =
      best(of: 5) { grid = layout.layout(itemCounts: [100_000], environment: env) } / 1e6
    let gridQuery = averageQuery(count: 20_000, height: grid.contentSize.height, rng: &rng) {
      grid.elements(in: $0).count
    }
    let gridBytes = Double(grid.approximateByteCount) / 100_000

    // Chat, 1M: one height update with the anchor correction.
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
    if sink.isNaN { print("") }

    // Chat, 1M: prepending 50 older messages with the anchor correction.
    let older = (0..<50).map { _ in randomMessage(&rng) }
    var prependNanos = Double.infinity
    for _ in 0..<20 {
      let t0 = DispatchTime.now().uptimeNanoseconds
      let update = big.prepend(
        older, keeping: ScrollAnchor(indexPath: ItemPath(section: 0, item: 500_000)))
      prependNanos = Swift.min(prependNanos, Double(DispatchTime.now().uptimeNanoseconds - t0))
      sink += update.contentOffsetCorrection
    }

    // Batches: one message inserted at the top of the 1M chat, the screen's transition answered
    // (the reader in the middle, kept still); one item inserted into the 100k grid, both layouts
    // and the whole transition.
    let one = [randomMessage(&rng)]
    var batchInsertNanos = Double.infinity
    let middle = big.contentSize.height / 2
    for _ in 0..<50 {
      let t0 = DispatchTime.now().uptimeNanoseconds
      let t = big.prepend(one, contentOffset: middle, viewport: screen.height)
      batchInsertNanos = Swift.min(batchInsertNanos, Double(DispatchTime.now().uptimeNanoseconds - t0))
      sink += t.contentOffsetAfter
    }
    let gridBatch = BatchUpdate(insertItems: [ItemPath(section: 0, item: 0)])
    let gridWholeMillis =
      best(of: 3) {
        let t = try? layout.transition(itemCounts: [100_000], batch: gridBatch, environment: env)
        sink += Double(t?.changes.count ?? 0)
      } / 1e6
    // A product catalogue: 100 categories of 1,000 products, the grid above under a header each;
    // one product inserted at the top of the first category, the layout kept by
    // SelfSizingLayout (the one section laid out again), the transition answered for the screen.
    let catalogue = SelfSizingLayout(
      layout: layout, itemCounts: Array(repeating: 1_000, count: 100), environment: env)
    let gridBatchMillis =
      best(of: 5) {
        var c = catalogue
        let t = try? c.apply(gridBatch, contentOffset: 0, anchor: .top)
        sink += t?.contentOffsetAfter ?? 0
        sink += Double(t?.teleports.count ?? 0)
      } / 1e6

    return [
      "batchInsertMicros1M": batchInsertNanos / 1e3,
      "batchGridMillis100k": gridBatchMillis,
      "batchGridWholeMillis100k": gridWholeMillis,
      "layout100kMillis": Swift.max(chatMillis, gridMillis),
      "chatLayout100kMillis": chatMillis,
      "gridLayout100kMillis": gridMillis,
      "queryMicros": Swift.max(chatQuery, gridQuery),
      "chatQueryMicros": chatQuery,
      "gridQueryMicros": gridQuery,
      "updateMicros1M": updateMicros,
      "prepend50Micros1M": prependNanos / 1e3,
      "bytesPerItem": big.bytesPerItem,
      "gridBytesPerItem": gridBytes,
    ]
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
