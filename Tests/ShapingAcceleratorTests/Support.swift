import Foundation
import GalleyJSON
import GalleyRecords
import ShapingAccelerator
import Typesetting
import XCTest

/// What the accelerator's tests read: the project's fonts, the fonts made for these tests
/// (`Fixtures/gates`, from `make-fonts.py`) and the conformance corpus.
enum Fixtures {
  static let testsDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let root = testsDir.deletingLastPathComponent().deletingLastPathComponent()
  static let library = FontLibrary(directory: root.appendingPathComponent("fonts").path)

  static func url(_ name: String) -> URL { testsDir.appendingPathComponent("Fixtures/\(name)") }

  /// The conformance corpus's cases (`Corpus/corpus.jsonl`), read by Galley's own reader.
  static let corpus = corpus(library: library)

  /// The corpus's cases with their fonts from `library`.
  static func corpus(library: FontLibrary) -> [TextCase] {
    let file = root.appendingPathComponent("Corpus/corpus.jsonl")
    guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { line in
      try? TextCase(json: JSONReader.readObject(Data(line.utf8)).object, library: library)
    }
  }
}

/// Installs the accelerator for the tests that compare it with HarfBuzz; where it may not run
/// (an unverified HarfBuzz) they skip, saying why, and the rest of the suite runs on HarfBuzz
/// alone.
func requireVerifiedAccelerator() throws {
  if let fence = ShapingAccelerator.install() { throw XCTSkip("accelerator off: \(fence)") }
}
