import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import SelfSizing
import Typesetting

/// `galley calibrate CELLS.jsonl -o calibration.json`: fits the estimator to a user's bubbles.
enum CalibrateCommand {
  static let help = """
    usage: galley calibrate CELLS.jsonl|- -o CALIBRATION.json [--fonts-dir DIR [--any-font-path]]
                            [--shaping harfbuzz|accelerated]

    Fits the bubble estimator (the shaping-free size guess of `galley measure --estimate`) to
    your fonts and messages: each bubble (docs/CELLS.md; records without a template are bubbles)
    is measured exactly, and one factor per font is fitted to the natural widths of its
    one-line paragraphs; every fifth bubble is held out and reported apart. Writes the
    calibration file (small versioned JSON, docs/CELLS.md "Calibration") and, on standard error,
    the held-out error. Use it with `galley measure --estimate --calibration FILE` or
    `BubbleEstimator(calibration:)`.

    examples:
      galley calibrate Examples/transcript.jsonl -o calibration.json
      galley measure --estimate --calibration calibration.json Examples/transcript.jsonl

    exit status: 0 written, 2 fewer than 5 usable bubbles (records that cannot be measured are
    counted on standard error), 64 usage, 66 unreadable input, 73 the file cannot be written.
    """

  /// The options `galley calibrate` takes.
  static let accepted = AcceptedOptions(
    valued: ["output", "fonts-dir", "shaping"],
    flags: ["help", "any-font-path"])

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let opts = try Options(args, accepted, command: "calibrate")
    if opts.flags.contains("help") {
      print(help)
      return 0
    }
    guard let out = opts.values["output"] else {
      throw CLIError.usage("calibrate needs -o CALIBRATION.json (see `galley calibrate --help`)")
    }
    guard opts.positionals.count <= 1 else { throw CLIError.usage("one input at a time") }
    let library = try opts.fontLibrary()
    let sizer = CellSizer(typesetter: try ShapingOption.typesetter(opts, cacheCapacity: 0), cacheCapacity: 0)
    let reader = LineReader(handle: try Streams.input(opts.positionals.first))
    var cells: [BubbleCell] = []
    var unusable: [String] = []
    while let data = reader.next() {
      let line = reader.lineNumber
      if let cut = reader.cutLineError(data) {
        unusable.append("line \(line)\(cut.id.map { " (\($0))" } ?? ""): \(cut.message)")
        continue
      }
      let o: JSONObject
      switch Records.read(data, line: line, command: "calibrate") {
      case .success(let object): o = object
      case .failure(let message, let id):
        unusable.append("line \(line)\(id.map { " (\($0))" } ?? ""): \(message)")
        continue
      }
      do {
        let r = try CellRecord(json: o, library: library, defaultTemplate: .bubble)
        guard case .bubble(let b) = r.cell else {
          unusable.append("line \(line): not a bubble (the estimator sizes bubbles)")
          continue
        }
        _ = try sizer.measure(b)
        cells.append(b)
      } catch {
        unusable.append("line \(line): \(error)")
      }
    }
    if !unusable.isEmpty {
      Streams.error(
        "galley calibrate: \(counted(unusable.count, "record")) left out\n  "
          + unusable.prefix(5).joined(separator: "\n  ") + (unusable.count > 5 ? "\n  …" : ""))
    }
    guard cells.count >= 5 else {
      Streams.error("galley calibrate: need at least 5 bubbles to calibrate (got \(cells.count))")
      return 2
    }
    let (estimator, report) = try BubbleEstimator.calibrate(cells, sizer: sizer)
    try Streams.writeFile(out, estimator.calibrationFile(cells: cells.count, report: report))
    let h = report.heldOut
    Streams.error(
      "galley calibrate: \(cells.count) bubbles, \(h.count) held out: height error mean "
        + "\(fmt(h.meanAbsError)) pt, p95 \(fmt(h.p95)) pt, max \(fmt(h.max)) pt; "
        + "factors \(estimator.fontScales.sorted { $0.key < $1.key }.map { "\($0.key) \(fmt($0.value))" }.joined(separator: ", ")); wrote \(out)")
    return 0
  }

  static func fmt(_ x: Double) -> String { String(format: "%.3g", x) }

  /// The estimator of `--calibration FILE` (nil: uncalibrated), for the commands that take it:
  /// a file that cannot be read as a calibration, or that was fitted to fonts none of which are
  /// in `library`, is a usage error naming it.
  static func estimator(calibration path: String?, library: FontLibrary) throws -> BubbleEstimator {
    guard let path else { return BubbleEstimator() }
    let estimator: BubbleEstimator
    do {
      estimator = try BubbleEstimator(calibration: try Streams.input(path).readDataToEndOfFile())
    } catch let e as BubbleEstimator.CalibrationFileError {
      throw CLIError.usage("--calibration \(path): \(e.message)")
    }
    let known = estimator.fontScales.keys.filter { (try? library.font(named: $0)) != nil }
    if known.isEmpty && !estimator.fontScales.isEmpty {
      throw CLIError.usage(
        "--calibration \(path): fitted to fonts none of which are in \(library.directory) ("
          + estimator.fontScales.keys.sorted().joined(separator: ", ") + ")")
    }
    return estimator
  }
}
