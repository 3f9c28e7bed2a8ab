import Foundation
import Typesetting

/// Measures cells with the text engine, and remembers what it measured.
///
/// Thread-safe: measure on as many threads as you like; results do not depend on the thread count.
public final class CellSizer: @unchecked Sendable {
  // @unchecked: the cache is only touched under `lock`; the typesetter is thread-safe.
  /// A sizer over the shared typesetter.
  public static let shared = CellSizer()

  /// The typesetter that shapes the cells' text.
  public let typesetter: Typesetter
  private let lock = NSLock()
  private var cache: OldestFirstCache<CellKey, CellMeasurement>
  /// The most measurements kept; the oldest goes first.
  public let cacheCapacity: Int
  /// Number of measurements answered from the cache.
  public var cacheHits: Int {
    lock.lock()
    defer { lock.unlock() }
    return hits
  }
  private var hits = 0

  enum CellKey: Hashable {
    case bubble(BubbleCell)
    case card(ProductCardCell)
  }

  /// A sizer over a typesetter, keeping at most `cacheCapacity` measurements.
  public init(typesetter: Typesetter = .shared, cacheCapacity: Int = 20_000) {
    self.typesetter = typesetter
    self.cacheCapacity = max(0, cacheCapacity)
    cache = OldestFirstCache(capacity: cacheCapacity)
  }

  /// Measures a bubble (see ``BubbleCell`` for the layout rule).
  /// - Throws: ``CellError`` for an invalid cell.
  public func measure(_ cell: BubbleCell) throws -> CellMeasurement {
    // (Without a cache, no key: making one copies the whole cell.)
    if cacheCapacity == 0 { return try size(cell) }
    return try cached(.bubble(cell)) { try self.size(cell) }
  }

  /// Measures either kind of cell.
  public func measure(_ cell: Cell) throws -> CellMeasurement {
    switch cell {
    case .bubble(let b): return try measure(b)
    case .productCard(let c): return try measure(c)
    }
  }

  /// Measures a product card (see ``ProductCardCell`` for the layout rule).
  public func measure(_ cell: ProductCardCell) throws -> CellMeasurement {
    if cacheCapacity == 0 { return try size(cell) }
    return try cached(.card(cell)) { try self.size(cell) }
  }

  /// Measures every cell at every width, in parallel, so that rotation or split view never falls
  /// back to estimates: `result[w][i]` is cell `i` at `widths[w]` (as its container width).
  public func precompute(_ cells: [BubbleCell], containerWidths widths: [Double]) -> [[Result<
    CellMeasurement, Error
  >]] {
    widths.map { w in
      concurrentMap(cells) { cell in
        var c = cell
        c.containerWidth = w
        return Result { try self.measure(c) }
      }
    }
  }

  private func cached(_ key: CellKey, _ compute: () throws -> CellMeasurement) throws
    -> CellMeasurement
  {
    if cacheCapacity > 0 {
      lock.lock()
      if let hit = cache[key] {
        hits += 1
        lock.unlock()
        return hit
      }
      lock.unlock()
    }
    let m = try compute()
    if cacheCapacity > 0 {
      lock.lock()
      cache.insert(m, for: key)
      lock.unlock()
    }
    return m
  }

  // MARK: - Rules

  func scaled(_ style: TextStyle, by factor: Double) -> TextStyle {
    CellSizer.scaled(style, by: factor)
  }

  /// A style with its size, letter spacing and fixed line height multiplied by `factor`.
  static func scaled(_ style: TextStyle, by factor: Double) -> TextStyle {
    guard factor != 1 else { return style }
    var s = style
    s.size *= factor
    s.letterSpacing *= factor
    if case .points(let p) = s.lineHeight { s.lineHeight = .points(p * factor) }
    return s
  }

  /// The largest error in a bubble's height that is one line off: its main text's tallest
  /// measured line box (0 for no line), or the line a timestamp takes below the text when it
  /// moves there, whichever is taller, and the pixel the height is rounded by. For reports of
  /// estimates.
  package func oneLineError(_ cell: BubbleCell) throws -> Double {
    let g = BubbleGeometry(cell)
    let width = g.textWidth(cell.containerWidth)
    do {
      let text = try typesetter.prepare(cell.text, style: scaled(cell.style, by: cell.textScale))
      var line = try text.layout(width: width).lines.map(\.height).max() ?? 0
      if let t = cell.timestamp {
        line = max(line, g.nameSpacing + (try layOut(t, cell.timestampTextStyle, width: width).height))
      }
      return line + 1 / cell.scale
    } catch let e as TypesettingError {
      throw CellError.text(e)
    }
  }

  /// A text's extent at a width, as sizing needs it (no line records are built).
  func layOut(_ text: String, _ style: TextStyle, width: Double) throws -> TextBox {
    do {
      return try Self.box(typesetter.prepare(text, style: style), width: width)
    } catch let e as TypesettingError {
      throw CellError.text(e)
    }
  }

  /// The extent of a prepared text at a width, as sizing needs it.
  static func box(_ prepared: PreparedText, width: Double, missing: Bool = true) throws -> TextBox {
    let m = try prepared.measure(width: width)
    return TextBox(
      lineCount: m.lines, height: m.height, widest: m.widest, lastLineWidth: m.lastLineWidth,
      isTruncated: m.isTruncated, missing: missing ? prepared.missingCharacters : [])
  }

  /// The texts of a bubble.
  enum BubblePart: Int, CaseIterable {
    case replyName, replyText, name, text, timestamp
  }

  /// A bubble's parts, each laid out by `layOut` in its style at the width the bubble rule gives it.
  func bubbleParts<T>(
    _ cell: BubbleCell, _ g: BubbleGeometry, layOut: (String, TextStyle, Double) throws -> T
  ) throws -> (text: T, reply: (name: T?, text: T)?, name: T?, timestamp: T?) {
    try bubbleParts(cell, g) { _, text, style, width in try layOut(text, style, width) }
  }

  /// ``bubbleParts(_:_:layOut:)`` telling `layOut` which part it lays out.
  func bubbleParts<T>(
    _ cell: BubbleCell, _ g: BubbleGeometry, containerWidth: Double? = nil,
    layOut: (BubblePart, String, TextStyle, Double) throws -> T
  ) throws -> (text: T, reply: (name: T?, text: T)?, name: T?, timestamp: T?) {
    try Self.bubbleParts(
      g, containerWidth: containerWidth ?? cell.containerWidth,
      has: { part in
        switch part {
        case .replyName: return cell.replyText != nil && cell.replyName != nil
        case .replyText: return cell.replyText != nil
        case .name: return cell.senderName != nil
        case .text: return true
        case .timestamp: return cell.timestamp != nil
        }
      }
    ) { part, width in
      switch part {
      case .replyName: return try layOut(part, cell.replyName!, cell.replyNameStyle, width)
      case .replyText: return try layOut(part, cell.replyText!, cell.replyTextStyle, width)
      case .name: return try layOut(part, cell.senderName!, cell.senderNameStyle, width)
      case .text: return try layOut(part, cell.text, Self.scaled(cell.style, by: cell.textScale), width)
      case .timestamp: return try layOut(part, cell.timestamp!, cell.timestampTextStyle, width)
      }
    }
  }

  /// The bubble rule's widths: which width each part a bubble `has` is laid out at (the reply's
  /// texts inside the reply box, the others at the text width), in order, by `layOut`.
  static func bubbleParts<T>(
    _ g: BubbleGeometry, containerWidth: Double, has: (BubblePart) -> Bool,
    layOut: (BubblePart, Double) throws -> T
  ) rethrows -> (text: T, reply: (name: T?, text: T)?, name: T?, timestamp: T?) {
    let textWidth = g.textWidth(containerWidth)
    var reply: (name: T?, text: T)? = nil
    if has(.replyText) {
      let inner = g.replyWidth(textWidth)
      let name = has(.replyName) ? try layOut(.replyName, inner) : nil
      reply = (name, try layOut(.replyText, inner))
    }
    let name = has(.name) ? try layOut(.name, textWidth) : nil
    let text = try layOut(.text, textWidth)
    let timestamp = has(.timestamp) ? try layOut(.timestamp, textWidth) : nil
    return (text, reply, name, timestamp)
  }

  func size(_ cell: BubbleCell) throws -> CellMeasurement {
    try cell.validate()
    let g = BubbleGeometry(cell)
    let parts = try bubbleParts(cell, g) { try layOut($0, $1, width: $2) }
    let placed = g.place(
      text: parts.text, reply: parts.reply, name: parts.name, timestamp: parts.timestamp,
      containerWidth: cell.containerWidth)
    let missing =
      (parts.reply?.name?.missing ?? []) + (parts.reply?.text.missing ?? [])
      + (parts.name?.missing ?? []) + parts.text.missing + (parts.timestamp?.missing ?? [])
    return CellMeasurement(
      size: placed.size, lines: parts.text.lineCount, textHeight: parts.text.height,
      truncated: parts.text.isTruncated, timestampPlacement: placed.timestampPlacement,
      missingCharacters: missing)
  }

  /// A product card's texts, each laid out by `layOut` in its style at the card's content width.
  func cardParts<T>(
    _ g: ProductCardGeometry, layOut: (String, TextStyle, Double) throws -> T
  ) throws -> (title: T, price: T?, originalPrice: T?, badge: T?) {
    let cw = g.contentWidth
    let cell = g.cell
    let title = try layOut(cell.title, g.titleStyle, cw)
    let price = try cell.price.map { try layOut($0, g.priceStyle, cw) }
    let original =
      cell.price == nil ? nil : try cell.originalPrice.map { try layOut($0, g.originalPriceStyle, cw) }
    let badge = try cell.badge.map { try layOut($0, g.badgeStyle, cw) }
    return (title, price, original, badge)
  }

  func size(_ cell: ProductCardCell) throws -> CellMeasurement {
    try cell.validate()
    let g = ProductCardGeometry(cell: cell)
    let parts = try cardParts(g) { try layOut($0, $1, width: $2) }
    let placed = g.place(
      title: parts.title, price: parts.price, originalPrice: parts.originalPrice,
      badge: parts.badge)
    let missing =
      parts.title.missing + (parts.price?.missing ?? []) + (parts.originalPrice?.missing ?? [])
      + (parts.badge?.missing ?? [])
    return CellMeasurement(
      size: placed.size, lines: parts.title.lineCount, textHeight: parts.title.height,
      truncated: parts.title.isTruncated, timestampPlacement: nil, missingCharacters: missing)
  }
}
