import XCTest

@testable import Typesetting

final class FeatureTagTests: XCTestCase {
  func testTagsAreOneToFourPrintableCharactersPaddedWithSpaces() {
    XCTAssertNil(FeatureTag(validating: "ligatures"))
    XCTAssertNil(FeatureTag(validating: ""))
    XCTAssertNil(FeatureTag(validating: "li\u{7F}a"))
    XCTAssertNil(FeatureTag(validating: "é"))
    XCTAssertEqual(FeatureTag(validating: "ss01")?.name, "ss01")
    XCTAssertEqual(FeatureTag(validating: "kern")?.value, 0x6B65_726E)
    XCTAssertEqual(FeatureTag(validating: "cv1")?.value, 0x6376_3120)
    // A literal that is not a tag is kept, and makes the style invalid when used.
    let bad: FeatureTag = "ligatures"
    XCTAssertFalse(bad.isValid)
  }
}
