import Foundation
import Rasterizer
import XCTest

/// `galley validate --html` opened in a real browser: headless Chromium renders the page and
/// dumps its DOM.
final class HTMLReportTests: XCTestCase {
  let cli = Galley()

  static func chromium() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
      for name in ["chromium", "chromium-browser", "google-chrome"] {
        let p = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: p) { return p }
      }
    }
    return nil
  }

  /// Runs Chromium headless; returns standard output. Gives up (and fails) after 180 s.
  func runChromium(_ binary: String, _ args: [String], profile: URL) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: binary)
    p.arguments =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--user-data-dir=\(profile.path)", "--no-first-run", "--disable-extensions",
      ] + args
    let outURL = profile.appendingPathExtension("out")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    defer { try? out.close() }
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    let deadline = Date().addingTimeInterval(180)
    while p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    if p.isRunning {
      p.terminate()
      XCTFail("chromium did not finish")
    }
    p.waitUntilExit()
    let data = try Data(contentsOf: outURL)
    return String(decoding: data, as: UTF8.self)
  }

  func testReportRendersInChromiumWithTheNumbers() throws {
    guard let chromium = Self.chromium() else {
      throw XCTSkip(
        "headless Chromium is not installed, so the HTML report was not opened in a browser: "
          + "apt-get install chromium (Scripts/test installs it through Scripts/bootstrap)")
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-html-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let html = dir.appendingPathComponent("report.html")
    let input = Galley.root.appendingPathComponent("Examples/estimates.jsonl").path
    let v = try cli.run(["validate", input, "--html", html.path, "--json"])
    XCTAssertEqual(v.status, 0, v.stderr)
    let summary = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(v.stdout.utf8)) as? [String: Any])
    let page = try String(contentsOf: html, encoding: .utf8)
    XCTAssertFalse(page.contains("src=\"http"), "self-contained: nothing loaded from the network")
    XCTAssertFalse(page.contains("href=\"http"))

    let dom = try runChromium(
      chromium, ["--dump-dom", html.absoluteString], profile: dir.appendingPathComponent("p1"))
    func cell(_ id: String) -> String? {
      guard let r = dom.range(of: "id=\"\(id)\">") else { return nil }
      return String(dom[r.upperBound...].prefix { $0 != "<" })
    }
    XCTAssertEqual(cell("count"), "\(summary["count"] as? Int ?? -1)")
    for key in ["meanAbsError", "p50", "p95", "max", "maxJump"] {
      let value = try XCTUnwrap(summary[key] as? Double, key)
      XCTAssertEqual(cell(key), String(format: "%.2f", value), key)
    }
    let worst = try XCTUnwrap(summary["worst"] as? [[String: Any]])
    XCTAssertFalse(worst.isEmpty)
    for w in worst {
      XCTAssertTrue(dom.contains("id=\"worst-\(w["id"] as? String ?? "?")\""), "\(w)")
    }
    let categories = try XCTUnwrap(summary["byCategory"] as? [String: Any])
    for k in categories.keys { XCTAssertTrue(dom.contains("<td>\(k)</td>"), k) }
    XCTAssertEqual(
      dom.components(separatedBy: "src=\"data:image/png;base64,").count - 1, 2 * worst.count,
      "two pictures per worst item")
    XCTAssertTrue(dom.contains("<svg id=\"histogram\""))

    let shot = dir.appendingPathComponent("shot.png")
    _ = try runChromium(
      chromium,
      ["--screenshot=\(shot.path)", "--window-size=1000,1400", html.absoluteString],
      profile: dir.appendingPathComponent("p2"))
    let b = try PNGImage.read(shot.path)
    XCTAssertEqual(b.width, 1000)
    var ink = 0
    var blue = 0
    var red = 0
    for y in stride(from: 0, to: b.height, by: 2) {
      for x in stride(from: 0, to: b.width, by: 2) {
        let c = b.color(x: x, y: y)
        if c != .white { ink += 1 }
        if c.r < 40 && c.g > 110 && c.g < 150 && c.b > 230 { blue += 1 }
        if c.r > 230 && c.g < 80 && c.b < 80 { red += 1 }
      }
    }
    let samples = (b.width / 2) * (b.height / 2)
    XCTAssertGreaterThan(Double(ink), Double(samples) * 0.03, "the screenshot is not blank")
    XCTAssertGreaterThan(blue, 100, "histogram bars and bubbles drawn")
    XCTAssertGreaterThan(red, 20, "histogram bars for estimates that were too tall")
  }

  func testReportFromStandardInputAndUnwritablePath() throws {
    let lines =
      try String(
        contentsOf: Galley.root.appendingPathComponent("Examples/estimates.jsonl"), encoding: .utf8
      ).split(separator: "\n").prefix(20).joined(separator: "\n") + "\n{broken\n"
    let html = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-\(UUID().uuidString).html")
    defer { try? FileManager.default.removeItem(at: html) }
    let r = try cli.run(["validate", "-", "--html", html.path], stdin: Data(lines.utf8))
    // (One record could not be measured: exit 1, and the report is still written.)
    XCTAssertEqual(r.status, 1, r.stderr)
    let page = try String(contentsOf: html, encoding: .utf8)
    XCTAssertTrue(page.contains("<td id=\"count\">20</td>"))
    XCTAssertTrue(page.contains("<td id=\"errors\">1</td>"))
    XCTAssertTrue(
      page.contains("<td>21</td><td></td><td>invalid JSON: expected"), "the bad line, by number")
    XCTAssertTrue(page.contains("data:image/png;base64,"))
    let bad = try cli.run(
      ["validate", "-", "--html", "/nonexistent/dir/r.html"], stdin: Data(lines.utf8))
    XCTAssertEqual(bad.status, 73)
    XCTAssertTrue(bad.stderr.contains("cannot be written"), bad.stderr)
  }
}
