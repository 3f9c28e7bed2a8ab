import CompositionalLayout
import Foundation
import GalleyJSON
import Geometry
import SelfSizing
import Typesetting

/// The most items a spec may declare in all (keeps a bad spec from exhausting memory).
let maximumSpecItems = CollectionLayout.maximumItems
/// The largest number a dimension may hold (points or fraction), so that frames stay finite.
let maximumSpecLength = 1e7

/// Checks that a number of a spec or an updates file (a length, a fraction, a scale, an offset)
/// is at most ``maximumSpecLength`` in size, so that frames stay finite.
func checkSpecNumber(_ d: Double, path: String) throws {
  guard abs(d) <= maximumSpecLength else {
    throw LayoutSpecError(
      path: path, message: "must be at most \(fmt(maximumSpecLength)) in size, got \(fmt(d))")
  }
}
/// The deepest groups may nest.
let maximumGroupDepth = 32

/// A JSON object of a spec being read, with the keys it allows and its path.
struct SpecObject {
  let dict: JSONObject
  let path: String

  init(_ value: JSONValue?, path: String, allowed: Set<String>) throws {
    guard case .object(let dict)? = value else {
      throw LayoutSpecError(path: path, message: "expected an object, got \(describe(value))")
    }
    for key in dict.keys.sorted() where !allowed.contains(key) {
      throw LayoutSpecError(path: path.isEmpty ? key : "\(path).\(key)", message: "unknown field")
    }
    self.dict = dict
    self.path = path
  }

  func sub(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
  func has(_ key: String) -> Bool { dict[key] != nil }

  func number(_ key: String, min: Double? = nil, exclusiveMin: Bool = false) throws -> Double? {
    guard let v = dict[key] else { return nil }
    guard case .number(let d) = v else {
      throw LayoutSpecError(path: sub(key), message: "expected a number, got \(describe(v))")
    }
    guard d.isFinite else {
      throw LayoutSpecError(path: sub(key), message: "must be a finite number")
    }
    try checkSpecNumber(d, path: sub(key))
    if let min {
      if exclusiveMin ? d <= min : d < min {
        throw LayoutSpecError(
          path: sub(key),
          message:
            "must be \(exclusiveMin ? "greater than" : "at least") \(fmt(min)), got \(fmt(d))")
      }
    }
    return d
  }

  func requiredNumber(_ key: String, min: Double? = nil, exclusiveMin: Bool = false) throws
    -> Double
  {
    guard let d = try number(key, min: min, exclusiveMin: exclusiveMin) else {
      throw LayoutSpecError(path: sub(key), message: "missing required field")
    }
    return d
  }

  func integer(_ key: String, min: Int, max: Int = Int(Int32.max)) throws -> Int? {
    guard let d = try number(key) else { return nil }
    guard d == d.rounded() else {
      throw LayoutSpecError(path: sub(key), message: "expected an integer, got \(fmt(d))")
    }
    guard d >= Double(min) else {
      throw LayoutSpecError(path: sub(key), message: "must be at least \(min), got \(fmt(d))")
    }
    guard d <= Double(max) else {
      throw LayoutSpecError(path: sub(key), message: "must be at most \(max), got \(fmt(d))")
    }
    return Int(d)
  }

  func bool(_ key: String) throws -> Bool? {
    guard let v = dict[key] else { return nil }
    guard case .bool(let b) = v else {
      throw LayoutSpecError(path: sub(key), message: "expected true or false, got \(describe(v))")
    }
    return b
  }

  func string(_ key: String) throws -> String? {
    guard let v = dict[key] else { return nil }
    guard case .string(let s) = v else {
      throw LayoutSpecError(path: sub(key), message: "expected a string, got \(describe(v))")
    }
    return s
  }

  func requiredString(_ key: String) throws -> String {
    guard let s = try string(key) else {
      throw LayoutSpecError(path: sub(key), message: "missing required field")
    }
    return s
  }

  func oneOf<T: RawRepresentable>(_ key: String, _ type: T.Type) throws -> T?
  where T.RawValue == String {
    guard let s = try string(key) else { return nil }
    guard let v = T(rawValue: s) else {
      throw LayoutSpecError(path: sub(key), message: "unknown value \"\(s)\"")
    }
    return v
  }

  func array(_ key: String) throws -> [JSONValue]? {
    guard let v = dict[key] else { return nil }
    guard case .array(let a) = v else {
      throw LayoutSpecError(path: sub(key), message: "expected an array, got \(describe(v))")
    }
    return a
  }

  func object(_ key: String, allowed: Set<String>) throws -> SpecObject? {
    guard let v = dict[key] else { return nil }
    return try SpecObject(v, path: sub(key), allowed: allowed)
  }

  func requiredObject(_ key: String, allowed: Set<String>) throws -> SpecObject {
    guard let o = try object(key, allowed: allowed) else {
      throw LayoutSpecError(path: sub(key), message: "missing required field")
    }
    return o
  }

  /// The single key of an object that must have exactly one of `keys`.
  func single(of keys: [String]) throws -> String {
    let present = keys.filter { dict[$0] != nil }
    guard present.count == 1 else {
      throw LayoutSpecError(
        path: path,
        message: "expected exactly one of \(keys.joined(separator: ", ")), got \(present.count)")
    }
    return present[0]
  }
}

/// What a JSON value is, for messages ("nothing" when absent).
func describe(_ v: JSONValue?) -> String { v?.typeDescription ?? "nothing" }

extension LayoutSpec {
  /// Parses a spec.
  /// - Throws: `LayoutSpecError` naming the path of the first malformed value.
  public init(json data: Data) throws {
    let any: JSONValue
    do {
      any = try JSONReader.readDocument(data)
    } catch {
      throw LayoutSpecError(path: "", message: "not valid JSON: \(error)")
    }
    let root = try SpecObject(any, path: "", allowed: ["container", "configuration", "sections"])
    let c = try root.requiredObject(
      "container",
      allowed: ["width", "height", "scale", "insets", "contentSizeCategory", "layoutDirection"])
    let width = try c.requiredNumber("width", min: 0, exclusiveMin: true)
    let height = try c.requiredNumber("height", min: 0, exclusiveMin: true)
    let scale = try c.number("scale", min: 0, exclusiveMin: true) ?? 1
    let insets = try Self.insets(c.object("insets", allowed: Self.insetKeys))
    if width - insets.leading - insets.trailing <= 0 {
      throw LayoutSpecError(path: c.sub("insets"), message: "leave no width for the content")
    }
    environment = LayoutEnvironment(
      containerSize: Size(width: width, height: height), containerInsets: insets,
      displayScale: scale,
      contentSizeCategory: try c.oneOf("contentSizeCategory", ContentSizeCategory.self) ?? .large,
      layoutDirection: try c.oneOf("layoutDirection", LayoutDirection.self) ?? .leftToRight)

    configuration = LayoutConfiguration()
    if let conf = try root.object(
      "configuration",
      allowed: ["scrollDirection", "interSectionSpacing", "boundarySupplementaryItems"])
    {
      if let d = try conf.string("scrollDirection") {
        switch d {
        case "vertical": configuration.scrollDirection = .vertical
        case "horizontal": configuration.scrollDirection = .horizontal
        default:
          throw LayoutSpecError(
            path: conf.sub("scrollDirection"), message: "unknown value \"\(d)\"")
        }
      }
      configuration.interSectionSpacing = try conf.number("interSectionSpacing", min: 0) ?? 0
      configuration.boundarySupplementaryItems = try Self.boundaryItems(
        conf, "boundarySupplementaryItems")
    }

    guard let list = try root.array("sections") else {
      throw LayoutSpecError(path: "sections", message: "missing required field")
    }
    var sections: [SpecSection] = []
    var total = 0
    for (i, value) in list.enumerated() {
      let s = try Self.section(value, path: "sections[\(i)]")
      total += s.itemCount
      if total > maximumSpecItems {
        throw LayoutSpecError(
          path: "sections[\(i)].items", message: "more than \(maximumSpecItems) items in all")
      }
      sections.append(s)
    }
    self.sections = sections
  }

  static let insetKeys: Set<String> = ["top", "leading", "bottom", "trailing"]

  private static func insets(_ o: SpecObject?) throws -> DirectionalEdgeInsets {
    guard let o else { return .zero }
    return DirectionalEdgeInsets(
      top: try o.number("top") ?? 0, leading: try o.number("leading") ?? 0,
      bottom: try o.number("bottom") ?? 0,
      trailing: try o.number("trailing") ?? 0)
  }

  private static func section(_ value: JSONValue, path: String) throws -> SpecSection {
    let o = try SpecObject(
      value, path: path,
      allowed: [
        "items", "group", "contentInsets", "interGroupSpacing", "orthogonalScrollingBehavior",
        "boundarySupplementaryItems", "decorationItems", "itemSizes", "cells",
        "supplementariesFollowContentInsets",
      ])
    guard let count = try o.integer("items", min: 0, max: maximumSpecItems) else {
      throw LayoutSpecError(path: o.sub("items"), message: "missing required field")
    }
    let group = try Self.group(o.dict["group"], path: o.sub("group"))
    var section = Section(group: group)
    section.contentInsets = try insets(o.object("contentInsets", allowed: insetKeys))
    section.interGroupSpacing = try o.number("interGroupSpacing", min: 0) ?? 0
    section.orthogonalScrollingBehavior =
      try o.oneOf("orthogonalScrollingBehavior", OrthogonalScrollingBehavior.self) ?? .none
    section.boundarySupplementaryItems = try boundaryItems(o, "boundarySupplementaryItems")
    section.supplementariesFollowContentInsets =
      try o.bool("supplementariesFollowContentInsets") ?? true
    if let list = try o.array("decorationItems") {
      for (j, v) in list.enumerated() {
        let d = try SpecObject(
          v, path: o.sub("decorationItems[\(j)]"), allowed: ["kind", "contentInsets", "zIndex"])
        section.decorationItems.append(
          DecorationItem(
            kind: try d.requiredString("kind"),
            contentInsets: try insets(d.object("contentInsets", allowed: insetKeys)),
            zIndex: try d.integer("zIndex", min: Int(Int32.min)) ?? -1))
      }
    }
    var sizes: [Int: MeasuredItemSize] = [:]
    if let list = try o.array("itemSizes") {
      for (j, v) in list.enumerated() {
        let m = try SpecObject(
          v, path: o.sub("itemSizes[\(j)]"), allowed: ["index", "width", "height"])
        guard let index = try m.integer("index", min: 0) else {
          throw LayoutSpecError(path: m.sub("index"), message: "missing required field")
        }
        guard index < count else {
          throw LayoutSpecError(
            path: m.sub("index"), message: "item \(index) is past the section's \(count) items")
        }
        let w = try m.number("width", min: 0)
        let h = try m.number("height", min: 0)
        if w == nil && h == nil {
          throw LayoutSpecError(path: m.path, message: "needs a width or a height")
        }
        if sizes[index] != nil {
          throw LayoutSpecError(path: m.sub("index"), message: "item \(index) is given twice")
        }
        sizes[index] = MeasuredItemSize(entry: j, width: w, height: h)
      }
    }
    var cells: [Int: JSONObject] = [:]
    if let list = try o.array("cells") {
      guard list.count <= count else {
        throw LayoutSpecError(
          path: o.sub("cells"), message: "\(list.count) cells for \(count) items")
      }
      for (j, v) in list.enumerated() {
        let p = o.sub("cells[\(j)]")
        guard case .object(let cell) = v else {
          throw LayoutSpecError(path: p, message: "expected an object, got \(describe(v))")
        }
        guard let t = cell["template"] else {
          throw LayoutSpecError(path: p + ".template", message: "missing required field")
        }
        guard case .string = t else {
          throw LayoutSpecError(
            path: p + ".template", message: "expected a string, got \(describe(t))")
        }
        cells[j] = cell
      }
    }
    return SpecSection(section: section, itemCount: count, itemSizes: sizes, cells: cells)
  }

  private static func boundaryItems(_ o: SpecObject, _ key: String) throws
    -> [BoundarySupplementaryItem]
  {
    guard let list = try o.array(key) else { return [] }
    var out: [BoundarySupplementaryItem] = []
    for (j, v) in list.enumerated() {
      let b = try SpecObject(
        v, path: o.sub("\(key)[\(j)]"),
        allowed: [
          "kind", "alignment", "size", "offset", "extendsBoundary", "pinToVisibleBounds", "zIndex",
        ])
      guard let alignment = try b.oneOf("alignment", BoundaryAlignment.self) else {
        throw LayoutSpecError(path: b.sub("alignment"), message: "missing required field")
      }
      out.append(
        BoundarySupplementaryItem(
          kind: try b.requiredString("kind"), size: try size(b.dict["size"], path: b.sub("size")),
          alignment: alignment,
          offset: try point(b.object("offset", allowed: ["x", "y"])),
          extendsBoundary: try b.bool("extendsBoundary") ?? true,
          pinToVisibleBounds: try b.bool("pinToVisibleBounds") ?? false,
          zIndex: try b.integer("zIndex", min: Int(Int32.min)) ?? 1))
    }
    return out
  }

  private static func point(_ o: SpecObject?) throws -> Point {
    guard let o else { return .zero }
    return Point(x: try o.number("x") ?? 0, y: try o.number("y") ?? 0)
  }

  private static func size(_ value: JSONValue?, path: String) throws -> LayoutSize {
    guard let value else { throw LayoutSpecError(path: path, message: "missing required field") }
    let o = try SpecObject(value, path: path, allowed: ["width", "height"])
    return LayoutSize(
      width: try dimension(o.dict["width"], path: o.sub("width")),
      height: try dimension(o.dict["height"], path: o.sub("height")))
  }

  private static func dimension(_ value: JSONValue?, path: String) throws -> CompositionalLayout.Dimension {
    guard let value else { throw LayoutSpecError(path: path, message: "missing required field") }
    let keys = [
      "absolute", "fractionalWidth", "fractionalHeight", "estimated", "uniformAcrossSiblings",
    ]
    let o = try SpecObject(value, path: path, allowed: Set(keys))
    let key = try o.single(of: keys)
    guard case .number(let v)? = o.dict[key] else {
      throw LayoutSpecError(
        path: path, message: "\(key) must be a number, got \(describe(o.dict[key]))")
    }
    guard v <= maximumSpecLength else {
      throw LayoutSpecError(
        path: path, message: "\(key) must be at most \(fmt(maximumSpecLength)), got \(fmt(v))")
    }
    guard v.isFinite, v >= 0 else {
      throw LayoutSpecError(
        path: path, message: "\(key) must be a finite number at least 0, got \(fmt(v))")
    }
    if key == "estimated" || key == "uniformAcrossSiblings", v == 0 {
      throw LayoutSpecError(path: path, message: "\(key) must be greater than 0")
    }
    switch key {
    case "absolute": return .absolute(v)
    case "fractionalWidth": return .fractionalWidth(v)
    case "fractionalHeight": return .fractionalHeight(v)
    case "estimated": return .estimated(v)
    default: return .uniformAcrossSiblings(estimate: v)
    }
  }

  private static func spacing(_ value: JSONValue?, path: String) throws -> Spacing? {
    guard let value else { return nil }
    let o = try SpecObject(value, path: path, allowed: ["fixed", "flexible"])
    let key = try o.single(of: ["fixed", "flexible"])
    let v = try o.requiredNumber(key, min: 0)
    return key == "fixed" ? .fixed(v) : .flexible(v)
  }

  private static func edgeSpacing(_ o: SpecObject?) throws -> EdgeSpacing? {
    guard let o else { return nil }
    return EdgeSpacing(
      leading: try spacing(o.dict["leading"], path: o.sub("leading")),
      top: try spacing(o.dict["top"], path: o.sub("top")),
      trailing: try spacing(o.dict["trailing"], path: o.sub("trailing")),
      bottom: try spacing(o.dict["bottom"], path: o.sub("bottom")))
  }

  private static func anchor(_ o: SpecObject?) throws -> Anchor? {
    guard let o else { return nil }
    guard let list = try o.array("edges") else {
      throw LayoutSpecError(path: o.sub("edges"), message: "missing required field")
    }
    var edges: Edges = []
    for (k, e) in list.enumerated() {
      switch e.string {
      case "top": edges.insert(.top)
      case "leading": edges.insert(.leading)
      case "bottom": edges.insert(.bottom)
      case "trailing": edges.insert(.trailing)
      default:
        throw LayoutSpecError(
          path: o.sub("edges[\(k)]"), message: "expected top, leading, bottom or trailing")
      }
    }
    return Anchor(
      edges: edges, offset: try point(o.object("offset", allowed: ["x", "y"])),
      isFractional: try o.bool("fractional") ?? false)
  }

  private static func item(_ value: JSONValue, path: String) throws -> Item {
    let o = try SpecObject(
      value, path: path, allowed: ["size", "contentInsets", "edgeSpacing", "supplementaryItems"])
    var item = Item(size: try size(o.dict["size"], path: o.sub("size")))
    item.contentInsets = try insets(o.object("contentInsets", allowed: insetKeys))
    item.edgeSpacing = try edgeSpacing(o.object("edgeSpacing", allowed: insetKeys))
    if let list = try o.array("supplementaryItems") {
      for (j, v) in list.enumerated() {
        let s = try SpecObject(
          v, path: o.sub("supplementaryItems[\(j)]"),
          allowed: ["kind", "size", "containerAnchor", "itemAnchor", "zIndex"])
        let anchorKeys: Set<String> = ["edges", "offset", "fractional"]
        guard let container = try anchor(s.object("containerAnchor", allowed: anchorKeys)) else {
          throw LayoutSpecError(path: s.sub("containerAnchor"), message: "missing required field")
        }
        item.supplementaryItems.append(
          SupplementaryItem(
            kind: try s.requiredString("kind"), size: try size(s.dict["size"], path: s.sub("size")),
            containerAnchor: container,
            itemAnchor: try anchor(s.object("itemAnchor", allowed: anchorKeys)),
            zIndex: try s.integer("zIndex", min: Int(Int32.min)) ?? 1))
      }
    }
    return item
  }

  private static func group(_ value: JSONValue?, path: String, depth: Int = 0) throws -> Group {
    guard let value else { throw LayoutSpecError(path: path, message: "missing required field") }
    guard depth < maximumGroupDepth else {
      throw LayoutSpecError(
        path: path, message: "groups nest deeper than \(maximumGroupDepth) levels")
    }
    let o = try SpecObject(
      value, path: path,
      allowed: [
        "axis", "size", "subitems", "count", "repeatingCount", "interItemSpacing", "edgeSpacing",
      ])
    let layout: GroupLayout
    switch try o.string("axis") {
    case "horizontal": layout = .horizontal
    case "vertical": layout = .vertical
    case "custom":
      throw LayoutSpecError(path: o.sub("axis"), message: "custom groups are for code only")
    case nil: throw LayoutSpecError(path: o.sub("axis"), message: "missing required field")
    case let other?:
      throw LayoutSpecError(path: o.sub("axis"), message: "unknown value \"\(other)\"")
    }
    let size = try size(o.dict["size"], path: o.sub("size"))
    guard let list = try o.array("subitems") else {
      throw LayoutSpecError(path: o.sub("subitems"), message: "missing required field")
    }
    guard !list.isEmpty else {
      throw LayoutSpecError(path: o.sub("subitems"), message: "a group needs at least one subitem")
    }
    var children: [GroupChild] = []
    for (j, v) in list.enumerated() {
      let p = o.sub("subitems[\(j)]")
      let wrapper = try SpecObject(v, path: p, allowed: ["item", "group"])
      switch try wrapper.single(of: ["item", "group"]) {
      case "item": children.append(.item(try item(wrapper.dict["item"]!, path: p)))
      default: children.append(.group(try group(wrapper.dict["group"], path: p, depth: depth + 1)))
      }
    }
    var repetition = GroupRepetition.fill
    let count = try o.integer("count", min: 1, max: 100_000)
    let repeating = try o.integer("repeatingCount", min: 1, max: 100_000)
    if count != nil && repeating != nil {
      throw LayoutSpecError(
        path: o.sub("repeatingCount"), message: "count and repeatingCount cannot both be given")
    }
    if let count {
      guard list.count == 1 else {
        throw LayoutSpecError(
          path: o.sub("count"), message: "count takes exactly one subitem, got \(list.count)")
      }
      repetition = .count(count)
    }
    if let repeating { repetition = .repeating(repeating) }
    return Group(
      size: size, layout: layout, subitems: children, repetition: repetition,
      interItemSpacing: try spacing(o.dict["interItemSpacing"], path: o.sub("interItemSpacing")),
      edgeSpacing: try edgeSpacing(o.object("edgeSpacing", allowed: insetKeys)))
  }
}
