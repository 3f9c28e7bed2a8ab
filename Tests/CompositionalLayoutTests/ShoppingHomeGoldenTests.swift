@testable import GalleyRecords
import Foundation
import XCTest

@testable import CompositionalLayout

/// Golden (a): a shopping home screen at width 390, worked out by hand from UIKit's documented semantics.
final class ShoppingHomeGoldenTests: XCTestCase {
  /// Section 0: shortcuts, 58×82 absolute items in 58×82 absolute groups, insets 12/10/24/10, continuous,
  /// interGroupSpacing 8. Section 1: products, 187×350 items in a fractionalWidth(1) × estimated(350) horizontal
  /// group with 1 pt fixed interItemSpacing, interGroupSpacing 1, under a 200 pt header.
  static func layout() -> CollectionLayout {
    let shortcut = Item(size: fixedSize(58, 82))
    var shortcuts = Section(
      group: .horizontal(fixedSize(58, 82), subitems: [.item(shortcut)]),
      contentInsets: DirectionalEdgeInsets(top: 12, leading: 10, bottom: 24, trailing: 10),
      interGroupSpacing: 8)
    shortcuts.orthogonalScrollingBehavior = .continuous
    let product = Item(size: fixedSize(187, 350))
    var row = Group.horizontal(
      LayoutSize(width: .fractionalWidth(1), height: .estimated(350)), subitems: [.item(product)])
    row.interItemSpacing = .fixed(1)
    var products = Section(group: row, interGroupSpacing: 1)
    products.boundarySupplementaryItems = [
      BoundarySupplementaryItem(
        kind: "header", size: LayoutSize(width: .fractionalWidth(1), height: .absolute(200)),
        alignment: .top)
    ]
    let sections = [shortcuts, products]
    return CollectionLayout { i, _ in sections[i] }
  }

  func check(_ r: LayoutResult) {
    // Shortcuts: item k at x = 10 (leading inset) + k·(58 + 8), y = 12 (top inset).
    XCTAssertEqual(r.numberOfItems(inSection: 0), 10)
    for k in 0..<10 {
      assertFrame(
        r.attributes(at: ItemPath(section: 0, item: k))?.frame, 10 + 66 * Double(k), 12, 58, 82,
        "shortcut \(k)")
    }
    // Section 0 height = 12 + 82 + 24 = 118. Content width = 10 + 10·58 + 9·8 + 10 = 672; continuous: no snapping.
    assertFrame(r.sectionFrames[0], 0, 0, 390, 118)
    XCTAssertEqual(r.orthogonalSections.count, 1)
    XCTAssertEqual(r.orthogonalSections[0].section, 0)
    XCTAssertEqual(r.orthogonalSections[0].contentWidth, 672)
    XCTAssertEqual(r.orthogonalSections[0].pageOffsets, [])
    // Header: fractionalWidth(1) of 390 → 390 × 200 at y = 118.
    let headers = supplementaries(r, kind: "header")
    XCTAssertEqual(headers.count, 1)
    assertFrame(headers.first?.frame, 0, 118, 390, 200)
    XCTAssertEqual(headers.first?.indexPath.section, 1)
    // Products: 187 + 1 + 187 = 375 ≤ 390 but 375 + 1 + 187 = 563 > 390 → two per row, x = 0 and 188.
    // Rows start at 118 + 200 = 318 and step 350 + 1 = 351.
    XCTAssertEqual(r.numberOfItems(inSection: 1), 6)
    let expected: [(Double, Double)] = [
      (0, 318), (188, 318), (0, 669), (188, 669), (0, 1020), (188, 1020),
    ]
    for (i, (x, y)) in expected.enumerated() {
      assertFrame(
        r.attributes(at: ItemPath(section: 1, item: i))?.frame, x, y, 187, 350, "product \(i)")
    }
    // Content: 1020 + 350 = 1370.
    XCTAssertEqual(r.contentSize, Size(width: 390, height: 1370))
    assertFrame(r.sectionFrames[1], 0, 118, 390, 1252)
  }

  func testSwiftModel() {
    let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844), displayScale: 3)
    check(Self.layout().layout(itemCounts: [10, 6], environment: env))
  }

  static let spec = """
    {
      "container": { "width": 390, "height": 844, "scale": 3 },
      "configuration": { "scrollDirection": "vertical", "interSectionSpacing": 0 },
      "sections": [
        { "items": 10,
          "group": { "axis": "horizontal",
                     "size": { "width": { "absolute": 58 }, "height": { "absolute": 82 } },
                     "subitems": [ { "item": { "size": { "width": { "absolute": 58 }, "height": { "absolute": 82 } } } } ] },
          "contentInsets": { "top": 12, "leading": 10, "bottom": 24, "trailing": 10 },
          "interGroupSpacing": 8,
          "orthogonalScrollingBehavior": "continuous" },
        { "items": 6,
          "group": { "axis": "horizontal",
                     "size": { "width": { "fractionalWidth": 1 }, "height": { "estimated": 350 } },
                     "subitems": [ { "item": { "size": { "width": { "absolute": 187 }, "height": { "absolute": 350 } },
                                               "contentInsets": { "top": 0, "leading": 0, "bottom": 0, "trailing": 0 } } } ],
                     "interItemSpacing": { "fixed": 1 } },
          "interGroupSpacing": 1,
          "boundarySupplementaryItems": [
            { "kind": "header", "alignment": "top", "pinToVisibleBounds": false,
              "size": { "width": { "fractionalWidth": 1 }, "height": { "absolute": 200 } } } ] }
      ]
    }
    """

  func testJSONSpecGivesTheSameFrames() throws {
    let spec = try LayoutSpec(json: Data(Self.spec.utf8))
    check(try spec.layoutResult())
  }

  func testJSONOutput() throws {
    let out = String(decoding: try runLayoutSpec(Data(Self.spec.utf8)), as: UTF8.self)
    XCTAssertTrue(out.contains("\"contentSize\": {\"width\": 390, \"height\": 1370}"), out)
    XCTAssertTrue(
      out.contains(
        "{\"section\": 1, \"item\": 1, \"category\": \"cell\", \"frame\": [188, 318, 187, 350], \"zIndex\": 0}"
      ), out)
    XCTAssertTrue(
      out.contains(
        "{\"section\": 1, \"category\": \"supplementary\", \"kind\": \"header\", \"frame\": [0, 118, 390, 200], \"zIndex\": 1}"
      ), out)
    XCTAssertTrue(out.contains("{\"section\": 0, \"contentWidth\": 672, \"pageOffsets\": []}"), out)
    // The output is valid JSON with the documented top-level keys.
    let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
    XCTAssertEqual(
      object.map { Set($0.keys) }, ["contentSize", "attributes", "orthogonal", "warnings"])
    XCTAssertEqual((object?["attributes"] as? [Any])?.count, 17)
    // Deterministic.
    XCTAssertEqual(try runLayoutSpec(Data(Self.spec.utf8)), Data(out.utf8))
  }
}
