import Foundation

/// The records whose texts hold characters no font has, gathered from the worker threads and
/// reported once at the end of a run (the first few in input order): one rule for every
/// command that measures (`measure`, `validate`, `render`, `layout`).
package final class MissingGlyphs: @unchecked Sendable {
  // @unchecked: `found` is touched under `lock` only.
  private let lock = NSLock()
  private var found: [(order: Int, place: String, characters: [Unicode.Scalar])] = []
  /// The places noted (a cell measured again, before and after a batch, is one record).
  private var places = Set<String>()

  /// A record of an input line (`line 12 (m11)`).
  package init() {}

  package func note(line: Int, id: String, _ characters: [Unicode.Scalar]) {
    note(order: line, place: "line \(line) (\(id))", characters)
  }

  /// A record anywhere else (a layout spec's cell: `sections[1].cells[0]`), `order` its place
  /// among the others.
  package func note(order: Int, place: String, _ characters: [Unicode.Scalar]) {
    guard !characters.isEmpty else { return }
    lock.lock()
    if places.insert(place).inserted { found.append((order, place, characters)) }
    lock.unlock()
  }

  /// `U+BBFC 민, U+C9C0 지` (the first few).
  package static func describe(_ characters: [Unicode.Scalar]) -> String {
    var seen = Set<UInt32>()
    let unique = characters.filter { seen.insert($0.value).inserted }
    let shown = unique.prefix(4).map { c in
      let hex = String(c.value, radix: 16, uppercase: true)
      return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + " " + String(c)
    }
    return shown.joined(separator: ", ") + (unique.count > 4 ? ", …" : "")
  }

  /// The error of a record under `--strict-glyphs`.
  package static func message(_ characters: [Unicode.Scalar]) -> String {
    "\(counted(characters.count, "character")) no font of the stack has: \(describe(characters))"
  }

  /// The one warning of a run (nil when no record had such characters): how many records, and
  /// the first few with their lines.
  package func report(command: String, strict: Bool) -> String? {
    lock.lock()
    let all = found.sorted { $0.order < $1.order }
    lock.unlock()
    guard !all.isEmpty else { return nil }
    var text =
      "galley \(command): \(counted(all.count, "record")) \(all.count == 1 ? "holds" : "hold") "
      + "characters no font of their stack has"
      + (strict
        ? " (error records: --strict-glyphs)"
        : " (set in another font of the font directory, or as the missing-glyph box)")
    for r in all.prefix(5) {
      text += "\n  \(r.place): \(MissingGlyphs.describe(r.characters))"
    }
    if all.count > 5 { text += "\n  …" }
    return text
  }
}
