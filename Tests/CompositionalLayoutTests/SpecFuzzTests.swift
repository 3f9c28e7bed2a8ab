@testable import GalleyRecords
import Foundation
import XCTest

@testable import CompositionalLayout

/// Random specs and random corruptions of them: each either lays out (with every item placed or a warning
/// saying why not) or fails with a `LayoutSpecError`; nothing crashes or hangs.
final class SpecFuzzTests: XCTestCase {
  func dimension(_ rng: inout TestRNG) -> [String: Any] {
    switch rng.int(4) {
    case 0: return ["absolute": Double(rng.int(400))]
    case 1: return ["fractionalWidth": Double(rng.int(11)) / 10]
    case 2: return ["fractionalHeight": Double(rng.int(11)) / 10]
    default: return ["estimated": Double(1 + rng.int(300))]
    }
  }

  func size(_ rng: inout TestRNG) -> [String: Any] {
    ["width": dimension(&rng), "height": dimension(&rng)]
  }

  func spacing(_ rng: inout TestRNG) -> [String: Any] {
    [rng.int(2) == 0 ? "fixed" : "flexible": Double(rng.int(20))]
  }

  func group(_ rng: inout TestRNG, depth: Int) -> [String: Any] {
    var subitems: [Any] = []
    for _ in 0..<(1 + rng.int(3)) {
      if depth < 2 && rng.int(3) == 0 {
        subitems.append(["group": group(&rng, depth: depth + 1)])
      } else {
        var item: [String: Any] = ["size": size(&rng)]
        if rng.int(3) == 0 {
          item["contentInsets"] = ["top": 2, "leading": 3, "bottom": 4, "trailing": 5]
        }
        if rng.int(4) == 0 {
          item["edgeSpacing"] = ["leading": spacing(&rng), "top": spacing(&rng)]
        }
        subitems.append(["item": item])
      }
    }
    var g: [String: Any] = [
      "axis": rng.int(2) == 0 ? "horizontal" : "vertical", "size": size(&rng), "subitems": subitems,
    ]
    if rng.int(3) == 0 { g["interItemSpacing"] = spacing(&rng) }
    if rng.int(4) == 0 {
      g["subitems"] = [subitems[0]]
      g["count"] = 1 + rng.int(4)
    } else if rng.int(4) == 0 {
      g["repeatingCount"] = 1 + rng.int(4)
    }
    return g
  }

  func spec(_ rng: inout TestRNG) -> [String: Any] {
    let behaviours = OrthogonalScrollingBehavior.allCases.map(\.rawValue)
    var sections: [Any] = []
    for _ in 0..<(1 + rng.int(3)) {
      var s: [String: Any] = ["items": rng.int(60), "group": group(&rng, depth: 0)]
      s["orthogonalScrollingBehavior"] = behaviours[rng.int(behaviours.count)]
      s["interGroupSpacing"] = Double(rng.int(10))
      if rng.int(2) == 0 {
        s["boundarySupplementaryItems"] = [
          [
            "kind": "header", "alignment": "top", "size": size(&rng),
            "pinToVisibleBounds": rng.int(2) == 0,
          ]
        ]
      }
      if rng.int(3) == 0 { s["decorationItems"] = [["kind": "background"]] }
      sections.append(s)
    }
    return [
      "container": [
        "width": Double(100 + rng.int(400)), "height": Double(200 + rng.int(800)), "scale": 3,
      ],
      "configuration": ["scrollDirection": rng.int(4) == 0 ? "horizontal" : "vertical"],
      "sections": sections,
    ]
  }

  /// Replaces one random value somewhere in the tree with a wrong one, or adds an unknown key.
  func corrupt(_ value: Any, _ rng: inout TestRNG) -> Any {
    if var dict = value as? [String: Any], !dict.isEmpty {
      let keys = dict.keys.sorted()
      let key = keys[rng.int(keys.count)]
      switch rng.int(6) {
      case 0: dict[key] = "oops"
      case 1: dict[key] = -1
      case 2: dict["unexpected"] = 1
      case 3: dict.removeValue(forKey: key)
      default: dict[key] = corrupt(dict[key]!, &rng)
      }
      return dict
    }
    if var array = value as? [Any], !array.isEmpty {
      let i = rng.int(array.count)
      array[i] = rng.int(4) == 0 ? 0 : corrupt(array[i], &rng)
      return array
    }
    return rng.int(2) == 0 ? [1, 2] : 0
  }

  func testRandomAndCorruptedSpecs() throws {
    var rng = TestRNG(2024)
    var laidOut = 0
    var rejected = 0
    for round in 0..<400 {
      var object: Any = spec(&rng)
      if round % 2 == 1 { object = corrupt(object, &rng) }
      let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
      do {
        let spec = try LayoutSpec(json: data)
        let result = try spec.layoutResult()
        laidOut += 1
        let expected = spec.sections.reduce(0) { $0 + $1.itemCount }
        if result.cells.count != expected {
          XCTAssertTrue(
            result.warnings.contains { $0.contains("holds no items") }, "round \(round)")
        }
        for a in result.cells {
          XCTAssertTrue(
            a.frame.minX.isFinite && a.frame.minY.isFinite && a.frame.width.isFinite,
            "round \(round)")
        }
        // The JSON output is valid JSON.
        XCTAssertNoThrow(
          try JSONSerialization.jsonObject(with: Data(LayoutJSONEncoder.encode(result).utf8)))
      } catch let error as LayoutSpecError {
        rejected += 1
        XCTAssertFalse(error.message.isEmpty)
        XCTAssertEqual(round % 2, 1, "a generated spec was rejected: \(error)")
      }
    }
    XCTAssertGreaterThan(laidOut, 200)
    XCTAssertGreaterThan(rejected, 50)
  }
}
