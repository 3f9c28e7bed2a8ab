@testable import GalleyRecords
import Foundation
import GalleyBench
import XCTest

@testable import Typesetting

/// The hostile-input table (issue 6): fonts and texts built to break a text engine. Each row
/// asserts the defined result or the specific error. Rows that used to be slow assert on the
/// *work* given to HarfBuzz (run lengths, feature counts), never on time; the timings of every
/// row at doubling sizes are printed by `Scripts/hostile-timings`.
///
/// | row | outcome |
/// |---|---|
/// | zero-length font | `fontInvalid(name, "0 bytes is too short")` |
/// | truncated font (every cut of four real fonts) | `fontInvalid(name, …)`, or it loads what survived and measures finite sizes |
/// | random bytes (with and without an sfnt/ttcf tag) | `fontInvalid(name, …)` |
/// | font without `cmap` | `fontInvalid(name, "no character map (cmap table)")` |
/// | TTC face index out of range, negative, on a plain TTF | `fontFaceIndexOutOfRange(name, index, count)` |
/// | /dev/zero, /dev/null, /dev/stdin, a FIFO named as a font | `fontFileUnreadable(path, "not a regular file")` |
/// | 1 MB without a break opportunity | one line (overflow-wrap normal) or full lines of it (break-word) |
/// | 100k combining marks on one base | one line as wide as the base; runs of ≤ 33 code points |
/// | 10k ZWJ-joined emoji | one grapheme, one line |
/// | bidi controls nested 200 deep | same widths as one level deep |
/// | widths 1e-9 and 1e9 | one grapheme per line / only forced breaks; `measure` agrees |
/// | font size 0 / 10 000 / 1e300 | `invalidFontSize` / widths scale by exactly the size / `invalidFontSize` |
/// | maxLines 0 | no limit, not truncated, for every truncation mode |
/// (Unpaired surrogates arriving as JSON escapes are rows of `MeasureCommandHostileTests`.)
final class HostileInputTests: XCTestCase {
  let typesetter = Typesetter(cacheCapacity: 0)

  func fontData(_ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: Fixtures.fontsDir + "/" + name))
  }

  func expectFontInvalid(
    _ data: Data, name: String, faceIndex: Int = 0, reason: String? = nil,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(
      try Font(data: data, name: name, faceIndex: faceIndex), file: file, line: line
    ) { error in
      guard case TypesettingError.fontInvalid(let n, let r) = error else {
        return XCTFail("\(name): expected fontInvalid, got \(error)", file: file, line: line)
      }
      XCTAssertEqual(n, name, file: file, line: line)
      if let reason { XCTAssertEqual(r, reason, file: file, line: line) }
    }
  }

  /// A finite, non-negative size for a short mixed text in a stack led by `font`.
  func assertMeasures(_ font: Font, file: StaticString = #filePath, line: UInt = #line) throws {
    let style = TextStyle(fonts: try FontStack([font]), size: 17)
    let layout = try typesetter.prepare("Hello, 世界 😀 שלום", style: style).layout(width: 80)
    XCTAssertGreaterThanOrEqual(layout.lineCount, 1, file: file, line: line)
    XCTAssertTrue(
      layout.height.isFinite && layout.height >= 0, "\(font.name)", file: file, line: line)
    XCTAssertTrue(
      layout.widest.isFinite && layout.widest >= 0, "\(font.name)", file: file, line: line)
  }

  // MARK: - Fonts

  func testZeroLengthAndTooShortFonts() {
    expectFontInvalid(Data(), name: "empty.ttf", reason: "0 bytes is too short")
    expectFontInvalid(Data([0, 1, 0, 0]), name: "four.ttf", reason: "4 bytes is too short")
    // Through a library: the error names the file.
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-hostile-empty-\(getpid())")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = FileManager.default.createFile(atPath: dir.path + "/Empty.otf", contents: Data())
    XCTAssertThrowsError(try FontLibrary(directory: dir.path).font(named: "Empty.otf")) { error in
      XCTAssertEqual(
        error as? TypesettingError, .fontInvalid(name: "Empty.otf", reason: "0 bytes is too short"))
    }
  }

  func testTruncatedFonts() throws {
    var loaded = 0
    var rejected = 0
    for name in [
      "NotoSans-Regular.ttf", "Inter-Regular.otf", "NotoColorEmoji.ttf", "NotoSansCJK-Regular.ttc",
    ] {
      let data = try fontData(name)
      let cuts = [
        1, 11, 12, 13, 64, 300, 1024, 4096, data.count / 4, data.count / 2, data.count - 1,
      ]
      for cut in cuts {
        let prefix = data.prefix(cut)
        let label = "\(name)[..<\(cut)]"
        do {
          let font = try Font(data: prefix, name: label)
          loaded += 1
          try assertMeasures(font)
        } catch let error as TypesettingError {
          rejected += 1
          guard case .fontInvalid(let n, _) = error else {
            XCTFail("\(label): expected fontInvalid, got \(error)")
            continue
          }
          XCTAssertEqual(n, label)
        }
        if cut < 12 {
          expectFontInvalid(prefix, name: label, reason: "\(cut) bytes is too short")
        } else if cut <= 300 {
          // Only the table directory survives: no glyph counts, no tables.
          expectFontInvalid(prefix, name: label)
        }
      }
    }
    XCTAssertEqual(loaded + rejected, 44)
    XCTAssertGreaterThan(rejected, 24)
  }

  func testRandomBytesAreNotFonts() {
    var rng = SplitMix(state: 0x6A11E7)
    let tags: [[UInt8]] = [
      [], [0, 1, 0, 0], Array("OTTO".utf8), Array("ttcf".utf8), Array("true".utf8),
    ]
    for size in [12, 13, 100, 4096, 65536] {
      for tag in tags {
        for trial in 0..<4 {
          var bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
          for (i, b) in tag.enumerated() { bytes[i] = b }
          let name = "random-\(size)-\(String(decoding: tag, as: UTF8.self))-\(trial)"
          for index in [0, 1] {
            XCTAssertThrowsError(try Font(data: Data(bytes), name: name, faceIndex: index)) {
              error in
              switch error as? TypesettingError {
              case .fontInvalid(name, _)?: break
              case .fontFaceIndexOutOfRange(name, index, _)?: XCTAssertEqual(index, 1)
              default: XCTFail("\(name)#\(index): \(error)")
              }
            }
          }
        }
      }
    }
  }

  /// A copy of an sfnt font without one table: the directory entry is removed (offsets are
  /// absolute, so the table data stays where it is, unreferenced).
  static func strip(_ tag: String, from data: Data) -> Data {
    var bytes = [UInt8](data)
    func u16(_ o: Int) -> Int { Int(bytes[o]) << 8 | Int(bytes[o + 1]) }
    let count = u16(4)
    var entries: [[UInt8]] = []
    for i in 0..<count {
      let o = 12 + 16 * i
      let entry = Array(bytes[o..<o + 16])
      if entry[0..<4] != ArraySlice(Array(tag.utf8)) { entries.append(entry) }
    }
    precondition(entries.count == count - 1, "no \(tag) table")
    bytes[4] = UInt8((count - 1) >> 8)
    bytes[5] = UInt8((count - 1) & 0xFF)
    var o = 12
    for e in entries + [[UInt8](repeating: 0, count: 16)] {
      bytes.replaceSubrange(o..<o + 16, with: e)
      o += 16
    }
    return Data(bytes)
  }

  func testFontWithoutCmap() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-hostile-cmap-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for name in ["NotoSans-Regular.ttf", "Inter-Regular.otf"] {
      let original = try fontData(name)
      XCTAssertNoThrow(try Font(data: original, name: name))
      let stripped = HostileInputTests.strip("cmap", from: original)
      expectFontInvalid(stripped, name: "NoCmap-" + name, reason: "no character map (cmap table)")
      // The same file in a font directory, named by a case: a case error that names the file.
      try stripped.write(to: dir.appendingPathComponent("NoCmap-" + name))
      let library = FontLibrary(directory: dir.path)
      XCTAssertThrowsError(
        try TextCase(
          json: ["text": "hi", "width": 100, "fonts": ["NoCmap-" + name]], library: library)
      ) { error in
        XCTAssertEqual(
          (error as? CaseError)?.description,
          "invalid font NoCmap-\(name): no character map (cmap table)")
      }
    }
  }

  func testFaceIndexOutOfRange() throws {
    let ttc = try fontData("NotoSansCJK-Regular.ttc")
    var faces = 0
    XCTAssertThrowsError(try Font(data: ttc, name: "cjk.ttc", faceIndex: 1000)) { error in
      if case TypesettingError.fontFaceIndexOutOfRange(_, _, let count) = error { faces = count }
    }
    XCTAssertNoThrow(try Font(data: ttc, name: "cjk.ttc", faceIndex: faces - 1))
    XCTAssertGreaterThan(faces, 1)
    for index in [faces, faces + 1, 1000, Int(Int32.max), Int.max] {
      XCTAssertThrowsError(try Font(data: ttc, name: "cjk.ttc", faceIndex: index)) { error in
        XCTAssertEqual(
          error as? TypesettingError,
          .fontFaceIndexOutOfRange(name: "cjk.ttc", index: index, count: faces))
      }
    }
    XCTAssertThrowsError(try Font(data: ttc, name: "cjk.ttc", faceIndex: -1)) { error in
      XCTAssertEqual(
        error as? TypesettingError, .fontFaceIndexOutOfRange(name: "cjk.ttc", index: -1, count: 0))
    }
    // A plain font has one face.
    XCTAssertThrowsError(
      try Font(data: try fontData("NotoSans-Regular.ttf"), name: "n.ttf", faceIndex: 1)
    ) { error in
      XCTAssertEqual(
        error as? TypesettingError, .fontFaceIndexOutOfRange(name: "n.ttf", index: 1, count: 1))
    }
    // Through a library name with `#index`.
    XCTAssertThrowsError(try Fixtures.library.font(named: "NotoSansCJK-Regular.ttc#-1")) { error in
      XCTAssertEqual(
        error as? TypesettingError,
        .fontFaceIndexOutOfRange(name: "NotoSansCJK-Regular.ttc", index: -1, count: 0))
    }
  }

  /// Regression: a case could name any absolute path as a font; /dev/zero was read until memory
  /// ran out, and a FIFO or /dev/stdin blocked forever.
  func testDevicesAndPipesAreNotFontFiles() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-hostile-fifo-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.path + "/pipe.ttf"
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    for path in ["/dev/zero", "/dev/null", "/dev/stdin", fifo] {
      XCTAssertThrowsError(try Font(contentsOf: path)) { error in
        XCTAssertEqual(
          error as? TypesettingError, .fontFileUnreadable(path: path, reason: "not a regular file"))
      }
    }
    // (Through a library that allows paths outside its directory: by default such a name is
    // refused before the file is looked at; FontLibraryBoundsTests.)
    let anywhere = FontLibrary(directory: Fixtures.fontsDir, allowingPathsOutside: true)
    XCTAssertThrowsError(
      try TextCase(json: ["text": "x", "width": 10, "fonts": ["/dev/zero"]], library: anywhere)
    ) { error in
      XCTAssertEqual(
        (error as? CaseError)?.description, "cannot read font file /dev/zero: not a regular file")
      guard case .font = error as? CaseError else { return XCTFail("\(error)") }
    }
  }

  // MARK: - Texts

  func testMegabyteWithoutBreakOpportunity() throws {
    let n = 1 << 20
    let text = String(repeating: "x", count: n)
    var style = try Fixtures.style(["NotoSans-Regular.ttf"], size: 13)
    style.overflowWrap = .normal
    style.profile = .apple  // exact widths, no snapping
    let x = try typesetter.prepare("x", style: style).layout(width: 100).widest
    let prepared = try typesetter.prepare(text, style: style)
    let layout = try prepared.layout(width: 300)
    // Nowhere to break: one line that overflows, as wide as a million x's.
    XCTAssertEqual(layout.lineCount, 1)
    XCTAssertEqual(layout.widest, Double(n) * x, accuracy: 0.01)
    let m = try prepared.measure(width: 300)
    XCTAssertEqual(m.lines, 1)
    XCTAssertEqual(m.widest, layout.widest)
    // break-word: full lines of whole x's, the last one holding the rest.
    style.overflowWrap = .breakWord
    let broken = try typesetter.prepare(text, style: style).layout(width: 300)
    let perLine = broken.lines[1].start - broken.lines[0].start
    XCTAssertEqual(broken.lineCount, (n + perLine - 1) / perLine)
    XCTAssertTrue(
      zip(broken.lines, broken.lines.dropFirst()).allSatisfy { $1.start - $0.start == perLine })
    // Korean with keep-all: no break opportunity either (words stay whole), so the same holds.
    var korean = try Fixtures.style(["NanumGothic.ttf"], size: 13)
    korean.wordBreak = .keepAll
    korean.overflowWrap = .normal
    let hangul = String(repeating: "가", count: n / 3)  // 1 MB of UTF-8
    XCTAssertEqual(try typesetter.prepare(hangul, style: korean).layout(width: 300).lineCount, 1)
  }

  func testHundredThousandCombiningMarksOnOneBase() throws {
    let style = try Fixtures.style(["NotoSans-Regular.ttf"], size: 17)
    let text = "a" + String(repeating: "\u{301}", count: 100_000)
    let prepared = try typesetter.prepare(text, style: style)
    XCTAssertEqual(prepared.graphemeCount, 1)
    let layout = try prepared.layout(width: 300)
    let small = try typesetter.prepare("a\u{301}", style: style).layout(width: 300)
    XCTAssertEqual(layout.lineCount, 1)
    XCTAssertEqual(layout.widest, small.widest)  // marks have no advance
    XCTAssertEqual(layout.visibleRange, 0..<100_001)
    // The work given to HarfBuzz: no run holds more than the stream-safe number of marks (one
    // run of 100 001 code points took HarfBuzz time quadratic in the marks).
    // (Preparing also shapes a space, an ellipsis and a hyphen: the runs of an empty text.)
    let extra = try typesetter.shapingBaseline([("", style)]).runCount
    let runs = try typesetter.shapingBaseline([(text, style)]).items.dropLast(extra)
    XCTAssertEqual(runs.map(\.text.count).reduce(0, +), 100_001)
    XCTAssertLessThanOrEqual(runs.map(\.text.count).max() ?? 0, Itemization.maximumMarksPerRun + 1)
    // A short stack of marks is still shaped in one run with its base.
    let short = "a" + String(repeating: "\u{301}", count: Itemization.maximumMarksPerRun)
    XCTAssertEqual(try typesetter.shapingBaseline([(short, style)]).runCount, 1 + extra)
  }

  func testTenThousandZWJJoinedEmoji() throws {
    let style = try Fixtures.style(["NotoSans-Regular.ttf", "NotoColorEmoji.ttf"], size: 17)
    let text = "👩" + String(repeating: "\u{200D}👩", count: 9_999)
    let prepared = try typesetter.prepare(text, style: style)
    XCTAssertEqual(prepared.graphemeCount, 1)  // one extended grapheme cluster (GB11)
    for width in [1.0, 300, 1e9] {
      let layout = try prepared.layout(width: width)
      XCTAssertEqual(layout.lineCount, 1)  // a grapheme is never split
      XCTAssertEqual(layout.lines[0].start, 0)
      XCTAssertEqual(layout.visibleRange, 0..<19_999)
      XCTAssertTrue(layout.widest.isFinite && layout.widest > 0)
    }
  }

  func testBidiControlsNestedTwoHundredDeep() throws {
    let style = try Fixtures.style(
      ["NotoSans-Regular.ttf", "NotoSansHebrew-Regular.ttf", "NotoSansArabic-Regular.ttf"], size: 17
    )
    let body = "abc שלום 123 مرحبا"
    // Embeddings, overrides and isolates; ICU stops nesting at depth 125 (the overflow is
    // ignored, as UAX #9 says), so 200 deep sets the text as 1 deep does.
    let kinds: [(open: [Character], close: Character)] = [
      (["\u{202B}"], "\u{202C}"), (["\u{202A}"], "\u{202C}"), (["\u{202E}"], "\u{202C}"),
      (["\u{2067}"], "\u{2069}"), (["\u{2066}", "\u{2067}"], "\u{2069}"),
    ]
    for kind in kinds {
      func nested(_ depth: Int) -> String {
        let opens = (0..<depth).map { kind.open[$0 % kind.open.count] }
        return String(opens) + body + String(repeating: kind.close, count: depth)
      }
      let deep = try typesetter.prepare(nested(200), style: style).layout(width: 1e4)
      let oneLevel = try typesetter.prepare(nested(1), style: style).layout(width: 1e4)
      XCTAssertEqual(deep.lineCount, 1)
      XCTAssertEqual(deep.widest, oneLevel.widest, accuracy: 1.0 / 64, "\(kind.open)")
      XCTAssertEqual(deep.visibleRange.upperBound, nested(200).unicodeScalars.count)
      // Unbalanced: 200 openings and no closing.
      let open = try typesetter.prepare(
        String(repeating: kind.close, count: 200) + nested(200).dropLast(200), style: style)
      XCTAssertEqual(try open.layout(width: 1e4).lineCount, 1)
    }
  }

  func testTinyAndHugeWidthsOnEveryKindOfText() throws {
    let text = "Tab\there, soft\u{AD}hyphen 日本語のテキスト 😀👍🏽 שלום\nsecond  line\u{3000}end"
    let graphemes = text.count
    for ws in TextStyle.WhiteSpace.allCases {
      for ow in TextStyle.OverflowWrap.allCases {
        var style = try Fixtures.style(
          [
            "NotoSans-Regular.ttf", "NotoSansCJK-Regular.ttc", "NotoSansHebrew-Regular.ttf",
            "NotoColorEmoji.ttf",
          ], size: 17)
        style.whiteSpace = ws
        style.overflowWrap = ow
        let prepared = try typesetter.prepare(text, style: style)
        let label = "\(ws) \(ow)"
        for width in [1e-9, 1e9] {
          let layout = try prepared.layout(width: width)
          let m = try prepared.measure(width: width)
          XCTAssertEqual(m.lines, layout.lineCount, label)
          XCTAssertEqual(m.height, layout.height, accuracy: 1e-9, label)
          XCTAssertEqual(m.widest, layout.widest, accuracy: 1e-9, label)
          let starts = layout.lines.map(\.start)
          XCTAssertEqual(starts, starts.sorted(), label)
          XCTAssertEqual(Set(starts).count, starts.count, label)
          XCTAssertTrue(layout.widest.isFinite && layout.height.isFinite, label)
          if width == 1e9 {
            XCTAssertEqual(layout.lineCount, ws == .normal || ws == .nowrap ? 1 : 2, label)
          } else if (ws == .preWrap || ws == .normal) && ow != .normal {
            XCTAssertGreaterThan(layout.lineCount, 20, label)
            XCTAssertLessThanOrEqual(layout.lineCount, graphemes, label)
          }
        }
      }
    }
    // Truncated to one line at a width that holds nothing: the ellipsis alone.
    var style = try Fixtures.style(["NotoSans-Regular.ttf"], size: 17)
    style.maxLines = 1
    for t in TextStyle.Truncation.allCases {
      style.truncation = t
      let layout = try typesetter.prepare("one two three", style: style).layout(width: 1e-9)
      XCTAssertEqual(layout.lineCount, 1, "\(t)")
      XCTAssertTrue(layout.isTruncated, "\(t)")
    }
  }

  func testFontSizesZeroTenThousandAndAbsurd() throws {
    var style = try Fixtures.style(["NotoSans-Regular.ttf"], size: 0)
    for size in [0, -0.0, 1e300, Double.greatestFiniteMagnitude, TextStyle.maximumLength * 2] {
      style.size = size
      XCTAssertThrowsError(try typesetter.prepare("x", style: style)) { error in
        XCTAssertEqual(error as? TypesettingError, .invalidFontSize(size))
      }
    }
    // 10 000 points: exact metrics (apple profile) scale by exactly the size.
    style.profile = .apple
    let text = "Hamburgefonstiv 123"
    style.size = 100
    let small = try typesetter.prepare(text, style: style).layout(width: 1e9)
    style.size = 10_000
    let big = try typesetter.prepare(text, style: style).layout(width: 1e9)
    XCTAssertEqual(big.lineCount, 1)
    XCTAssertEqual(big.widest / small.widest, 100, accuracy: 1e-9)
    XCTAssertEqual(big.height / small.height, 100, accuracy: 1e-9)
    // At 10 000 points in a phone-sized width, every grapheme is a line of its own.
    style.profile = .browser
    let narrow = try typesetter.prepare("abc def", style: style).layout(width: 390)
    XCTAssertEqual(narrow.lineCount, 6)
    XCTAssertEqual(TextStyle.maximumLength, 1_000_000)
    style.size = TextStyle.maximumLength
    XCTAssertTrue(try typesetter.prepare(text, style: style).layout(width: 1).widest.isFinite)
  }

  func testOtherAbsurdStyleNumbersAreErrors() throws {
    let base = try Fixtures.style(["NotoSans-Regular.ttf"], size: 17)
    var styles: [TextStyle] = []
    for v in [1e300, -1e300] {
      var s = base
      s.letterSpacing = v
      styles.append(s)
      s = base
      s.lineSpacing = v
      styles.append(s)
    }
    for h in [TextStyle.LineHeight.points(1e300), .multiple(1e300)] {
      var s = base
      s.lineHeight = h
      styles.append(s)
    }
    var s = base
    s.lineSpacing = -1  // Apple: line spacing is never negative
    styles.append(s)
    s = base
    s.minimumLineHeight = 1e300
    styles.append(s)
    s = base
    s.features = ["ligatures": 1]
    styles.append(s)
    s = base
    s.features = ["": 1]
    styles.append(s)
    for style in styles {
      XCTAssertThrowsError(try typesetter.prepare("x", style: style)) { error in
        guard case TypesettingError.invalidStyle = error else { return XCTFail("\(error)") }
      }
    }
    // A feature value beyond UInt32 in a case is an error naming the feature, not a trap.
    XCTAssertThrowsError(
      try TextCase(
        json: ["text": "x", "width": 10, "features": ["liga": 1e10]], library: Fixtures.library)
    ) { error in
      guard case CaseError.invalidValue("features.liga", _) = error else {
        return XCTFail("\(error)")
      }
    }
  }

  func testMaxLinesZeroIsNoLimitInEveryMode() throws {
    var style = try Fixtures.style(["NotoSans-Regular.ttf"], size: 17)
    let text = String(repeating: "word ", count: 200)
    let unlimited = try typesetter.prepare(text, style: style).layout(width: 100)
    XCTAssertGreaterThan(unlimited.lineCount, 50)
    style.maxLines = 0
    for t in TextStyle.Truncation.allCases {
      style.truncation = t
      let layout = try typesetter.prepare(text, style: style).layout(width: 100)
      XCTAssertEqual(layout, unlimited, "\(t)")
      XCTAssertFalse(layout.isTruncated)
      let m = try typesetter.prepare(text, style: style).measure(width: 100)
      XCTAssertEqual(m.lines, unlimited.lineCount)
    }
    // And the largest limit a case may give is no limit in practice.
    style.maxLines = 999_999_999
    XCTAssertEqual(try typesetter.prepare(text, style: style).layout(width: 100), unlimited)
  }

  // MARK: - Regressions found while building this table

  /// Many halved fullwidth punctuation marks in one run (text-spacing-trim) were passed to
  /// HarfBuzz as one ranged feature each, and HarfBuzz applies every ranged feature with a pass
  /// over the buffer: time quadratic in the text. Now at most `HaltShaping.maximumRanges` ranges
  /// go to one call, and the two ways of shaping give the same advances.
  func testManyHalvedPunctuationMarksStayLinear() throws {
    var style = try Fixtures.style(["NotoSansCJK-Regular.ttc"], size: 17)
    style.language = "ja"
    let text = String(repeating: "」」a", count: 30_000)
    let runs = try typesetter.shapingBaseline([(text, style)]).items
    XCTAssertLessThanOrEqual(
      runs.map(\.features.count).max() ?? 0, 1 + HaltShaping.maximumRanges)
    let layout = try typesetter.prepare(text, style: style).layout(width: 300)
    XCTAssertGreaterThan(layout.lineCount, 1000)

    // Ranged features and the two-shaping way agree, code point by code point.
    let font = try Fixtures.library.font(named: "NotoSansCJK-Regular.ttc")
    for sample in ["」」a」」a「（」）、。", "（「テスト」）、「はい」。" + String(repeating: "」」・", count: 40)] {
      let scalars = sample.unicodeScalars.map(\.value)
      let halved = PunctuationTrim.halved(scalars, language: "ja")
      XCTAssertFalse(halved.isEmpty)
      let run = ShapingRun(
        start: 0, end: scalars.count, font: font, rtl: false, script: HarfBuzzShaper.script(of: 0x30C6))
      var results: [[Double]] = []
      for limit in [Int.max, 0] {
        var shaping = HaltShaping()
        var advances = [Double](repeating: 0, count: scalars.count)
        shaping.shape(
          scalars, run: run, halved: halved[...], features: [], size: 17,
          language: nil, shaper: HarfBuzzShaper(), into: &advances,
          maximumRanges: limit)
        results.append(advances)
      }
      XCTAssertEqual(results[0], results[1], sample)
      XCTAssertNotEqual(results[0].reduce(0, +), 17 * Double(scalars.count), "halt applied")
    }
  }

  // MARK: - Regressions found by fuzzing (Scripts/fuzz)

  /// typeset crash-8b3afecb: a skin tone right after a space (" 🏽") was split off twice — once
  /// as the rest of the space's cluster, once as a modifier without a base — leaving an empty
  /// grapheme, and on a narrow line two lines with one start.
  func testASkinToneAfterASpaceIsSplitOffOnce() throws {
    var style = try Fixtures.style(["NotoSans-Regular.ttf", "NotoColorEmoji.ttf"], size: 17)
    style.letterSpacing = -2
    for text in [
      "listen \u{1F3FD}\u{FFFD})", "a \u{1F3FD}\u{1F3FD} b", " \u{1F3FB}", "x \u{0301}\u{1F3FF}y",
    ] {
      let prepared = try typesetter.prepare(text, style: style)
      for width in [1e-9, 5, 30] {
        let starts = try prepared.layout(width: width).lines.map(\.start)
        XCTAssertEqual(starts, Array(Set(starts)).sorted(), "\(text.debugDescription) \(width)")
      }
    }
  }

  /// typeset crash-d3714655: with negative letter spacing some graphemes are narrower than
  /// nothing; a word broken between graphemes by overflow-wrap then came out one line short in
  /// `measure(width:)` (98 lines vs 99). Such texts now take the segment walk.
  func testMeasureAgreesWhenOverflowWrapMeetsNegativeAdvances() throws {
    // The fuzzer's input after its 8 style bytes (invalid UTF-8 becomes U+FFFD).
    let bytes: [UInt8] = [
      151, 173, 236, 139, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 108, 231, 105, 99, 32,
      103, 99, 115, 45, 98, 114, 111, 119, 110, 46, 99, 111, 109, 47, 97, 99, 99, 101, 112, 116, 45,
      114, 101, 97, 45, 99, 111, 115, 115, 114, 97, 111, 145, 145, 145, 145, 145, 145, 145, 145,
      145, 145, 145, 145, 145, 145, 145, 145, 145, 145, 145, 145, 145, 145, 145, 145, 145, 145, 145,
      145, 145, 145, 145, 145, 145, 145, 145, 145, 145, 67, 104, 3, 75, 5, 145, 145, 145, 145, 145,
      145, 145, 145, 145, 48, 145, 145, 145, 145, 145, 0, 0, 255, 255, 255, 255, 185,
    ]
    let text = String(decoding: bytes, as: UTF8.self)
    for ow in [TextStyle.OverflowWrap.anywhere, .breakWord] {
      var style = try Fixtures.style(
        ["NotoSansThai-Regular.ttf", "NotoSansDevanagari-Regular.ttf", "DejaVuSans.ttf"], size: 13)
      style.whiteSpace = .preWrap
      style.wordBreak = .breakAll
      style.overflowWrap = ow
      style.language = "he"
      style.letterSpacing = -2
      style.lineHeight = .points(59)
      style.minimumLineHeight = 74
      style.features = ["liga": 0, "kern": 1]
      let prepared = try typesetter.prepare(text, style: style)
      for width in [1.296875e-9, 0.5, 3, 7.25, 20] {
        let layout = try prepared.layout(width: width)
        let m = try prepared.measure(width: width)
        XCTAssertEqual(m.lines, layout.lineCount, "\(ow) \(width)")
        XCTAssertEqual(m.height, layout.height, accuracy: 1e-9, "\(ow) \(width)")
        XCTAssertEqual(m.widest, layout.widest, accuracy: 1e-9, "\(ow) \(width)")
      }
    }
  }

  /// typeset crash-8a588af3: a combining mark after a space (its own cluster part, which a line
  /// may start with) alone on a line too narrow for more: the line's start moved on to the next
  /// cluster, where the next line starts too — two lines with one start. Now such a line starts
  /// at the mark (its Character offset is the Character the mark belongs to).
  func testAMarkAloneOnALineKeepsItsOwnStart() throws {
    for stack in [["NanumGothic.ttf", "NotoColorEmoji.ttf"], ["NotoSans-Regular.ttf"]] {
      for ws in [TextStyle.WhiteSpace.preWrap, .normal] {
        var style = try Fixtures.style(stack, size: 1)
        style.whiteSpace = ws
        style.overflowWrap = .anywhere
        style.letterSpacing = 2.5
        let text = "|\u{1A} \u{0302}\u{FFFD}dc a \u{0301}\u{0302}b"
        let prepared = try typesetter.prepare(text, style: style)
        let layout = try prepared.layout(width: 0.6640625)
        let starts = layout.lines.map(\.start)
        XCTAssertEqual(starts, Array(Set(starts)).sorted(), "\(ws) \(starts)")
        let characters = prepared.lineStartCharacters(layout)
        XCTAssertEqual(characters, characters.sorted(), "\(ws)")
        XCTAssertLessThanOrEqual(characters.last ?? 0, text.count)
      }
    }
  }

  /// typeset crash-7703da77: with `white-space: nowrap` or `pre` (no soft wraps), the fast
  /// `measure(width:)` ended the line after any first segment wider than the width, one line
  /// per word, where `layout(width:)` gives one line up to the next forced break (94 vs 1).
  func testMeasureAgreesWithLayoutWhenNothingWrapsAndAWordOverflows() throws {
    for ws in [TextStyle.WhiteSpace.nowrap, .pre] {
      var style = try Fixtures.style(["NotoSans-Regular.ttf", "NanumGothic.ttf"], size: 10_000)
      style.whiteSpace = ws
      style.maxLines = 0
      let prepared = try typesetter.prepare("동해 물과 백두산이 마르고 닳도록\nsecond line here", style: style)
      for width in [240.25, 1e-9, 1e9] {
        let layout = try prepared.layout(width: width)
        XCTAssertEqual(layout.lineCount, ws == .pre ? 2 : 1, "\(ws) \(width)")
        let m = try prepared.measure(width: width)
        XCTAssertEqual(m.lines, layout.lineCount, "\(ws) \(width)")
        XCTAssertEqual(m.height, layout.height, accuracy: 1e-9)
        XCTAssertEqual(m.widest, layout.widest, accuracy: 1e-9)
      }
    }
  }

  /// typeset crash-235386f4: with negative letter spacing, glyph advances go negative, and the
  /// last line of a truncated layout (start/middle/end) reported a negative width (-33.4).
  func testNegativeLetterSpacingNeverGivesNegativeWidths() throws {
    for t in TextStyle.Truncation.allCases {
      for profile in TextStyle.Profile.allCases {
        var style = try Fixtures.style(["NotoSansThai-Regular.ttf", "DejaVuSans.ttf"], size: 1)
        style.letterSpacing = -1
        style.maxLines = 1
        style.truncation = t
        style.profile = profile
        let text =
          String(repeating: "R", count: 32) + "g 무선 네트워크 KingLiU 안 되네요. `apt-get autoclean`"
        let prepared = try typesetter.prepare(text, style: style)
        for width in [8.09375, 1e-9, 1e9] {
          let layout = try prepared.layout(width: width)
          for line in layout.lines { XCTAssertGreaterThanOrEqual(line.width, 0, "\(t) \(width)") }
          XCTAssertGreaterThanOrEqual(layout.widest, 0)
          XCTAssertLessThanOrEqual(layout.lineCount, 1)
        }
      }
    }
  }

  /// font crash-48fd6134: a font whose OS/2 table says USE_TYPO_METRICS with a typo line gap of
  /// -9815 gave line boxes of negative height (-167 at 17 pt). The line gap is now never
  /// negative (HarfBuzz already keeps the ascender and descender on their sides).
  func testNegativeVerticalMetricsAreClampedToZero() throws {
    var bytes = [UInt8](try fontData("NotoSans-Regular.ttf"))
    func u16(_ o: Int) -> Int { Int(bytes[o]) << 8 | Int(bytes[o + 1]) }
    func u32(_ o: Int) -> Int { u16(o) << 16 | u16(o + 2) }
    let tag = Array("OS/2".utf8)
    var os2 = 0
    for i in 0..<u16(4) {
      let entry = 12 + 16 * i
      if Array(bytes[entry..<entry + 4]) == tag { os2 = u32(entry + 8) }
    }
    XCTAssertGreaterThan(os2, 0)
    func set(_ o: Int, _ v: Int16) {
      bytes[os2 + o] = UInt8(UInt16(bitPattern: v) >> 8)
      bytes[os2 + o + 1] = UInt8(UInt16(bitPattern: v) & 0xFF)
    }
    set(62, Int16(bitPattern: UInt16(u16(os2 + 62) | 0x80)))  // fsSelection: USE_TYPO_METRICS
    set(68, -100)  // sTypoAscender below the baseline
    set(70, 50)  // sTypoDescender above it
    set(72, -9815)  // sTypoLineGap
    let font = try Font(data: Data(bytes), name: "negative.ttf")
    // (HarfBuzz already flips the signs of a reversed ascender and descender.)
    XCTAssertEqual(font.ascender, 0.1)
    XCTAssertEqual(font.descender, 0.05)
    XCTAssertEqual(font.lineGap, 0)
    for profile in TextStyle.Profile.allCases {
      var style = TextStyle(fonts: try FontStack([font]), size: 17)
      style.profile = profile
      let layout = try typesetter.prepare("Hello world, hello world", style: style).layout(
        width: 50)
      XCTAssertGreaterThan(layout.lineCount, 1)
      XCTAssertGreaterThan(layout.height, 0)
      XCTAssertTrue(layout.lines.allSatisfy { $0.height > 0 && $0.top >= 0 })
    }
  }

  /// typeset crash-7ae21457: with negative letter spacing a segment can be narrower than nothing,
  /// the prefix sums behind the fast `measure(width:)` stop growing, and its binary search for
  /// each line's end gave 4 lines where `layout(width:)` gives 3. Texts with a negative segment
  /// now take the segment walk.
  func testMeasureAgreesWithLayoutUnderNegativeLetterSpacing() throws {
    let crash: [UInt8] = [
      0x00, 0x10, 0xD8, 0xB1, 0xD8, 0xAD, 0xD8, 0xA8, 0xD8, 0x1C, 0x1E, 0x9A, 0xF8, 0xA7, 0x20,
      0xD8, 0x78, 0x2D, 0x62, 0xD9, 0x84, 0x09, 0x00, 0x00, 0x00, 0x1A, 0x1F, 0x48, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x32, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ]
    var style = TextStyle(fonts: try Fixtures.library.defaultStack(), size: 17)
    style.letterSpacing = -2
    style.tabSize = 0
    style.whiteSpace = .normal
    style.overflowWrap = .normal
    style.minimumLineHeight = 66
    let prepared = try typesetter.prepare(String(decoding: crash, as: UTF8.self), style: style)
    let layout = try prepared.layout(width: 9.953125)
    let m = try prepared.measure(width: 9.953125)
    XCTAssertEqual(m.lines, layout.lineCount)
    XCTAssertEqual(m.height, layout.height)
    // And a sweep: short words at small sizes (advances below the spacing), every mode.
    var rng = SplitMix(state: 42)
    let words = ["a", "ii", "l", "مرحبا", "x y", "한", "ab-c", "1.5", "—", "😀"]
    for trial in 0..<300 {
      var s = try Fixtures.style(
        ["NotoSans-Regular.ttf", "NotoSansArabic-Regular.ttf", "NanumGothic.ttf"],
        size: [1, 3, 8, 17][trial % 4])
      s.letterSpacing = -Double(trial % 5)
      s.whiteSpace = TextStyle.WhiteSpace.allCases[trial / 4 % 4]
      s.overflowWrap = TextStyle.OverflowWrap.allCases[trial / 16 % 3]
      let text = (0..<12).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
      let p = try typesetter.prepare(text, style: s)
      for width in [0.5, 3, 10, 40, 200] {
        let l = try p.layout(width: width)
        let m = try p.measure(width: width)
        XCTAssertEqual(m.lines, l.lineCount, "\(text) \(s.letterSpacing) \(width)")
        XCTAssertEqual(m.height, l.height, accuracy: 1e-9)
        XCTAssertEqual(m.widest, l.widest, accuracy: 1e-9)
      }
    }
  }

  /// Regression: every distinct `lang` reached HarfBuzz, which interns languages and caches a
  /// shape plan per face and language in lists that are never freed and are searched linearly
  /// (a stream of "x-m1", "x-m2", … took minutes for 20 000 messages, memory growing). Only a
  /// bounded canonical form reaches HarfBuzz and ICU now.
  func testLanguageTagsAreBoundedBeforeHarfBuzzAndICU() throws {
    XCTAssertEqual(LanguageTag.canonical("ko"), "ko")
    XCTAssertEqual(LanguageTag.canonical("en-US-x-private-1234"), "en")
    XCTAssertEqual(LanguageTag.canonical("DE_de"), "de")
    XCTAssertEqual(LanguageTag.canonical("ja@lb=loose"), "ja")
    XCTAssertEqual(LanguageTag.canonical("zh-CN"), "zh-CN")
    XCTAssertEqual(LanguageTag.canonical("zh-hant-tw-u-co-stroke"), "zh-Hant-TW")
    XCTAssertEqual(LanguageTag.canonical("zh-Latn-XX"), "zh")
    for junk in ["", "x-m123", "i-klingon", "qq", "english", "e", "12", "ko\u{0}", "한국어"] {
      XCTAssertEqual(LanguageTag.canonical(junk), "", junk)
    }
    // However many distinct tags arrive, the canonical forms are few.
    var rng = SplitMix(state: 7)
    var forms = Set<String>()
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    for n in 0..<50_000 {
      let primary = String(
        (0..<Int.random(in: 2...3, using: &rng)).map { _ in letters.randomElement(using: &rng)! })
      forms.insert(LanguageTag.canonical("\(primary)-Latn-\(n)-x-\(n)"))
    }
    XCTAssertLessThanOrEqual(forms.count, LanguageTag.iso639.count + 1)
    // Measuring with distinct tags gives what the canonical tag gives.
    var style = try Fixtures.style(["NotoSans-Regular.ttf", "NotoSansCJK-Regular.ttc"], size: 17)
    style.language = "ja"
    let ja = try typesetter.prepare("「テスト」、（はい）。ok", style: style).layout(width: 80)
    style.language = "ja-JP-x-user-\(rng.next())"
    XCTAssertEqual(try typesetter.prepare("「テスト」、（はい）。ok", style: style).layout(width: 80), ja)
  }
}
