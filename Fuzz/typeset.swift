import Foundation

@testable import GalleyBench
@testable import Typesetting

// Fuzz target (a): prepare + layout on arbitrary bytes decoded as UTF-8, with the style and the
// width taken from the first 8 bytes.

let fontStacks: [FontStack] = FuzzCase.stackNames.map { try! fuzzLibrary.stack($0) }
let typesetter = acceleratedTypesetter(cacheCapacity: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTypeset(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let (text, style, width) = FuzzCase.decode(bytes, stacks: fontStacks) else { return 0 }
  let prepared: PreparedText
  do {
    prepared = try typesetter.prepare(text, style: style)
  } catch {
    // Only the style can be refused, and only with a typesetting error.
    invariant(error is TypesettingError, "prepare threw \(error)")
    return 0
  }
  do {
    let layout = try prepared.layout(width: width)
    checkLayout(layout, prepared, width: width)
    // Measuring (one-line numbers, the fast index, or the segment walk) gives what laying out
    // gives, at this width and at narrower ones (more lines, words broken).
    for w in [width, width * 0.71, width * 0.37, width * 0.13] {
      let full = w == width ? layout : try prepared.layout(width: w)
      let m = try prepared.measure(width: w)
      let last = full.lines.last?.width ?? 0
      invariant(
        m.lines == full.lineCount && m.isTruncated == full.isTruncated
          && abs(m.height - full.height) <= 1e-9 * max(1, full.height)
          && abs(m.widest - full.widest) <= 1e-9 * max(1, full.widest)
          && abs(m.lastLineWidth - last) <= 1e-9 * max(1, last),
        "measure(width: \(w)) gave \(m), layout \(full.lineCount) lines, height \(full.height), "
          + "widest \(full.widest), last \(last)")
    }
    // A word cache must give exactly what whole-run shaping gives, also for words it found in
    // another text: a fresh cache (so that a failure reproduces from its input alone) is first
    // filled from the same words in reverse order.
    let wordTypesetter = acceleratedTypesetter(cacheCapacity: 0, wordCacheCapacity: 64)
    let seed = text.split(separator: " ", omittingEmptySubsequences: false).reversed()
      .joined(separator: " ")
    _ = try wordTypesetter.prepare(seed, style: style)
    let words = try wordTypesetter.prepare(text, style: style).layout(width: width)
    invariant(
      words.lines.map(\.start) == layout.lines.map(\.start)
        && words.lines.map(\.width) == layout.lines.map(\.width),
      "word cache changed the layout")
    checkFeatureGates(text, style: style)
  } catch {
    invariant(false, "layout threw \(error)")
  }
  return 0
}
