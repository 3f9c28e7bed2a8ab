import CompositionalLayout
import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import Rasterizer
import SelfSizing
import Typesetting

extension Pictures {
  /// A transcript: bubble cells top to bottom in one column `width` points wide (with
  /// `containerIsColumn`, every bubble is laid out in that width: its `containerWidth` becomes
  /// `width`; otherwise records keep theirs and the picture widens for a wider one), `me` on the
  /// trailing side, others on the leading side; with `overlay`, each cell's measured frame
  /// (solid green) and estimated frame (dashed red: "estimatedHeight"/"estimatedWidth", else
  /// ``BubbleEstimator``), and every missing glyph (tofu) outlined in red.
  static func transcript(
    _ lines: [(Int, [UInt8])], width columnWidth: Double, containerIsColumn: Bool = false,
    scale: Double, overlay: Bool, library: FontLibrary, sizer: CellSizer,
    missing: MissingGlyphs? = nil
  ) throws -> (Canvas?, [Placed], [Failure]) {
    var failures: [Failure] = []
    var items: [(Int, CellRecord, BubbleCell, CellPlacement)] = []
    for (line, data) in lines {
      if Interrupt.requested { throw CLIError.interrupted(0) }
      let object: JSONObject
      switch Records.read(data, line: line, command: "render") {
      case .failure(let m, let id):
        failures.append(Failure(line: line, id: id, message: m))
        continue
      case .success(let o): object = o
      }
      let id = object["id"]?.string
      do {
        let record = try CellRecord(
          json: object, library: library, defaultTemplate: .bubble, proposedWidth: columnWidth)
        guard case .bubble(var b) = record.cell else {
          failures.append(Failure(line: line, id: id, message: "not a bubble cell"))
          continue
        }
        if containerIsColumn { b.containerWidth = columnWidth }
        let placement = try sizer.place(b)
        items.append((line, record, b, placement))
        missing?.note(line: line, id: record.id, placement.missingCharacters)
      } catch let e as CellError {
        failures.append(Failure(line: line, id: id, message: e.description))
      } catch {
        failures.append(Failure(line: line, id: id, message: "\(error)"))
      }
    }
    guard !items.isEmpty else { return (nil, [], failures) }
    var width = columnWidth
    for (_, _, cell, _) in items { width = max(width, cell.containerWidth) }
    let chat = chatLayout(items.map { ($0.2, $0.3) }, width: width)
    // With the overlay, each bubble's estimated size: the record's, else the estimator's.
    let estimator = BubbleEstimator()
    let estimates: [Size] =
      overlay
      ? items.map { _, record, cell, _ in
        let guess = estimator.estimate(cell)
        return Size(
          width: record.estimatedWidth ?? guess.width, height: record.estimatedHeight ?? guess.height)
      } : []
    var height = chat.contentSize.height
    for (k, e) in estimates.enumerated() {
      height = max(height, chat.frame(ofItem: k).minY + e.height + margin)
    }
    try checkSize(width: width, height: height, scale: scale)
    let canvas = Canvas(
      width: width, height: height, scale: scale, background: CellPainter.background)
    let painter = try CellPainter(sizer: sizer, marksMissingGlyphs: overlay)
    var placed: [Placed] = []
    for (k, (line, record, cell, placement)) in items.enumerated() {
      let frame = chat.frame(ofItem: k)
      let drawn = try painter.drawBubble(cell, placement, x: frame.minX, y: frame.minY, on: canvas)
      var estimatedFrame: Rect? = nil
      if overlay {
        let size = estimates[k]
        // (On the bubble's own side: its trailing edge for "me", its leading edge otherwise.)
        let ex = cell.sender == .me ? frame.maxX - size.width : frame.minX
        let e = Rect(x: ex, y: frame.minY, width: size.width, height: size.height)
        canvas.strokeRect(drawn.frame, CellPainter.measuredOutline, lineWidth: 1)
        canvas.strokeRect(e, CellPainter.estimatedOutline, lineWidth: 1, dash: (4, 3))
        estimatedFrame = e
      }
      placed.append(
        Placed(
          line: line, id: record.id, frame: drawn.frame, estimated: estimatedFrame, ink: drawn.ink,
          lineWidths: drawn.lineWidths))
    }
    return (canvas, placed, failures)
  }

  /// The bubbles of a transcript placed by ``ChatLayout`` in a column `width` points wide:
  /// `me` on the trailing side, a change of sender spaced wider than a run of one sender,
  /// inside a `margin` on every side. Bubbles keep the sizes they were measured at (their own
  /// width limits, their own pixel scale); the picture has no date headers.
  static func chatLayout(_ bubbles: [(BubbleCell, CellPlacement)], width: Double) -> ChatLayout {
    // (Each other sender by name, "me" as -1: the configuration's current user.)
    var others: [String: Int32] = [:]
    let messages = bubbles.map { cell, placement -> ChatMessage in
      var id: Int32 = -1
      if cell.sender != .me {
        id = others[cell.senderName ?? "", default: Int32(others.count)]
        others[cell.senderName ?? ""] = id
      }
      return ChatMessage(senderID: id, day: 0, size: placement.size)
    }
    let configuration = ChatLayoutConfiguration(
      containerSize: Size(width: width, height: 0),
      displayScale: bubbles.first.map { $0.0.scale } ?? 1,
      contentInsets: DirectionalEdgeInsets(top: margin, leading: margin, bottom: margin, trailing: margin),
      currentUserID: -1, maxBubbleWidthFraction: 1, dateHeaderHeight: 0, dateHeaderSpacing: 0)
    return ChatLayout(configuration: configuration, messages: messages)
  }
}
