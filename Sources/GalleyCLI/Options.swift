import Typesetting

/// The options a command accepts: those that take a value, and flags.
struct AcceptedOptions {
  var valued: Set<String>
  var flags: Set<String>
}

/// A tiny command-line option parser: `--name value`, `--name=value`, `--flag`, positionals.
struct Options {
  var positionals: [String] = []
  var values: [String: String] = [:]
  var flags: Set<String> = []

  /// - Parameters:
  ///   - valued: options that take a value; every other `--x` is a flag.
  ///   - known: every option name accepted (valued and flags); others are an error.
  /// Options of `command`: an unknown one gets "did you mean" among its own options, or,
  /// failing that, the name of the command that has it.
  init(_ args: ArraySlice<String>, _ accepted: AcceptedOptions, command: String) throws {
    do {
      try self.init(args, valued: accepted.valued, flags: accepted.flags)
    } catch CLIError.usage(let m)
      where m.hasPrefix("unknown option --") && !m.contains("did you mean")
    {
      let name = String(m.dropFirst("unknown option --".count))
      for (other, options) in GalleyCLI.acceptedOptions.sorted(by: { $0.key < $1.key })
      where other != command {
        if let near = Suggestion.nearest(to: name, in: options.valued.union(options.flags)) {
          throw CLIError.usage(
            "unknown option --\(name) (--\(near) is an option of \(other), not of \(command))")
        }
      }
      throw CLIError.usage(m)
    }
  }

  init(_ args: ArraySlice<String>, valued: Set<String>, flags knownFlags: Set<String>) throws {
    var i = args.startIndex
    while i < args.endIndex {
      let a = args[i]
      if a == "--" {
        positionals += args[(i + 1)...]
        break
      }
      if a.hasPrefix("--") && a.count > 2 {
        var name = String(a.dropFirst(2))
        var value: String? = nil
        if let eq = name.firstIndex(of: "=") {
          value = String(name[name.index(after: eq)...])
          name = String(name[..<eq])
        }
        if valued.contains(name) {
          if value == nil {
            i += 1
            guard i < args.endIndex else { throw CLIError.usage("--\(name) needs a value") }
            value = args[i]
          }
          values[name] = value
        } else if knownFlags.contains(name) {
          guard value == nil else { throw CLIError.usage("--\(name) takes no value") }
          flags.insert(name)
        } else {
          let hint = Suggestion.hint(for: name, in: valued.union(knownFlags), prefix: "--")
          throw CLIError.usage("unknown option --\(name)\(hint)")
        }
      } else if a.hasPrefix("-") && a != "-" && a.count == 2 {
        let map: [Character: String] = ["o": "output", "j": "jobs", "q": "quiet", "h": "help"]
        guard let long = map[a.last!] else { throw CLIError.usage("unknown option \(a)") }
        if valued.contains(long) {
          i += 1
          guard i < args.endIndex else { throw CLIError.usage("\(a) needs a value") }
          values[long] = args[i]
        } else if knownFlags.contains(long) {
          flags.insert(long)
        } else {
          throw CLIError.usage("unknown option \(a)")
        }
      } else {
        positionals.append(a)
      }
      i += 1
    }
  }

  /// The font library of `--fonts-dir` (default: the bundled fonts), whose names may be paths
  /// outside it only with `--any-font-path`.
  /// - Throws: ``CLIError/input(_:)`` (exit 66) when the directory is not there, before any
  ///   record is read.
  func fontLibrary() throws -> FontLibrary {
    let library = FontLibrary(
      directory: values["fonts-dir"] ?? FontLibrary.bundledDirectory(),
      allowingPathsOutside: flags.contains("any-font-path"))
    guard library.directoryExists else {
      throw CLIError.input(
        values["fonts-dir"] != nil
          ? "--fonts-dir \(library.directory): no such directory"
          : "no font directory: \(library.directory) is not there "
            + "(give --fonts-dir DIR or set GALLEY_FONTS)")
    }
    return library
  }

  /// Whether `--name` was given (valued or a flag).
  func given(_ name: String) -> Bool { values[name] != nil || flags.contains(name) }

  /// A usage error when any of `options` is given without `other`, which they go with: an
  /// option that would change nothing is never ignored silently.
  func require(_ options: [String], with other: String, _ why: String) throws {
    guard !given(other), let o = options.first(where: given) else { return }
    throw CLIError.usage("--\(o) goes with --\(other): \(why)")
  }

  /// A usage error when `option` and `other` are given together.
  func forbid(_ option: String, with other: String, _ why: String) throws {
    guard given(option) && given(other) else { return }
    throw CLIError.usage("--\(option) does not go with --\(other): \(why)")
  }

  func int(_ name: String) throws -> Int? {
    guard let v = values[name] else { return nil }
    guard let n = Int(v) else {
      throw CLIError.usage("--\(name) must be a whole number (got \(v))")
    }
    return n
  }

  /// The value of `--name`, one of the names of `E` (an error lists them).
  func choice<E: RawRepresentable & CaseIterable>(_ name: String, _: E.Type) throws -> E?
  where E.RawValue == String {
    guard let v = values[name] else { return nil }
    guard let e = E(rawValue: v) else {
      let names = E.allCases.map(\.rawValue).joined(separator: " or ")
      throw CLIError.usage("--\(name) must be \(names) (got \(v))")
    }
    return e
  }

  func double(_ name: String) throws -> Double? {
    guard let v = values[name] else { return nil }
    guard let n = Double(v), n.isFinite else {
      throw CLIError.usage("--\(name) must be a number (got \(v))")
    }
    return n
  }
}

/// Errors that end a command, with their exit codes.
enum CLIError: Error {
  /// Wrong arguments: exit 64 (EX_USAGE).
  case usage(String)
  /// Unusable input (unreadable file, a directory): exit 66 (EX_NOINPUT) or 2.
  case input(String)
  /// An output file that cannot be written: exit 73 (EX_CANTCREAT).
  case output(String)
  /// Stopped by Ctrl-C (SIGINT) after this many output lines: exit 130.
  case interrupted(Int)

  var exitCode: Int32 {
    switch self {
    case .usage: return 64
    case .input: return 66
    case .output: return 73
    case .interrupted: return 130
    }
  }

  var message: String {
    switch self {
    case .usage(let m), .input(let m), .output(let m): return m
    case .interrupted(let n): return "interrupted after \(n) records (output ends at a whole line)"
    }
  }
}
