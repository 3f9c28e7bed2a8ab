import Foundation
import Rasterizer
import XCTest

/// `galley layout SPEC.json --updates BATCHES.json`, as a user runs it.
final class LayoutUpdatesCommandTests: XCTestCase {
  let cli = Galley()

  func testTheBrandGridExampleGrowsShrinksAndSaysSo() throws {
    let r = try cli.run([
      "layout", "Examples/brand-grid.json", "--updates", "Examples/brand-grid-updates.json",
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let json = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let batches = try XCTUnwrap(json["batches"] as? [[String: Any]])
    XCTAssertEqual(batches.count, 3)
    // Heights by hand: 40 + 120 per row, then the 100 pt section: 3 items 260, 4 → 380,
    // 9 → 500, 2 → 260.
    func height(_ b: [String: Any], _ which: String) -> Double? {
      ((b[which] as? [String: Any])?["contentSize"] as? [String: Any])?["height"] as? Double
    }
    XCTAssertEqual(batches.map { height($0, "before") }, [260, 380, 500])
    XCTAssertEqual(batches.map { height($0, "after") }, [380, 500, 260])
    let first = try XCTUnwrap(batches[0]["transitions"] as? [[String: Any]])
    let inserted = try XCTUnwrap(first.first { ($0["change"] as? String) == "insert" })
    XCTAssertEqual(inserted["item"] as? Int, 3)
    XCTAssertEqual(inserted["fromAlpha"] as? Double, 0)
    let checks = try XCTUnwrap(batches[0]["checks"] as? [String: Any])
    XCTAssertEqual(checks["overlaps"] as? Int, 0)
    XCTAssertEqual(checks["anchorShift"] as? Double, 0)
  }

  func testABatchUIKitWouldRejectIsAnErrorNamingIt() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("galley-updates-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let bad = dir.appendingPathComponent("bad.json")
    try Data(#"{"batches": [{"name": "too many", "insertItems": [{"section": 0, "item": 9}]}]}"#.utf8)
      .write(to: bad)
    let r = try cli.run(["layout", "Examples/brand-grid.json", "--updates", bad.path])
    XCTAssertEqual(r.status, 2)
    XCTAssertEqual(r.stdout, "")
    XCTAssertTrue(r.stderr.contains("batches[0] (too many): insertItems[0]"), r.stderr)
    try Data(#"{"batches": [{"inserts": []}]}"#.utf8).write(to: bad)
    let unknown = try cli.run(["layout", "Examples/brand-grid.json", "--updates", bad.path])
    XCTAssertEqual(unknown.status, 2)
    XCTAssertTrue(unknown.stderr.contains("batches[0].inserts: unknown field"), unknown.stderr)
  }

  func testTheStripShowsBeforeHalfwayAndAfter() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("strip-\(getpid()).png")
    let r = try cli.run([
      "render", "Examples/brand-grid.json", "--updates", "Examples/brand-grid-updates.json",
      "--batch", "2", "--scale", "1", "-o", out.path,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let png = try PNGImage.read(out.path)
    // Three 390-wide panels with 24 pt between them, 844 tall, under a 64 pt band that names
    // them and explains the colours.
    let band = 64
    XCTAssertEqual(png.width, 3 * 390 + 2 * 24)
    XCTAssertEqual(png.height, 844 + band)
    // Item 5 (x 260…390, y 160…280) is deleted by batch 2: red before, gone (white) after.
    let before = png.color(x: 325, y: band + 220)
    XCTAssertGreaterThan(Int(before.r), Int(before.g) + 40, "\(before)")
    let after = png.color(x: 2 * (390 + 24) + 325, y: band + 330)
    XCTAssertEqual([after.r, after.g, after.b], [255, 255, 255])
    // Each panel's label is ink (dark text) in the band above it, and so is the legend.
    func inkIn(x: ClosedRange<Int>, y: ClosedRange<Int>) -> Int {
      var n = 0
      for py in y { for px in x where Int(png.color(x: px, y: py).g) < 100 { n += 1 } }
      return n
    }
    for k in 0..<3 {
      XCTAssertGreaterThan(inkIn(x: k * 414...(k * 414 + 60), y: 6...30), 20, "label \(k)")
    }
    XCTAssertGreaterThan(inkIn(x: 0...600, y: 36...56), 100, "the legend")
  }
}
