/// Writes a layout result in the output format of LAYOUT-SPEC.md, in a fixed key order with compact numbers.
package enum LayoutJSONEncoder {
  /// The JSON text: one object with `contentSize`, `attributes`, `orthogonal`, `warnings` and,
  /// when some cell could not be measured, `errors`; one attribute a line.
  /// - Complexity: O(n).
  package static func encode(_ result: LayoutResult) -> String {
    var out =
      "{\n  \"contentSize\": {\"width\": \(fmt(result.contentSize.width)), \"height\": \(fmt(result.contentSize.height))},\n"
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
        "{\"section\": \(o.section), \"contentWidth\": \(fmt(o.contentWidth)), \"pageOffsets\": ["
      out += o.pageOffsets.map(fmt).joined(separator: ", ") + "]}"
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
    if !result.cellErrors.isEmpty {
      // (Only when some cell could not be measured: it was laid out at its estimated size.)
      out += ",\n  \"errors\": ["
      for (k, e) in result.cellErrors.enumerated() {
        out += k == 0 ? "\n    " : ",\n    "
        out +=
          "{\"section\": \(e.indexPath.section), \"item\": \(e.indexPath.item), \"error\": \(quote(e.message)), \"estimated\": true}"
      }
      out += "\n  ]"
    }
    out += "\n}\n"
    return out
  }

  /// One attribute object.
  static func attribute(_ a: LayoutAttributes) -> String {
    var s = "{"
    if a.scope != .global { s += "\"section\": \(a.indexPath.section), " }
    if a.scope == .item { s += "\"item\": \(a.indexPath.item), " }
    s += "\"category\": \"\(a.category.rawValue)\", "
    if a.category != .cell { s += "\"kind\": \(quote(a.kind)), " }
    let f = a.frame
    s +=
      "\"frame\": [\(fmt(f.minX)), \(fmt(f.minY)), \(fmt(f.width)), \(fmt(f.height))], \"zIndex\": \(a.zIndex)}"
    return s
  }

  /// A JSON string literal.
  static func quote(_ text: String) -> String {
    var s = "\""
    for u in text.unicodeScalars {
      switch u {
      case "\"": s += "\\\""
      case "\\": s += "\\\\"
      case "\n": s += "\\n"
      case "\r": s += "\\r"
      case "\t": s += "\\t"
      default:
        if u.value < 0x20 {
          let hex = String(u.value, radix: 16)
          s += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          s.unicodeScalars.append(u)
        }
      }
    }
    return s + "\""
  }
}
