import CompositionalLayout
import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import Rasterizer
import SelfSizing
import Typesetting

/// `galley render`: transcripts, layout specs and single texts → PNG.
enum RenderCommand {
  static let help = """
    usage: galley render TRANSCRIPT.jsonl|SPEC.json|- -o OUT.png [--width PT] [--scale S]
                         [--overlay] [--frames FRAMES.jsonl] [--quiet]
                         [--fonts-dir DIR [--any-font-path]]
                         [--shaping harfbuzz|accelerated]
           galley render SPEC.json --updates BATCHES.json [--batch N] -o STRIP.png
           galley render --text "…" -o OUT.png [--size PT] [--fonts A.ttf,B.ttf] [--lang TAG]
                         [--line-height PT] [--direction ltr|rtl] [--max-lines N] [--overlay]

    -o - writes the PNG to standard output. Draws with the real glyphs (FreeType: grayscale anti-aliased outlines, colour emoji from the
    bitmap strike) and writes an RGBA PNG at --scale pixels per point (default 2).

    A transcript (JSON Lines of bubble cells, docs/CELLS.md) is drawn top to bottom in one
    column 390 points wide (wider if a record's containerWidth is), each bubble laid out in its
    record's containerWidth (390 when it has none); --width W draws the column W points wide
    and lays every bubble out in it (its containerWidth becomes W: the same chat on another
    screen). The chat layout stacks them: "sender": "me" on the trailing side in blue, others
    on the leading side in grey, 2 points apart within one sender's run and 12 between senders,
    8 around; with sender name, reply preview and timestamp where the record has them. --overlay outlines each cell's
    measured frame (solid green) and its estimated frame (dashed red: "estimatedHeight" and
    "estimatedWidth" when the record has them, else the built-in estimator), and outlines in red
    every missing glyph (a character no font of the stack has, drawn as a box: tofu).

    A layout spec (a JSON object with "sections", as for `galley layout`) is drawn as all its
    frames: cells outlined in grey, headers and footers dashed orange, decorations filled, and
    the cells the spec carries (product cards, bubbles) drawn in their frames.

    --text draws one text laid out at --width − 32 points; --overlay adds each line's
    typographic box (green), its ink bounds (dashed red) and each missing glyph (red).

    --frames FILE writes one JSON object per drawn cell: {"id", "line", "frame": [x, y, w, h],
    "estimated", "ink": [[x, y, w, h], …], "lineWidths": [w, …]} in points (ink: tight bounds of
    each drawn text line; lineWidths: the pen extent of each drawn line of the main text — the
    --text, a bubble's message, a card's title — galley measure's lineWidths within 1/64 pt:
    measure rounds them up to the next 1/64 under the browser profile, the picture does not).

    A record that cannot be drawn is left out of the picture and reported on standard error with
    its line number; the rest is drawn.

    A layout spec with --updates BATCHES.json (the format of `galley layout --updates`) draws
    batch N's animation (--batch, default 0) on one sheet: the screen before, halfway and after,
    left to right; appearing elements green and faded in, disappearing red and faded out, moved
    blue, reloaded purple, shifted orange, unchanged grey.

    examples:
      galley render Examples/transcript.jsonl -o transcript.png
      galley render Examples/estimates.jsonl --overlay -o overlay.png
      galley render Examples/home-screen.json -o home.png --scale 1
      galley render --text "오늘 저녁 7시에 만나요 👋" --size 24 -o text.png
      galley render Examples/brand-grid.json --updates Examples/brand-grid-updates.json -o strip.png

    exit status: 0 drawn, 1 drawn but some records were left out, 2 nothing drawable, an
    invalid spec or a picture over 100 million pixels, 64 usage, 66 unreadable input, 73 the PNG
    cannot be written, 130 interrupted by Ctrl-C (no PNG written).
    """

  /// The options `galley render` takes.
  static let accepted = AcceptedOptions(
    valued: [
        "output", "width", "scale", "fonts-dir", "text", "size", "fonts", "lang", "line-height",
        "direction", "max-lines", "frames", "shaping", "updates", "batch",
      ],
    flags: ["overlay", "quiet", "help", "any-font-path"])

  /// A picture as drawn: its canvas (nil: nothing could be drawn), what was placed on it for
  /// `--frames`, the records left out, and a few words on what it shows.
  struct Drawing {
    var canvas: Canvas?
    var placed: [Pictures.Placed] = []
    var failures: [Pictures.Failure] = []
    var what: String
  }

  /// What every way of drawing needs.
  struct Tools {
    let library: FontLibrary
    let typesetter: Typesetter
    let sizer: CellSizer
    let missing: MissingGlyphs
  }

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let opts = try Options(args, accepted, command: "render")
    if opts.flags.contains("help") {
      print(help)
      return 0
    }
    let (out, width, scale) = try checkedOptions(opts)
    let library = try opts.fontLibrary()
    let typesetter = try ShapingOption.typesetter(opts, cacheCapacity: 0)
    let tools = Tools(
      library: library, typesetter: typesetter,
      sizer: CellSizer(typesetter: typesetter, cacheCapacity: 0), missing: MissingGlyphs())
    defer { tools.missing.report(command: "render", strict: false).map(Streams.error) }
    let drawn: Drawing?
    if let text = opts.values["text"] {
      guard opts.positionals.isEmpty else {
        throw CLIError.usage("give either --text or an input file, not both")
      }
      drawn = try drawable {
        try drawText(text, opts, width: width, scale: scale, tools)
      }
    } else {
      drawn = try drawInput(opts, width: width, scale: scale, tools)
    }
    guard let drawn else { return 2 }
    for f in drawn.failures {
      let at = f.line > 0 ? "line \(f.line)" : "cell"
      Streams.error("galley render: \(at)\(f.id.map { " (\($0))" } ?? ""): \(f.message)")
    }
    guard let canvas = drawn.canvas else {
      Streams.error("galley render: nothing to draw")
      return 2
    }
    try write(canvas, to: out)
    if let framesPath = opts.values["frames"] {
      try Streams.writeFile(framesPath, Data(Pictures.framesJSON(drawn.placed).utf8))
    }
    if !opts.flags.contains("quiet") {
      Streams.error(
        "galley render: wrote \(out) (\(canvas.pixelWidth)×\(canvas.pixelHeight) px, \(drawn.what)"
          + (drawn.failures.isEmpty ? ")" : ", \(drawn.failures.count) left out)"))
    }
    return drawn.failures.isEmpty ? 0 : 1
  }

  /// The output path, width and scale, once the options are checked against each other.
  static func checkedOptions(_ opts: Options) throws -> (out: String, width: Double, scale: Double) {
    guard let out = opts.values["output"] else {
      throw CLIError.usage("render needs -o OUT.png (see `galley render --help`)")
    }
    let width = try opts.double("width") ?? 390
    let scale = try opts.double("scale") ?? 2
    guard width > 0, width <= 10_000 else { throw CLIError.usage("--width must be in (0, 10000]") }
    guard Pictures.scales.contains(scale) else {
      throw CLIError.usage(
        "--scale must be from \(fmt(Pictures.scales.lowerBound)) to "
          + "\(fmt(Pictures.scales.upperBound)) (got \(fmt(scale)))")
    }
    try opts.require(["batch"], with: "updates", "it picks a batch of BATCHES.json")
    try opts.require(
      ["size", "fonts", "lang", "line-height", "direction", "max-lines"], with: "text",
      "records carry their own styles")
    try opts.forbid("updates", with: "text", "--updates animates a layout spec")
    for option in ["overlay", "frames", "width"] {
      try opts.forbid(option, with: "updates", "the strip draws the layout's own frames")
    }
    return (out, width, scale)
  }

  /// `draw`'s picture; nil, having said why, when its input cannot be drawn at all (an invalid
  /// spec or batch, text the engine refuses, a picture too large).
  static func drawable(_ draw: () throws -> Drawing) throws -> Drawing? {
    do {
      return try draw()
    } catch let e as TypesettingError {
      Streams.error("galley render: \(e.description)")
    } catch let e as Pictures.TooLarge {
      Streams.error("galley render: \(e.description)")
    } catch let e as LayoutSpecError {
      Streams.error("galley render: \(e.description)")
    } catch let e as BatchError {
      Streams.error("galley render: \(e.description)")
    }
    return nil
  }

  /// `--text`: one text in the style the options give.
  static func drawText(
    _ text: String, _ opts: Options, width: Double, scale: Double, _ tools: Tools
  ) throws -> Drawing {
    var o: JSONObject = ["id": "text", "text": .string(text), "width": .number(width - 32)]
    o["size"] = .number(try opts.double("size") ?? 17)
    if let f = opts.values["fonts"] {
      o["fonts"] = .array(f.split(separator: ",").map { .string(String($0)) })
    }
    if let l = opts.values["lang"] { o["lang"] = .string(l) }
    if let lh = try opts.double("line-height") { o["lineHeight"] = .number(lh) }
    if let d = opts.values["direction"] { o["direction"] = .string(d) }
    if let m = try opts.int("max-lines") { o["maxLines"] = .number(Double(m)) }
    let c: TextCase
    do {
      c = try TextCase(json: o, library: tools.library)
    } catch let e as CaseError {
      throw CLIError.usage(e.description)
    }
    let (canvas, placed) = try Pictures.text(
      c, width: width, scale: scale, overlay: opts.flags.contains("overlay"),
      typesetter: tools.typesetter, missing: tools.missing)
    return Drawing(
      canvas: canvas, placed: placed, what: "text, \(counted(placed.first?.ink.count ?? 0, "line"))")
  }

  /// An input file: a layout spec (or, with `--updates`, one of its batches as a strip) or a
  /// transcript. Records cut short by the line limit are left out, each said.
  static func drawInput(
    _ opts: Options, width: Double, scale: Double, _ tools: Tools
  ) throws -> Drawing? {
    guard opts.positionals.count <= 1 else { throw CLIError.usage("one input at a time") }
    let reader = LineReader(handle: try Streams.input(opts.positionals.first))
    var lines: [(Int, [UInt8])] = []
    var cut: [Pictures.Failure] = []
    while let l = reader.next() {
      if let e = reader.cutLineError(l) {
        cut.append(.init(line: reader.lineNumber, id: e.id, message: e.message))
        continue
      }
      if l.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      lines.append((reader.lineNumber, l))
    }
    let isSpec = isLayoutSpec(lines)
    if opts.values["updates"] != nil && !isSpec {
      throw CLIError.usage(
        "--updates animates a layout spec, and \(opts.positionals.first ?? "-") is not one "
          + "(a JSON object with \"sections\")")
    }
    let drawn = try drawable {
      if isSpec, let updates = opts.values["updates"] {
        return try drawStrip(lines, updates: updates, opts, scale: scale, tools)
      } else if isSpec {
        let data = Data(lines.map { $0.1 }.joined(separator: [0x0A]))
        let (canvas, placed, failures) = try Pictures.layoutSpec(
          data, scale: scale, library: tools.library, sizer: tools.sizer, missing: tools.missing)
        return Drawing(
          canvas: canvas, placed: placed, failures: failures,
          what: "layout, \(counted(placed.count, "cell"))")
      } else {
        let (canvas, placed, failures) = try Pictures.transcript(
          lines, width: width, containerIsColumn: opts.values["width"] != nil, scale: scale,
          overlay: opts.flags.contains("overlay"), library: tools.library, sizer: tools.sizer,
          missing: tools.missing)
        return Drawing(
          canvas: canvas, placed: placed, failures: failures,
          what: "transcript, \(counted(placed.count, "bubble"))")
      }
    }
    guard var drawn else { return nil }
    drawn.failures = (cut + drawn.failures).sorted { $0.line < $1.line }
    return drawn
  }

  /// `--updates`: a batch's animation, before, halfway and after, side by side.
  static func drawStrip(
    _ lines: [(Int, [UInt8])], updates: String, _ opts: Options, scale: Double, _ tools: Tools
  ) throws -> Drawing {
    let data = Data(lines.map { $0.1 }.joined(separator: [0x0A]))
    let n = try opts.int("batch") ?? 0
    let spec = try LayoutSpec(json: data)
    let batches = try LayoutCommand.batches(at: updates)
    guard n >= 0 && n < batches.count else {
      throw CLIError.usage(
        "--batch \(n): the updates hold \(batches.count) batches (0…\(batches.count - 1))")
    }
    let transitions = try spec.transitions(batches, through: n) { request in
      try LayoutCommand.measureCell(
        request, library: tools.library, sizer: tools.sizer, missing: tools.missing)
    }
    let t = transitions[n]
    let canvas = try Pictures.transitionStrip(
      t, viewport: spec.environment.containerSize, scale: scale, typesetter: tools.typesetter,
      library: tools.library)
    return Drawing(canvas: canvas, what: "\(batches[n].label(n)): \(counted(t.changes.count, "change"))")
  }

  /// The PNG at `out`, or on standard output for `-` (e.g. `| display -`; messages stay on
  /// standard error).
  static func write(_ canvas: Canvas, to out: String) throws {
    if out == "-" {
      OutputStream(fd: 1).write(try PNGImage.encode(canvas))
      return
    }
    do {
      try PNGImage.write(canvas, to: out)
    } catch {
      throw CLIError.output("\(out): cannot be written")
    }
  }

  /// Whether the input is one JSON object with "sections" (a layout spec) rather than JSON Lines.
  static func isLayoutSpec(_ lines: [(Int, [UInt8])]) -> Bool {
    guard let first = lines.first?.1.first(where: { $0 != 0x20 && $0 != 0x09 }),
      first == UInt8(ascii: "{")
    else { return false }
    let data = Array(lines.map { $0.1 }.joined(separator: [0x0A]))
    guard let o = try? JSONReader.readObject(data).object else { return false }
    return o["sections"] != nil
  }
}
