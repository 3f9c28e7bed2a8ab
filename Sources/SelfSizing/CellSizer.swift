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

  /// A text's size at a width, as sizing needs it (no line records are built).
  struct TextBox {
    var lineCount: Int
    var height: Double
    var widest: Double
    var lastLineWidth: Double
    var isTruncated: Bool
  }

  func lay(_ text: String, _ style: TextStyle, width: Double) throws -> TextBox {
    do {
      let m = try typesetter.prepare(text, style: style).measure(width: width)
      return TextBox(
        lineCount: m.lines, height: m.height, widest: m.widest, lastLineWidth: m.lastLineWidth,
        isTruncated: m.isTruncated)
    } catch let e as TypesettingError {
      throw CellError.text(e.description)
    }
  }

  func size(_ cell: BubbleCell) throws -> CellMeasurement {
    try cell.validate()
    let tw = cell.textWidth
    let textStyle = scaled(cell.style, by: cell.textScale)
    var height = cell.padding.top
    var contentWidth = 0.0

    if let replyText = cell.replyText {
      let rs = cell.replyTextStyle
      let inner = max(1, tw - cell.replyPadding.horizontal)
      var boxContent = 0.0
      var boxHeight = cell.replyPadding.vertical
      if let name = cell.replyName {
        let l = try lay(name, cell.replyNameStyle, width: inner)
        boxContent = max(boxContent, l.widest)
        boxHeight += l.height
      }
      let l = try lay(replyText, rs, width: inner)
      boxContent = max(boxContent, l.widest)
      boxHeight += l.height
      contentWidth = max(contentWidth, min(tw, boxContent + cell.replyPadding.horizontal))
      height += boxHeight + cell.blockSpacing
    }
    if let name = cell.senderName {
      let l = try lay(name, cell.senderNameStyle, width: tw)
      contentWidth = max(contentWidth, l.widest)
      height += l.height + cell.nameSpacing
    }
    let text = try lay(cell.text, textStyle, width: tw)
    contentWidth = max(contentWidth, text.widest)
    height += text.height
    var placement: TimestampPlacement? = nil
    if let ts = cell.timestamp {
      let l = try lay(ts, cell.timestampTextStyle, width: tw)
      let lastWidth = text.lastLineWidth
      if text.lineCount > 0 && lastWidth + cell.timestampGap + l.widest <= tw {
        placement = .inline
        contentWidth = max(contentWidth, lastWidth + cell.timestampGap + l.widest)
      } else {
        placement = .below
        contentWidth = max(contentWidth, l.widest)
        height += (text.lineCount == 0 ? 0 : cell.nameSpacing) + l.height
      }
    }
    height += cell.padding.bottom
    let width = max(
      cell.minSize.width, min(cell.maximumBubbleWidth, contentWidth + cell.padding.horizontal))
    height = max(cell.minSize.height, height)
    return CellMeasurement(
      size: CellSize(
        width: roundUp(width, scale: cell.scale), height: roundUp(height, scale: cell.scale)),
      lines: text.lineCount, textHeight: text.height, truncated: text.isTruncated,
      timestampPlacement: placement)
  }

  func size(_ cell: ProductCardCell) throws -> CellMeasurement {
    try cell.validate()
    let cw = cell.width - cell.padding.horizontal
    var height = cell.padding.top + cell.width / cell.imageAspectRatio
    let titleStyle = scaled(cell.titleStyle, by: cell.textScale)
    let title = try lay(cell.title, titleStyle, width: cw)
    height += cell.spacing + title.height
    if let price = cell.price {
      var ps = scaled(cell.priceStyle ?? cell.titleStyle, by: cell.textScale)
      if cell.priceStyle == nil { ps.size += 1 }
      ps.maxLines = 1
      let p = try lay(price, ps, width: cw)
      var priceHeight = p.height
      if let original = cell.originalPrice {
        var os = scaled(cell.originalPriceStyle ?? cell.titleStyle, by: cell.textScale)
        if cell.originalPriceStyle == nil { os.size = max(1, os.size - 2) }
        os.maxLines = 1
        let o = try lay(original, os, width: cw)
        if p.widest + cell.priceGap + o.widest <= cw {
          priceHeight = max(priceHeight, o.height)
        } else {
          priceHeight += o.height
        }
      }
      height += cell.spacing + priceHeight
    }
    if let badge = cell.badge {
      var bs = scaled(cell.badgeStyle ?? cell.titleStyle, by: cell.textScale)
      if cell.badgeStyle == nil { bs.size = 12 * cell.textScale }
      bs.maxLines = 1
      let b = try lay(badge, bs, width: cw)
      height += cell.spacing + b.height + 2 * cell.badgePadding
    }
    height += cell.padding.bottom
    return CellMeasurement(
      size: CellSize(
        width: roundUp(cell.width, scale: cell.scale), height: roundUp(height, scale: cell.scale)),
      lines: title.lineCount, textHeight: title.height, truncated: title.isTruncated,
      timestampPlacement: nil)
  }
}
