import CompositionalLayout
import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import SelfSizing
import Typesetting

/// `galley layout SPEC.json`: the frames of a compositional layout described in JSON.
enum LayoutCommand {
  static let help = """
    usage: galley layout SPEC.json|- [-o OUT] [--fonts-dir DIR [--any-font-path]]
                         [--shaping harfbuzz|accelerated]
                         [--updates BATCHES.json]

    Reads a layout spec (sections › groups › items with absolute, fractional and estimated
    dimensions, spacing, insets, headers, orthogonal sections — the format of docs/LAYOUT-SPEC.md) and
    writes one JSON object: contentSize, every element's frame [x, y, width, height] and zIndex,
    orthogonal sections' content widths and page offsets, and lint warnings.

    Items may carry cells to measure ("cells": [{"template": "bubble", "text": "…"}, …]); they are
    measured with the text engine at the width the layout offers them (see `galley measure --help`
    for the cell fields). Unknown fields and wrong types are errors naming the JSON path.

    --updates BATCHES.json applies batches of updates one after another, in the terms of
    performBatchUpdates ({"batches": [{"name", "insertItems": [{"section", "item"}],
    "deleteItems", "reloadItems", "moveItems": [{"from": {…}, "to": {…}}], "insertSections",
    "deleteSections", "reloadSections", "moveSections": [{"from", "to"}], "itemCounts",
    "itemSizes": [{"section", "index", "width", "height"}], "contentOffset", "anchor":
    "top"|"firstVisible"|"bottom"}]}), and writes per batch the layouts before and after, every
    element that appears, disappears, moves, reloads or shifts (with UIKit's default alphas),
    the content offset after (kept by the anchor) and checks: overlapping cells, how far the
    anchored item moved on screen, elements that jump farther than the screen. A batch UIKit
    would reject (an index out of range, an item deleted and moved, counts that do not add up)
    is an error naming the operation (exit 2). See docs/LAYOUT-SPEC.md.

    examples:
      galley layout Examples/home-screen.json
      galley layout Examples/home-screen.json -o frames.json
      galley layout Examples/brand-grid.json --updates Examples/brand-grid-updates.json

    A cell that cannot be measured is laid out at its estimated size and listed in "errors"
    ({"section", "item", "error", "estimated": true}); the rest is laid out as measured.

    exit status: 0 laid out, 1 some cells could not be measured, 2 invalid spec, 64 usage,
    66 unreadable input, 73 the output file cannot be written.
    """

  /// The options `galley layout` takes.
  static let accepted = AcceptedOptions(
    valued: ["output", "fonts-dir", "shaping", "updates"],
    flags: ["help", "any-font-path"])

  static func run(_ args: ArraySlice<String>) throws -> Int32 {
    let opts = try Options(args, accepted, command: "layout")
    if opts.flags.contains("help") {
      print(help)
      return 0
    }
    guard opts.positionals.count <= 1 else { throw CLIError.usage("one spec at a time") }
    let handle = try Streams.input(opts.positionals.first)
    let data = handle.readDataToEndOfFile()
    let library = try opts.fontLibrary()
    let sizer = CellSizer(typesetter: try ShapingOption.typesetter(opts, cacheCapacity: 2048))
    let output = try Streams.output(opts.values["output"])
    let missing = MissingGlyphs()
    defer { missing.report(command: "layout", strict: false).map(Streams.error) }
    do {
      let spec = try LayoutSpec(json: data)
      if let path = opts.values["updates"] {
        let batches = try LayoutCommand.batches(at: path)
        return try updates(spec, batches, output: output) { request in
          try measureCell(request, library: library, sizer: sizer, missing: missing)
        }
      }
      let result = try spec.layoutResult { request in
        try measureCell(request, library: library, sizer: sizer, missing: missing)
      }
      output.write(LayoutJSONEncoder.encode(result) + "\n")
      for e in result.unmeasuredCells {
        Streams.error("galley layout: \(e.message) (laid out at its estimated size)")
      }
      return result.unmeasuredCells.isEmpty ? 0 : 1
    } catch let e as LayoutSpecError {
      Streams.error("galley layout: \(e.description)")
      return 2
    }
  }

  /// The batches of the updates file at `path`, whose errors name the file (the spec's are
  /// the ones that name none).
  static func batches(at path: String) throws -> [SpecBatch] {
    do {
      return try SpecBatch.batches(json: try Streams.input(path).readDataToEndOfFile())
    } catch let e as LayoutSpecError {
      throw LayoutSpecError(path: e.path.isEmpty ? path : "\(path): \(e.path)", message: e.message)
    }
  }

  /// `--updates`: the batches applied one after another, each with its transition, written as
  /// it is made (checked on their item counts first, so that a bad batch writes nothing).
  static func updates(
    _ spec: LayoutSpec, _ batches: [SpecBatch], output: OutputStream,
    measure: @escaping (CellRequest) throws -> Size
  ) throws -> Int32 {
    do {
      try spec.checkBatches(batches)
    } catch let e as BatchError {
      Streams.error("galley layout: \(e.description)")
      return 2
    }
    var failed = false
    output.write(LayoutJSONEncoder.batchesOpening)
    try spec.transitions(batches, measure: measure) { k, t in
      output.write(LayoutJSONEncoder.encode(batch: t, name: batches[k].batch.name, first: k == 0))
      failed = failed || !t.before.unmeasuredCells.isEmpty || !t.after.unmeasuredCells.isEmpty
    }
    output.write(LayoutJSONEncoder.batchesClosing(empty: batches.isEmpty))
    return failed ? 1 : 0
  }

  struct CellMeasureError: Error, CustomStringConvertible {
    var description: String
  }

  /// Measures the cell of a layout item at the width the layout proposes; characters no font
  /// has go to `missing`.
  static func measureCell(
    _ r: CellRequest, library: FontLibrary, sizer: CellSizer, missing: MissingGlyphs? = nil
  ) throws -> Size {
    try measuredCell(r, library: library, sizer: sizer, missing: missing).size
  }

  /// ``measureCell(_:library:sizer:missing:)`` with the record it measured (as the request's
  /// proposed width made it), for a caller that draws the cell.
  static func measuredCell(
    _ r: CellRequest, library: FontLibrary, sizer: CellSizer, missing: MissingGlyphs? = nil
  ) throws -> (record: CellRecord, size: Size) {
    let location = "sections[\(r.indexPath.section)].cells[\(r.indexPath.item)]"
    do {
      let record = try r.cellRecord(library: library)
      let m = try sizer.measure(record.cell)
      missing?.note(
        order: r.indexPath.section << 32 | r.indexPath.item, place: location, m.missingCharacters)
      return (record, Size(width: m.size.width, height: m.size.height))
    } catch let e as CellError {
      throw CellMeasureError(description: "\(location): \(e.description)")
    }
  }
}
