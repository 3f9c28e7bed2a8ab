import Foundation
import ShapingAccelerator
import Rasterizer
import Typesetting

/// The `galley` command line: `GalleyCLI.run(arguments)` returns the exit status.
public enum GalleyCLI {
  static let usage = """
    galley — exact text and cell sizes, offline

    usage: galley COMMAND [options]

    commands:
      measure   measure text cases (JSON Lines) → lines, height, widths
      layout    frames of a compositional layout spec (JSON), cells measured
      validate  how far an app's estimated cell sizes are from the measured ones
      calibrate fit the shaping-free estimator (measure --estimate) to your fonts and messages
      render    draw a transcript, a layout spec or a text to PNG with the real glyphs
      bench     speed figures of the text engine and the layout model (build with -c release)
      help      show this help, or `galley help COMMAND`
      version   print the versions of galley and of the libraries it runs on, and the shaping

    Every command reads a file or - (standard input) and writes JSON Lines or JSON (render: a
    PNG) to standard output or -o FILE; messages go to standard error. A bad record never stops a run: it becomes
    an error record carrying its input line number. measure and validate take --jobs N (default:
    all cores; output order never changes) and show a progress bar on standard error when it is a
    terminal (none when piped, none with --quiet). Input is streamed: memory does not grow with
    its length (measure). measure, validate, layout and render take --shaping harfbuzz|accelerated
    (or GALLEY_SHAPING): HarfBuzz alone, or the accelerator in front of it (the default; the
    same answers either way).

    examples:
      galley measure Examples/messages.jsonl
      galley measure Examples/transcript.jsonl --jobs 2 -o sizes.jsonl
      galley validate Examples/estimates.jsonl --max-error 8 --html report.html
      galley layout Examples/home-screen.json
      galley render Examples/transcript.jsonl -o transcript.png --overlay
      galley bench --json

    exit status:
      0    success
      1    some records were errors (measure, validate, render) or the max error is over
           --max-error (validate)
      2    nothing usable: an invalid spec, no measurable record (validate, render)
      64   usage error (unknown command or option, bad value)
      66   unreadable input (missing file, a directory, no permission, a --fonts-dir that is
           not there)
      73   an output file cannot be written
      74   a write to standard output failed
      130  interrupted (Ctrl-C): output so far ends at a whole line
      141  standard output was closed early (e.g. `| head -1`): stops quietly

    Run `galley COMMAND --help` for a command's options and examples.
    """

  /// Galley's version.
  static var version: String { EngineVersions.galley }

  static let versionHelp = """
    usage: galley version [--shaping harfbuzz|accelerated]

    Prints galley's version, the versions of HarfBuzz, FreeType, ICU, fontconfig and libpng this
    process runs on (as loaded, not as compiled against), and who shapes runs: `shaping: accelerated`,
    or `shaping: harfbuzz` with the reason (--shaping, GALLEY_SHAPING, or a HarfBuzz version the
    accelerator was not verified against, which turns it off whatever is asked).
    """

  /// The options of every command, for "--X is an option of Y".
  static let acceptedOptions: [String: AcceptedOptions] = [
    "measure": MeasureCommand.accepted, "validate": ValidateCommand.accepted,
    "calibrate": CalibrateCommand.accepted, "layout": LayoutCommand.accepted,
    "render": RenderCommand.accepted, "bench": BenchCommand.accepted,
  ]

  /// The commands, for suggestions.
  static let commands = [
    "measure", "validate", "calibrate", "layout", "render", "bench", "help", "version",
  ]

  /// Runs one command; `arguments[0]` is the program name.
  public static func run(_ arguments: [String]) -> Int32 {
    // SIGPIPE would kill the process mid-line; handle EPIPE on write instead.
    signal(SIGPIPE, SIG_IGN)
    Interrupt.install()
    // Before any typesetter is made: the accelerator runs where its fence allows.
    ShapingAccelerator.install()
    let args = arguments
    guard args.count >= 2 else {
      print(usage)
      return 0
    }
    let rest = args[2...]
    do {
      switch args[1] {
      case "measure": return try MeasureCommand.run(rest)
      case "bench": return try BenchCommand.run(rest)
      case "layout": return try LayoutCommand.run(rest)
      case "validate": return try ValidateCommand.run(rest)
      case "calibrate": return try CalibrateCommand.run(rest)
      case "render": return try RenderCommand.run(rest)
      case "help", "--help", "-h":
        if let topic = rest.first {
          switch topic {
          case "measure": print(MeasureCommand.help)
          case "bench": print(BenchCommand.help)
          case "layout": print(LayoutCommand.help)
          case "validate": print(ValidateCommand.help)
          case "calibrate": print(CalibrateCommand.help)
          case "render": print(RenderCommand.help)
          case "version": print(versionHelp)
          case "help", "--help", "-h": print(usage)
          default:
            let hint = Suggestion.hint(for: topic, in: commands)
            FileHandle.standardError.write(
              "galley: no help for '\(topic)'\(hint)\n".data(using: .utf8)!)
            return 64
          }
        } else {
          print(usage)
        }
        return 0
      case "version", "--version":
        let opts = try Options(args.dropFirst(2), valued: ["shaping"], flags: ["help"])
        if opts.flags.contains("help") {
          print(versionHelp)
          return 0
        }
        print(
          """
          galley \(version)
          harfbuzz \(EngineVersions.harfBuzz)
          freetype \(EngineVersions.freeType)
          icu \(EngineVersions.icu) (Unicode \(EngineVersions.unicode))
          fontconfig \(EngineVersions.fontconfig)
          libpng \(PNGImage.libpngVersion)
          \(try ShapingOption.describe(opts))
          """)
        return 0
      default:
        let hint = Suggestion.hint(for: args[1], in: commands)
        FileHandle.standardError.write(
          "galley: unknown command '\(args[1])'\(hint)\n\n\(usage)\n".data(using: .utf8)!)
        return 64
      }
    } catch let e as CLIError {
      FileHandle.standardError.write("galley: \(e.message)\n".data(using: .utf8)!)
      return e.exitCode
    } catch {
      FileHandle.standardError.write("galley: \(error)\n".data(using: .utf8)!)
      return 1
    }
  }
}
