import Foundation
import Rasterizer
import XCTest

/// `galley render` as a user runs it, checked on the decoded PNG's pixels.
final class RenderCommandTests: XCTestCase {
  let cli = Galley()

  func tempDir() throws -> URL {
    let d = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-render-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: d) }
    return d
  }

  struct Placed {
    var id: String
    var frame: Rect
    var estimated: Rect?
    var ink: [Rect]
  }

  func rect(_ any: Any?) -> Rect? {
    guard let a = any as? [Double], a.count == 4 else { return nil }
    return Rect(x: a[0], y: a[1], width: a[2], height: a[3])
  }

  func frames(_ url: URL) throws -> [Placed] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return try text.split(separator: "\n").map { line in
      let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      return Placed(
        id: o["id"] as? String ?? "", frame: try XCTUnwrap(rect(o["frame"])),
        estimated: rect(o["estimated"]),
        ink: (o["ink"] as? [[Double]] ?? []).compactMap { rect($0) })
    }
  }

  /// Pixels whose centres lie outside every rectangle (grown by `grow` points) that are not
  /// `background`.
  func strayPixels(_ b: PNGImage.Bitmap, scale: Double, outside rects: [Rect], grow: Double = 0.5)
    -> Int
  {
    var inside = [Bool](repeating: false, count: b.width * b.height)
    for r in rects {
      let x0 = max(0, Int(((r.minX - grow) * scale).rounded(.down)))
      let y0 = max(0, Int(((r.minY - grow) * scale).rounded(.down)))
      let x1 = min(b.width, Int(((r.maxX + grow) * scale).rounded(.up)))
      let y1 = min(b.height, Int(((r.maxY + grow) * scale).rounded(.up)))
      guard x1 > x0, y1 > y0 else { continue }
      for y in y0..<y1 { for x in x0..<x1 { inside[y * b.width + x] = true } }
    }
    var stray = 0
    for y in 0..<b.height {
      for x in 0..<b.width where !inside[y * b.width + x] && b.color(x: x, y: y) != .white {
        stray += 1
      }
    }
    return stray
  }

  /// The issue's example: tabs, a double space and Japanese punctuation. `render --text`'s
  /// drawn lines are as wide as `measure` says (both from the same glyphs).
  func testRenderedTextLinesAreAsWideAsMeasuredOnes() throws {
    let dir = try tempDir()
    let text = "a\tb  tab 「括弧」、テスト"
    let png = dir.appendingPathComponent("t.png")
    let framesURL = dir.appendingPathComponent("f.jsonl")
    for (width, lang) in [(358.0, "ja"), (358.0, ""), (120.0, "ja"), (60.0, "")] {
      var args = [
        "render", "--text", text, "--size", "20", "--width", String(width + 32), "-o", png.path,
        "--frames", framesURL.path,
      ]
      if !lang.isEmpty { args += ["--lang", lang] }
      let r = try cli.run(args)
      XCTAssertEqual(r.status, 0, r.stderr)
      let frame = try XCTUnwrap(
        JSONSerialization.jsonObject(
          with: Data(try String(contentsOf: framesURL, encoding: .utf8).utf8)) as? [String: Any])
      let drawn = try XCTUnwrap(frame["lineWidths"] as? [Double])
      var record: [String: Any] = ["id": "t", "text": text, "size": 20, "width": width]
      if !lang.isEmpty { record["lang"] = lang }
      let m = try cli.run(
        ["measure", "-"], stdin: try JSONSerialization.data(withJSONObject: record) + Data([10]))
      let measured = try XCTUnwrap(m.lines.first?["lineWidths"] as? [Double], m.stdout)
      XCTAssertEqual(drawn.count, measured.count)
      for (d, w) in zip(drawn, measured) {
        XCTAssertEqual(d, w, accuracy: 1.0 / 64 + 1e-6, "width \(width) lang \(lang)")
      }
    }
  }

  func testTranscriptPictureBubblesGlyphInkAndNothingOutside() throws {
    let dir = try tempDir()
    let all = try String(
      contentsOf: Galley.root.appendingPathComponent("Examples/transcript.jsonl"), encoding: .utf8
    ).split(separator: "\n")
    let sample = all.prefix(40).joined(separator: "\n") + "\n"
    let png = dir.appendingPathComponent("t.png")
    let framesURL = dir.appendingPathComponent("frames.jsonl")
    let r = try cli.run(
      ["render", "-", "-o", png.path, "--frames", framesURL.path], stdin: Data(sample.utf8))
    XCTAssertEqual(r.status, 0, r.stderr)
    let bitmap = try PNGImage.read(png.path)
    XCTAssertEqual(bitmap.width, 780, "390 pt at scale 2")
    let placed = try frames(framesURL)
    XCTAssertEqual(placed.count, 40)
    // The frames are the measured sizes.
    let sizes = try cli.run(["measure", "-"], stdin: Data(sample.utf8)).lines
    let records = sample.split(separator: "\n").map {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
    }
    for (i, p) in placed.enumerated() {
      XCTAssertEqual(p.id, sizes[i]["id"] as? String)
      XCTAssertEqual(p.frame.width, sizes[i]["width"] as? Double ?? -1, accuracy: 1e-6, p.id)
      XCTAssertEqual(p.frame.height, sizes[i]["height"] as? Double ?? -1, accuracy: 1e-6, p.id)
      if records[i]["sender"] as? String == "me" {
        XCTAssertEqual(p.frame.maxX, 390 - 8, accuracy: 1e-6, "\(p.id) trailing")
      } else {
        XCTAssertEqual(p.frame.minX, 8, accuracy: 1e-6, "\(p.id) leading")
      }
      // Stacked by the chat layout (ChatLayoutConfiguration's spacings): 2 points after a
      // bubble of the same sender, 12 after another sender's; 8 above the first.
      if i > 0 {
        let same =
          records[i]["sender"] as? String == records[i - 1]["sender"] as? String
          && records[i]["senderName"] as? String == records[i - 1]["senderName"] as? String
        XCTAssertEqual(
          p.frame.minY - placed[i - 1].frame.maxY, same ? 2 : 12, accuracy: 1e-6, "\(p.id) spacing")
      } else {
        XCTAssertEqual(p.frame.minY, 8, accuracy: 1e-6)
      }
      // The bubble region is filled.
      var filled = 0
      var total = 0
      for y in Int(p.frame.minY * 2)..<Int(p.frame.maxY * 2) {
        for x in Int(p.frame.minX * 2)..<Int(p.frame.maxX * 2) {
          total += 1
          if bitmap.color(x: x, y: y) != .white { filled += 1 }
        }
      }
      XCTAssertGreaterThan(Double(filled), Double(total) * 0.75, "\(p.id): bubble filled")
      let centre = bitmap.color(x: Int(p.frame.minX * 2) + 4, y: Int((p.frame.minY + p.frame.maxY)))
      XCTAssertTrue(
        centre == Color(hex: 0x0A84FF) || centre == Color(hex: 0xE9E9EB), "\(p.id): \(centre)")
      // Glyph pixels (neither the bubble's colour nor anything else drawn) inside the padding.
      let fill =
        records[i]["sender"] as? String == "me" ? Color(hex: 0x0A84FF) : Color(hex: 0xE9E9EB)
      var glyphPixels = 0
      for y in Int((p.frame.minY + 8) * 2)..<Int((p.frame.maxY - 8) * 2) {
        for x in Int((p.frame.minX + 12) * 2)..<Int((p.frame.maxX - 12) * 2)
        where bitmap.color(x: x, y: y) != fill {
          glyphPixels += 1
        }
      }
      XCTAssertGreaterThan(glyphPixels, 20, "\(p.id): text drawn in the bubble")
      // Glyph ink inside the measured frame.
      XCTAssertFalse(p.ink.isEmpty, "\(p.id) drew no text")
      for ink in p.ink {
        XCTAssertTrue(
          p.frame.contains(ink, tolerance: 0.5), "\(p.id): ink \(ink) outside \(p.frame)")
      }
    }
    XCTAssertEqual(strayPixels(bitmap, scale: 2, outside: placed.map(\.frame)), 0)
  }

  func testWidthLaysTheChatOutOnANarrowerScreen() throws {
    let dir = try tempDir()
    let sample = try String(
      contentsOf: Galley.root.appendingPathComponent("Examples/transcript.jsonl"), encoding: .utf8
    ).split(separator: "\n").prefix(15).joined(separator: "\n")
    let png = dir.appendingPathComponent("n.png")
    let framesURL = dir.appendingPathComponent("f.jsonl")
    let r = try cli.run(
      ["render", "-", "--width", "320", "-o", png.path, "--frames", framesURL.path],
      stdin: Data(sample.utf8))
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try PNGImage.read(png.path).width, 640)
    let placed = try frames(framesURL)
    XCTAssertEqual(placed.count, 15)
    for p in placed {
      XCTAssertLessThanOrEqual(p.frame.width, 320 * 0.75 + 1e-6, p.id)
      XCTAssertGreaterThanOrEqual(p.frame.minX, 8 - 1e-6, p.id)
      XCTAssertLessThanOrEqual(p.frame.maxX, 320 - 8 + 1e-6, p.id)
    }
    // The same records measured in a 320-point container give the same sizes.
    let narrowed = sample.replacingOccurrences(
      of: "\"containerWidth\": 390", with: "\"containerWidth\": 320")
    let sizes = try cli.run(["measure", "-"], stdin: Data(narrowed.utf8)).lines
    for (p, s) in zip(placed, sizes) {
      XCTAssertEqual(p.frame.height, s["height"] as? Double ?? -1, accuracy: 1e-6, p.id)
    }
  }

  func testOverlayDrawsEstimatedFramesDashed() throws {
    let dir = try tempDir()
    let lines = try String(
      contentsOf: Galley.root.appendingPathComponent("Examples/estimates.jsonl"), encoding: .utf8
    ).split(separator: "\n").prefix(12).joined(separator: "\n")
    let png = dir.appendingPathComponent("o.png")
    let framesURL = dir.appendingPathComponent("f.jsonl")
    let r = try cli.run(
      ["render", "-", "--overlay", "-o", png.path, "--frames", framesURL.path, "--quiet"],
      stdin: Data(lines.utf8))
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stderr, "", "--quiet")
    let b = try PNGImage.read(png.path)
    let placed = try frames(framesURL)
    var sawGap = false
    for p in placed {
      let e = try XCTUnwrap(p.estimated)
      let records = lines.split(separator: "\n").map {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
      }
      let rec = try XCTUnwrap(records.first { $0["id"] as? String == p.id })
      XCTAssertEqual(e.height, rec["estimatedHeight"] as? Double ?? -1, accuracy: 1e-6)
      // Along the estimated frame's top edge: red dashes with gaps.
      let y = Int(((e.minY + 0.5) * 2).rounded(.down))  // the middle of the 1 pt line
      var red = 0
      var other = 0
      for x in Int(e.minX * 2) + 2..<Int(e.maxX * 2) - 2 {
        let c = b.color(x: x, y: y)
        if c.r > 200 && c.g < 120 && c.b < 120 { red += 1 } else { other += 1 }
      }
      XCTAssertGreaterThan(red, 10, p.id)
      if other > 5 { sawGap = true }
    }
    XCTAssertTrue(sawGap, "dashed, not solid")
    XCTAssertEqual(
      strayPixels(b, scale: 2, outside: placed.flatMap { [$0.frame, $0.estimated!] }), 0)
  }

  func testHomeScreenLayoutPicture() throws {
    let dir = try tempDir()
    let spec = Galley.root.appendingPathComponent("Examples/home-screen.json").path
    let png = dir.appendingPathComponent("home.png")
    let framesURL = dir.appendingPathComponent("f.jsonl")
    let r = try cli.run([
      "render", spec, "-o", png.path, "--scale", "1", "--frames", framesURL.path,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let layout = try cli.run(["layout", spec])
    let o = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(layout.stdout.utf8)) as? [String: Any])
    let elements = try XCTUnwrap(o["attributes"] as? [[String: Any]]).compactMap {
      rect($0["frame"])
    }
    XCTAssertGreaterThan(elements.count, 20)
    let b = try PNGImage.read(png.path)
    XCTAssertEqual(strayPixels(b, scale: 1, outside: elements), 0, "nothing outside the frames")
    let placed = try frames(framesURL)
    let cards = placed.filter { !$0.ink.isEmpty }
    XCTAssertGreaterThanOrEqual(cards.count, 10, "product cards drew their text")
    for p in cards {
      for ink in p.ink {
        XCTAssertTrue(
          p.frame.contains(ink, tolerance: 0.5), "\(p.id): ink \(ink) outside \(p.frame)")
      }
    }
  }

  /// A bubble whose item has an estimated width is measured in the width the layout proposes
  /// (its container): the picture draws it with the lines it was measured with, inside its
  /// frame, not measured again in the narrower frame it ended up with.
  func testSpecBubbleIsDrawnAsTheLayoutMeasuredIt() throws {
    let dir = try tempDir()
    let text = "Are we still on for dinner tonight? I booked the table by the window for seven thirty."
    let spec = dir.appendingPathComponent("spec.json")
    try Data(
      """
      {"container": {"width": 390, "height": 844, "scale": 3},
       "sections": [{"items": 1,
         "group": {"axis": "horizontal",
           "size": {"width": {"fractionalWidth": 1}, "height": {"estimated": 60}},
           "subitems": [{"item": {"size": {"width": {"estimated": 390}, "height": {"estimated": 60}}}}]},
         "cells": [{"template": "bubble", "id": "b", "text": "\(text)", "sender": "me"}]}]}
      """.utf8
    ).write(to: spec)
    // What the engine says of that bubble in the 390-point container the layout proposed.
    let measured = try cli.run(
      ["measure", "-"],
      stdin: Data(
        #"{"template": "bubble", "id": "b", "text": "\#(text)", "containerWidth": 390, "scale": 3}"#
          .utf8))
    let m = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(measured.stdout.utf8)) as? [String: Any])
    let lines = try XCTUnwrap(m["lines"] as? Int)
    let png = dir.appendingPathComponent("b.png")
    let framesURL = dir.appendingPathComponent("f.jsonl")
    let r = try cli.run(["render", spec.path, "-o", png.path, "--frames", framesURL.path])
    XCTAssertEqual(r.status, 0, r.stderr)
    let placed = try XCTUnwrap(try frames(framesURL).first)
    XCTAssertEqual(placed.frame.width, try XCTUnwrap(m["width"] as? Double), accuracy: 1e-6)
    XCTAssertEqual(placed.ink.count, lines, "drawn with the lines it was measured with")
    for ink in placed.ink {
      XCTAssertTrue(placed.frame.contains(ink, tolerance: 0.5), "ink \(ink) outside \(placed.frame)")
    }
    // One writer of numbers: the frame is the same bytes in both outputs.
    func frameText(_ s: String) -> String? {
      s.range(of: #""frame": \[[^\]]*\]"#, options: .regularExpression).map { String(s[$0]) }
    }
    let layout = try cli.run(["layout", spec.path])
    let framesText = try String(contentsOf: framesURL, encoding: .utf8)
    XCTAssertEqual(try XCTUnwrap(frameText(layout.stdout)), try XCTUnwrap(frameText(framesText)))
    XCTAssertTrue(framesText.contains(".333333333"), framesText)
  }

  func testSingleTextWithEmojiAndRightToLeft() throws {
    let dir = try tempDir()
    let png = dir.appendingPathComponent("t.png")
    let framesURL = dir.appendingPathComponent("f.jsonl")
    let r = try cli.run([
      "render", "--text", "오늘 저녁 7시에 만나요 👋", "--size", "24", "-o", png.path, "--frames",
      framesURL.path,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let b = try PNGImage.read(png.path)
    var coloured = 0
    for y in 0..<b.height {
      for x in 0..<b.width {
        let c = b.color(x: x, y: y)
        if Int(max(c.r, c.g, c.b)) - Int(min(c.r, c.g, c.b)) > 60 { coloured += 1 }
      }
    }
    XCTAssertGreaterThan(coloured, 200, "the emoji is in colour")
    let rtl = dir.appendingPathComponent("rtl.png")
    let rtlFrames = dir.appendingPathComponent("rf.jsonl")
    let r2 = try cli.run([
      "render", "--text", "مرحبا بالعالم", "--fonts", "NotoSansArabic-Regular.ttf", "-o", rtl.path,
      "--frames", rtlFrames.path,
    ])
    XCTAssertEqual(r2.status, 0, r2.stderr)
    let ink = try XCTUnwrap(try frames(rtlFrames).first?.ink.first)
    XCTAssertEqual(ink.maxX, 390 - 16, accuracy: 3, "right-to-left text ends at the right")
    XCTAssertGreaterThan(ink.minX, 200)
  }

  func testBadRecordsAreLeftOutAndReportedWithTheirLine() throws {
    let dir = try tempDir()
    let good = #"{"id":"a","template":"bubble","text":"hello","containerWidth":390,"sender":"me"}"#
    let input = [
      good, "{oops", #"{"id":"c","text":"x","colour":1}"#,
      good.replacingOccurrences(of: "\"a\"", with: "\"d\""),
    ]
    .joined(separator: "\n")
    let png = dir.appendingPathComponent("x.png")
    let framesURL = dir.appendingPathComponent("f.jsonl")
    let r = try cli.run(
      ["render", "-", "-o", png.path, "--frames", framesURL.path], stdin: Data(input.utf8))
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.contains("line 2: invalid JSON"), r.stderr)
    XCTAssertTrue(r.stderr.contains("line 3 (c)"), r.stderr)
    XCTAssertEqual(try frames(framesURL).map(\.id), ["a", "d"])
    XCTAssertNoThrow(try PNGImage.read(png.path))
    // Nothing drawable at all.
    let none = try cli.run(["render", "-", "-o", png.path], stdin: Data("{oops\n".utf8))
    XCTAssertEqual(none.status, 2)
    XCTAssertTrue(none.stderr.contains("nothing to draw"), none.stderr)
  }

  func testPNGOnStandardOutput() throws {
    let r = try cli.run(["render", "--text", "hello", "-o", "-", "--quiet"])
    XCTAssertEqual(r.status, 0)
    XCTAssertEqual(r.stderr, "")
    let p = Process()
    p.executableURL = Galley.binary
    p.arguments = ["render", "--text", "hello", "-o", "-", "--quiet"]
    p.currentDirectoryURL = Galley.root
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let b = try PNGImage.decode(data)
    XCTAssertEqual(b.width, 780)
  }

  func testRenderUsageAndUnusableInput() throws {
    let noOut = try cli.run(["render", "Examples/transcript.jsonl"])
    XCTAssertEqual(noOut.status, 64)
    XCTAssertTrue(noOut.stderr.contains("-o OUT.png"), noOut.stderr)
    XCTAssertEqual(try cli.run(["render", "/nonexistent.jsonl", "-o", "/tmp/x.png"]).status, 66)
    let dir = try cli.run(["render", "/tmp", "-o", "/tmp/x.png"])
    XCTAssertEqual(dir.status, 66)
    XCTAssertTrue(dir.stderr.contains("directory"), dir.stderr)
    XCTAssertEqual(
      try cli.run(["render", "--text", "hi", "-o", "/tmp/x.png", "--scale", "0"]).status, 64)
    let unwritable = try cli.run(["render", "--text", "hi", "-o", "/nonexistent/dir/x.png"])
    XCTAssertEqual(unwritable.status, 73)
    XCTAssertTrue(unwritable.stderr.contains("cannot be written"), unwritable.stderr)
    let huge = try cli.run([
      "render", "--text", "x", "--size", "400", "--width", "10000", "--scale", "8", "-o",
      "/tmp/galley-huge.png",
    ])
    XCTAssertEqual(huge.status, 2)
    XCTAssertTrue(huge.stderr.contains("lower --scale"), huge.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/galley-huge.png"))
  }
}
