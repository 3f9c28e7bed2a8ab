import GalleyRecords
import Foundation
import SelfSizing
import GalleyJSON
import Typesetting
import XCTest

/// Cell records from hostile JSON: every bad record is a specific `CellError`, every odd but
/// valid record is measured, and nothing crashes.
final class CellRecordHostileTests: XCTestCase {
  static let fontsDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fonts").path
  let library = FontLibrary(directory: CellRecordHostileTests.fontsDir)

  func record(_ json: String) throws -> CellRecord {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
    return try CellRecord(json: object, library: library)
  }

  func expect(
    _ json: String, _ expected: CellError, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try record(json), file: file, line: line) { error in
      XCTAssertEqual(error as? CellError, expected, "\(error)", file: file, line: line)
    }
  }

  func testBadRecordsAreSpecificErrors() {
    expect(#"{"text":"hi","containerWidth":300}"#, .missingField("template"))
    expect(#"{"template":"bubble","containerWidth":300}"#, .missingField("text"))
    expect(#"{"template":"bubble","text":"hi"}"#, .missingField("containerWidth"))
    expect(#"{"template":"blob","text":"hi"}"#, .unknownTemplate("blob"))
    expect(#"{"template":"bubble","text":"hi","containerWidth":300,"zzz":1}"#, .unknownField("zzz"))
    expect(#"{"template":"bubble","text":7,"containerWidth":300}"#, .wrongType("text", "a string"))
    expect(
      #"{"template":"bubble","text":"hi","containerWidth":true}"#,
      .wrongType("containerWidth", "a number"))
    // (1e999 in JSON text is rejected by the JSON reader; a non-finite number can still arrive
    // from code that builds the object.)
    let infinite: JSONObject = [
      "template": "bubble", "text": "hi", "containerWidth": .number(.infinity),
    ]
    XCTAssertThrowsError(
      try CellRecord(json: infinite, library: library)
    ) { error in
      XCTAssertEqual(error as? CellError, .invalidValue("containerWidth", "must be finite"))
    }
    expect(
      #"{"template":"bubble","text":"hi","containerWidth":300,"style":{"size":0}}"#,
      .invalidValue("style", "font size must be a number > 0 and at most 1000000 (got 0.0)"))
    // A range error names the style, not its fonts.
    expect(
      #"{"template":"bubble","text":"hi","containerWidth":300,"style":{"maxLines":-1}}"#,
      .invalidValue("style", "invalid style: maxLines must be >= 0"))
    expect(
      #"{"template":"bubble","text":"hi","containerWidth":300,"style":{"fonts":["../../etc/passwd"]}}"#,
      .invalidValue(
        "style.fonts",
        TypesettingError.fontOutsideDirectory(
          name: "../../etc/passwd", directory: CellRecordHostileTests.fontsDir
        ).description))
    expect(
      #"{"template":"productCard","title":"t","width":10,"padding":{"leading":20}}"#,
      .invalidValue(
        "padding", "the card width 10.0 leaves no room for text after the paddings (20.0)"))
  }

  func testOddButValidRecordsAreMeasured() throws {
    let sizer = CellSizer(typesetter: Typesetter(cacheCapacity: 0), cacheCapacity: 0)
    // An unpaired surrogate escape: Foundation either rejects the JSON or replaces the unit;
    // whichever it does, a record that parses measures to a finite size.
    let texts = [
      #""\ud800 lone high""#, #""lone low \udc00""#, #""""#, #""\u0000\u0001\u001f""#,
      "\"" + String(repeating: "\\u0301", count: 2000) + "\"",
    ]
    for t in texts {
      let json = #"{"template":"bubble","text":"# + t + #","containerWidth":320}"#
      guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
      else { continue }  // rejected by the JSON parser: a defined outcome
      let r = try CellRecord(json: object, library: library)
      guard case .bubble(let b) = r.cell else { return XCTFail("not a bubble") }
      let m = try sizer.measure(b)
      XCTAssertTrue(m.size.width.isFinite && m.size.height.isFinite, t)
      XCTAssertGreaterThanOrEqual(m.size.height, 0, t)
    }
  }

  /// Sides of `padding` and `minSize` a record leaves out keep the template's defaults (they
  /// were 0: `"padding": {"top": 4}` made a bubble 8 pt narrower on each side).
  func testPartialPaddingAndMinSizeKeepTheDefaults() throws {
    let library = FontLibrary(directory: CellRecordHostileTests.fontsDir)
    let r = try CellRecord(
      json: [
        "template": "bubble", "text": "hi", "containerWidth": 390, "padding": ["top": 4],
        "minSize": ["height": 50],
      ], library: library)
    guard case .bubble(let b) = r.cell else { return XCTFail("not a bubble") }
    let defaults = try CellRecord(
      json: ["template": "bubble", "text": "hi", "containerWidth": 390], library: library)
    guard case .bubble(let d) = defaults.cell else { return XCTFail("not a bubble") }
    XCTAssertEqual(b.padding.top, 4)
    XCTAssertEqual(b.padding.leading, d.padding.leading)
    XCTAssertEqual(b.padding.bottom, d.padding.bottom)
    XCTAssertEqual(b.padding.trailing, d.padding.trailing)
    XCTAssertGreaterThan(d.padding.leading, 0)
    XCTAssertEqual(b.minSize.height, 50)
    XCTAssertEqual(b.minSize.width, d.minSize.width)
  }
}
