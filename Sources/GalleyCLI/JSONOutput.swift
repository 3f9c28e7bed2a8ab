import Foundation

/// Writes JSON values compactly and deterministically (keys in the order given, numbers in
/// their shortest exact form).
struct JSONWriter {
  private(set) var text = ""

  init() { text.reserveCapacity(256) }

  static func number(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
    // Drop float noise below 1e-9 so that sums like 0.1 + 0.2 print as written.
    let r = (v * 1e9).rounded() / 1e9
    return "\(r)"
  }

  static func string(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if u.value < 0x20 || u == "\u{2028}" || u == "\u{2029}" {
          out += String(format: "\\u%04x", u.value)
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    return out + "\""
  }

  /// An object from ordered key/value pairs whose values are already JSON.
  static func object(_ pairs: [(String, String)]) -> String {
    "{" + pairs.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
  }

  static func array(_ values: [String]) -> String { "[" + values.joined(separator: ", ") + "]" }
  static func numbers(_ values: [Double]) -> String { array(values.map(number)) }
  static func ints(_ values: [Int]) -> String { array(values.map { String($0) }) }
}
