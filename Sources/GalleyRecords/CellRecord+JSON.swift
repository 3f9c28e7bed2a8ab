import CompositionalLayout
import Foundation
import GalleyJSON
import Geometry
import SelfSizing
import Typesetting

extension CellRecord {
  static let common: Set<String> = [
    "id", "template", "scale", "textScale", "category", "estimatedHeight", "estimatedWidth",
    "padding",
  ]
  static let bubbleFields: Set<String> = common.union([
    "text", "style", "containerWidth", "maxWidthFraction", "maxWidth", "minSize", "sender",
    "senderName", "nameStyle", "timestamp", "timestampStyle", "replyName", "replyText",
    "replyStyle",
  ])
  static let cardFields: Set<String> = common.union([
    "width", "imageAspectRatio", "title", "titleStyle", "price", "priceStyle", "originalPrice",
    "originalPriceStyle", "badge", "badgeStyle", "spacing",
  ])

  static let bubbleKeys = JSONKeySet(bubbleFields)
  static let cardKeys = JSONKeySet(cardFields)

  /// Decodes a record. `template` names the kind (`bubble` or `productCard`); a record without
  /// one takes `defaultTemplate`. Unknown fields, wrong types and bad values are errors that name
  /// the field.
  /// `proposedWidth` stands in for a missing `containerWidth` (bubble) or `width` (card): the
  /// width a layout offers the cell.
  package init(
    json o: JSONObject, library: FontLibrary, defaultTemplate: CellTemplate? = nil,
    proposedWidth: Double? = nil
  ) throws {
    let r = CellFieldReader(o)
    let id = try r.string("id") ?? ""
    guard let name = try r.string("template") ?? defaultTemplate?.rawValue else {
      throw CellError.missingField("template")
    }
    guard let template = CellTemplate(rawValue: name) else {
      throw CellError.unknownTemplate(name)
    }
    let estimatedHeight = try r.number("estimatedHeight")
    let estimatedWidth = try r.number("estimatedWidth")
    if let h = estimatedHeight { try CellLimits.length(h, "estimatedHeight", zeroAllowed: true) }
    if let w = estimatedWidth { try CellLimits.length(w, "estimatedWidth", zeroAllowed: true) }
    let cell: Cell
    switch template {
    case .bubble:
      cell = .bubble(
        try CellRecord.bubble(o, r, library: library, proposedWidth: proposedWidth))
    case .productCard:
      cell = .productCard(
        try CellRecord.productCard(o, r, library: library, proposedWidth: proposedWidth))
    }
    self.init(
      id: id, cell: cell, estimatedHeight: estimatedHeight, estimatedWidth: estimatedWidth)
  }
}

extension CellRecord {
  /// A bubble record's cell (`r` reads `o`).
  static func bubble(
    _ o: JSONObject, _ r: CellFieldReader, library: FontLibrary, proposedWidth: Double?
  ) throws -> BubbleCell {
    if let unknown = CellRecord.bubbleKeys.firstUnknown(in: o) {
      throw CellError.unknownField(unknown)
    }
    guard let text = try r.string("text") else { throw CellError.missingField("text") }
    let style =
      try r.style("style", library: library, defaultSize: 17)
      ?? TextStyle(fonts: try defaultFonts(library), size: 17)
    var containerWidth = try r.number("containerWidth") ?? proposedWidth
    let maxWidth = try r.number("maxWidth")
    if containerWidth == nil {
      guard let m = maxWidth else { throw CellError.missingField("containerWidth") }
      containerWidth = m
    }
    var b = BubbleCell(text: text, style: style, containerWidth: containerWidth!)
    // Absent: the library's default (``BubbleCell/maxWidthFraction``); `null`: no such limit.
    if o.contains("maxWidthFraction") {
      b.maxWidthFraction = try r.number("maxWidthFraction")
    }
    b.maxWidth = maxWidth
    if let p = try r.padding("padding", defaults: b.padding) { b.padding = p }
    if let m = try r.object("minSize") {
      let f = CellFieldReader(m, path: "minSize")
      for field in m where field.key != "width" && field.key != "height" {
        throw CellError.unknownField("minSize.\(field.key)")
      }
      // (A side left out keeps the default.)
      b.minSize = CellSize(
        width: try f.number("width") ?? b.minSize.width,
        height: try f.number("height") ?? b.minSize.height)
    }
    if let s = try r.string("sender") {
      guard let v = BubbleCell.Sender(rawValue: s) else {
        throw CellError.invalidValue("sender", "\"\(s)\" (expected \"me\" or \"other\")")
      }
      b.sender = v
    }
    b.senderName = try r.string("senderName")
    b.nameStyle = try r.style("nameStyle", library: library, defaultSize: style.size * 0.85)
    b.timestamp = try r.string("timestamp")
    b.timestampStyle = try r.style("timestampStyle", library: library, defaultSize: 11)
    b.replyName = try r.string("replyName")
    b.replyText = try r.string("replyText")
    b.replyStyle = try r.style("replyStyle", library: library, defaultSize: style.size * 0.85)
    if let v = try r.number("scale") { b.scale = v }
    if let v = try r.number("textScale") { b.textScale = v }
    b.category = try r.string("category")
    try b.validate()
    return b
  }

  /// A product card record's cell (`r` reads `o`).
  static func productCard(
    _ o: JSONObject, _ r: CellFieldReader, library: FontLibrary, proposedWidth: Double?
  ) throws -> ProductCardCell {
    if let unknown = CellRecord.cardKeys.firstUnknown(in: o) {
      throw CellError.unknownField(unknown)
    }
    guard let width = try r.number("width") ?? proposedWidth else {
      throw CellError.missingField("width")
    }
    guard let title = try r.string("title") else { throw CellError.missingField("title") }
    let titleStyle =
      try r.style("titleStyle", library: library, defaultSize: 15)
      ?? TextStyle(fonts: try defaultFonts(library), size: 15)
    var c = ProductCardCell(width: width, title: title, titleStyle: titleStyle)
    if let v = try r.number("imageAspectRatio") { c.imageAspectRatio = v }
    c.price = try r.string("price")
    c.priceStyle = try r.style("priceStyle", library: library, defaultSize: titleStyle.size + 1)
    c.originalPrice = try r.string("originalPrice")
    c.originalPriceStyle = try r.style(
      "originalPriceStyle", library: library, defaultSize: titleStyle.size - 2)
    c.badge = try r.string("badge")
    c.badgeStyle = try r.style("badgeStyle", library: library, defaultSize: 12)
    if let p = try r.padding("padding", defaults: c.padding) { c.padding = p }
    if let v = try r.number("spacing") { c.spacing = v }
    if let v = try r.number("scale") { c.scale = v }
    if let v = try r.number("textScale") { c.textScale = v }
    c.category = try r.string("category")
    try c.validate()
    return c
  }
}

func defaultFonts(_ library: FontLibrary) throws -> FontStack {
  do { return try library.defaultStack() } catch let e as TypesettingError {
    throw CellError.text(e)
  }
}

/// Typed access to a cell's fields; errors carry the field's path.
typealias CellFieldReader = FieldReader<ObjectFields, CellError>

extension FieldReader where Source == ObjectFields, Failure == CellError {
  init(_ object: JSONObject, path: String = "") {
    self.init(ObjectFields(object, path: path), CellError.self)
  }

  /// A padding object; sides it leaves out keep `defaults` (the template's).
  func padding(_ k: String, defaults: Padding) throws -> Padding? {
    guard let d = try object(k) else { return nil }
    let f = CellFieldReader(d, path: source.name(k))
    for field in d where !["top", "leading", "bottom", "trailing"].contains(field.key) {
      throw CellError.unknownField(f.source.name(field.key))
    }
    let p = Padding(
      top: try f.number("top") ?? defaults.top, leading: try f.number("leading") ?? defaults.leading,
      bottom: try f.number("bottom") ?? defaults.bottom,
      trailing: try f.number("trailing") ?? defaults.trailing)
    for (key, v) in [
      ("top", p.top), ("leading", p.leading), ("bottom", p.bottom), ("trailing", p.trailing),
    ]
    where v < 0 {
      throw CellError.invalidValue(f.source.name(key), "must be >= 0 (got \(v))")
    }
    return p
  }

  func style(_ k: String, library: FontLibrary, defaultSize: Double) throws -> TextStyle? {
    guard let d = try object(k) else { return nil }
    let name = source.name(k)
    do {
      return try TextCase.style(from: d, library: library, defaultSize: defaultSize)
    } catch let e as CaseError {
      switch e {
      case .unknownField(let f): throw CellError.unknownField(name + "." + f)
      case .wrongType(let f, let t): throw CellError.wrongType(name + "." + f, t)
      case .invalidValue(let f, let why): throw CellError.invalidValue(name + "." + f, why)
      case .missingField(let f): throw CellError.missingField(name + "." + f)
      case .font(let e): throw CellError.invalidValue(name + ".fonts", e.description)
      case .invalidStyle(let m): throw CellError.invalidValue(name, m)
      }
    }
  }
}
