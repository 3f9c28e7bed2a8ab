import CompositionalLayout
import Typesetting

/// Estimate → measure → refine for a chat transcript: every bubble starts from an estimate, the
/// visible ones are measured first, then the rest in batches on all cores; each batch goes into
/// the chat layout keeping the first visible bubble exactly where the reader sees it.
///
/// ```swift
/// let r = try TranscriptRefinement(cells: cells, senders: senders, days: days,
///                                  configuration: config, estimator: estimator)
/// var refined = r.start(visible: 990..<1000)    // estimates everywhere, visible ones exact
/// while refined.refineNextBatch() {}            // the rest, batch by batch
/// ```
public struct TranscriptRefinement {
  /// What a refinement run did.
  public struct Report: Sendable {
    /// Bubbles measured in the first pass (the visible range).
    public var firstPass: Int = 0
    /// Batches measured after it.
    public var batches: Int = 0
    /// The content-offset correction applied after each update (first pass, then each batch).
    public var corrections: [Double] = []
    /// The largest distance the anchored bubble moved on screen over the whole run.
    public var maxAnchorMovement: Double = 0
    /// Bubbles whose size in the layout does not match a fresh measurement at the width the
    /// layout proposes (a conflict between an exact size and a measured one).
    public var unsettled: [Int] = []
  }

  /// The bubbles, with width limits set from the layout.
  public let cells: [BubbleCell]
  /// The sender of each message (the configuration's current user aligns trailing).
  public let senders: [Int32]
  /// The day of each message (a date header starts each day).
  public let days: [Int32]
  /// The chat layout's settings.
  public let configuration: ChatLayoutConfiguration
  /// Gives the first pass's sizes.
  public let estimator: BubbleEstimator
  /// Measures bubbles exactly.
  public let sizer: CellSizer
  /// Bubbles measured per batch after the visible ones.
  public let batchSize: Int

  /// Prepares a refinement. Each cell's width limits are set from the layout's configuration
  /// (container width less insets, times its maximum bubble fraction, floored to device pixels)
  /// so that the text wraps at the width the layout will give the bubble.
  public init(
    cells: [BubbleCell], senders: [Int32], days: [Int32], configuration: ChatLayoutConfiguration,
    estimator: BubbleEstimator = BubbleEstimator(), sizer: CellSizer = .shared,
    batchSize: Int = 4096
  ) throws {
    guard cells.count == senders.count, cells.count == days.count else {
      throw CellError.invalidValue("senders", "one sender and one day per cell")
    }
    let content = configuration.contentWidth
    // The layout caps bubbles at a whole number of device pixels; wrap the text at that cap so
    // that a measured size never conflicts with the width the layout allows.
    let scale = configuration.pixelScale
    let cap = configuration.bubbleWidthCapPixels / scale
    self.cells = cells.map { c in
      var c = c
      c.containerWidth = content
      c.maxWidthFraction = nil
      c.maxWidth = cap
      c.scale = scale
      return c
    }
    for c in self.cells { try c.validate() }
    self.senders = senders
    self.days = days
    self.configuration = configuration
    self.estimator = estimator
    self.sizer = sizer
    self.batchSize = max(1, batchSize)
  }

  /// The state of a run: the layout, the scroll position and what has been measured.
  public struct Run {
    /// The refinement this run belongs to.
    public let refinement: TranscriptRefinement
    /// The chat layout, updated after every batch.
    public private(set) var layout: ChatLayout
    /// The content offset (top of the viewport in content coordinates), corrected after every update.
    public private(set) var contentOffset: Double
    /// The bubble kept still on screen: the first visible one, at its top edge.
    public let anchor: ScrollAnchor
    /// What the run has done so far.
    public private(set) var report = Report()
    /// Whether each bubble has been measured.
    public private(set) var measured: [Bool]
    private var nextStart = 0
    private let anchorScreenY: Double

    init(_ r: TranscriptRefinement, visible: Range<Int>) {
      refinement = r
      let prepared = r.estimator.prepare(r.cells)
      let estimates = r.cells.indices.map {
        prepared.size(at: $0, containerWidth: r.cells[$0].containerWidth)
      }
      let messages = (0..<r.cells.count).map {
        ChatMessage(
          senderID: r.senders[$0], day: r.days[$0],
          size: Size(width: estimates[$0].width, height: estimates[$0].height))
      }
      layout = ChatLayout(configuration: r.configuration, messages: messages)
      measured = [Bool](repeating: false, count: r.cells.count)
      let visible = visible.clamped(to: 0..<r.cells.count)
      let first = visible.isEmpty ? 0 : visible.lowerBound
      anchor = ScrollAnchor(indexPath: ItemPath(section: 0, item: first), edge: .top, offset: 0)
      contentOffset = r.cells.isEmpty ? 0 : layout.frame(ofItem: first).minY
      anchorScreenY = r.cells.isEmpty ? 0 : layout.frame(ofItem: first).minY - contentOffset
      if !visible.isEmpty {
        apply(visible)
        report.firstPass = visible.count
      }
    }

    /// Where the anchored bubble is on screen now, relative to where it started.
    public var anchorMovement: Double {
      guard !refinement.cells.isEmpty else { return 0 }
      return layout.frame(ofItem: anchor.indexPath.item).minY - contentOffset - anchorScreenY
    }

    /// Measures `range` on all cores and applies it, keeping the anchor still.
    private mutating func apply(_ range: Range<Int>) {
      let r = refinement
      let indices = Array(range)
      let sizes = concurrentMap(indices) { i -> CellSize in
        (try? r.sizer.measure(r.cells[i]))?.size ?? r.estimator.estimate(r.cells[i])
      }
      let update = layout.measure(range, keeping: anchor) { i, _ in
        let s = sizes[i - range.lowerBound]
        return Size(width: s.width, height: s.height)
      }
      for i in range { measured[i] = true }
      contentOffset += update.contentOffsetCorrection
      report.corrections.append(update.contentOffsetCorrection)
      report.maxAnchorMovement = max(report.maxAnchorMovement, abs(anchorMovement))
    }

    /// Measures the next batch of not-yet-measured bubbles; false when none are left.
    public mutating func refineNextBatch() -> Bool {
      let n = refinement.cells.count
      while nextStart < n && measured[nextStart] { nextStart += 1 }
      guard nextStart < n else { return false }
      var end = nextStart
      while end < n && end - nextStart < refinement.batchSize && !measured[end] { end += 1 }
      apply(nextStart..<end)
      report.batches += 1
      nextStart = end
      return true
    }

    /// Checks every bubble against a fresh measurement; returns the report with `unsettled` filled.
    public mutating func checkConvergence() -> Report {
      let r = refinement
      let scale = r.configuration.pixelScale
      let frames = (0..<r.cells.count).map { layout.frame(ofItem: $0) }
      let flags = concurrentMap(Array(0..<r.cells.count)) { i -> Bool in
        guard let m = try? r.sizer.measure(r.cells[i]) else { return true }
        return abs(frames[i].height - m.size.height) > 0.5 / scale
          || abs(frames[i].width - m.size.width) > 0.5 / scale
      }
      report.unsettled = flags.enumerated().filter { $0.element }.map(\.offset)
      return report
    }
  }

  /// Lays the transcript out on estimates and measures the visible range exactly.
  public func start(visible: Range<Int>) -> Run { Run(self, visible: visible) }
}
