import Foundation
import Typesetting
import XCTest

/// Bad input gets a specific error or a defined result, never a crash or a hang.
final class BadInputTests: XCTestCase {
  let typesetter = Typesetter(cacheCapacity: 0)

  func latin(_ size: Double = 17) throws -> TextStyle {
    try Fixtures.style(["NotoSans-Regular.ttf", "NotoColorEmoji.ttf"], size: size)
  }

  func testEmptyTextIsZeroLinesAndZeroHeight() throws {
    for ws in TextStyle.WhiteSpace.allCases {
      var style = try latin()
      style.whiteSpace = ws
      let layout = try typesetter.prepare("", style: style).layout(width: 100)
      XCTAssertEqual(layout.lineCount, 0, "\(ws)")
      XCTAssertEqual(layout.height, 0)
      XCTAssertEqual(layout.widest, 0)
    }
  }

  func testInvalidWidthsAreErrors() throws {
    let prepared = try typesetter.prepare("hello", style: try latin())
    for w in [Double.nan, .infinity, -.infinity, 0, -1, -0.0] {
      XCTAssertThrowsError(try prepared.layout(width: w)) { error in
        guard case TypesettingError.invalidWidth = error else {
          return XCTFail("expected invalidWidth for \(w), got \(error)")
        }
      }
    }
  }

  func testInvalidStylesAreErrors() throws {
    var style = try latin()
    for size in [0, -3, Double.nan, .infinity] {
      style.size = size
      XCTAssertThrowsError(try typesetter.prepare("x", style: style)) { error in
        guard case TypesettingError.invalidFontSize = error else { return XCTFail("\(error)") }
      }
    }
    style = try latin()
    style.lineHeight = .points(-1)
    XCTAssertThrowsError(try typesetter.prepare("x", style: style))
    style = try latin()
    style.maxLines = -1
    XCTAssertThrowsError(try typesetter.prepare("x", style: style))
  }

  func testWidthNarrowerThanOneGraphemeGivesOneGraphemePerLine() throws {
    var style = try latin()
    style.overflowWrap = .anywhere
    let text = "abc👩‍👩‍👧e\u{301}"  // the family emoji and e + combining acute stay whole
    let layout = try typesetter.prepare(text, style: style).layout(width: 0.5)
    XCTAssertEqual(layout.lineCount, 5)
    let scalarStarts = layout.lines.map(\.start)
    XCTAssertEqual(scalarStarts, [0, 1, 2, 3, 8])
  }

  func testTinyAndHugeWidths() throws {
    var style = try latin()
    style.overflowWrap = .normal
    let prepared = try typesetter.prepare("one two three", style: style)
    XCTAssertEqual(try prepared.layout(width: 1e-9).lineCount, 3)  // words overflow, one per line
    XCTAssertEqual(try prepared.layout(width: 1e9).lineCount, 1)
    style.overflowWrap = .breakWord  // 11 graphemes, the 2 spaces hang: one grapheme per line
    XCTAssertEqual(
      try typesetter.prepare("one two three", style: style).layout(width: 1e-9).lineCount, 11)
  }

  func testMissingAndCorruptFontsNameTheFile() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-bad-fonts-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let library = FontLibrary(directory: dir.path)
    XCTAssertThrowsError(try library.font(named: "Missing.ttf")) { error in
      XCTAssertTrue("\(error)".contains("Missing.ttf"), "\(error)")
    }
    // Random bytes, an empty file, a truncated real font, and a directory.
    var rng = SystemRandomNumberGenerator()
    let random = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) })
    try random.write(to: dir.appendingPathComponent("Random.ttf"))
    try Data().write(to: dir.appendingPathComponent("Empty.ttf"))
    let real = try Data(
      contentsOf: URL(fileURLWithPath: Fixtures.fontsDir + "/NotoSansHebrew-Regular.ttf"))
    try real.prefix(300).write(to: dir.appendingPathComponent("Truncated.ttf"))
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("Folder.ttf"), withIntermediateDirectories: true)
    for name in ["Random.ttf", "Empty.ttf", "Truncated.ttf", "Folder.ttf"] {
      XCTAssertThrowsError(try library.font(named: name), name) { error in
        XCTAssertTrue("\(error)".contains(name), "\(name): \(error)")
      }
    }
  }

  func testCollectionFaceIndexOutOfRange() throws {
    XCTAssertNoThrow(try Fixtures.library.font(named: "NotoSansCJK-Regular.ttc#0"))
    XCTAssertThrowsError(try Fixtures.library.font(named: "NotoSansCJK-Regular.ttc#99")) { error in
      guard case TypesettingError.fontFaceIndexOutOfRange(_, 99, let count) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertGreaterThan(count, 1)
    }
  }

  func testMegabyteStringWithoutBreaksIsMeasured() throws {
    var style = try latin(13)
    style.overflowWrap = .anywhere
    let text = String(repeating: "x", count: 1 << 20)
    let prepared = try typesetter.prepare(text, style: style)
    let layout = try prepared.layout(width: 300)
    // Every line but the last is full; together they hold every character once.
    XCTAssertGreaterThan(layout.lineCount, 1000)
    XCTAssertEqual(layout.lines.first?.start, 0)
    XCTAssertEqual(layout.visibleRange, 0..<(1 << 20))
    let starts = layout.lines.map(\.start)
    XCTAssertEqual(starts, starts.sorted())
    XCTAssertEqual(Set(starts).count, starts.count)
  }

  func testLoneSurrogatesAndControlsDoNotCrash() throws {
    let style = try latin()
    let text = "a\u{FFFD}\u{0}\u{1}\u{7F}b\u{202E}c\u{2066}d"
    let layout = try typesetter.prepare(text, style: style).layout(width: 50)
    XCTAssertGreaterThanOrEqual(layout.lineCount, 1)
  }

  func testMaxLinesZeroMeansNoLimit() throws {
    var style = try latin()
    style.maxLines = 0
    let layout = try typesetter.prepare("one two three four", style: style).layout(width: 45)
    XCTAssertEqual(layout.lineCount, 4)
    XCTAssertFalse(layout.isTruncated)
  }
}
