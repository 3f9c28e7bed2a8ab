import CompositionalLayout
import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import Rasterizer
import SelfSizing
import Typesetting

/// Pictures of transcripts, layout specs and single texts (what `galley render` and
/// `galley validate --html` draw).
enum Pictures {
  /// A record that could not be drawn.
  struct Failure {
    var line: Int
    var id: String?
    var message: String
  }

  /// One drawn cell: where it is and the ink of its text (points), for `--frames`.
  struct Placed {
    var line: Int
    var id: String
    var frame: Rect
    var estimated: Rect?
    var ink: [Rect]
    /// The drawn width of each line of the cell's main text (see ``CellPainter/Drawn``).
    var lineWidths: [Double] = []
  }

  /// The `--scale`s a picture may be drawn at, in pixels per point.
  static let scales: ClosedRange<Double> = 0.1...8
  static let margin = 8.0

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
        items.append((line, record, b, try sizer.place(b)))
        if let missing { missing.note(line: line, id: record.id, try sizer.measure(b).missingCharacters) }
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
    let estimator = BubbleEstimator()
    var height = chat.contentSize.height
    if overlay {
      for (k, (_, record, cell, _)) in items.enumerated() {
        let eh = record.estimatedHeight ?? estimator.estimate(cell).height
        height = max(height, chat.frame(ofItem: k).minY + eh + margin)
      }
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
        let guess = estimator.estimate(cell)
        let ew = record.estimatedWidth ?? guess.width
        let eh = record.estimatedHeight ?? guess.height
        // (On the bubble's own side: its trailing edge for "me", its leading edge otherwise.)
        let ex = cell.sender == .me ? frame.maxX - ew : frame.minX
        let e = Rect(x: ex, y: frame.minY, width: ew, height: eh)
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
    var senders: [String: Int32] = [:]
    let messages = bubbles.map { cell, placement -> ChatMessage in
      let sender = cell.sender == .me ? "" : "other:" + (cell.senderName ?? "")
      let id = senders[sender] ?? Int32(senders.count)
      senders[sender] = id
      return ChatMessage(senderID: cell.sender == .me ? -1 : id, day: 0, size: placement.size)
    }
    let configuration = ChatLayoutConfiguration(
      containerSize: Size(width: width, height: 0),
      displayScale: bubbles.first.map { $0.0.scale } ?? 1,
      contentInsets: DirectionalEdgeInsets(top: margin, leading: margin, bottom: margin, trailing: margin),
      currentUserID: -1, maxBubbleWidthFraction: 1, dateHeaderHeight: 0, dateHeaderSpacing: 0)
    return ChatLayout(configuration: configuration, messages: messages)
  }

  /// A layout spec: every element's frame outlined (cells grey, supplementary views orange,
  /// decorations filled), and the cells the spec carries drawn in their frames.
  static func layoutSpec(
    _ data: Data, scale: Double, library: FontLibrary, sizer: CellSizer,
    missing: MissingGlyphs? = nil
  ) throws -> (Canvas, [Placed], [Failure]) {
    let spec = try LayoutSpec(json: data)
    // Each cell as the layout measured it (the width it proposed stands in for a missing
    // container width): drawn as measured, never measured again at its frame's width.
    var measured: [ItemPath: CellRecord] = [:]
    let result = try spec.layoutResult { request in
      let size = try LayoutCommand.measureCell(
        request, library: library, sizer: sizer, missing: missing)
      measured[request.indexPath] = try request.cellRecord(library: library)
      return size
    }
    let all = result.allAttributes
    var width = spec.environment.containerSize.width
    var height = result.contentSize.height
    for a in all {
      width = max(width, a.frame.origin.x + a.frame.size.width)
      height = max(height, a.frame.origin.y + a.frame.size.height)
    }
    let canvas = Canvas(
      width: width, height: height, scale: scale, background: CellPainter.background)
    let painter = try CellPainter(sizer: sizer)
    var placed: [Placed] = []
    // (Cells that could not be measured are drawn as frames at their estimated size.)
    var failures = result.unmeasuredCells.map { Failure(line: 0, id: nil, message: $0.message) }
    let unmeasured = Set(result.unmeasuredCells.map(\.indexPath))
    for a in all.sorted(by: { $0.zIndex < $1.zIndex }) {
      let f = a.frame
      switch a.category {
      case .decoration:
        canvas.fillRoundedRect(f, radius: 8, Color(hex: 0xF2F2F7))
      case .supplementary:
        canvas.strokeRect(f, Color(hex: 0xFF9500), lineWidth: 1, dash: (4, 3))
      case .cell:
        let s = a.indexPath.section
        if unmeasured.contains(a.indexPath) {
          // Its error is reported already: its estimated frame, dashed red.
          canvas.strokeRect(f, Color(hex: 0xFF3B30), lineWidth: 1, dash: (4, 3))
        } else if s < spec.sections.count, let cellData = spec.sections[s].cells[a.indexPath.item]
        {
          do {
            // (A cell whose item has no estimated axis is not measured: its frame is its width.)
            let record = try measured[a.indexPath]
              ?? CellRecord(json: cellData, library: library, proposedWidth: f.width)
            let drawn: CellPainter.Drawn
            switch record.cell {
            case .bubble(let b):
              let placement = try sizer.place(b)
              let x = b.sender == .me ? f.maxX - placement.size.width : f.minX
              drawn = try painter.drawBubble(b, placement, x: x, y: f.minY, on: canvas)
            case .productCard(let c):
              drawn = try painter.drawCard(try sizer.place(c), x: f.minX, y: f.minY, on: canvas)
            }
            placed.append(
              Placed(
                line: 0, id: record.id, frame: f, estimated: nil, ink: drawn.ink,
                lineWidths: drawn.lineWidths))
          } catch {
            failures.append(
              Failure(
                line: 0, id: "sections[\(s)].cells[\(a.indexPath.item)]",
                message: (error as? CellError)?.description ?? "\(error)"))
          }
        } else {
          placed.append(
            Placed(line: 0, id: "\(s).\(a.indexPath.item)", frame: f, estimated: nil, ink: []))
        }
        canvas.strokeRect(f, CellPainter.frameOutline, lineWidth: 0.5)
      }
    }
    return (canvas, placed, failures)
  }

  /// A batch's animation on one sheet: the viewport before, halfway and after, side by side
  /// (left to right, each named above it), each element at its interpolated frame and alpha —
  /// appearing ones green, disappearing red, moved blue, reloaded purple, shifted orange,
  /// unchanged grey (a legend above says so).
  static func transitionStrip(
    _ t: LayoutTransition, viewport: Size, scale: Double, typesetter: Typesetter,
    library: FontLibrary
  ) throws -> Canvas {
    let gap = 24.0
    let width = 3 * viewport.width + 2 * gap
    func colour(_ change: BatchMapping.Change?) -> UInt32 {
      switch change {
      case .insert?: return 0x34C759
      case .delete?: return 0xFF3B30
      case .move?: return 0x007AFF
      case .reload?: return 0xAF52DE
      case .shift?: return 0xFF9500
      case nil: return 0xC7C7CC
      }
    }
    // Above the screens: what each shows, and what the colours mean.
    let header = 64.0
    try checkSize(width: width, height: viewport.height + header, scale: scale)
    let canvas = Canvas(
      width: width, height: viewport.height + header, scale: scale,
      background: Color(hex: 0xE5E5EA))
    let renderer = try TextRenderer()
    let labelStyle = TextStyle(fonts: try library.defaultStack(), size: 15)
    let legendStyle = TextStyle(fonts: try library.defaultStack(), size: 12)
    /// Draws `text` at (x, y), returning how wide it is.
    func label(_ text: String, _ style: TextStyle, x: Double, y: Double) throws -> Double {
      let prepared = try typesetter.prepare(text, style: style)
      let layout = try prepared.layout(width: 1e6)
      _ = try renderer.draw(prepared, layout: layout, at: (x, y), color: .black, on: canvas)
      return layout.widest
    }
    for (k, name) in ["before", "halfway", "after"].enumerated() {
      _ = try label(name, labelStyle, x: Double(k) * (viewport.width + gap) + 4, y: 8)
    }
    var x = 4.0
    for (name, change) in [
      ("insert", BatchMapping.Change.insert), ("delete", .delete), ("move", .move),
      ("reload", .reload), ("shift", .shift), ("unchanged", nil),
    ] {
      canvas.fillRoundedRect(Rect(x: x, y: 38, width: 14, height: 14), radius: 3, Color(hex: colour(change)))
      x += 20 + (try label(name, legendStyle, x: x + 20, y: 37)) + 16
    }
    _ = try label("dashed: headers and decorations", legendStyle, x: x, y: 37)
    let vertical = t.after.scrollDirection == .vertical
    var changed = Set<String>()
    func key(_ c: LayoutAttributes) -> String {
      "\(c.category.rawValue)/\(c.kind)/\(c.scope == .global ? -1 : c.indexPath.section)/\(c.scope == .item ? c.indexPath.item : -1)"
    }
    for c in t.changes where c.change != .delete {
      changed.insert(
        key(
          LayoutAttributes(
            indexPath: c.indexPath, category: c.category, scope: c.scope, kind: c.kind, frame: c.to,
            zIndex: 0)))
    }
    for (k, f) in [0.0, 0.5, 1.0].enumerated() {
      let x0 = Double(k) * (viewport.width + gap)
      let offset = t.contentOffsetBefore + (t.contentOffsetAfter - t.contentOffsetBefore) * f
      let panel = Rect(x: x0, y: header, width: viewport.width, height: viewport.height)
      canvas.clip = panel
      canvas.fill(panel, .white)
      func draw(_ r: Rect, _ change: BatchMapping.Change?, alpha: Double, category: ElementCategory) {
        let shown = Rect(
          x: x0 + r.minX - (vertical ? 0 : offset), y: header + r.minY - (vertical ? offset : 0),
          width: r.width, height: r.height)
        guard shown.maxY > header && shown.minY < header + viewport.height && shown.maxX > x0
          && shown.minX < x0 + viewport.width && alpha > 0.01
        else { return }
        let inset = Rect(
          x: shown.minX + 1, y: shown.minY + 1, width: max(0, shown.width - 2),
          height: max(0, shown.height - 2))
        if category == .cell {
          canvas.fillRoundedRect(inset, radius: 6, Color(hex: colour(change), alpha: 0.35 * alpha))
          canvas.strokeRect(inset, Color(hex: colour(change), alpha: alpha), lineWidth: 1)
        } else {
          canvas.strokeRect(inset, Color(hex: colour(change), alpha: alpha), lineWidth: 1, dash: (4, 3))
        }
      }
      for a in t.after.allAttributes where !changed.contains(key(a)) {
        draw(a.frame, nil, alpha: 1, category: a.category)
      }
      for c in t.changes {
        let r = Rect(
          x: c.from.minX + (c.to.minX - c.from.minX) * f, y: c.from.minY + (c.to.minY - c.from.minY) * f,
          width: c.from.width + (c.to.width - c.from.width) * f,
          height: c.from.height + (c.to.height - c.from.height) * f)
        draw(r, c.change, alpha: c.fromAlpha + (c.toAlpha - c.fromAlpha) * f, category: c.category)
      }
    }
    canvas.clip = nil
    return canvas
  }

  /// One text laid out at `width − 2 × 16` points; with `overlay`, each line's typographic box
  /// (green) and ink bounds (dashed red).
  static func text(
    _ c: TextCase, width: Double, scale: Double, overlay: Bool, typesetter: Typesetter,
    missing: MissingGlyphs? = nil
  ) throws -> (Canvas, [Placed]) {
    let pad = 16.0
    let prepared = try typesetter.prepare(c.text, style: c.style)
    missing?.note(order: 0, place: "--text", prepared.missingCharacters)
    let layout = try prepared.layout(width: max(1, width - 2 * pad))
    try checkSize(width: width, height: layout.height + 2 * pad, scale: scale)
    let canvas = Canvas(
      width: width, height: layout.height + 2 * pad, scale: scale, background: .white)
    let renderer = try TextRenderer()
    if overlay { renderer.missingGlyphOutline = CellPainter.estimatedOutline }
    let runs = prepared.glyphRuns(layout)
    let ink = try renderer.draw(
      runs: runs, layout: layout, rightToLeft: prepared.isRightToLeft, at: (pad, pad),
      boxWidth: width - 2 * pad, color: .black, on: canvas)
    if overlay {
      for (i, line) in layout.lines.enumerated() {
        let x = prepared.isRightToLeft ? width - pad - line.width : pad
        canvas.strokeRect(
          Rect(x: x, y: pad + line.top, width: max(1, line.width), height: line.height),
          CellPainter.measuredOutline, lineWidth: 0.5)
        if let r = ink[i] {
          canvas.strokeRect(r, CellPainter.estimatedOutline, lineWidth: 0.5, dash: (2, 2))
        }
      }
    }
    let frame = Rect(x: pad, y: pad, width: width - 2 * pad, height: layout.height)
    return (
      canvas,
      [
        Placed(
          line: 1, id: c.id, frame: frame, estimated: nil, ink: ink.compactMap { $0 },
          lineWidths: TextRenderer.lineWidths(runs, lineCount: layout.lineCount))
      ]
    )
  }

  /// A picture too large to hold (over 100 million pixels).
  struct TooLarge: Error, CustomStringConvertible {
    var description: String
  }

  static func checkSize(width: Double, height: Double, scale: Double) throws {
    let pixels = (width * scale).rounded(.up) * (height * scale).rounded(.up)
    // (Not a number, or infinite, is too large too.)
    guard pixels <= Double(Canvas.maximumPixels) else {
      throw TooLarge(
        description:
          "the picture would be \(fmt((width * scale).rounded(.up)))×"
          + "\(fmt((height * scale).rounded(.up))) px, more than \(Canvas.maximumPixels): "
          + "draw fewer records or use a lower --scale"
      )
    }
  }

  /// `--frames` output: one JSON object per drawn cell.
  static func framesJSON(_ placed: [Placed]) -> String {
    func r(_ x: Rect) -> String { JSONWriter.numbers([x.minX, x.minY, x.width, x.height]) }
    return placed.map { p in
      var pairs: [(String, String)] = [
        ("id", JSONWriter.string(p.id)), ("line", String(p.line)), ("frame", r(p.frame)),
      ]
      if let e = p.estimated { pairs.append(("estimated", r(e))) }
      pairs.append(("ink", JSONWriter.array(p.ink.map(r))))
      pairs.append(("lineWidths", JSONWriter.numbers(p.lineWidths)))
      return JSONWriter.object(pairs) + "\n"
    }.joined()
  }
}
