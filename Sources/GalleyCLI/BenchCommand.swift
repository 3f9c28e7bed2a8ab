import CompositionalLayout
import Dispatch
import Foundation
import GalleyBench
import GalleyJSON
import GalleyRecords
import GalleyService
import SelfSizing
import Typesetting

/// `galley bench`: speed figures, each with a baseline measured in the same run (the machine is
/// shared and noisy, so ratios are what to compare between runs).
enum BenchCommand {
  static let help = """
    usage: galley bench [--corpus FILE] [--json] [--repeat N]
                        [--only prepare|prepareWords|layout|estimate|bubbles|bubbles1|parallel|
                                lines|records|layoutModel]

    Times the text engine on a corpus of cases (default: the conformance corpus in
    Corpus/corpus.jsonl) and prints:
      coldMicrosPerCase      prepare + layout of a text never seen (no cache at all), µs per case
      shapingRunsPerCase     HarfBuzz runs per case (font, script and direction changes)
      rawShapingMicrosPerCase  hb_shape alone on the same runs, µs per case (baseline)
      coldRatioToHarfBuzz    cold / raw shaping
      prepareMicrosPerText   prepare alone, µs per text
      prepareMicrosPerTextHarfBuzz  the same with every run shaped by HarfBuzz (shaping
                             harfbuzz: what the accelerator saves, measured in the same run)
      preparedWarmMicros     prepare of an already-seen message of ≤ 80 characters (cache hit), µs
      layoutMicrosPerText    layout of a prepared text at a new width, µs per text (texts in
                             turn, as when a whole transcript is laid out again: cache-cold)
      layoutMicrosPerTextWarm  the same, each text at 8 widths in a row (its data in cache)
      linesMicrosPerCase     prepare + layout into lines (what a `galley measure` result holds), µs
      recordMicrosPerCase    the same from the input line's bytes to the result record's text
                             (reading, checking, measuring, writing), µs; recordOverhead:
                             their ratio
      pipelineMicrosPerCase  the same through measure's own line reader, batches and output (to
                             /dev/null), µs; pipelineOverhead: its ratio to the lines
    runsShapedWithoutHarfBuzz  share of the prepared texts' runs the accelerator answered
      bytesPerPreparedText   bytes a prepared text's arrays hold (mean); ...WithoutGlyphs: the
                             same less the glyphs kept for drawing
      casesPerSecond1, casesPerSecondAll, parallelSpeedup   cold cases/s on 1 core, on all cores
                             (the two alternate run by run: a neighbour's load weighs on both)
      layout100kMillis       initial layout of a 100k-item chat and grid on estimates (the slower), ms
      queryMicros            elements(in:) for one screen, µs
      updateMicros1M         one height update with its offset correction at 1M items, µs
      batchInsertMicros1M    one message inserted at the top of a 1M-item chat, the screen's
                             transition answered (the reader kept still), µs
      batchGridMillis100k    one item inserted into the first of 100 sections of 1,000 grid
                             items: that section laid out again, the screen's transition, ms
      batchGridWholeMillis100k  one item inserted into a one-section 100k grid: both layouts
                             from scratch and every change listed, ms
      bytesPerItem           memory of a 1M-item chat layout per item
      coldMicrosPerCaseWordCache  the same with a word cache that starts empty (the corpus texts
                             are all distinct; their words are not)
      bubblesPerSecond1, bubblesPerSecond   exact bubble sizes/s over a 10k transcript, each text
                             unseen (no cache of any kind), on 1 core and on all cores
      bubblesPerSecondWordCache  the same on all cores with a word cache that starts empty,
                             over the transcript's first pass through the corpus (each text
                             once: words recur, texts do not)
      bubblesPerSecondNewWidth  bubble text heights/s at a new width from prepared text
      exactBubbleSizesPerSecondNewWidth  exact bubble sizes/s (every part and the bubble rule)
                             at a new container width from texts shaped once (prepareExact)
      estimatesPerSecond1, estimatesPerSecond   BubbleEstimator estimates/s of bubbles prepared
                             once, all of them at a new container width (the estimate pass of a
                             transcript; no shaping), on 1 core and on all cores
      estimatesPerSecondFromText  estimates/s straight from each text (one pass, no preparing)
      estimatorPreparesPerSecond  bubbles read into the estimator's flat arrays per second
                             (all cores)
    --only runs one group of figures alone (for profiling): prepare (no cache; with and
    without feature gates, alternating), prepareWords
    (each text 4 times with a new tail, word cache on), layout, estimate, bubbles (1 core:
    plain, without feature gates, and with a word cache over the corpus's distinct texts; and
    plain on all cores), bubbles1 (1 core, plain, alone), parallel (cold cases/s on 1 core and
    on all cores, and their ratio), lines (the engine alone as `galley measure` asks it:
    prepare and lay out each case, one thread), records (lines vs whole records, one thread:
    reading alone, reading and writing, and through measure's own pipeline), layoutModel (the
    layout model's figures, no text).
    Build with `swift build -c release` first: a debug build is several times slower.

    examples:
      galley bench
      galley bench --json --repeat 5
    """

  /// The conformance corpus: under the working directory when it is the checkout, else in
  /// the checkout this command was built from.
  static func defaultCorpus() -> String {
    let path = "Corpus/corpus.jsonl"
    if FileManager.default.fileExists(atPath: path) { return path }
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { root = root.deletingLastPathComponent() }
    return root.appendingPathComponent(path).path
  }

  /// The options `galley bench` takes.
  static let accepted = AcceptedOptions(
    valued: ["corpus", "repeat", "fonts-dir", "only"],
    flags: ["json", "help", "any-font-path"])

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let opts = try Options(args, accepted, command: "bench")
    if opts.flags.contains("help") {
      print(help)
      return 0
    }
    let path = opts.values["corpus"] ?? defaultCorpus()
    guard FileManager.default.fileExists(atPath: path) else {
      throw CLIError.input("\(path): no such file (give a corpus with --corpus FILE)")
    }
    let repeats = max(1, try opts.int("repeat") ?? 3)
    let library = try opts.fontLibrary()
    let only = opts.values["only"]
    if let only, !groups.contains(only) {
      throw CLIError.usage(
        "--only \(only): unknown group (one of \(groups.joined(separator: ", ")))")
    }
    let (cases, records) = try readCorpus(path, library: library)
    #if DEBUG
      FileHandle.standardError.write(
        Data("warning: debug build; run `swift build -c release` for real figures\n".utf8))
    #endif
    if only == "layoutModel" {
      print(LayoutBenchmark.json(LayoutBenchmark.run()))
      return 0
    }
    if let only {
      for (name, value) in try groupFigures(only, cases, records, library: library, repeats: repeats) {
        print("\(name) \(value)")
      }
      return 0
    }
    var figures = try engineFigures(cases, repeats: repeats)
    figures += recordFigures(cases, records, library: library, repeats: repeats)
    figures += cellFigures(cases, repeats: repeats)
    // The layout model (no text): 100k-item chat and grid, queries, updates at 1M items.
    let layoutFigures = LayoutBenchmark.run()
    figures += [
      "layout100kMillis", "queryMicros", "updateMicros1M", "bytesPerItem", "batchInsertMicros1M",
      "batchGridMillis100k", "batchGridWholeMillis100k",
    ].compactMap { k in layoutFigures[k].map { (k, $0) } }
    if opts.flags.contains("json") {
      print(
        JSONWriter.object(figures.map { ($0.0, JSONWriter.number(($0.1 * 1000).rounded() / 1000)) })
      )
    } else {
      for (k, v) in figures {
        print(k.padding(toLength: 30, withPad: " ", startingAt: 0) + String(format: "%12.3f", v))
      }
    }
    return 0
  }

  /// The groups `--only` runs by themselves.
  static let groups = [
    "prepare", "prepareWords", "layout", "estimate", "bubbles", "bubbles1", "parallel",
    "lines", "records", "layoutModel",
  ]

  /// The corpus's usable text cases, and each one's line number and bytes (a line that is not a
  /// usable case is left out, with one warning that names the first few).
  static func readCorpus(_ path: String, library: FontLibrary) throws -> (
    cases: [TextCase], records: [(line: Int, bytes: [UInt8])]
  ) {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var cases: [TextCase] = []
    var records: [(line: Int, bytes: [UInt8])] = []
    var skipped: [Int] = []
    for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where !line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
      let bytes = Array(line.utf8)
      guard case .success(let o) = Records.parseObjectRepairing(bytes).0,
        let c = try? TextCase(json: o, library: library), c.width > 0, c.width.isFinite
      else {
        skipped.append(k + 1)
        continue
      }
      cases.append(c)
      records.append((k + 1, bytes))
    }
    if !skipped.isEmpty {
      // (Timed on what is left; `galley measure` on the same file says what is wrong with each.)
      let first = skipped.prefix(5).map(String.init).joined(separator: ", ")
      FileHandle.standardError.write(
        Data(
          ("warning: \(path): \(counted(skipped.count, "line")) "
            + "\(skipped.count == 1 ? "is not a usable case and is" : "are not usable cases and are") left out "
            + "(line \(first)\(skipped.count > 5 ? ", …" : ""); `galley measure` says why)\n").utf8)
      )
    }
    guard !cases.isEmpty else { throw CLIError.input("\(path): no usable cases") }
    return (cases, records)
  }

  /// The figures of one `--only` group (not `layoutModel`, which prints its own JSON).
  static func groupFigures(
    _ only: String, _ cases: [TextCase], _ records: [(line: Int, bytes: [UInt8])],
    library: FontLibrary, repeats: Int
  ) throws -> [(String, Double)] {
    let n = Double(cases.count)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    switch only {
    case "prepareWords":
      // Each text at 4 different tails (never the same text twice), with a word cache.
      let t =
        best(repeats) {
          let ts = Typesetter(cacheCapacity: 0, wordCacheCapacity: 32_768)
          for k in 0..<4 {
            for c in cases { _ = try? ts.prepare(c.text + " #\(k)", style: c.style) }
          }
        } / (n * 4)
      return [("prepareWordsMicrosPerText", t)]
    case "lines":
      // The engine alone for the cases (the denominator of `Scripts/tool-speed`'s ratio).
      var sink = 0
      let t = best(repeats) { sink &+= engineLines(cases[...], Typesetter(cacheCapacity: 0)) } / n
      return [("linesMicrosPerCase", t + (sink == -1 ? 1 : 0))]
    case "records":
      return recordFigures(cases, records, library: library, repeats: repeats)
    case "bubbles1":
      // One figure only (for profilers): bubbles/s on one core.
      return [("bubblesPerSecond1", bubbleRate(transcript(cases), threads: 1, repeats: repeats))]
    case "bubbles":
      let bubbles = transcript(cases)
      let distinct = Array(bubbles.prefix(cases.count))
      return [
        ("bubblesPerSecond1", bubbleRate(bubbles, threads: 1, repeats: repeats)),
        ("bubblesPerSecond", bubbleRate(bubbles, threads: cores, repeats: repeats)),
        ("bubblesPerSecond1HarfBuzz",
         bubbleRate(bubbles, threads: 1, repeats: repeats, shaping: .harfBuzz)),
        ("bubblesPerSecond1WordCache",
         bubbleRate(distinct, threads: 1, repeats: repeats, wordCache: true)),
      ]
    case "prepare":
      // In both shaping modes, alternating (the machine's load shifts).
      var accelerated = Double.infinity
      var whole = Double.infinity
      for _ in 0..<repeats {
        for mode in [ShapingMode.accelerated, .harfBuzz] {
          let t =
            best(1) {
              let ts = Typesetter(cacheCapacity: 0, wordCacheCapacity: 0, shaping: mode)
              for c in cases { _ = try? ts.prepare(c.text, style: c.style) }
            } / n
          if mode == .accelerated { accelerated = min(accelerated, t) } else { whole = min(whole, t) }
        }
      }
      return [
        ("prepareMicrosPerText", accelerated), ("prepareMicrosPerTextHarfBuzz", whole),
        ("acceleratorSpeedup", whole / accelerated),
      ]
    case "estimate":
      let e = estimatorFigures(transcript(cases), repeats: repeats)
      return [
        ("estimatesPerSecondFromText", e.fromText), ("estimatesPerSecond1", e.prepared1),
        ("estimatesPerSecond", e.prepared), ("estimatorPreparesPerSecond", e.prepares),
      ]
    case "parallel":
      let (one, all) = throughputs(cases, cores: cores, repeats: repeats)
      return [("casesPerSecond1", one), ("casesPerSecondAll", all), ("parallelSpeedup", all / one)]
    default:  // "layout"
      let ts = Typesetter(cacheCapacity: 0, wordCacheCapacity: 0)
      let (prepared, widths) = preparedWithWidths(cases, ts)
      let (cold, warm) = layoutFigures(prepared, baseWidths: widths, repeats: repeats)
      return [("layoutMicrosPerText", cold), ("layoutMicrosPerTextWarm", warm)]
    }
  }

  /// The text engine's figures: raw HarfBuzz on the same runs, cold and warm preparing, layout
  /// at a new width, throughput on one and all cores, what a prepared text holds.
  static func engineFigures(_ cases: [TextCase], repeats: Int) throws -> [(String, Double)] {
    let n = Double(cases.count)
    // Raw HarfBuzz on the same runs.
    let baseline = try Typesetter(cacheCapacity: 0, wordCacheCapacity: 0).shapingBaseline(
      cases.map { ($0.text, $0.style) })
    let raw = best(repeats) { _ = baseline.shapeAll() } / n
    /// Seconds per case of `body` over a new typesetter made by `make`.
    func perCase(_ make: () -> Typesetter, _ body: (Typesetter, TextCase) -> Void) -> Double {
      best(repeats) {
        let t = make()
        for c in cases { body(t, c) }
      } / n
    }
    // Cold: prepare + layout of unseen text.
    let cold = perCase({ Typesetter(cacheCapacity: 0, wordCacheCapacity: 0) }) { t, c in
      _ = try? t.prepare(c.text, style: c.style).measure(width: c.width)
    }
    // The same texts (each distinct) with a word cache that starts empty: words recur, texts do not.
    let coldWords = perCase({ Typesetter(cacheCapacity: 0, wordCacheCapacity: 32_768) }) { t, c in
      _ = try? t.prepare(c.text, style: c.style).measure(width: c.width)
    }
    let prepareOnly = perCase({ Typesetter(cacheCapacity: 0, wordCacheCapacity: 0) }) { t, c in
      _ = try? t.prepare(c.text, style: c.style)
    }
    // The same with every run shaped by HarfBuzz.
    let prepareHarfBuzz = perCase({
      Typesetter(cacheCapacity: 0, wordCacheCapacity: 0, shaping: .harfBuzz)
    }) { t, c in _ = try? t.prepare(c.text, style: c.style) }
    // Warm: an already-seen message of at most 80 characters.
    let warmTypesetter = Typesetter(cacheCapacity: 8192)
    let short = cases.filter { $0.text.count <= 80 }
    for c in short { _ = try? warmTypesetter.prepare(c.text, style: c.style) }
    let warm =
      best(repeats) {
        for c in short { _ = try? warmTypesetter.prepare(c.text, style: c.style) }
      } / Double(max(1, short.count))
    // Layout at a new width from prepared text.
    let layoutTypesetter = Typesetter(cacheCapacity: 0, wordCacheCapacity: 0)
    let (prepared, widths) = preparedWithWidths(cases, layoutTypesetter)
    // What the accelerator answered of those texts' runs, and what a prepared text holds.
    let counts = layoutTypesetter.shapingCounts
    let memory = prepared.reduce((0, 0)) { ($0.0 + $1.arrayBytes.total, $0.1 + $1.arrayBytes.glyphs) }
    let (layout, layoutWarm) = layoutFigures(prepared, baseWidths: widths, repeats: repeats)
    // Cold throughput on one core and on all cores.
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let (one, all) = throughputs(cases, cores: cores, repeats: repeats)
    return [
      ("cases", n), ("shapingRunsPerCase", Double(baseline.runCount) / n),
      ("coldMicrosPerCase", cold), ("rawShapingMicrosPerCase", raw),
      ("coldRatioToHarfBuzz", cold / raw), ("coldMicrosPerCaseWordCache", coldWords),
      ("prepareMicrosPerText", prepareOnly), ("prepareMicrosPerTextHarfBuzz", prepareHarfBuzz),
      ("preparedWarmMicros", warm), ("layoutMicrosPerText", layout),
      ("layoutMicrosPerTextWarm", layoutWarm), ("cores", Double(cores)),
      ("casesPerSecond1", one), ("casesPerSecondAll", all), ("parallelSpeedup", all / one),
      ("runsShapedWithoutHarfBuzz", Double(counts.direct) / Double(max(1, counts.runs))),
      ("bytesPerPreparedText", Double(memory.0) / n),
      ("bytesPerPreparedTextWithoutGlyphs", Double(memory.0 - memory.1) / n),
    ]
  }

  /// Cells: exact bubble heights over a 10k-message transcript of the corpus texts, each text
  /// unseen (every message gets a distinct tail, so no cache can help), on 1 core and all
  /// cores; then at a new width from prepared text; then the estimator.
  static func cellFigures(_ cases: [TextCase], repeats: Int) -> [(String, Double)] {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    var sink = 0.0
    let bubbles = transcript(cases)
    let bubbles1 = bubbleRate(bubbles, threads: 1, repeats: repeats)
    let bubblesAll = bubbleRate(bubbles, threads: cores, repeats: repeats)
    // With a word cache, each corpus text once (a text seen again would find all its words).
    let bubblesWordCache = bubbleRate(
      Array(bubbles.prefix(cases.count)), threads: cores, repeats: repeats, wordCache: true)
    let preparedBubbles = bubbles.compactMap { b in
      try? Typesetter(cacheCapacity: 0, wordCacheCapacity: 0).prepare(b.text, style: b.style)
    }
    let newWidthSeconds =
      best(repeats) {
        for (k, p) in preparedBubbles.enumerated() {
          sink += (try? p.measure(width: 250 - Double(k % 7)))?.height ?? 0
        }
      } / 1e6
    // Exact bubble sizes (every part and the bubble rule) at a new width from prepared texts.
    let exactSizer = CellSizer(typesetter: Typesetter(cacheCapacity: 0), cacheCapacity: 0)
    var exactSeconds = Double.infinity
    if let exact = try? exactSizer.prepareExact(bubbles) {
      exactSeconds =
        best(repeats) {
          for k in 0..<exact.count {
            sink += (try? exact.size(at: k, containerWidth: 390 - Double(k % 7)))?.height ?? 0
          }
        } / 1e6
    }
    let estimates = estimatorFigures(bubbles, repeats: repeats)
    // (The sink keeps the measured work from being optimised away.)
    return [
      ("exactBubbleSizesPerSecondNewWidth", Double(bubbles.count) / exactSeconds),
      ("bubblesPerSecond1", bubbles1), ("bubblesPerSecond", bubblesAll),
      ("bubblesPerSecondWordCache", bubblesWordCache),
      ("bubblesPerSecondNewWidth", Double(preparedBubbles.count) / newWidthSeconds + (sink.isNaN ? 1 : 0)),
      ("estimatesPerSecond1", estimates.prepared1), ("estimatesPerSecond", estimates.prepared),
      ("estimatesPerSecondFromText", estimates.fromText),
      ("estimatorPreparesPerSecond", estimates.prepares),
    ]
  }

  /// What `galley measure` adds to the engine, on one thread: `linesMicrosPerCase` (prepare and
  /// lay out, the lines a result record holds), `recordMicrosPerCase` (the same from the line's
  /// bytes to the result record's text: reading, checking, measuring, writing) and their ratio
  /// `recordOverhead` (process start, file reading and writing aside), and the same through the
  /// command's line reader, batches and output (`pipelineMicrosPerCase`: all of a process but its
  /// start), and reading alone (`readMicrosPerCase`: a line's bytes to its case, for lines read
  /// field by field). They are timed in alternating chunks of 1,000 cases, so that a shared
  /// machine's slow spells weigh on all.
  static func recordFigures(
    _ cases: [TextCase], _ records: [(line: Int, bytes: [UInt8])], library: FontLibrary,
    repeats: Int
  ) -> [(String, Double)] {
    let n = Double(cases.count)
    var best = RecordTimes(lines: .infinity, record: .infinity, pipeline: .infinity, read: .infinity)
    let devNullFD = open("/dev/null", O_WRONLY)
    defer { close(devNullFD) }
    let devNull = OutputStream(fd: devNullFD)
    for _ in 0..<max(1, repeats) {
      let t = recordTimes(cases, records, library: library, output: devNull)
      best = RecordTimes(
        lines: min(best.lines, t.lines / n), record: min(best.record, t.record / n),
        pipeline: min(best.pipeline, t.pipeline / n), read: min(best.read, t.read / n))
    }
    return [
      ("linesMicrosPerCase", best.lines), ("recordMicrosPerCase", best.record),
      ("recordOverhead", best.record / best.lines), ("pipelineMicrosPerCase", best.pipeline),
      ("pipelineOverhead", best.pipeline / best.lines), ("readMicrosPerCase", best.read),
    ]
  }

  /// Microseconds of one pass over the cases: measured into lines by the engine, from each
  /// record's bytes to its result's, through `measure`'s own pipeline, and only read.
  struct RecordTimes {
    var lines: Double
    var record: Double
    var pipeline: Double
    var read: Double
  }

  /// One pass of ``recordFigures(_:_:library:repeats:)``, each with typesetters of its own.
  static func recordTimes(
    _ cases: [TextCase], _ records: [(line: Int, bytes: [UInt8])], library: FontLibrary,
    output devNull: OutputStream
  ) -> RecordTimes {
    let t = Typesetter(cacheCapacity: 0)
    let rt = Typesetter(cacheCapacity: 0)
    let sizer = CellSizer(typesetter: rt, cacheCapacity: 0)
    let pt = Typesetter(cacheCapacity: 0)
    let pipeSizer = CellSizer(typesetter: pt, cacheCapacity: 0)
    var times = RecordTimes(lines: 0, record: 0, pipeline: 0, read: 0)
    var sink = 0
    for chunk in stride(from: 0, to: min(cases.count, records.count), by: 1000) {
      let end = min(chunk + 1000, cases.count, records.count)
      var input: [UInt8] = []
      for r in records[chunk..<end] {
        input += r.bytes
        input.append(0x0A)
      }
      // (Each chunk starts with another of the four: what is made once at first use, such as
      // a font's feature analysis, falls on each alike.)
      let steps: [() -> Void] = [
        { times.lines += time { sink &+= engineLines(cases[chunk..<end], t) } },
        {
          times.record += time {
            var w = JSONWriter()
            for r in records[chunk..<end] {
              _ = RecordMeasuring.measure(
                r.bytes, line: r.line, library: library, typesetter: rt, sizer: sizer, template: nil,
                warn: Streams.error, into: &w)
            }
            sink &+= w.withBytes { $0.count }
          }
        },
        {
          times.read += time {
            for r in records[chunk..<end] {
              let c = r.bytes.withUnsafeBufferPointer { TextCase(plainLine: $0, library: library) }
              sink &+= c?.text.utf8.count ?? 0
            }
          }
        },
        {
          times.pipeline += time {
            let reader = LineReader(bytes: input)
            try? Batches.process(reader: reader, jobs: 1, output: devNull) { line, data, warn, w in
              RecordMeasuring.measure(
                data, line: line, library: library, typesetter: pt, sizer: pipeSizer,
                template: nil, warn: warn, into: &w)
            } onResult: { _ in }
          }
        },
      ]
      let first = (chunk / 1000) % steps.count
      for k in 0..<steps.count { steps[(first + k) % steps.count]() }
    }
    if sink == -1 { print("") }
    return times
  }


  /// The engine's own work for `cases` as `galley measure` asks it (prepare, then lay out at the
  /// case's width, one thread): the lines, summed so that the work is not optimised away.
  static func engineLines(_ cases: ArraySlice<TextCase>, _ t: Typesetter) -> Int {
    var sum = 0
    for c in cases { sum &+= (try? t.prepare(c.text, style: c.style).layout(width: c.width))?.lineCount ?? 0 }
    return sum
  }

  /// The time `body` takes, µs.
  static func time(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
  }

  /// The 10k-message transcript the bubble and estimator figures use: the corpus texts in turn,
  /// each with a distinct tail (so that no text is ever seen twice), 75% of a 390 pt container.
  static func transcript(_ cases: [TextCase]) -> [BubbleCell] {
    (0..<10_000).map { i in
      let c = cases[i % cases.count]
      var b = BubbleCell(text: c.text + " #\(i)", style: c.style, containerWidth: 390)
      b.maxWidthFraction = 0.75
      return b
    }
  }

  /// Exact bubble sizes per second over `bubbles` on `threads` threads, no text seen before.
  static func bubbleRate(
    _ bubbles: [BubbleCell], threads: Int, repeats: Int, wordCache: Bool = false,
    shaping: ShapingMode? = nil
  ) -> Double {
    let seconds =
      best(repeats) {
        // A new typesetter each time: no cache, or a word cache that starts empty.
        let typesetter = Typesetter(
          cacheCapacity: 0, wordCacheCapacity: wordCache ? 32_768 : 0, shaping: shaping)
        let sizer = CellSizer(typesetter: typesetter, cacheCapacity: 0)
        DispatchQueue.concurrentPerform(iterations: threads) { k in
          var i = k
          while i < bubbles.count {
            _ = try? sizer.measure(bubbles[i])
            i += threads
          }
        }
      } / 1e6
    return Double(bubbles.count) / seconds
  }

  /// Estimator throughput over `bubbles`: estimates/s from the text (one pass each), estimates/s
  /// from bubbles prepared once (all of them at a new container width, as a transcript's
  /// estimate pass does) on one core and on all cores, and bubbles prepared/s.
  static func estimatorFigures(_ bubbles: [BubbleCell], repeats: Int) -> (
    fromText: Double, prepared1: Double, prepared: Double, prepares: Double
  ) {
    let estimator = BubbleEstimator()
    var sink = 0.0
    let n = Double(bubbles.count)
    let fromText =
      best(repeats) {
        for i in bubbles.indices { sink += estimator.estimate(bubbles[i]).height }
      } / 1e6
    var prepared = estimator.prepare(bubbles)
    let prepare = best(repeats) { prepared = estimator.prepare(bubbles) } / 1e6
    let widths = (0..<8).map { 320 + 15 * Double($0) }
    func rate(threads: Int) -> Double {
      let seconds =
        best(repeats) {
          for w in widths {
            sink += prepared.sizes(containerWidth: w, threads: threads).last?.height ?? 0
          }
        } / 1e6 / Double(widths.count)
      return n / seconds
    }
    let one = rate(threads: 1)
    let all = rate(threads: ProcessInfo.processInfo.activeProcessorCount)
    if sink.isNaN { print("") }
    return (n / fromText, one, all, n / prepare)
  }

  /// The cases that prepare, prepared, and each one's width (a case that fails to prepare is
  /// left out of both, so that texts and widths stay paired).
  static func preparedWithWidths(_ cases: [TextCase], _ typesetter: Typesetter) -> (
    [PreparedText], [Double]
  ) {
    let pairs = cases.compactMap { c in
      (try? typesetter.prepare(c.text, style: c.style)).map { ($0, c.width) }
    }
    return (pairs.map(\.0), pairs.map(\.1))
  }

  /// Layout of prepared texts at new widths (8 widths around each case's own), µs per text: the
  /// texts in turn at each width (a transcript laid out again: cache-cold), and each text at the
  /// 8 widths in a row (its data in cache).
  static func layoutFigures(_ prepared: [PreparedText], baseWidths: [Double], repeats: Int) -> (
    Double, Double
  ) {
    let widths = (0..<8).map { 0.83 + 0.05 * Double($0) }
    let count = Double(prepared.count) * Double(widths.count)
    var sink = 0.0
    let cold =
      best(repeats) {
        for f in widths {
          for i in prepared.indices {
            sink += (try? prepared[i].measure(width: baseWidths[i] * f))?.height ?? 0
          }
        }
      } / count
    let warm =
      best(repeats) {
        for i in prepared.indices {
          for f in widths {
            sink += (try? prepared[i].measure(width: baseWidths[i] * f))?.height ?? 0
          }
        }
      } / count
    if sink.isNaN { print("") }
    return (cold, warm)
  }

  /// Cold cases per second (prepare + measure, no cache) on one thread and on `cores` threads
  /// sharing one typesetter, each the best of `repeats` runs; the two alternate, run by run,
  /// so that a neighbour's load on this shared machine weighs on both alike.
  static func throughputs(_ cases: [TextCase], cores: Int, repeats: Int) -> (Double, Double) {
    var best = (one: Double.infinity, all: Double.infinity)
    for _ in 0..<repeats {
      for threads in [1, cores] {
        let start = DispatchTime.now().uptimeNanoseconds
        let t = Typesetter(cacheCapacity: 0, wordCacheCapacity: 0)
        DispatchQueue.concurrentPerform(iterations: threads) { k in
          var i = k
          while i < cases.count {
            _ = try? t.prepare(cases[i].text, style: cases[i].style).measure(
              width: cases[i].width)
            i += threads
          }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if threads == 1 {
          best.one = min(best.one, seconds)
        } else {
          best.all = min(best.all, seconds)
        }
      }
    }
    let n = Double(cases.count)
    return (n / best.one, n / best.all)
  }

  /// The best of `repeats` timings of `body`, in microseconds.
  static func best(_ repeats: Int, _ body: () throws -> Void) rethrows -> Double {
    var bestTime = Double.infinity
    for _ in 0..<repeats {
      let start = DispatchTime.now().uptimeNanoseconds
      try body()
      let t = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
      bestTime = min(bestTime, t)
    }
    return bestTime
  }
}
