import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import SelfSizing
import Typesetting

/// `galley validate ESTIMATES.jsonl`: how far an app's estimated sizes are from the real ones.
enum ValidateCommand {
  static let help = """
    usage: galley validate ESTIMATES.jsonl|- [--max-error PT] [--json] [-o OUT]
                           [--template bubble|productCard] [--jobs N]
                           [--fonts-dir DIR [--any-font-path]]
                           [--html REPORT.html] [--quiet]
                           [--shaping harfbuzz|accelerated] [--group-by category|script]
                           [--against estimator [--calibration FILE]]

    Reads cells (bubble or productCard records, docs/CELLS.md), each with the app's
    "estimatedHeight" (and optionally "estimatedWidth"), measures them, and reports the error
    actual − estimated: mean absolute error, p50/p95/max, the largest jump a reader would see
    while scrolling from the top (the largest absolute running sum of signed errors), the worst
    items, and all of it by "category". --json writes the report as one JSON object; -o OUT
    writes the report to OUT instead of standard output. Records that cannot be measured are
    listed in the report ("failures", with their line and id) and counted on standard error.
    --template gives the kind of the records that have no "template" field.

    --group-by script groups the statistics by the script of each cell's text (latin, korean,
    japaneseChinese, arabic, hebrew, thai, devanagari, cyrillic, emoji, mixed) instead of its
    "category". --against estimator reports the shaping-free estimator's own error (its guess
    stands for the app's; bubbles only; --calibration FILE from `galley calibrate`).

    --html REPORT.html also writes one self-contained HTML page (pictures inlined as PNG data
    URIs, no network): the summary numbers, a histogram of the errors, the table by category,
    and the worst items drawn side by side (the cell at its estimated size, dashed, and at its
    measured size).

    examples:
      galley validate Examples/estimates.jsonl
      galley validate Examples/estimates.jsonl --max-error 8 --json
      galley validate Examples/estimates.jsonl --html report.html

    Cells are measured on --jobs threads (default: all cores; results do not depend on it); a
    progress bar is drawn on standard error only when it is a terminal (--quiet: never).

    exit status: 0 when every record was measured and max error ≤ --max-error (or no
    threshold), 1 when over it or when some records could not be measured, 2 when none could
    (or the input holds no record), 64 usage, 66 unreadable file, 73 an output file cannot be
    written, 130 interrupted (Ctrl-C).
    """

  /// The options `galley validate` takes.
  static let accepted = AcceptedOptions(
    valued: [
        "max-error", "fonts-dir", "template", "jobs", "html", "output", "shaping", "against",
        "calibration", "group-by",
      ],
    flags: ["json", "help", "quiet", "any-font-path"])

  /// What the options ask of the measuring and the report (read before the input is opened:
  /// their errors come first).
  struct Settings {
    /// `--against estimator`: the estimator's own error (its guess stands for the app's).
    let estimator: BubbleEstimator?
    let byScript: Bool
    let maxError: Double?

    var groups: String { byScript ? "script" : "category" }

    init(_ opts: Options, library: FontLibrary) throws {
      switch opts.values["against"] {
      case nil: estimator = nil
      case "estimator"?:
        estimator = try CalibrateCommand.estimator(
          calibration: opts.values["calibration"], library: library)
      case let other?:
        throw CLIError.usage("--against takes estimator (got '\(other)')")
      }
      try opts.require(
        ["calibration"], with: "against", "it calibrates the estimator (--against estimator)")
      switch opts.values["group-by"] ?? "category" {
      case "category": byScript = false
      case "script": byScript = true
      case let other: throw CLIError.usage("--group-by takes category or script (got '\(other)')")
      }
      maxError = try opts.double("max-error")
      if let m = maxError, m < 0 { throw CLIError.usage("--max-error must be >= 0") }
    }
  }

  /// The items and failures of a run so far, and the records of its worst items (for
  /// `--html` pictures): only these are kept while the input streams by.
  struct Collected {
    var items: [ValidationReport.Item] = []
    var failures: [ValidationReport.Failure] = []
    var worst: [(abs: Double, index: Int, data: [UInt8])] = []
    static let worstCount = 10

    /// Adds the outcomes of `chunk`'s records, in order.
    mutating func add(_ outcomes: [Outcome], of chunk: [(Int, [UInt8])]) {
      for (k, o) in outcomes.enumerated() {
        switch o {
        case .item(let i):
          let e = abs(i.error)
          if worst.count < Self.worstCount || e > worst[worst.count - 1].abs {
            worst.append((e, items.count, chunk[k].1))
            worst.sort { $0.abs != $1.abs ? $0.abs > $1.abs : $0.index < $1.index }
            if worst.count > Self.worstCount { worst.removeLast() }
          }
          items.append(i)
        case .failure(let f): failures.append(f)
        }
      }
    }
  }

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let opts = try Options(args, accepted, command: "validate")
    if opts.flags.contains("help") {
      print(help)
      return 0
    }
    let library = try opts.fontLibrary()
    let settings = try Settings(opts, library: library)
    let input = try Streams.input(opts.positionals.first)
    // (Opened first: an output that cannot be written is said before any work.)
    let output = try Streams.output(opts.values["output"])
    let jobs = try opts.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
    let template = try opts.choice("template", CellTemplate.self)
    let sizer = CellSizer(
      typesetter: try ShapingOption.typesetter(opts, cacheCapacity: 0), cacheCapacity: 0)
    let missing = MissingGlyphs()
    defer { missing.report(command: "validate", strict: false).map(Streams.error) }
    let collected = try validateAll(
      input, settings, jobs: jobs, template: template, quiet: opts.flags.contains("quiet"),
      library: library, sizer: sizer, missing: missing)
    let report = ValidationReport(items: collected.items, failures: collected.failures)
    if let htmlPath = opts.values["html"] {
      let page = try HTMLReport.page(
        report, source: opts.positionals.first ?? "-", maxError: settings.maxError,
        records: worstRecords(collected, template: template, library: library),
        sizer: sizer)
      try Streams.writeFile(htmlPath, Data(page.utf8))
    }
    output.write(
      opts.flags.contains("json")
        ? json(report, groups: settings.groups) + "\n"
        : text(report, maxError: settings.maxError, groups: settings.groups))
    return exitStatus(report, collected, maxError: settings.maxError)
  }

  /// Every record of `input` validated, in chunks measured on `jobs` threads.
  static func validateAll(
    _ input: FileHandle, _ settings: Settings, jobs: Int, template: CellTemplate?, quiet: Bool,
    library: FontLibrary, sizer: CellSizer, missing: MissingGlyphs
  ) throws -> Collected {
    let reader = LineReader(handle: input)
    var collected = Collected()
    let progress = ProgressBar(label: "validate", input: input.fileDescriptor, quiet: quiet)
    defer { progress.finish() }
    var chunk: [(Int, [UInt8])] = []
    func flush() {
      let lines = chunk.map { Line(number: $0.0, data: $0.1) }
      let outcomes = concurrentMap(lines, threads: jobs) {
        validateRecord(
          $0.data, line: $0.number, library: library, sizer: sizer, template: template,
          estimator: settings.estimator, byScript: settings.byScript, missing: missing)
      }
      collected.add(outcomes, of: chunk)
      progress.update(
        items: collected.items.count + collected.failures.count, bytes: reader.bytesConsumed)
      chunk.removeAll(keepingCapacity: true)
    }
    while let l = reader.next() {
      if Interrupt.requested { throw CLIError.interrupted(0) }
      if let cut = reader.cutLineError(l) {
        flush()
        collected.failures.append(.init(line: reader.lineNumber, id: cut.id, message: cut.message))
        continue
      }
      chunk.append((reader.lineNumber, l))
      if chunk.count >= 2048 { flush() }
    }
    if Interrupt.requested { throw CLIError.interrupted(0) }
    flush()
    return collected
  }

  /// The records of the worst items, by id (read again from their kept bytes).
  static func worstRecords(
    _ collected: Collected, template: CellTemplate?, library: FontLibrary
  ) -> [String: CellRecord] {
    var records: [String: CellRecord] = [:]
    for w in collected.worst {
      guard case .success(let o) = Records.parseObjectRepairing(w.data).0,
        let rec = try? CellRecord(json: o, library: library, defaultTemplate: template),
        records[rec.id] == nil
      else { continue }
      records[rec.id] = rec
    }
    return records
  }

  /// 2 when nothing could be measured, 1 when some records could not be or an error is over
  /// `--max-error`, else 0; saying which on standard error.
  static func exitStatus(
    _ report: ValidationReport, _ collected: Collected, maxError: Double?
  ) -> Int32 {
    let failures = collected.failures
    let total = collected.items.count + failures.count
    if collected.items.isEmpty {
      Streams.error(
        total == 0
          ? "galley validate: the input holds no record"
          : "galley validate: none of the \(total) records could be measured")
      return 2
    }
    if !failures.isEmpty {
      Streams.error(
        "galley validate: \(failures.count) of \(total) records could not be measured "
          + "(first at line \(failures[0].line): \(failures[0].message))")
      return 1
    }
    if let m = maxError, !report.passes(maxError: m) { return 1 }
    return 0
  }

  struct Line: Sendable {
    var number: Int
    var data: [UInt8]
  }

  enum Outcome: Sendable {
    case item(ValidationReport.Item)
    case failure(ValidationReport.Failure)
  }

  static func validateRecord(
    _ data: [UInt8], line: Int, library: FontLibrary, sizer: CellSizer, template: CellTemplate?,
    estimator: BubbleEstimator? = nil, byScript: Bool = false, missing: MissingGlyphs? = nil
  ) -> Outcome {
    let object: JSONObject
    switch Records.read(data, line: line, command: "validate") {
    case .failure(let m, let id): return .failure(.init(line: line, id: id, message: m))
    case .success(let o): object = o
    }
    let id = object["id"]?.string
    do {
      let record = try CellRecord(json: object, library: library, defaultTemplate: template)
      let estimated: Double
      if let estimator {
        guard case .bubble(let b) = record.cell else {
          return .failure(
            .init(line: line, id: id, message: "the estimator sizes bubbles, not product cards"))
        }
        try b.validate()
        estimated = estimator.estimate(b).height
      } else {
        guard let e = record.estimatedHeight else {
          return .failure(.init(line: line, id: id, message: "missing field \"estimatedHeight\""))
        }
        estimated = e
      }
      let m = try sizer.measure(record.cell)
      missing?.note(line: line, id: record.id, m.missingCharacters)
      var group = record.cell.category
      if byScript {
        switch record.cell {
        case .bubble(let b): group = ScriptGroup.of(b.text).rawValue
        case .productCard(let c): group = ScriptGroup.of(c.title).rawValue
        }
      }
      // (The estimator's report counts bubbles more than one line off.)
      var box: Double? = nil
      if estimator != nil, case .bubble(let b) = record.cell { box = try sizer.oneLineError(b) }
      return .item(
        .init(
          id: record.id, category: group, estimated: estimated, actual: m.size.height, lineBox: box))
    } catch let e as CellError {
      return .failure(.init(line: line, id: id, message: e.description))
    } catch {
      return .failure(.init(line: line, id: id, message: "\(error)"))
    }
  }

  static func statsPairs(_ s: ErrorStatistics) -> [(String, String)] {
    [
      ("count", String(s.count)), ("meanAbsError", JSONWriter.number(s.meanAbsError)),
      ("p50", JSONWriter.number(s.p50)), ("p95", JSONWriter.number(s.p95)),
      ("p99", JSONWriter.number(s.p99)), ("max", JSONWriter.number(s.max)),
      ("overTwoPoints", String(s.overTwoPoints)), ("overTwentyPoints", String(s.overTwentyPoints)),
    ] + (s.overOneLineBox.map { [("overOneLineBox", String($0))] } ?? [])
  }

  static func json(_ r: ValidationReport, groups: String = "category") -> String {
    var pairs: [(String, String)] = [
      ("count", String(r.items.count)), ("errors", String(r.failures.count)),
    ]
    pairs += statsPairs(r.statistics).dropFirst()
    pairs.append(("maxJump", JSONWriter.number(r.maxJump)))
    pairs.append(("totalDrift", JSONWriter.number(r.totalDrift)))
    pairs.append(
      (
        "worst",
        JSONWriter.array(
          r.worst.map {
            JSONWriter.object([
              ("id", JSONWriter.string($0.id)), ("estimated", JSONWriter.number($0.estimated)),
              ("actual", JSONWriter.number($0.actual)), ("error", JSONWriter.number($0.error)),
            ])
          })
      ))
    pairs.append(
      (
        groups == "script" ? "byScript" : "byCategory",
        JSONWriter.object(
          r.byCategory.sorted { $0.key < $1.key }.map {
            ($0.key, JSONWriter.object(statsPairs($0.value)))
          })
      ))
    pairs.append(
      (
        "failures",
        JSONWriter.array(
          r.failures.map { f in
            var p: [(String, String)] = [("line", String(f.line))]
            if let id = f.id { p.append(("id", JSONWriter.string(id))) }
            p.append(("error", JSONWriter.string(f.message)))
            return JSONWriter.object(p)
          })
      ))
    return JSONWriter.object(pairs)
  }

  /// The statistics per group as a table: percentiles and largest error in points, then how
  /// many items per 10,000 are more than one line box off (when line boxes are known), more
  /// than 2 and more than 20 points off.
  static func table(_ r: ValidationReport, groups: String) -> String {
    let lines = r.statistics.overOneLineBox != nil
    func row(_ name: String, _ s: ErrorStatistics) -> String {
      var cells = [
        name.padding(toLength: max(16, name.count), withPad: " ", startingAt: 0),
        String(format: "%6d", s.count), String(format: "%6.2f", s.meanAbsError),
        String(format: "%6.2f", s.p95), String(format: "%6.2f", s.p99),
        String(format: "%7.2f", s.max),
      ]
      if let n = s.overOneLineBox { cells.append(String(format: "%7d", n)) }
      cells.append(String(format: "%7.1f", s.perTenThousand(s.overTwoPoints)))
      cells.append(String(format: "%7.1f", s.perTenThousand(s.overTwentyPoints)))
      return "  " + cells.joined(separator: " ") + "\n"
    }
    var out = "by \(groups) (points; the last columns count items):\n"
    out +=
      "  " + groups.padding(toLength: 16, withPad: " ", startingAt: 0)
      + "      n   mean    p95    p99     max" + (lines ? " >1line" : "")
      + "  >2/10k >20/10k\n"
    for (k, v) in r.byCategory.sorted(by: { $0.key < $1.key }) { out += row(k, v) }
    out += row("all", r.statistics)
    return out
  }

  static func text(_ r: ValidationReport, maxError: Double?, groups: String = "category") -> String {
    func f(_ v: Double) -> String { String(format: "%.2f", v) }
    let s = r.statistics
    var out = "validated \(r.items.count) cells (\(r.failures.count) unusable records)\n"
    out +=
      "error (actual − estimated), points: mean |e| \(f(s.meanAbsError))  p50 \(f(s.p50))  p95 \(f(s.p95))  max \(f(s.max))\n"
    out += "largest jump while scrolling: \(f(r.maxJump)) pt   total drift: \(f(r.totalDrift)) pt\n"
    if !r.byCategory.isEmpty {
      out += table(r, groups: groups)
    }
    if !r.worst.isEmpty {
      out += "worst:\n"
      for w in r.worst.prefix(5) {
        out +=
          "  \(w.id): estimated \(f(w.estimated)), actual \(f(w.actual)), error \(f(w.error))\n"
      }
    }
    for fl in r.failures.prefix(10) {
      out += "line \(fl.line)\(fl.id.map { " (\($0))" } ?? ""): \(fl.message)\n"
    }
    if let m = maxError {
      out +=
        r.passes(maxError: m) ? "OK: max error ≤ \(f(m))\n" : "FAIL: max error \(f(s.max)) > \(f(m))\n"
    }
    return out
  }
}
