import Dispatch
import Foundation
import Typesetting

/// Bubbles read once by a ``BubbleEstimator``: every text's estimated words in one flat array and
/// each bubble's geometry as plain values, so that estimating all of them at a container width
/// walks memory in order and does arithmetic only — the estimate pass of a long transcript.
///
/// ```swift
/// let prepared = estimator.prepare(cells)
/// let portrait = prepared.sizes(containerWidth: 390)
/// let landscape = prepared.sizes(containerWidth: 844)
/// ```
public final class PreparedBubbles: Sendable {
  /// One text's place in the flat arrays and how it wraps.
  struct Text: Sendable {
    var firstEntry: Int
    var firstParagraph: Int
    var paragraphs: Int
    /// `maxLines`, 0 when unlimited.
    var maxLines: Int32
    /// The height of its lines of fonts that raise no line box, and the spacing between lines.
    var strut: Double
    var spacing: Double
    /// Its line rule among ``PreparedBubbles/lineRules`` (-1: no word raises a line box).
    var rule: Int32
    var isEmpty: Bool
    var breakWords: Bool
    var nowrap: Bool

    var rules: BubbleEstimator.WrapRules {
      var r = BubbleEstimator.WrapRules()
      r.breakWords = breakWords
      r.nowrap = nowrap
      r.maxLines = maxLines > 0 ? Int(maxLines) : nil
      return r
    }
  }

  /// One bubble: its main text, its one-line labels, and indices of its geometry (shared by the
  /// bubbles that have the same) and reply preview (-1 for none).
  struct Bubble: Sendable {
    var text: Text
    var geometry: Int
    var reply: Int
    var labels: BubbleEstimator.Labels
  }

  let entries: [BubbleEstimator.Entry]
  /// Paragraphs in order (their ends are absolute entry indices).
  let paragraphs: [BubbleEstimator.Paragraph]
  let bubbles: [Bubble]
  let geometries: [BubbleGeometry]
  /// The texts of reply previews (a bubble's `reply` indexes them).
  let replies: [Text]
  /// The line rules of the texts with words in fonts that raise a line box.
  let lineRules: [BubbleEstimator.LineRule]
  /// Where long words' characters end (``BubbleEstimator/Entry/unit``).
  let ends: [Float]

  init(
    entries: [BubbleEstimator.Entry], paragraphs: [BubbleEstimator.Paragraph], bubbles: [Bubble],
    geometries: [BubbleGeometry], replies: [Text], lineRules: [BubbleEstimator.LineRule],
    ends: [Float]
  ) {
    self.ends = ends
    self.entries = entries
    self.paragraphs = paragraphs
    self.bubbles = bubbles
    self.geometries = geometries
    self.replies = replies
    self.lineRules = lineRules
  }

  /// Parts prepared apart (on several threads), joined in order.
  convenience init(merging parts: [PreparedBubbles]) {
    var entries: [BubbleEstimator.Entry] = []
    var paragraphs: [BubbleEstimator.Paragraph] = []
    var bubbles: [Bubble] = []
    var geometries: [BubbleGeometry] = []
    var geometryIndex: [BubbleGeometry: Int] = [:]
    var replies: [Text] = []
    var lineRules: [BubbleEstimator.LineRule] = []
    var lineRuleIndex: [ObjectIdentifier: Int32] = [:]
    var ends: [Float] = []
    entries.reserveCapacity(parts.reduce(0) { $0 + $1.entries.count })
    bubbles.reserveCapacity(parts.reduce(0) { $0 + $1.bubbles.count })
    for part in parts {
      let entryBase = entries.count
      let paragraphBase = paragraphs.count
      let replyBase = replies.count
      let ruleMap = part.lineRules.map { r -> Int32 in
        if let k = lineRuleIndex[ObjectIdentifier(r)] { return k }
        lineRuleIndex[ObjectIdentifier(r)] = Int32(lineRules.count)
        lineRules.append(r)
        return Int32(lineRules.count - 1)
      }
      func moved(_ t: Text) -> Text {
        var t = t
        t.firstEntry += entryBase
        t.firstParagraph += paragraphBase
        if t.rule >= 0 { t.rule = ruleMap[Int(t.rule)] }
        return t
      }
      let endBase = Float(ends.count)
      entries += part.entries.map {
        var e = $0
        // (A long word's and tabbed white space's places among the ends move with them.)
        if e.unit < 0 { e.unit -= endBase }
        if e.trailing.isNaN { e.moveTabbedPlace(by: Int(endBase), in: part.ends) }
        return e
      }
      ends += part.ends
      paragraphs += part.paragraphs.map {
        var p = $0
        p.end += entryBase
        return p
      }
      replies += part.replies.map(moved)
      let geometryMap = part.geometries.map { g -> Int in
        if let k = geometryIndex[g] { return k }
        geometryIndex[g] = geometries.count
        geometries.append(g)
        return geometries.count - 1
      }
      bubbles += part.bubbles.map {
        Bubble(
          text: moved($0.text), geometry: geometryMap[$0.geometry],
          reply: $0.reply >= 0 ? $0.reply + replyBase : -1, labels: $0.labels)
      }
    }
    self.init(
      entries: entries, paragraphs: paragraphs, bubbles: bubbles, geometries: geometries,
      replies: replies, lineRules: lineRules, ends: ends)
  }

  /// Number of bubbles.
  public var count: Int { bubbles.count }

  /// The estimated size of bubble `i` in a container `containerWidth` points wide.
  public func size(at i: Int, containerWidth: Double) -> CellSize {
    withStorage { size(bubbles[i], containerWidth: containerWidth, $0) }
  }

  /// The estimated sizes of all bubbles in a container `containerWidth` points wide, on up to
  /// `threads` threads for long lists (each thread takes a contiguous share; the results do not
  /// depend on the number of threads).
  public func sizes(
    containerWidth: Double, threads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) -> [CellSize] {
    let n = bubbles.count
    // Below a few thousand bubbles, waking threads costs more than it saves.
    let threads = max(1, min(threads, n / 4096))
    return withStorage { storage in
      bubbles.withUnsafeBufferPointer { b in
        // (Room for one at least: with none, the initializer writes the shared empty array's
        // count, a data race with other threads.)
        [CellSize](unsafeUninitializedCapacity: max(1, n)) { out, count in
          let shared = Shared(bubbles: b, out: out, storage: storage)
          DispatchQueue.concurrentPerform(iterations: threads) { k in
            for i in (k * n / threads)..<((k + 1) * n / threads) {
              (shared.out.baseAddress! + i).initialize(
                to: size(shared.bubbles[i], containerWidth: containerWidth, shared.storage))
            }
          }
          count = n
        }
      }
    }
  }

  /// What the threads of ``sizes(containerWidth:threads:)`` share.
  private struct Shared: @unchecked Sendable {
    // @unchecked: the inputs are only read; each output index is written by one thread, and
    // the array is handed out only after all of them finish.
    let bubbles: UnsafeBufferPointer<Bubble>
    let out: UnsafeMutableBufferPointer<CellSize>
    let storage: Storage
  }

  /// The flat arrays, lent for a loop.
  struct Storage {
    let entries: UnsafeBufferPointer<BubbleEstimator.Entry>
    let paragraphs: UnsafeBufferPointer<BubbleEstimator.Paragraph>
    let geometries: UnsafeBufferPointer<BubbleGeometry>
    let lineRules: UnsafeBufferPointer<BubbleEstimator.LineRule>
    let ends: UnsafeBufferPointer<Float>
  }

  private func withStorage<R>(_ body: (Storage) -> R) -> R {
    entries.withUnsafeBufferPointer { e in
      paragraphs.withUnsafeBufferPointer { p in
        geometries.withUnsafeBufferPointer { g in
          lineRules.withUnsafeBufferPointer { r in
            ends.withUnsafeBufferPointer { ends in
              body(
                Storage(entries: e, paragraphs: p, geometries: g, lineRules: r, ends: ends))
            }
          }
        }
      }
    }
  }

  @inline(__always)
  private func size(_ b: Bubble, containerWidth: Double, _ s: Storage) -> CellSize {
    let g = s.geometries[b.geometry]
    let textWidth = g.textWidth(containerWidth)
    let text = wrap(b.text, width: textWidth, s)
    let reply = b.reply >= 0 ? wrap(replies[b.reply], width: g.replyWidth(textWidth), s) : nil
    let labels = b.labels
    return g.place(
      text: text.box,
      reply: reply.map { (labels.replyNameSize.map(BubbleEstimator.Labels.box), $0.box) },
      name: labels.nameSize.map(BubbleEstimator.Labels.box),
      timestamp: labels.timestampSize.map(BubbleEstimator.Labels.box),
      containerWidth: containerWidth
    ).size
  }

  @inline(__always)
  private func wrap(_ t: Text, width: Double, _ s: Storage) -> BubbleEstimator.Block {
    BubbleEstimator.wrap(
      s.entries,
      paragraphs: UnsafeBufferPointer(
        rebasing: s.paragraphs[t.firstParagraph..<(t.firstParagraph + t.paragraphs)]),
      ends: s.ends, firstEntry: t.firstEntry, width: width, rules: t.rules,
      heights: BubbleEstimator.LineHeights(
        strut: t.strut, spacing: t.spacing,
        rule: t.rule >= 0 ? s.lineRules.baseAddress! + Int(t.rule) : nil),
      isEmpty: t.isEmpty)
  }
}

extension BubbleEstimator {
  /// A bubble's one-line texts (sender name, timestamp, reply name): natural sizes, read once.
  struct Labels: Sendable {
    var nameSize: CellSize?
    var timestampSize: CellSize?
    var replyNameSize: CellSize?

    init(_ cell: BubbleCell, estimator e: BubbleEstimator, fonts: inout BubbleEstimator.RecentFonts) {
      func oneLine(_ text: String, _ style: TextStyle) -> CellSize {
        var st = style
        st.whiteSpace = .nowrap
        st.maxLines = 1
        let b = e.block(text, st, width: .greatestFiniteMagnitude, fonts: &fonts)
        return CellSize(width: b.widest, height: b.height)
      }
      replyNameSize =
        cell.replyText != nil ? cell.replyName.map { oneLine($0, cell.replyNameStyle) } : nil
      nameSize = cell.senderName.map { oneLine($0, cell.senderNameStyle) }
      timestampSize = cell.timestamp.map { oneLine($0, cell.timestampTextStyle) }
    }

    /// A one-line label's size as the bubble rule reads a text's extent.
    static func box(_ size: CellSize) -> TextBox {
      TextBox(lineCount: 1, height: size.height, widest: size.width, lastLineWidth: size.width)
    }
  }
}

extension BubbleEstimator.Block {
  /// The estimated text's extent as the bubble rule reads it.
  var box: TextBox { TextBox(lineCount: lines, height: height, widest: widest, lastLineWidth: last) }
}
