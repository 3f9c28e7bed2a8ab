import Typesetting

/// Bubbles whose texts are shaped once (``CellSizer/prepareExact(_:)``): their exact sizes at any
/// container width by arithmetic alone — each part measured at the width the bubble rule gives
/// it, then the rule, the same as ``CellSizer/measure(_:)-7n7h0`` at that width.
public final class ExactBubbles: Sendable {
  let cells: [BubbleCell]
  let geometries: [BubbleGeometry]
  /// Per bubble, its parts' prepared texts by ``CellSizer/BubblePart`` (nil: no such part).
  let parts: [[PreparedText?]]
  let sizer: CellSizer

  init(cells: [BubbleCell], geometries: [BubbleGeometry], parts: [[PreparedText?]], sizer: CellSizer) {
    self.cells = cells
    self.geometries = geometries
    self.parts = parts
    self.sizer = sizer
  }

  /// How many bubbles.
  public var count: Int { cells.count }

  /// The exact size of bubble `i` with its container `containerWidth` wide (rounded up to
  /// 1/scale, as measuring rounds it).
  /// - Throws: ``CellError`` for a width that leaves no room for the text.
  public func size(at i: Int, containerWidth: Double) throws -> CellSize {
    // (Only the geometry and the prepared texts are read: the cell itself is not copied.)
    try parts[i].withUnsafeBufferPointer { prepared in
      let g = geometries[i]
      let sized = try CellSizer.bubbleParts(
        g, containerWidth: containerWidth, has: { prepared[$0.rawValue] != nil }
      ) { part, width -> TextBox in
        do {
          return try CellSizer.box(prepared[part.rawValue]!, width: width, missing: false)
        } catch let e as TypesettingError {
          throw CellError.text(e)
        }
      }
      return g.place(
        text: sized.text, reply: sized.reply, name: sized.name, timestamp: sized.timestamp,
        containerWidth: containerWidth
      ).size
    }
  }
}

extension CellSizer {
  /// Shapes every text of `cells` once, so that ``ExactBubbles/size(at:containerWidth:)`` gives
  /// their exact sizes at any container width (rotation, split view, a resized window).
  /// - Throws: ``CellError`` for an invalid cell.
  public func prepareExact(_ cells: [BubbleCell]) throws -> ExactBubbles {
    var geometries: [BubbleGeometry] = []
    var parts: [[PreparedText?]] = []
    geometries.reserveCapacity(cells.count)
    parts.reserveCapacity(cells.count)
    for cell in cells {
      try cell.validate()
      let g = BubbleGeometry(cell)
      var prepared = [PreparedText?](repeating: nil, count: BubblePart.allCases.count)
      _ = try bubbleParts(cell, g) { part, text, style, _ -> Int in
        do {
          prepared[part.rawValue] = try typesetter.prepare(text, style: style)
        } catch let e as TypesettingError {
          throw CellError.text(e)
        }
        return 0
      }
      geometries.append(g)
      parts.append(prepared)
    }
    return ExactBubbles(cells: cells, geometries: geometries, parts: parts, sizer: self)
  }
}
