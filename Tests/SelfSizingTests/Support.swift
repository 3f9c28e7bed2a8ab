import GalleyRecords
import Foundation
import XCTest
import SelfSizing
import GalleyJSON
import Typesetting

enum Fixtures {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let library = FontLibrary(directory: root.appendingPathComponent("fonts").path)

  /// The conformance corpus (texts measured by Chromium elsewhere; here only the texts are used).
  // nonisolated(unsafe): read-only once initialised.
  nonisolated(unsafe) static let corpus: [[String: Any]] = {
    let url = root.appendingPathComponent("Corpus/corpus.jsonl")
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }()

  /// A real-looking transcript: the corpus texts in turn, with their fonts, sizes and wrapping.
  static func transcript(_ n: Int, containerWidth: Double = 390) throws -> [BubbleCell] {
    var cells: [BubbleCell] = []
    cells.reserveCapacity(n)
    for i in 0..<n {
      let o = corpus[i % corpus.count]
      let c = try TextCase(json: o, library: library)
      var b = BubbleCell(text: c.text, style: c.style, containerWidth: containerWidth)
      b.maxWidthFraction = 0.75
      b.sender = i % 3 == 0 ? .me : .other
      b.category = o["category"] as? String
      if i % 4 == 1 { b.timestamp = "19:0\(i % 10)" }
      cells.append(b)
    }
    return cells
  }

  static func productTitles() -> [(String, String)] {
    corpus.filter { ($0["category"] as? String) == "product" }.map {
      ($0["text"] as! String, ($0["lang"] as? String) ?? "")
    }
  }
}

extension JSONObject {
  /// A fixture record the tests hold as Foundation objects, read again by Galley's one reader
  /// (through its JSON text), so that records reach the library exactly as a file's would.
  init(_ foundation: [String: Any]) throws {
    self = try JSONReader.readObject(JSONSerialization.data(withJSONObject: foundation)).object
  }
}

extension TextCase {
  init(json foundation: [String: Any], library: FontLibrary) throws {
    try self.init(json: JSONObject(foundation), library: library)
  }
}

extension CellRecord {
  init(
    json foundation: [String: Any], library: FontLibrary, defaultTemplate: CellTemplate? = nil,
    proposedWidth: Double? = nil
  ) throws {
    try self.init(
      json: JSONObject(foundation), library: library, defaultTemplate: defaultTemplate,
      proposedWidth: proposedWidth)
  }
}

/// Checks errors per script group against ceilings (a ratchet per group) and returns the table
/// of p95 and max per group that the tests print.
func checkPerScriptGroup(
  _ errors: [ScriptGroup: [Double]], ceilings: [ScriptGroup: (p95: Double, max: Double)],
  header: String, file: StaticString = #filePath, line: UInt = #line
) throws -> String {
  var table = header + "\n"
  for (group, list) in errors.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
    let s = ErrorStatistics(list)
    table += group.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)
      + String(format: "%4d %7.2f %7.2f\n", s.count, s.p95, s.max)
    let ceiling = try XCTUnwrap(ceilings[group], "no ceiling for \(group)", file: file, line: line)
    XCTAssertLessThanOrEqual(s.p95, ceiling.p95 + 1e-6, "p95 of \(group)", file: file, line: line)
    XCTAssertLessThanOrEqual(s.max, ceiling.max + 1e-6, "max of \(group)", file: file, line: line)
  }
  return table
}
