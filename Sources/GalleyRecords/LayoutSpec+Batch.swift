import CompositionalLayout
import Foundation
import GalleyJSON
import Geometry
import SelfSizing
import Typesetting

/// A batch of a spec's updates file: the batch, the sizes measured after it, and where the
/// reader is (`galley layout SPEC.json --updates BATCHES.json`; docs/LAYOUT-SPEC.md).
public struct SpecBatch: Sendable {
  public var batch: BatchUpdate
  /// Sizes of items after the batch (section and index after it).
  public var itemSizes: [(section: Int, index: Int, width: Double?, height: Double?)]
  /// The content offset before the batch (nil: where the previous batch left it, else 0).
  public var contentOffset: Double?
  public var anchor: BatchAnchor

  /// The batches of an updates file: `{"batches": [ … ]}`.
  /// - Throws: ``LayoutSpecError`` naming the JSON path of a malformed value.
  public static func batches(json data: Data) throws -> [SpecBatch] {
    let root: JSONValue
    do {
      root = try JSONReader.readDocument(data)
    } catch {
      throw LayoutSpecError(path: "", message: "not valid JSON: \(error)")
    }
    guard case .array(let list)? = root.object?["batches"] else {
      throw LayoutSpecError(path: "batches", message: "expected {\"batches\": [ … ]}")
    }
    return try list.enumerated().map { try SpecBatch($1, path: "batches[\($0)]") }
  }

  /// How messages name the batch at index `k`: `batches[2] (older messages)`, or
  /// `batches[2]` when it has no name.
  package func label(_ k: Int) -> String {
    batch.name.isEmpty ? "batches[\(k)]" : "batches[\(k)] (\(batch.name))"
  }

  init(_ value: JSONValue, path: String) throws {
    guard case .object(let o) = value else {
      throw LayoutSpecError(path: path, message: "expected an object")
    }
    let known: Set<String> = [
      "name", "insertItems", "deleteItems", "reloadItems", "moveItems", "insertSections",
      "deleteSections", "reloadSections", "moveSections", "itemSizes", "itemCounts",
      "contentOffset", "anchor",
    ]
    for k in o.keys.sorted() where !known.contains(k) {
      throw LayoutSpecError(path: "\(path).\(k)", message: "unknown field")
    }
    let fields = BatchFields(object: o, path: path)
    batch = try fields.batchUpdate()
    itemSizes = try fields.itemSizes()
    contentOffset = try o["contentOffset"].map { try BatchFields.number($0, "\(path).contentOffset") }
    if let a = o["anchor"] {
      guard case .string(let s) = a, let anchor = BatchAnchor(rawValue: s) else {
        throw LayoutSpecError(
          path: "\(path).anchor", message: "expected \"top\", \"firstVisible\" or \"bottom\"")
      }
      self.anchor = anchor
    } else {
      anchor = .top
    }
  }
}

/// A batch's JSON object and where it is, read field by field; each error names the path of the
/// value at fault.
private struct BatchFields {
  let object: JSONObject
  let path: String

  static func int(_ v: JSONValue?, _ p: String) throws -> Int {
    guard case .number(let n)? = v, n == n.rounded(), abs(n) < 1e9
    else { throw LayoutSpecError(path: p, message: "expected a whole number") }
    return Int(n)
  }

  static func number(_ v: JSONValue?, _ p: String) throws -> Double {
    guard case .number(let n)? = v, n.isFinite else {
      throw LayoutSpecError(path: p, message: "expected a number")
    }
    try checkSpecNumber(n, path: p)
    return n
  }

  static func itemPath(_ v: JSONValue, _ p: String) throws -> ItemPath {
    guard case .object(let d) = v else {
      throw LayoutSpecError(path: p, message: "expected {\"section\", \"item\"}")
    }
    return ItemPath(section: try int(d["section"], "\(p).section"), item: try int(d["item"], "\(p).item"))
  }

  static func fromTo(_ v: JSONValue, _ p: String) throws -> (JSONValue, JSONValue) {
    guard case .object(let d) = v, let f = d["from"], let t = d["to"] else {
      throw LayoutSpecError(path: p, message: "expected {\"from\", \"to\"}")
    }
    return (f, t)
  }

  /// Field `k`, an array (none: empty).
  func array(_ k: String) throws -> [JSONValue] {
    guard let v = object[k] else { return [] }
    guard case .array(let a) = v else {
      throw LayoutSpecError(path: "\(path).\(k)", message: "expected an array")
    }
    return a
  }

  func ints(_ k: String) throws -> [Int] {
    try array(k).enumerated().map { try Self.int($1, "\(path).\(k)[\($0)]") }
  }

  func paths(_ k: String) throws -> [ItemPath] {
    try array(k).enumerated().map { try Self.itemPath($1, "\(path).\(k)[\($0)]") }
  }

  /// The batch's name, section and item changes and item counts.
  func batchUpdate() throws -> BatchUpdate {
    var b = BatchUpdate()
    if let n = object["name"] {
      guard case .string(let s) = n else {
        throw LayoutSpecError(path: "\(path).name", message: "expected a string")
      }
      b.name = s
    }
    b.insertSections = try ints("insertSections")
    b.deleteSections = try ints("deleteSections")
    b.reloadSections = try ints("reloadSections")
    b.moveSections = try array("moveSections").enumerated().map { k, v in
      let p = "\(path).moveSections[\(k)]"
      let (f, t) = try Self.fromTo(v, p)
      return BatchUpdate.SectionMove(from: try Self.int(f, "\(p).from"), to: try Self.int(t, "\(p).to"))
    }
    b.insertItems = try paths("insertItems")
    b.deleteItems = try paths("deleteItems")
    b.reloadItems = try paths("reloadItems")
    b.moveItems = try array("moveItems").enumerated().map { k, v in
      let p = "\(path).moveItems[\(k)]"
      let (f, t) = try Self.fromTo(v, p)
      return BatchUpdate.ItemMove(
        from: try Self.itemPath(f, "\(p).from"), to: try Self.itemPath(t, "\(p).to"))
    }
    if object["itemCounts"] != nil { b.itemCounts = try ints("itemCounts") }
    return b
  }

  /// The item sizes the batch sets: (section, index, width, height).
  func itemSizes() throws -> [(Int, Int, Double?, Double?)] {
    try array("itemSizes").enumerated().map { k, v in
      let p = "\(path).itemSizes[\(k)]"
      guard case .object(let d) = v else {
        throw LayoutSpecError(path: p, message: "expected {\"section\", \"index\", \"height\"}")
      }
      for key in d.keys.sorted() where !["section", "index", "width", "height"].contains(key) {
        throw LayoutSpecError(path: "\(p).\(key)", message: "unknown field")
      }
      let w = try d["width"].map { try Self.number($0, "\(p).width") }
      let h = try d["height"].map { try Self.number($0, "\(p).height") }
      for (name, x) in [("width", w), ("height", h)] {
        if let x, x < 0 { throw LayoutSpecError(path: "\(p).\(name)", message: "must be at least 0") }
      }
      return (try Self.int(d["section"], "\(p).section"), try Self.int(d["index"], "\(p).index"), w, h)
    }
  }
}

extension LayoutSpec {
  /// The spec after `batch`: sections moved, inserted (an inserted section takes the layout of
  /// the section at its index before the batch, or of the last one) and deleted; items'
  /// measured sizes and cell content follow their items; `sizes` (section and index after the
  /// batch) replace or add measured sizes.
  /// - Throws: ``BatchError`` for a batch UIKit would reject, or one that inserts a section
  ///   into a spec that has none to copy.
  public func applying(
    _ batch: BatchUpdate, sizes: [(section: Int, index: Int, width: Double?, height: Double?)] = []
  ) throws -> (spec: LayoutSpec, mapping: BatchMapping) {
    let mapping = try BatchMapping(batch, counts: sections.map(\.itemCount))
    try Self.check(sizes, after: mapping.countsAfter, sectionsBefore: sections.count)
    var out = self
    out.sections = []
    for (s, count) in mapping.countsAfter.enumerated() {
      let template: SpecSection
      if let b = mapping.sectionBefore[s] {
        template = sections[b]
      } else {
        template = sections[min(s, sections.count - 1)]
      }
      var section = SpecSection(section: template.section, itemCount: count, itemSizes: [:], cells: [:])
      for (i, q) in mapping.itemBefore[s].enumerated() {
        guard let q else { continue }
        if let m = sections[q.section].itemSizes[q.item] { section.itemSizes[i] = m }
        if let c = sections[q.section].cells[q.item] { section.cells[i] = c }
      }
      out.sections.append(section)
    }
    for (k, e) in sizes.enumerated() {
      let index = e.index
      var m = out.sections[e.section].itemSizes[index] ?? MeasuredItemSize(entry: k, width: nil, height: nil)
      if let w = e.width { m.width = w }
      if let h = e.height { m.height = h }
      m.entry = k
      out.sections[e.section].itemSizes[index] = m
    }
    return (out, mapping)
  }

  /// What ``applying(_:sizes:)`` checks beyond the batch itself: a new section needs one to
  /// copy its layout from, and each measured size names an item that is there after the batch.
  static func check(
    _ sizes: [(section: Int, index: Int, width: Double?, height: Double?)], after counts: [Int],
    sectionsBefore: Int
  ) throws {
    if sectionsBefore == 0 && !counts.isEmpty {
      throw BatchError(
        "insertSections", "the spec has no section whose layout a new one could take")
    }
    for (k, e) in sizes.enumerated() {
      let op = "itemSizes[\(k)]"
      guard e.section >= 0 && e.section < counts.count else {
        throw BatchError(op, "section \(e.section) does not exist after the batch")
      }
      guard e.index >= 0 && e.index < counts[e.section] else {
        throw BatchError(
          op, "item \(e.index) does not exist in section \(e.section) after the batch")
      }
    }
  }
}

/// The most cells an updates file may have laid out, before and after each batch added up:
/// the output of `--updates` holds every one of them, so this bounds its time and size.
public let maximumUpdateCells = 10 * CollectionLayout.maximumItems

extension LayoutSpec {
  /// Checks `batches` on the item counts alone, before anything is laid out: each is a batch
  /// UIKit would take, and the layouts before and after every batch hold at most
  /// ``maximumUpdateCells`` cells together.
  /// - Throws: ``BatchError`` naming the batch (`batches[N] (name): operation`).
  public func checkBatches(_ batches: [SpecBatch]) throws {
    var counts = sections.map(\.itemCount)
    var cells = 0
    for (k, b) in batches.enumerated() {
      do {
        let mapping = try BatchMapping(b.batch, counts: counts)
        try Self.check(b.itemSizes, after: mapping.countsAfter, sectionsBefore: counts.count)
        cells += counts.reduce(0, +) + mapping.countsAfter.reduce(0, +)
        counts = mapping.countsAfter
      } catch let e as BatchError {
        throw BatchError("\(b.label(k)): \(e.operation)", e.message)
      }
      if cells > maximumUpdateCells {
        throw BatchError(
          b.label(k),
          "the layouts before and after the batches so far hold more than "
            + "\(maximumUpdateCells) cells in all")
      }
    }
  }

  /// `batches` applied one after another, each with its transition handed to `each` as soon as
  /// it is made (one layout before and one after are held at a time): the layout after a batch
  /// is the layout before the next (laid out once), and the content offset carries over unless
  /// a batch gives its own. `through`: stop after that batch.
  /// - Throws: ``BatchError`` naming the batch (`batches[N] (name): operation`), or the
  ///   measurer's error.
  public func transitions(
    _ batches: [SpecBatch], through last: Int? = nil,
    measure: ((CellRequest) throws -> Size)? = nil,
    each: (Int, LayoutTransition) throws -> Void
  ) throws {
    var spec = self
    var before = try spec.layoutResult(measure: measure)
    var offset = 0.0
    let vertical = configuration.scrollDirection == .vertical
    let viewport = vertical ? environment.containerSize.height : environment.containerSize.width
    for (k, b) in batches.enumerated() {
      if let last, k > last { break }
      let next: (spec: LayoutSpec, mapping: BatchMapping)
      do {
        next = try spec.applying(b.batch, sizes: b.itemSizes)
      } catch let e as BatchError {
        throw BatchError("\(b.label(k)): \(e.operation)", e.message)
      }
      let after = try next.spec.layoutResult(measure: measure)
      let t = LayoutTransition(
        before: before, after: after, mapping: next.mapping,
        contentOffset: b.contentOffset ?? offset, viewport: viewport, anchor: b.anchor)
      try each(k, t)
      offset = t.contentOffsetAfter
      spec = next.spec
      before = after
    }
  }

  /// `batches` applied one after another, every transition kept (see
  /// ``transitions(_:through:measure:each:)``).
  public func transitions(
    _ batches: [SpecBatch], through last: Int? = nil,
    measure: ((CellRequest) throws -> Size)? = nil
  ) throws -> [LayoutTransition] {
    var out: [LayoutTransition] = []
    try transitions(batches, through: last, measure: measure) { out.append($1) }
    return out
  }
}
