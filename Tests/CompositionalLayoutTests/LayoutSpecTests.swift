@testable import GalleyRecords
import Foundation
import GalleyBench
import GalleyJSON
import XCTest

@testable import CompositionalLayout

/// The JSON form: the documented example, cells with a measurer, output formatting.
final class LayoutSpecTests: XCTestCase {
  /// The input example of the layout spec's first contract (the project's starting LAYOUT-SPEC), verbatim.
  static let documentedExample = """
    {
      "container": { "width": 390, "height": 844, "scale": 3 },
      "configuration": { "scrollDirection": "vertical", "interSectionSpacing": 0 },
      "sections": [
        {
          "items": 12,
          "group": {
            "axis": "horizontal",
            "size": { "width": { "fractionalWidth": 1 }, "height": { "estimated": 350 } },
            "subitems": [
              { "item": { "size": { "width": { "absolute": 187 }, "height": { "absolute": 350 } },
                          "contentInsets": { "top": 0, "leading": 0, "bottom": 0, "trailing": 0 } } }
            ],
            "interItemSpacing": { "fixed": 1 }
          },
          "contentInsets": { "top": 0, "leading": 0, "bottom": 0, "trailing": 0 },
          "interGroupSpacing": 0,
          "orthogonalScrollingBehavior": "none",
          "boundarySupplementaryItems": [
            { "kind": "header", "alignment": "top", "pinToVisibleBounds": false,
              "size": { "width": { "fractionalWidth": 1 }, "height": { "absolute": 200 } } }
          ],
          "decorationItems": [ { "kind": "background", "contentInsets": { "top": 0, "leading": 0, "bottom": 0, "trailing": 0 } } ],
          "itemSizes": [ { "index": 3, "height": 402 } ]
        }
      ]
    }
    """

  func testDocumentedExample() throws {
    // Two 187 pt items per row (375 + 1 ≤ 390), 6 rows of 350 under the 200 pt header: 200 + 2100 = 2300.
    // Item 3 has an absolute height, so its itemSizes entry is reported and not applied.
    let r = try LayoutSpec(json: Data(Self.documentedExample.utf8)).layoutResult()
    XCTAssertEqual(r.contentSize, Size(width: 390, height: 2300))
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 0))?.frame, 0, 200, 187, 350)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 3))?.frame, 188, 550, 187, 350)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 11))?.frame, 188, 1950, 187, 350)
    assertFrame(supplementaries(r, kind: "background").first?.frame, 0, 0, 390, 2300)
    XCTAssertEqual(
      r.warnings,
      [
        "sections[0].itemSizes[0].height: item 3's height is not estimated; the measured height is ignored"
      ])
    let out = String(decoding: try runLayoutSpec(Data(Self.documentedExample.utf8)), as: UTF8.self)
    XCTAssertTrue(
      out.contains(
        #"{"section": 0, "item": 0, "category": "cell", "frame": [0, 200, 187, 350], "zIndex": 0}"#)
    )
    XCTAssertTrue(
      out.contains(
        #"{"section": 0, "category": "supplementary", "kind": "header", "frame": [0, 0, 390, 200], "zIndex": 1}"#
      ))
    XCTAssertTrue(
      out.contains(
        #"{"section": 0, "category": "decoration", "kind": "background", "frame": [0, 0, 390, 2300], "zIndex": -1}"#
      ))
    XCTAssertTrue(out.contains(#""orthogonal": [],"#))
  }

  static let cellsSpec = """
    {"container": {"width": 390, "height": 844, "scale": 3},
     "sections": [{"items": 3,
       "group": {"axis": "vertical", "size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 44}},
                 "subitems": [{"item": {"size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 44}}}}]},
       "interGroupSpacing": 4,
       "itemSizes": [{"index": 2, "height": 30}],
       "cells": [{"template": "bubble", "text": "hello"}, {"template": "bubble", "text": "a longer message here", "sender": "me"}]}]}
    """

  func testCellsGoToTheMeasurer() throws {
    // Fake measurer: 20 pt per started 10 characters. "hello" → 20; 21 characters → 60; item 2 from itemSizes: 30.
    // The vertical group with an estimated height holds one pass of its subitem list: one item per group.
    var requests: [CellRequest] = []
    let out = try runLayoutSpec(Data(Self.cellsSpec.utf8)) { request in
      requests.append(request)
      let text = request.cell["text"]?.string ?? ""
      return Size(
        width: request.proposedWidth, height: 20 * ((Double(text.count) / 10).rounded(.up)))
    }
    XCTAssertEqual(requests.map(\.indexPath.item), [0, 1])
    XCTAssertEqual(requests.map(\.template), [.bubble, .bubble])
    XCTAssertEqual(requests.first?.proposedWidth, 390)
    XCTAssertEqual(requests.first?.proposedHeight, 44)
    let text = String(decoding: out, as: UTF8.self)
    XCTAssertTrue(text.contains(#""frame": [0, 0, 390, 20]"#), text)
    XCTAssertTrue(text.contains(#""frame": [0, 24, 390, 60]"#), text)  // 20 + 4
    XCTAssertTrue(text.contains(#""frame": [0, 88, 390, 30]"#), text)  // 24 + 60 + 4
    XCTAssertTrue(text.contains(#""contentSize": {"width": 390, "height": 118}"#), text)
  }

  /// A cell the measurer cannot size is laid out at its estimated size and reported; the
  /// other cells are laid out as measured. Here item 1 fails: item 0 takes its measured 20,
  /// item 1 its estimated 44, item 2 its given 30, with 4 between (hand-computed).
  func testMeasurerErrorsBecomeCellErrorsAtEstimatedSizes() throws {
    struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
    let spec = try LayoutSpec(json: Data(Self.cellsSpec.utf8))
    let result = try spec.layoutResult { request in
      if request.indexPath.item == 1 { throw Boom() }
      return Size(width: request.proposedWidth, height: 20)
    }
    XCTAssertEqual(result.unmeasuredCells.map(\.indexPath), [ItemPath(section: 0, item: 1)])
    XCTAssertEqual(result.unmeasuredCells.map(\.message), ["boom"])
    XCTAssertTrue(result.unmeasuredCells.first?.error is Boom)
    XCTAssertEqual(result.cells.map(\.frame.minY), [0, 24, 72])
    XCTAssertEqual(result.cells.map(\.frame.height), [20, 44, 30])
    XCTAssertEqual(result.contentSize.height, 102)
    let text = LayoutJSONEncoder.encode(result)
    XCTAssertTrue(
      text.contains(#"{"section": 0, "item": 1, "error": "boom", "estimated": true}"#)
        && text.contains(#""errors": ["#),
      text)
  }

  func testNumbersAreCompact() {
    XCTAssertEqual(fmt(187.00000001), "187")
    XCTAssertEqual(fmt(1.0 / 3.0), "0.333333")
    XCTAssertEqual(fmt(-0.0000001), "0")
    XCTAssertEqual(fmt(2.5), "2.5")
    XCTAssertEqual(fmt(-12.25), "-12.25")
    XCTAssertEqual(fmt(274.5 - 1e-12), "274.5")
  }

  func testStringsAreEscapedAndGlobalElementsHaveNoSection() {
    let config = LayoutConfiguration(boundarySupplementaryItems: [
      BoundarySupplementaryItem(kind: "top \"bar\"\n", size: fixedSize(390, 10), alignment: .top)
    ])
    let r = CollectionLayout(
      section: Section(
        group: .horizontal(fixedSize(390, 10), subitems: [.item(Item(size: fixedSize(390, 10)))])),
      configuration: config
    )
    .layout(
      itemCounts: [1], environment: LayoutEnvironment(containerSize: Size(width: 390, height: 844)))
    let out = LayoutJSONEncoder.encode(r)
    XCTAssertTrue(
      out.contains(
        #"{"category": "supplementary", "kind": "top \"bar\"\n", "frame": [0, 0, 390, 10], "zIndex": 1}"#
      ), out)
    XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(out.utf8)))
  }

  /// Right-to-left, a global header, count with spacing, a fractional badge and a paging orthogonal section.
  /// Left-to-right first: global header 0…30. Section 0 at 30: count 3 → (390 − 20) / 3 = 123.333… at x = 0,
  /// 133.333…, 266.666…, height fractionalHeight(1) of 100. Badge 20 × 20 at the top-trailing corner (123.333…, 30)
  /// moved by (10, −10), attached by its own top-trailing corner → origin (113.333…, 20). Section 1 at 130 + 10:
  /// groups at x = 16 + 310k; content width 16 + 5 · 300 + 4 · 10 + 16 = 1572, largest offset 1182, pages
  /// 0, 390, 780, 1170, 1182. Then mirroring x′ = 390 − x − w: item 0 → 266.666…, badge → 256.666…,
  /// section 1 item 0 → 74, item 1 → −236. Content 390 × (30 + 100 + 10 + 80) = 220.
  func testRightToLeftBadgesGlobalHeaderAndPagingThroughJSON() throws {
    let spec = """
      {"container": {"width": 390, "height": 844, "scale": 2, "layoutDirection": "rightToLeft"},
       "configuration": {"interSectionSpacing": 10, "boundarySupplementaryItems": [
          {"kind": "globalHeader", "alignment": "top", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 30}}}]},
       "sections": [
         {"items": 3, "group": {"axis": "horizontal", "count": 3, "interItemSpacing": {"fixed": 10},
            "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 100}},
            "subitems": [{"item": {"size": {"width": {"absolute": 1}, "height": {"fractionalHeight": 1}},
               "supplementaryItems": [{"kind": "badge", "size": {"width": {"absolute": 20}, "height": {"absolute": 20}},
                  "containerAnchor": {"edges": ["top", "trailing"], "offset": {"x": 0.5, "y": -0.5}, "fractional": true}}]}}]}},
         {"items": 5, "group": {"axis": "horizontal", "size": {"width": {"absolute": 300}, "height": {"absolute": 80}},
            "subitems": [{"item": {"size": {"width": {"absolute": 300}, "height": {"absolute": 80}}}}]},
          "contentInsets": {"leading": 16, "trailing": 16}, "interGroupSpacing": 10, "orthogonalScrollingBehavior": "paging"}
       ]}
      """
    let out = String(decoding: try runLayoutSpec(Data(spec.utf8)), as: UTF8.self)
    for line in [
      #""contentSize": {"width": 390, "height": 220}"#,
      #"{"category": "supplementary", "kind": "globalHeader", "frame": [0, 0, 390, 30], "zIndex": 1}"#,
      #"{"section": 0, "item": 0, "category": "cell", "frame": [266.666666667, 30, 123.333333333, 100], "zIndex": 0}"#,
      #"{"section": 0, "item": 2, "category": "cell", "frame": [0, 30, 123.333333333, 100], "zIndex": 0}"#,
      #"{"section": 0, "item": 0, "category": "supplementary", "kind": "badge", "frame": [256.666666667, 20, 20, 20], "zIndex": 1}"#,
      #"{"section": 1, "item": 0, "category": "cell", "frame": [74, 140, 300, 80], "zIndex": 0}"#,
      #"{"section": 1, "item": 1, "category": "cell", "frame": [-236, 140, 300, 80], "zIndex": 0}"#,
      #"{"section": 1, "contentWidth": 1572, "pageOffsets": [0, 390, 780, 1170, 1182]}"#,
    ] {
      XCTAssertTrue(out.contains(line), "missing \(line) in \(out)")
    }
  }

  /// Horizontal scrolling: a 100-wide vertical group, fractionalHeight(1) = 200 tall, 60 pt items: 3 fit (180),
  /// the flexible spacing shares 20 → gaps of 10: y = 0, 70, 140; 50 pt wide items centred by flexible
  /// leading/trailing edge spacing: x = 25.
  func testHorizontalScrollFlexibleSpacingAndEdgeSpacingThroughJSON() throws {
    let spec = """
      {"container": {"width": 390, "height": 200}, "configuration": {"scrollDirection": "horizontal"},
       "sections": [{"items": 3, "group": {"axis": "vertical", "interItemSpacing": {"flexible": 0},
          "size": {"width": {"absolute": 100}, "height": {"fractionalHeight": 1}},
          "subitems": [{"item": {"size": {"width": {"absolute": 50}, "height": {"absolute": 60}},
             "edgeSpacing": {"leading": {"flexible": 0}, "trailing": {"flexible": 0}}}}]}}]}
      """
    let r = try LayoutSpec(json: Data(spec.utf8)).layoutResult()
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 0))?.frame, 25, 0, 50, 60)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 1))?.frame, 25, 70, 50, 60)
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 2))?.frame, 25, 140, 50, 60)
    XCTAssertEqual(r.contentSize, Size(width: 100, height: 200))
  }

  func testUniformAcrossSiblingsThroughJSON() throws {
    // Three items per row, heights measured 30, 90, 60 via itemSizes → all 90; the next row starts at 90.
    let spec = """
      {"container": {"width": 300, "height": 600},
       "sections": [{"items": 4, "itemSizes": [{"index": 0, "height": 30}, {"index": 1, "height": 90}, {"index": 2, "height": 60}],
         "group": {"axis": "horizontal", "repeatingCount": 3, "size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 50}},
           "subitems": [{"item": {"size": {"width": {"absolute": 100}, "height": {"uniformAcrossSiblings": 50}}}}]}}]}
      """
    let r = try LayoutSpec(json: Data(spec.utf8)).layoutResult()
    for i in 0..<3 {
      assertFrame(
        r.attributes(at: ItemPath(section: 0, item: i))?.frame, 100 * Double(i), 0, 100, 90)
    }
    assertFrame(r.attributes(at: ItemPath(section: 0, item: 3))?.frame, 0, 90, 100, 50)
    XCTAssertEqual(r.warnings, [])
  }

  func testBenchmarkJSONFormatting() {
    XCTAssertEqual(
      LayoutBenchmark.json(["queryMicros": 0.78149, "layout100kMillis": 12.0, "bytesPerItem": 24]),
      #"{"bytesPerItem": 24, "layout100kMillis": 12, "queryMicros": 0.781}"#)
  }
}
