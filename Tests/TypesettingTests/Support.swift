import GalleyRecords
import Foundation
import GalleyJSON
import Typesetting

/// Paths and shared objects for the tests: the project's own fonts and fixtures only.
enum Fixtures {
  static let testsDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let root = testsDir.deletingLastPathComponent().deletingLastPathComponent()
  static let fontsDir = root.appendingPathComponent("fonts").path
  static let library = FontLibrary(directory: fontsDir)

  static func url(_ name: String) -> URL { testsDir.appendingPathComponent("Fixtures/\(name)") }

  /// A file of the conformance corpus (`Corpus/`: the cases, and what Chromium and Pango
  /// measured for them), one JSON object a line.
  static func jsonLines(_ name: String) throws -> [[String: Any]] {
    let text = try String(
      contentsOf: root.appendingPathComponent("Corpus/\(name)"), encoding: .utf8)
    return try text.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
  }

  static func style(_ fonts: [String], size: Double = 17) throws -> TextStyle {
    TextStyle(fonts: try library.stack(fonts), size: size)
  }
}

extension JSONObject {
  /// A fixture record the tests hold as Foundation objects, read again by Galley's one reader
  /// (through its JSON text), so that cases reach the library exactly as a file's would.
  init(_ foundation: [String: Any]) throws {
    self = try JSONReader.readObject(JSONSerialization.data(withJSONObject: foundation)).object
  }
}

extension TextCase {
  init(json foundation: [String: Any], library: FontLibrary) throws {
    try self.init(json: JSONObject(foundation), library: library)
  }
}
