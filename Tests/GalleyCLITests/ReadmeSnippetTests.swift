import Foundation
import XCTest

/// The README's library snippets compile, put together in one `main.swift`, against the
/// modules this build made (type-checked by `swiftc`, as a package depending on the checkout
/// would compile them).
final class ReadmeSnippetTests: XCTestCase {
  func run(_ tool: String, _ args: [String]) throws -> (Int32, String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [tool] + args
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  func testEverySwiftBlockOfTheReadmeCompiles() throws {
    let readme = try String(contentsOf: Galley.root.appendingPathComponent("README.md"), encoding: .utf8)
    var imports = Set<String>()
    var body: [String] = []
    var inBlock = false
    var blocks = 0
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
      if line == "```swift" {
        inBlock = true
        blocks += 1
      } else if inBlock && line == "```" {
        inBlock = false
      } else if inBlock {
        if line.hasPrefix("import ") { imports.insert(String(line)) } else { body.append(String(line)) }
      }
    }
    XCTAssertGreaterThanOrEqual(blocks, 2)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let main = dir.appendingPathComponent("main.swift")
    try (imports.sorted().joined(separator: "\n") + "\n" + body.joined(separator: "\n") + "\n")
      .write(to: main, atomically: true, encoding: .utf8)
    // The modules sit next to the built executable.
    let products = Galley.binary.deletingLastPathComponent()
    let (pc, cflags) = try run("pkg-config", ["--cflags-only-I", "harfbuzz", "freetype2", "libpng", "fontconfig"])
    XCTAssertEqual(pc, 0, cflags)
    var args = [
      "-typecheck", "-I", products.appendingPathComponent("Modules").path,
      "-Xcc", "-fmodule-map-file=" + products.appendingPathComponent("CICUShims.build/module.modulemap").path,
    ]
    for name in ["CHarfBuzz", "CFreeType", "CPNG", "CFontconfig"] {
      args += ["-I", Galley.root.appendingPathComponent("Sources/\(name)").path]
    }
    for flag in cflags.split(whereSeparator: { $0 == " " || $0 == "\n" }) where flag.hasPrefix("-I") {
      args += ["-Xcc", String(flag)]
    }
    let (status, output) = try run("swiftc", args + [main.path])
    XCTAssertEqual(status, 0, "the README's snippets do not compile together:\n\(output)")
  }
}
