import CompositionalLayout
import GalleyJSON
import Geometry
import SelfSizing
import Typesetting

/// Writes a layout result in the output format of docs/LAYOUT-SPEC.md, in a fixed key order with compact numbers.
package enum LayoutJSONEncoder {
  /// The JSON text: one object with `contentSize`, `attributes`, `orthogonal`, `warnings` and,
  /// when some cell could not be measured, `errors`; one attribute a line.
  /// - Complexity: O(n).
  package static func encode(_ result: LayoutResult) -> String {
    var out =
      "{\n  \"contentSize\": {\"width\": \(JSONWriter.number(result.contentSize.width)), \"height\": \(JSONWriter.number(result.contentSize.height))},\n"
    out += "  \"attributes\": ["
    var first = true
    for a in result.allAttributes {
      out += first ? "\n    " : ",\n    "
      first = false
      out += attribute(a)
    }
    out += first ? "],\n" : "\n  ],\n"
    out += "  \"orthogonal\": ["
    first = true
    for o in result.orthogonalSections {
      out += first ? "\n    " : ",\n    "
      first = false
      out +=
        "{\"section\": \(o.section), \"contentWidth\": \(JSONWriter.number(o.contentWidth)), \"pageOffsets\": ["
      out += o.pageOffsets.map(JSONWriter.number).joined(separator: ", ") + "]}"
    }
    out += first ? "],\n" : "\n  ],\n"
    out += "  \"warnings\": ["
    first = true
    for w in result.warnings {
      out += first ? "\n    " : ",\n    "
      first = false
      out += quote(w)
    }
    out += first ? "]" : "\n  ]"
    if !result.unmeasuredCells.isEmpty {
      // (Only when some cell could not be measured: it was laid out at its estimated size.)
      out += ",\n  \"errors\": ["
      for (k, e) in result.unmeasuredCells.enumerated() {
        out += k == 0 ? "\n    " : ",\n    "
        out +=
          "{\"section\": \(e.indexPath.section), \"item\": \(e.indexPath.item), \"error\": \(quote(e.message)), \"estimated\": true}"
      }
      out += "\n  ]"
    }
    out += "\n}\n"
    return out
  }

  /// The output of `galley layout --updates`: per batch its name, the layouts before and after
  /// (each as ``encode(_:)`` writes it), the changes, the content offsets and the checks.
  package static func encode(batches: [LayoutTransition], names: [String]) -> String {
    var out = batchesOpening
    for (k, t) in batches.enumerated() { out += encode(batch: t, name: names[k], first: k == 0) }
    return out + batchesClosing(empty: batches.isEmpty)
  }

  /// What ``encode(batches:names:)`` writes before the first batch.
  package static let batchesOpening = "{\n  \"batches\": ["

  /// What ``encode(batches:names:)`` writes after the last batch.
  package static func batchesClosing(empty: Bool) -> String { empty ? "]\n}\n" : "\n  ]\n}\n" }

  /// One batch of ``encode(batches:names:)``, so that a long list can be written as it is made.
  package static func encode(batch t: LayoutTransition, name: String, first: Bool) -> String {
    var out = first ? "\n    {" : ",\n    {"
    out += "\n      \"name\": \(quote(name)),"
    out += "\n      \"before\": " + indented(encode(t.before), by: "      ") + ","
    out += "\n      \"after\": " + indented(encode(t.after), by: "      ") + ","
    out += "\n      \"transitions\": ["
    for (j, c) in t.changes.enumerated() {
      out += j == 0 ? "\n        " : ",\n        "
      out += change(c)
    }
    out += t.changes.isEmpty ? "]," : "\n      ],"
    out +=
      "\n      \"contentOffset\": {\"before\": \(JSONWriter.number(t.contentOffsetBefore)), \"after\": \(JSONWriter.number(t.contentOffsetAfter))},"
    var anchor = "{\"mode\": \"\(t.anchor.rawValue)\""
    if let p = t.anchorItem { anchor += ", \"section\": \(p.section), \"item\": \(p.item)" }
    if let n = t.anchorNote { anchor += ", \"note\": \(quote(n))" }
    out += "\n      \"anchor\": " + anchor + "},"
    let overlaps = t.overlaps
    let pairs = overlaps.first.map {
      "[[\($0.0.section), \($0.0.item)], [\($0.1.section), \($0.1.item)]]"
    }
    out += "\n      \"checks\": {\"overlaps\": \(overlaps.count), \"anchorShift\": \(JSONWriter.number(t.anchorShift)), \"teleports\": \(t.teleports.count),"
    out += "\n        \"overlapPairs\": [" + pairs.joined(separator: ", ") + "],"
    out += "\n        \"teleported\": [" + t.teleports.prefix(50).map(change).joined(separator: ", ") + "]}"
    out += "\n    }"
    return out
  }

  /// One change object: the element as in ``attribute(_:)``, then how it changes.
  static func change(_ c: ElementChange) -> String {
    element(c.indexPath, c.scope, c.category, c.kind)
      + "\"change\": \"\(c.change.rawValue)\", \"from\": \(rect(c.from)), \"to\": \(rect(c.to)), "
      + "\"fromAlpha\": \(JSONWriter.number(c.fromAlpha)), \"toAlpha\": \(JSONWriter.number(c.toAlpha))}"
  }

  /// What names an element, opening its object: section, item, category and kind as its
  /// scope and category have them.
  static func element(
    _ path: ItemPath, _ scope: ElementScope, _ category: ElementCategory, _ kind: String
  ) -> String {
    var s = "{"
    if scope != .global { s += "\"section\": \(path.section), " }
    if scope == .item { s += "\"item\": \(path.item), " }
    s += "\"category\": \"\(category.rawValue)\", "
    if category != .cell { s += "\"kind\": \(quote(kind)), " }
    return s
  }

  /// A frame as `[x, y, width, height]`.
  static func rect(_ f: Rect) -> String {
    "[\(JSONWriter.number(f.minX)), \(JSONWriter.number(f.minY)), \(JSONWriter.number(f.width)), \(JSONWriter.number(f.height))]"
  }

  /// A JSON text nested at `indent` (its first line stays where it is put).
  static func indented(_ json: String, by indent: String) -> String {
    var lines = json.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while lines.last == "" { lines.removeLast() }
    return lines.enumerated().map { $0 == 0 ? $1 : indent + $1 }.joined(separator: "\n")
  }

  /// One attribute object.
  static func attribute(_ a: LayoutAttributes) -> String {
    element(a.indexPath, a.scope, a.category, a.kind)
      + "\"frame\": \(rect(a.frame)), \"zIndex\": \(a.zIndex)}"
  }

  /// A JSON string literal (the one escaping rule: GalleyJSON).
  static func quote(_ text: String) -> String { JSONWriter.string(text) }
}
