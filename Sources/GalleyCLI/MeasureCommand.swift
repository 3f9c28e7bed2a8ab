import Dispatch
import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import SelfSizing
import Typesetting

/// `galley measure [FILE|-]`: text cases in, one result per input line out, same order.
package enum MeasureCommand {
  static let help = """
    usage: galley measure [FILE|-] [--template bubble|productCard] [-o OUT]
                          [--fonts-dir DIR [--any-font-path]]
                          [--jobs N] [--quiet] [--explain] [--shaping harfbuzz|accelerated]
                          [--strict-glyphs] [--estimate [--calibration FILE]]

    Measures text cases (JSON Lines, the format of docs/CASE-FORMAT.md: id, text, fonts, size,
    width, lineHeight, whiteSpace, wordBreak, overflowWrap, lang, maxLines, …) and writes one result
    per input line, in input order: {"id", "lines", "height", "widest", "lineStarts",
    "lineStartsU16", "lineWidths"}, or {"id", "line", "error"} for a line that cannot be measured.

    Cells: records with a "template" ("bubble" or "productCard"; --template gives the default)
    are sized as cells (docs/CELLS.md): {"id", "width", "height", "lines", "textHeight",
    "truncated"}, rounded up to 1/scale. A bubble hugs its widest line, at most
    containerWidth × maxWidthFraction (default 0.75; null: no such limit) and maxWidth wide,
    with padding, sender name, timestamp (inline after the last line when it fits, else below)
    and reply preview. Fields left out take the library's defaults (README: "Defaults").

    Every result says "missingGlyphs": how many characters no font of the stack has (controls
    and characters that need no glyph aside). They are set in another font of --fonts-dir
    when one has them (system fallback, as Chromium's on Linux), else drawn as a box and
    measured so. A run with some warns on standard error with their lines and characters;
    --strict-glyphs makes such records errors instead.

    --estimate gives the estimator's guess instead (no shaping: nominal advances times a factor
    per font, `galley calibrate` fits them; --calibration FILE uses such a file): bubbles as
    {"id", "width", "height", "estimated": true}, text cases as {"id", "lines", "height",
    "widest", "estimated": true}; product cards are error records.

    Font names resolve in --fonts-dir (default: the bundled fonts/); a name that is a path
    must stay inside it unless --any-font-path is given. A case without "fonts" uses the
    default stack. Reads standard input when FILE is - or absent. --explain writes each
    case's segments, graphemes, advances and fonts to standard error.

    examples:
      galley measure Examples/messages.jsonl
      galley measure --template bubble Examples/transcript.jsonl
      echo '{"id":"a","text":"Hello 세계","width":120,"size":17}' | galley measure -

    --jobs N measures on N threads (default: all cores); the output order is the input order
    whatever N. A progress bar (items/s, ETA) is drawn on standard error only when it is a
    terminal; --quiet turns it off. Memory stays constant whatever the input's length.

    exit status: 0 all measured, 1 some records were errors, 64 usage, 66 unreadable input,
    73 the output file cannot be written, 130 interrupted by Ctrl-C (output so far ends at a whole line), 141 standard output closed
    early (`| head`): stops quietly.
    """

  /// The options `galley measure` takes.
  static let accepted = AcceptedOptions(
    valued: ["fonts-dir", "output", "jobs", "template", "shaping", "calibration"],
    flags: ["quiet", "help", "explain", "strict-glyphs", "estimate", "any-font-path"])

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let opts = try Options(args, accepted, command: "measure")
    if opts.flags.contains("help") {
      print(help)
      return 0
    }
    let library = try opts.fontLibrary()
    let input = try Streams.input(opts.positionals.first)
    let output = try Streams.output(opts.values["output"])
    let jobs = try opts.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
    guard jobs >= 1 else { throw CLIError.usage("--jobs must be at least 1") }
    let reader = LineReader(handle: input)
    var anyError = false
    let typesetter = try ShapingOption.typesetter(opts, cacheCapacity: 0)
    let explain = opts.flags.contains("explain")
    let template = try opts.choice("template", CellTemplate.self)
    let sizer = CellSizer(typesetter: typesetter, cacheCapacity: 0)
    let progress = ProgressBar(
      label: "measure", input: input.fileDescriptor, quiet: opts.flags.contains("quiet"))
    defer { progress.finish() }
    try opts.require(["calibration"], with: "estimate", "it calibrates the estimator")
    for option in ["strict-glyphs", "explain", "shaping"] {
      try opts.forbid(option, with: "estimate", "the estimator neither shapes nor looks up glyphs")
    }
    if opts.flags.contains("estimate") {
      let estimator = try CalibrateCommand.estimator(
        calibration: opts.values["calibration"], library: library)
      try Batches.process(reader: reader, jobs: jobs, output: output, progress: progress) {
        line, data, warn, w in
        let (record, isError) = estimateRecord(
          data, line: line, library: library, estimator: estimator, template: template, warn: warn)
        w.raw(record)
        return isError
      } onResult: { isError in
        if isError { anyError = true }
      }
      return anyError ? 1 : 0
    }
    let strict = opts.flags.contains("strict-glyphs")
    let missing = MissingGlyphs()
    try Batches.process(reader: reader, jobs: jobs, output: output, progress: progress) {
      line, data, warn, w in
      RecordMeasuring.measure(
        data, line: line, library: library, typesetter: typesetter, sizer: sizer,
        template: template, explain: explain, strictGlyphs: strict, missing: missing, warn: warn,
        into: &w)
    } onResult: { isError in
      if isError { anyError = true }
    }
    missing.report(command: "measure", strict: strict).map(Streams.error)
    return anyError ? 1 : 0
  }

  /// One input line → the estimator's guess (never throws: errors become records).
  static func estimateRecord(
    _ data: some Collection<UInt8>, line: Int, library: FontLibrary, estimator: BubbleEstimator,
    template: CellTemplate?, warn: (String) -> Void = Streams.error
  ) -> (String, Bool) {
    func failure(_ id: String?, _ message: String) -> (String, Bool) {
      (Records.errorRecord(id: id, line: line, message: message), true)
    }
    let object: JSONObject
    switch Records.read(data, line: line, command: "measure", warn: warn) {
    case .failure(let message, let id): return failure(id, message)
    case .success(let o): object = o
    }
    let id = object["id"]?.string
    do {
      if template != nil || object["template"] != nil {
        let record = try CellRecord(json: object, library: library, defaultTemplate: template)
        guard case .bubble(let b) = record.cell else {
          return failure(id, "the estimator sizes bubbles and text cases, not product cards")
        }
        try b.validate()
        let size = estimator.estimate(b)
        if let e = ResultRecord.unrepresentable(["width": size.width, "height": size.height]) {
          return failure(id, e)
        }
        return (ResultRecord.estimatedCell(id: record.id, size), false)
      }
      let c = try TextCase(json: object, library: library)
      guard c.width.isFinite, c.width > 0 else {
        return failure(id, TypesettingError.invalidWidth(c.width).description)
      }
      let e = estimator.estimateText(c.text, style: c.style, width: c.width)
      if let problem = ResultRecord.unrepresentable(["height": e.height, "widest": e.widest]) {
        return failure(id, problem)
      }
      return (
        ResultRecord.estimatedText(id: c.id, lines: e.lines, height: e.height, widest: e.widest),
        false
      )
    } catch let e as CellError {
      return failure(id, e.description)
    } catch let e as CaseError {
      return failure(id, e.description)
    } catch {
      return failure(id, "\(error)")
    }
  }
}
