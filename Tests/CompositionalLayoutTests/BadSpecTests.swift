@testable import GalleyRecords
import Foundation
import XCTest

@testable import CompositionalLayout

/// Every malformed spec gives a `LayoutSpecError` naming the JSON path; none crashes or hangs.
final class BadSpecTests: XCTestCase {
  /// A valid two-section spec whose parts can be replaced or extended to break it in one place.
  static func spec(
    container: String = #""width": 390, "height": 844, "scale": 3"#, root: String = "",
    section0: String = "", group1: String? = nil, item1: String? = nil
  ) -> String {
    let item = item1 ?? #""size": {"width": {"absolute": 187}, "height": {"absolute": 350}}"#
    let group =
      group1
      ?? #""axis": "horizontal", "size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 350}}, "subitems": [{"item": {\#(item)}}]"#
    return #"""
      {"container": {\#(container)}\#(root),
       "sections": [
         {"items": 3\#(section0), "group": {"axis": "vertical", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 50}},
                                  "subitems": [{"item": {"size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 50}}}}]}},
         {"items": 4, "group": {\#(group)}}
       ]}
      """#
  }

  func testTheBaseSpecIsValid() throws {
    let r = try LayoutSpec(json: Data(Self.spec().utf8)).layoutResult()
    XCTAssertEqual(r.cells.count, 7)
  }

  func testBrokenJSONSaysWhereTheParserStopped() {
    // Cut off mid-spec, a stray character, a number too large for a Double: the message keeps
    // "not valid JSON" and adds the parser's own account (where it stopped, or which number).
    let base = Self.spec()
    let cases = [
      String(base.prefix(base.count / 2)),
      base.replacingOccurrences(of: #""items": 4"#, with: #""items": 4x"#),
      base.replacingOccurrences(of: #""width": 390"#, with: #""width": 1e400"#),
    ]
    for json in cases {
      XCTAssertThrowsError(try LayoutSpec(json: Data(json.utf8))) { error in
        let message = (error as? LayoutSpecError)?.message ?? ""
        XCTAssertTrue(message.hasPrefix("not valid JSON: "), message)
        XCTAssertGreaterThan(message.count, "not valid JSON: ".count + 5, message)
      }
    }
  }

  func testMalformedSpecsNameThePath() {
    let cases: [(String, String, String)] = [
      ("not JSON", "{", ""),
      ("root is an array", "[]", ""),
      ("unknown root field", Self.spec(root: #", "theme": "dark""#), "theme"),
      (
        "zero-width container", Self.spec(container: #""width": 0, "height": 844"#),
        "container.width"
      ),
      (
        "negative container height", Self.spec(container: #""width": 390, "height": -1"#),
        "container.height"
      ),
      (
        "container width is a string", Self.spec(container: #""width": "390", "height": 844"#),
        "container.width"
      ),
      (
        "container insets eat the width",
        Self.spec(
          container: #""width": 390, "height": 844, "insets": {"leading": 200, "trailing": 190}"#),
        "container.insets"
      ),
      (
        "unknown layout direction",
        Self.spec(container: #""width": 390, "height": 844, "layoutDirection": "upward""#),
        "container.layoutDirection"
      ),
      ("missing container", #"{"sections": []}"#, "container"),
      ("missing sections", #"{"container": {"width": 390, "height": 844}}"#, "sections"),
      ("unknown section field", Self.spec(section0: #", "itemsX": 1"#), "sections[0].itemsX"),
      (
        "items is a string",
        #"{"container": {"width": 390, "height": 844}, "sections": [{"items": "12", "group": {}}]}"#,
        "sections[0].items"
      ),
      (
        "section is a number", #"{"container": {"width": 390, "height": 844}, "sections": [7]}"#,
        "sections[0]"
      ),
      (
        "negative absolute width",
        Self.spec(item1: #""size": {"width": {"absolute": -1}, "height": {"absolute": 350}}"#),
        "sections[1].group.subitems[0].size.width"
      ),
      (
        "NaN as a string",
        Self.spec(item1: #""size": {"width": {"absolute": "NaN"}, "height": {"absolute": 350}}"#),
        "sections[1].group.subitems[0].size.width"
      ),
      (
        "negative fraction",
        Self.spec(
          item1: #""size": {"width": {"fractionalWidth": -0.5}, "height": {"absolute": 350}}"#),
        "sections[1].group.subitems[0].size.width"
      ),
      (
        "zero estimate",
        Self.spec(item1: #""size": {"width": {"absolute": 10}, "height": {"estimated": 0}}"#),
        "sections[1].group.subitems[0].size.height"
      ),
      (
        "two kinds in one dimension",
        Self.spec(
          item1: #""size": {"width": {"absolute": 1, "estimated": 2}, "height": {"absolute": 350}}"#
        ), "sections[1].group.subitems[0].size.width"
      ),
      (
        "unknown dimension kind",
        Self.spec(item1: #""size": {"width": {"percent": 50}, "height": {"absolute": 350}}"#),
        "sections[1].group.subitems[0].size.width.percent"
      ),
      (
        "missing height", Self.spec(item1: #""size": {"width": {"absolute": 10}}"#),
        "sections[1].group.subitems[0].size.height"
      ),
      (
        "unknown item field",
        Self.spec(
          item1:
            #""size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "colour": "red""#),
        "sections[1].group.subitems[0].colour"
      ),
      (
        "insets of the wrong type",
        Self.spec(
          item1:
            #""size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "contentInsets": {"top": true}"#
        ), "sections[1].group.subitems[0].contentInsets.top"
      ),
      (
        "unknown inset edge",
        Self.spec(
          item1:
            #""size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "contentInsets": {"left": 4}"#
        ), "sections[1].group.subitems[0].contentInsets.left"
      ),
      (
        "bad edge spacing",
        Self.spec(
          item1:
            #""size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "edgeSpacing": {"leading": {"elastic": 2}}"#
        ), "sections[1].group.subitems[0].edgeSpacing.leading.elastic"
      ),
      (
        "negative edge spacing",
        Self.spec(
          item1:
            #""size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "edgeSpacing": {"top": {"fixed": -2}}"#
        ), "sections[1].group.subitems[0].edgeSpacing.top.fixed"
      ),
      (
        "count 0",
        Self.spec(
          group1:
            #""axis": "horizontal", "count": 0, "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": [{"item": {"size": {"width": {"absolute": 1}, "height": {"absolute": 1}}}}]"#
        ), "sections[1].group.count"
      ),
      (
        "count 1.5",
        Self.spec(
          group1:
            #""axis": "horizontal", "count": 1.5, "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": [{"item": {"size": {"width": {"absolute": 1}, "height": {"absolute": 1}}}}]"#
        ), "sections[1].group.count"
      ),
      (
        "repeatingCount negative",
        Self.spec(
          group1:
            #""axis": "horizontal", "repeatingCount": -3, "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": [{"item": {"size": {"width": {"absolute": 1}, "height": {"absolute": 1}}}}]"#
        ), "sections[1].group.repeatingCount"
      ),
      (
        "count and repeatingCount",
        Self.spec(
          group1:
            #""axis": "horizontal", "count": 2, "repeatingCount": 2, "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": [{"item": {"size": {"width": {"absolute": 1}, "height": {"absolute": 1}}}}]"#
        ), "sections[1].group.repeatingCount"
      ),
      (
        "count with two subitems",
        Self.spec(
          group1:
            #""axis": "horizontal", "count": 2, "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": [{"item": {"size": {"width": {"absolute": 1}, "height": {"absolute": 1}}}}, {"item": {"size": {"width": {"absolute": 1}, "height": {"absolute": 1}}}}]"#
        ), "sections[1].group.count"
      ),
      (
        "no subitems",
        Self.spec(
          group1:
            #""axis": "horizontal", "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": []"#
        ), "sections[1].group.subitems"
      ),
      (
        "missing subitems",
        Self.spec(
          group1:
            #""axis": "horizontal", "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}"#
        ), "sections[1].group.subitems"
      ),
      (
        "subitem is neither item nor group",
        Self.spec(
          group1:
            #""axis": "horizontal", "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": [{}]"#
        ), "sections[1].group.subitems[0]"
      ),
      (
        "nested group without subitems",
        Self.spec(
          group1:
            #""axis": "horizontal", "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": [{"group": {"axis": "vertical", "size": {"width": {"absolute": 5}, "height": {"absolute": 5}}, "subitems": []}}]"#
        ), "sections[1].group.subitems[0].subitems"
      ),
      (
        "nested group size error",
        Self.spec(
          group1:
            #""axis": "horizontal", "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": [{"group": {"axis": "vertical", "size": {"width": {"absolute": -5}, "height": {"absolute": 5}}, "subitems": [{"item": {"size": {"width": {"absolute": 1}, "height": {"absolute": 1}}}}]}}]"#
        ), "sections[1].group.subitems[0].size.width"
      ),
      (
        "unknown axis",
        Self.spec(
          group1:
            #""axis": "diagonal", "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": [{"item": {"size": {"width": {"absolute": 1}, "height": {"absolute": 1}}}}]"#
        ), "sections[1].group.axis"
      ),
      (
        "custom axis",
        Self.spec(
          group1:
            #""axis": "custom", "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": [{"item": {"size": {"width": {"absolute": 1}, "height": {"absolute": 1}}}}]"#
        ), "sections[1].group.axis"
      ),
      (
        "spacing with both kinds",
        Self.spec(
          group1:
            #""axis": "horizontal", "interItemSpacing": {"fixed": 1, "flexible": 2}, "size": {"width": {"absolute": 10}, "height": {"absolute": 10}}, "subitems": [{"item": {"size": {"width": {"absolute": 1}, "height": {"absolute": 1}}}}]"#
        ), "sections[1].group.interItemSpacing"
      ),
      (
        "unknown orthogonal behaviour",
        Self.spec(section0: #", "orthogonalScrollingBehavior": "sideways""#),
        "sections[0].orthogonalScrollingBehavior"
      ),
      (
        "negative interGroupSpacing", Self.spec(section0: #", "interGroupSpacing": -4"#),
        "sections[0].interGroupSpacing"
      ),
      (
        "boolean as a number", Self.spec(section0: #", "interGroupSpacing": true"#),
        "sections[0].interGroupSpacing"
      ),
      (
        "number as a boolean",
        Self.spec(
          section0:
            #", "boundarySupplementaryItems": [{"kind": "header", "alignment": "top", "pinToVisibleBounds": 1, "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 40}}}]"#
        ), "sections[0].boundarySupplementaryItems[0].pinToVisibleBounds"
      ),
      (
        "header without kind",
        Self.spec(
          section0:
            #", "boundarySupplementaryItems": [{"alignment": "top", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 40}}}]"#
        ), "sections[0].boundarySupplementaryItems[0].kind"
      ),
      (
        "header with unknown alignment",
        Self.spec(
          section0:
            #", "boundarySupplementaryItems": [{"kind": "h", "alignment": "middle", "size": {"width": {"fractionalWidth": 1}, "height": {"absolute": 40}}}]"#
        ), "sections[0].boundarySupplementaryItems[0].alignment"
      ),
      (
        "decoration with unknown field",
        Self.spec(section0: #", "decorationItems": [{"kind": "bg", "colour": "red"}]"#),
        "sections[0].decorationItems[0].colour"
      ),
      (
        "itemSizes past the items",
        Self.spec(section0: #", "itemSizes": [{"index": 3, "height": 10}]"#),
        "sections[0].itemSizes[0].index"
      ),
      (
        "itemSizes negative height",
        Self.spec(section0: #", "itemSizes": [{"index": 0, "height": -10}]"#),
        "sections[0].itemSizes[0].height"
      ),
      (
        "itemSizes without a size", Self.spec(section0: #", "itemSizes": [{"index": 0}]"#),
        "sections[0].itemSizes[0]"
      ),
      (
        "cells without a template", Self.spec(section0: #", "cells": [{"text": "hi"}]"#),
        "sections[0].cells[0].template"
      ),
      (
        "more cells than items",
        Self.spec(
          section0:
            #", "cells": [{"template": "a"}, {"template": "a"}, {"template": "a"}, {"template": "a"}]"#
        ), "sections[0].cells"
      ),
      (
        "unknown configuration field",
        Self.spec(root: #", "configuration": {"scrollDirection": "vertical", "spacing": 3}"#),
        "configuration.spacing"
      ),
      (
        "unknown scroll direction",
        Self.spec(root: #", "configuration": {"scrollDirection": "diagonal"}"#),
        "configuration.scrollDirection"
      ),
      (
        "too many items",
        #"{"container": {"width": 390, "height": 844}, "sections": [{"items": 1e12, "group": {}}]}"#,
        "sections[0].items"
      ),
      (
        "negative item count",
        #"{"container": {"width": 390, "height": 844}, "sections": [{"items": -1, "group": {}}]}"#,
        "sections[0].items"
      ),
    ]
    var seen = Set<String>()
    for (name, json, path) in cases {
      XCTAssertTrue(seen.insert(name).inserted, "duplicate case \(name)")
      do {
        _ = try LayoutSpec(json: Data(json.utf8))
        XCTFail("\(name): accepted")
      } catch let error as LayoutSpecError {
        XCTAssertEqual(error.path, path, "\(name): \(error)")
        XCTAssertFalse(error.message.isEmpty, name)
      } catch {
        XCTFail("\(name): unexpected error \(error)")
      }
    }
  }

  func testTooLargeAndTooDeep() {
    let huge = Self.spec(
      item1: #""size": {"width": {"fractionalWidth": 1e300}, "height": {"absolute": 350}}"#)
    XCTAssertThrowsError(try LayoutSpec(json: Data(huge.utf8))) { error in
      XCTAssertEqual((error as? LayoutSpecError)?.path, "sections[1].group.subitems[0].size.width")
    }
    // 40 nested groups: refused at the 33rd level instead of recursing without bound.
    let size = #""size": {"width": {"absolute": 10}, "height": {"absolute": 10}}"#
    var group = #"{"axis": "vertical", \#(size), "subitems": [{"item": {\#(size)}}]}"#
    for _ in 0..<40 {
      group = #"{"axis": "vertical", \#(size), "subitems": [{"group": \#(group)}]}"#
    }
    let deep =
      #"{"container": {"width": 390, "height": 844}, "sections": [{"items": 1, "group": \#(group)}]}"#
    XCTAssertThrowsError(try LayoutSpec(json: Data(deep.utf8))) { error in
      let path = (error as? LayoutSpecError)?.path ?? ""
      XCTAssertEqual(path, "sections[0].group" + String(repeating: ".subitems[0]", count: 32))
    }
  }

  func testDegenerateSwiftGroupsDoNotCrash() {
    let env = LayoutEnvironment(containerSize: Size(width: 390, height: 844))
    for g in [
      Group(size: fixedSize(10, 10), layout: .horizontal, subitems: []),
      Group(
        size: fixedSize(10, 10), layout: .vertical, subitems: [.item(Item(size: fixedSize(1, 1)))],
        repetition: .count(0)),
      Group(
        size: fixedSize(10, 10), layout: .vertical, subitems: [.item(Item(size: fixedSize(1, 1)))],
        repetition: .repeating(-2)),
    ] {
      let r = CollectionLayout(section: Section(group: g)).layout(itemCounts: [5], environment: env)
      XCTAssertEqual(r.cells.count, 0)
      XCTAssertEqual(r.warnings, ["sections[0].group: holds no items; the section stops here"])
    }
  }

  func testCellsWithoutAMeasurerIsAnError() throws {
    let spec = try LayoutSpec(
      json: Data(Self.spec(section0: #", "cells": [{"template": "bubble", "text": "hi"}]"#).utf8))
    XCTAssertThrowsError(try spec.layoutResult()) { error in
      XCTAssertEqual((error as? LayoutSpecError)?.path, "sections[0].cells")
    }
  }

  func testDegenerateGroupsTerminate() throws {
    // Zero-size items in a fill group: all fit in one group; the layout ends.
    let zero = #"""
      {"container": {"width": 390, "height": 844},
       "sections": [{"items": 5000, "group": {"axis": "horizontal", "size": {"width": {"absolute": 100}, "height": {"absolute": 0}},
                     "subitems": [{"item": {"size": {"width": {"absolute": 0}, "height": {"absolute": 0}}}}]}},
                    {"items": 50, "group": {"axis": "vertical", "size": {"width": {"fractionalWidth": 0}, "height": {"estimated": 1}},
                     "subitems": [{"group": {"axis": "horizontal", "size": {"width": {"fractionalWidth": 0}, "height": {"fractionalHeight": 0}},
                       "subitems": [{"item": {"size": {"width": {"fractionalWidth": 0}, "height": {"fractionalHeight": 0}}}}]}}]}}]}
      """#
    let r = try LayoutSpec(json: Data(zero.utf8)).layoutResult()
    XCTAssertEqual(r.numberOfItems(inSection: 0), 5000)
    XCTAssertEqual(r.numberOfItems(inSection: 1), 50)
    // A custom group that returns no frames stops its section with a warning instead of looping.
    let empty = Section(group: .custom(fixedSize(10, 10)) { _ in [] })
    let r2 = CollectionLayout(section: empty).layout(
      itemCounts: [10], environment: LayoutEnvironment(containerSize: Size(width: 390, height: 844))
    )
    XCTAssertEqual(r2.cells.count, 0)
    XCTAssertTrue(r2.warnings.contains { $0.contains("holds no items") })
  }
}
