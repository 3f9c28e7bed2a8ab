import Foundation
import XCTest

/// The C ABI (include/galley.h, libGalleyC.so) from a C program compiled here with `cc`.
final class CABITests: XCTestCase {
  func run(_ tool: String, _ args: [String], environment: [String: String] = [:]) throws -> (
    Int32, Data, String
  ) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [tool] + args
    p.currentDirectoryURL = Galley.root
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    p.environment = env
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return (p.terminationStatus, data, message)
  }

  /// `source` compiled with `cc` against the header and the built library; the program's path.
  func compile(_ source: String, products: String) throws -> String {
    let name = (source as NSString).lastPathComponent.replacingOccurrences(of: ".c", with: "")
    let exe = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-\(name)-\(getpid())"
    ).path
    let (cc, _, ccErr) = try run(
      "cc", [
        "-I", "include", source, "-L", products, "-lGalleyC", "-Wl,-rpath," + products, "-o", exe,
      ])
    XCTAssertEqual(cc, 0, ccErr)
    return exe
  }

  func testACProgramMeasuresTheCorpusAsTheCommandLineDoes() throws {
    let products = Galley.binary.deletingLastPathComponent().path
    guard FileManager.default.fileExists(atPath: products + "/libGalleyC.so") else {
      return XCTFail("libGalleyC.so was not built next to galley in \(products)")
    }
    let exe = try compile("Tests/CABI/measure.c", products: products)
    let corpus = "Corpus/corpus.jsonl"
    let (status, out, err) = try run(exe, [corpus], environment: ["GALLEY_SHAPING": ""])
    XCTAssertEqual(status, 0, "the C program's checks of prepared texts and errors: \(err)")
    let cli = try Galley().run(["measure", corpus, "--quiet"], environment: ["GALLEY_SHAPING": nil])
    XCTAssertEqual(String(decoding: out, as: UTF8.self).split(separator: "\n").count, 3000)
    XCTAssertTrue(String(decoding: out, as: UTF8.self) == cli.stdout, "C ABI and CLI differ")
    // pkg-config finds the header and the library of the checkout.
    let (pc, flags, _) = try run(
      "pkg-config", ["--cflags", "--libs", "galley"], environment: ["PKG_CONFIG_PATH": Galley.root.path])
    XCTAssertEqual(pc, 0)
    XCTAssertTrue(String(decoding: flags, as: UTF8.self).contains("-lGalleyC"))
  }

  /// 1,000 engines and 10,000 prepared texts made and freed, errors on every path, under
  /// valgrind memcheck: nothing definitely lost, and what is "possibly lost" (the Swift
  /// runtime's own caches) does not grow with the count. (Tests/CABI/swift-runtime.supp names
  /// the Swift runtime's own reports that are not about Galley.)
  func testEnginesAndPreparedTextsAreFreedOnEveryPath() throws {
    let products = Galley.binary.deletingLastPathComponent().path
    guard FileManager.default.fileExists(atPath: products + "/libGalleyC.so") else {
      return XCTFail("libGalleyC.so was not built next to galley in \(products)")
    }
    let (hasValgrind, _, _) = try run("sh", ["-c", "command -v valgrind"])
    guard hasValgrind == 0 else {
      return XCTFail("valgrind is needed (Scripts/test installs it: Scripts/bootstrap valgrind)")
    }
    let exe = try compile("Tests/CABI/churn.c", products: products)
    func leaks(engines: Int, prepared: Int) throws -> (definite: Int, possible: Int) {
      let log = exe + "-\(engines)-\(prepared).log"
      let (status, out, err) = try run(
        "valgrind", [
          "--tool=memcheck", "--leak-check=full", "--errors-for-leak-kinds=definite",
          "--error-exitcode=42", "--suppressions=Tests/CABI/swift-runtime.supp",
          "--log-file=" + log, exe, String(engines), String(prepared),
        ])
      XCTAssertEqual(status, 0, "\(String(decoding: out, as: UTF8.self)) \(err)")
      let text = try String(contentsOfFile: log, encoding: .utf8)
      func bytes(_ kind: String) -> Int {
        guard let line = text.split(separator: "\n").first(where: { $0.contains(kind + " lost:") })
        else { return 0 }
        let n = line.split(separator: ":")[1].split(separator: " ")[0]
        return Int(n.replacingOccurrences(of: ",", with: "")) ?? -1
      }
      return (bytes("definitely"), bytes("possibly"))
    }
    let small = try leaks(engines: 10, prepared: 100)
    let big = try leaks(engines: 1_000, prepared: 10_000)
    XCTAssertEqual(big.definite, 0)
    XCTAssertEqual(small.definite, 0)
    XCTAssertLessThanOrEqual(big.possible, small.possible, "possibly lost grows with the count")
  }
}
