import Foundation
import XCTest

/// Runs the built `galley` executable.
struct Galley {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static var binary: URL {
    // The test bundle sits next to the built executable.
    var dir = Bundle.main.bundleURL
    for _ in 0..<3 {
      let candidate = dir.appendingPathComponent("galley")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      dir = dir.deletingLastPathComponent()
    }
    return root.appendingPathComponent(".build/debug/galley")
  }

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    var lines: [[String: Any]] {
      stdout.split(separator: "\n").map {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [
          "unparsable": String($0)
        ]
      }
    }
  }

  /// Runs galley with `args`; `environment` adds to (or, with nil, removes from) this process's.
  func run(_ args: [String], stdin: Data = Data(), environment: [String: String?] = [:]) throws
    -> Run
  {
    let p = Process()
    p.executableURL = Galley.binary
    p.arguments = args
    if !environment.isEmpty {
      var env = ProcessInfo.processInfo.environment
      for (k, v) in environment { env[k] = v }
      p.environment = env
    }
    p.currentDirectoryURL = Galley.root
    let inPipe = Pipe()
    let outPipe = Pipe()
    let errPipe = Pipe()
    p.standardInput = inPipe
    p.standardOutput = outPipe
    p.standardError = errPipe
    try p.run()
    inPipe.fileHandleForWriting.write(stdin)
    try inPipe.fileHandleForWriting.close()
    // (Standard error read alongside: a run that says much there would otherwise block on a
    // full pipe while this waits for the end of standard output.)
    nonisolated(unsafe) var err = Data()
    let errRead = DispatchSemaphore(value: 0)
    let errHandle = errPipe.fileHandleForReading
    DispatchQueue.global().async {
      err = errHandle.readDataToEndOfFile()
      errRead.signal()
    }
    let out = outPipe.fileHandleForReading.readDataToEndOfFile()
    errRead.wait()
    p.waitUntilExit()
    return Run(
      status: p.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }
}

extension XCTestCase {
  /// A file in the temporary directory holding `text`, removed when the test ends; its path.
  func temporaryFile(_ name: String, _ text: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-\(type(of: self))-\(getpid())-\(name)")
    try Data(text.utf8).write(to: url)
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url.path
  }
}

/// Runs `executable` with `arguments` in `directory` (the test's environment, or
/// `environment`), standard input empty and standard error dropped: its exit status and
/// standard output.
func outputOf(
  _ executable: URL, _ arguments: [String], in directory: URL,
  environment: [String: String]? = nil
) throws -> (status: Int32, output: String) {
  let p = Process()
  p.executableURL = executable
  p.arguments = arguments
  p.currentDirectoryURL = directory
  if let environment { p.environment = environment }
  let out = Pipe()
  p.standardOutput = out
  p.standardInput = FileHandle.nullDevice
  p.standardError = FileHandle.nullDevice
  try p.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}
