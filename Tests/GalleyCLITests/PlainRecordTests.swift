import Foundation
import GalleyJSON
import XCTest

@testable import GalleyRecords
@testable import Typesetting

/// Text cases read field by field (`TextCase(plainLine:)`, how `galley measure` reads most
/// lines) against the whole-object reading every other line gets: the same case, or no answer.
final class PlainRecordTests: XCTestCase {
  let library = FontLibrary.bundled

  func corpusLines() throws -> [[UInt8]] {
    let url = Galley.root.appendingPathComponent("Corpus/corpus.jsonl")
    return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { Array($0.utf8) }
  }

  /// The whole-object reading of `line`, or nil when it is an error.
  func whole(_ line: [UInt8]) -> TextCase? {
    guard let o = try? JSONReader.readObject(line, repairingSurrogates: false).object,
      o["id"]?.string != nil
    else { return nil }
    return try? TextCase(json: o, library: library)
  }

  func plain(_ line: [UInt8]) -> TextCase? {
    line.withUnsafeBufferPointer { TextCase(plainLine: $0, library: library) }
  }

  func assertSame(_ a: TextCase, _ b: TextCase, _ line: [UInt8], file: StaticString = #filePath, lineNo: UInt = #line) {
    let text = String(decoding: line, as: UTF8.self)
    XCTAssertEqual(a.id, b.id, text, file: file, line: lineNo)
    XCTAssertEqual(a.text, b.text, text, file: file, line: lineNo)
    XCTAssertEqual(a.width, b.width, text, file: file, line: lineNo)
    XCTAssertEqual(a.fontNames, b.fontNames, text, file: file, line: lineNo)
    XCTAssertEqual(a.style, b.style, text, file: file, line: lineNo)
  }

  func testEveryCorpusCaseReadsFieldByFieldAsAWhole() throws {
    for line in try corpusLines() {
      guard let p = plain(line) else { return XCTFail(String(decoding: line, as: UTF8.self)) }
      guard let w = whole(line) else { return XCTFail(String(decoding: line, as: UTF8.self)) }
      assertSame(p, w, line)
    }
  }

  func testDamagedCasesAreReadTheSameOrLeftToTheWholeReading() throws {
    let lines = try corpusLines()
    var rng = SystemRandomNumberGenerator()
    let edits: [(inout String) -> Void] = [
      { $0 = $0.replacingOccurrences(of: #""whiteSpace": "normal""#, with: #""whiteSpace": "norma\u006c""#) },
      { $0 = $0.replacingOccurrences(of: #""wordBreak": "normal""#, with: #""wordBreak": "Normal""#) },
      { $0 = $0.replacingOccurrences(of: #""overflowWrap": "#, with: #""overflowWrap": 1, "x": "#) },
      { $0 = $0.replacingOccurrences(of: #""size": "#, with: #""size": null, "size2": "#) },
      { $0 = $0.replacingOccurrences(of: #""id": "#, with: #""lang": "ja", "id": "#) },
      { $0 = $0.replacingOccurrences(of: #""id": "#, with: #""i\u0064": "#) },
      { $0 = $0.replacingOccurrences(of: #""text": ""#, with: #""text": "\ud800"#) },
      { $0 = $0.replacingOccurrences(of: #""text": ""#, with: #""text": "\u00e9\n"#) },
      { $0 = $0.replacingOccurrences(of: #""fonts": ["#, with: #""fonts": [1, "#) },
      { $0 = $0.replacingOccurrences(of: #""fonts": ["#, with: #""fonts": "#) },
      { $0 = $0.replacingOccurrences(of: #""width": "#, with: #""width": -"#) },
      { $0 = $0.replacingOccurrences(of: #""category": "#, with: #""tags": [1, {"a": "\ud800"}], "category": "#) },
      { $0 = $0.replacingOccurrences(of: #""source": ""#, with: #""source": "\"#) },
      { $0 += " " },
      { $0 = String($0.dropLast()) },
      { $0 = $0.replacingOccurrences(of: #""lang": "#, with: #""lineHeight": "normal", "maxLines": 2.5, "lang": "#) },
      { $0 = $0.replacingOccurrences(of: #""lang": "#, with: #""features": {"liga": 0}, "lang": "#) },
      { $0 = $0.replacingOccurrences(of: #""id": "[^"]*", "#, with: "", options: .regularExpression) },
    ]
    var answered = 0
    for _ in 0..<6_000 {
      var text = String(decoding: lines.randomElement(using: &rng)!, as: UTF8.self)
      for _ in 0..<Int.random(in: 1...2, using: &rng) { edits.randomElement(using: &rng)!(&text) }
      var line = Array(text.utf8)
      if Int.random(in: 0..<8, using: &rng) == 0, !line.isEmpty {
        line.insert([0xFF, 0xC3, 0xE2, 0x80].randomElement(using: &rng)!, at: Int.random(in: 0..<line.count, using: &rng))
      }
      let w = whole(line)
      if let p = plain(line) {
        answered += 1
        guard let w else {
          return XCTFail("read field by field, an error as a whole: \(text)")
        }
        assertSame(p, w, line)
      }
    }
    XCTAssertGreaterThan(answered, 1_000)
  }

  /// A `fonts` list met again as the same bytes takes the stack noted for them; the same names
  /// written otherwise, or other names, are read afresh. Each reading equals the whole one.
  func testFontListsKnownByTheirBytesGiveTheirOwnStack() throws {
    let library = FontLibrary(directory: FontLibrary.bundledDirectory())
    func line(_ fonts: String) -> [UInt8] {
      Array(#"{"id": "a", "text": "Hello 세계", "width": 100, "fonts": \#(fonts)}"#.utf8)
    }
    let lines = [
      line(#"["NotoSans-Regular.ttf", "NanumGothic.ttf"]"#),
      line(#"["NotoSans-Regular.ttf", "NanumGothic.ttf"]"#),
      line(#"["NotoSans-Regular.ttf","NanumGothic.ttf"]"#),
      line(#"["NanumGothic.ttf", "NotoSans-Regular.ttf"]"#),
      line(#"["NotoSans-Regular.ttf", "NanumGothic.ttf"]"#),
      line(#"["NanumGothic.ttf"]"#),
    ]
    for l in lines {
      let p = try XCTUnwrap(l.withUnsafeBufferPointer { TextCase(plainLine: $0, library: library) })
      let w = try TextCase(json: JSONReader.readObject(l).object, library: library)
      assertSame(p, w, l)
    }
    // (Names noted under these bytes before; a library that cannot load them still says so.)
    let missing = FontLibrary(directory: "/nonexistent")
    let l = lines[0]
    XCTAssertNil(l.withUnsafeBufferPointer { TextCase(plainLine: $0, library: missing) })
    XCTAssertThrowsError(try TextCase(json: JSONReader.readObject(l).object, library: missing))
  }
  /// A font list known by its bytes gives the library's stack of the moment: once the library
  /// drops a font to keep within its bounds, the stacks kept by spelling are let go too (their
  /// fonts' memory given back), and the next reading asks the library again.
  func testFontListsKnownByTheirBytesFollowTheLibrarysEvictions() throws {
    let library = FontLibrary(directory: FontLibrary.bundledDirectory(), maximumFaces: 1)
    func read(_ font: String) throws -> TextCase {
      let l = Array(#"{"id": "a", "text": "Hello", "width": 100, "fonts": ["\#(font)"]}"#.utf8)
      return try XCTUnwrap(l.withUnsafeBufferPointer { TextCase(plainLine: $0, library: library) })
    }
    let first = try read("NotoSans-Regular.ttf").style.fonts.fonts[0]
    XCTAssert(try read("NotoSans-Regular.ttf").style.fonts.fonts[0] === first)
    _ = try read("Inter-Regular.otf")  // the library keeps one face: Noto Sans is dropped
    let again = try read("NotoSans-Regular.ttf").style.fonts.fonts[0]
    XCTAssert(again !== first, "a dropped font is not handed out again")
    XCTAssert(again === (try library.stack(["NotoSans-Regular.ttf"])).fonts[0])
  }

}

/// Which error a record with several gets (docs/CASE-FORMAT.md): an unknown field, then a
/// wrong type or value in the order of the field table, then a missing field, then the fonts.
final class CaseErrorOrderTests: XCTestCase {
  func error(_ line: String) -> String? {
    do {
      _ = try TextCase(json: JSONReader.readObject(Array(line.utf8)).object, library: .bundled)
      return nil
    } catch {
      return "\(error)"
    }
  }

  func testTheFirstErrorIsTheDocumentedOne() {
    XCTAssertEqual(
      error(#"{"id": "a", "text": "x", "width": 9, "fonts": ["Nope.ttf"], "size": "big"}"#),
      #"field "size" must be a number"#)
    XCTAssertEqual(
      error(#"{"id": "a", "width": "wide"}"#), #"field "width" must be a number"#)
    XCTAssertEqual(
      error(#"{"id": "a", "text": "x", "width": 9, "maxLines": 1.5, "direction": "up"}"#),
      #"field "direction" has an invalid value: "up" (expected one of "auto", "ltr", "rtl")"#)
    XCTAssertEqual(
      error(#"{"id": "a", "size": "big", "colour": 1, "text": "x", "width": 9}"#),
      #"unknown field "colour""#)
    XCTAssertEqual(error(#"{"id": "a", "width": 9, "fonts": ["Nope.ttf"]}"#), #"missing field "text""#)
    XCTAssertEqual(
      error(#"{"id": "a", "text": "x", "width": 9, "fonts": ["Nope.ttf"], "size": -1}"#)?
        .hasPrefix("font Nope.ttf not found"), true)
  }
}
