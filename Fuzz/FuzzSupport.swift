import Foundation

@testable import ShapingAccelerator
@testable import Typesetting

// Shared by every fuzz target (compiled into each by Scripts/fuzz).

/// The fonts directory: $GALLEY_FONTS, else fonts/ under the working directory (Scripts/fuzz
/// runs from the repository root).
let fuzzFontsDir: String = {
  if let env = ProcessInfo.processInfo.environment["GALLEY_FONTS"], !env.isEmpty { return env }
  return FileManager.default.currentDirectoryPath + "/fonts"
}()

let fuzzLibrary = FontLibrary(directory: fuzzFontsDir)

/// Stops the run with a message libFuzzer records as a crash: an invariant was broken.
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() {
    FileHandle.standardError.write(("invariant broken: " + message() + "\n").data(using: .utf8)!)
    abort()
  }
}

/// Checks what every layout must satisfy, whatever the input.
func checkLayout(_ layout: TextLayout, _ prepared: PreparedText, width: Double) {
  let scalars = prepared.text.unicodeScalars.count
  let utf16 = prepared.text.utf16.count
  invariant(layout.height.isFinite && layout.height >= 0, "height \(layout.height)")
  invariant(layout.widest.isFinite && layout.widest >= 0, "widest \(layout.widest)")
  invariant(
    layout.visibleRange.lowerBound == 0 && layout.visibleRange.upperBound <= scalars,
    "visible range \(layout.visibleRange) of \(scalars)")
  if scalars == 0 { invariant(layout.lineCount == 0, "lines of empty text") }
  var previous = -1
  var top = 0.0
  for line in layout.lines {
    invariant(line.start > previous || (previous == -1 && line.start == 0), "starts \(line.start)")
    invariant(line.start <= scalars && line.startUTF16 <= utf16, "start beyond the text")
    invariant(line.width.isFinite && line.width >= 0, "line width \(line.width)")
    invariant(line.width <= layout.widest, "line wider than widest")
    invariant(line.top >= top - 1e-6 || prepared.style.lineSpacing < 0, "tops go back")
    top = line.top
    previous = line.start
  }
  if let first = layout.lines.first {
    invariant(first.start == 0, "first line starts at \(first.start)")
  }
  if let m = prepared.style.maxLines, m > 0 {
    invariant(layout.lineCount <= m, "more than maxLines")
  }
  // The allocation-free measure agrees with the full layout.
  guard let m = try? prepared.measure(width: width) else {
    return invariant(false, "measure threw")
  }
  invariant(m.lines == layout.lineCount, "measure lines \(m.lines) != \(layout.lineCount)")
  invariant(
    abs(m.height - layout.height) <= 1e-6 * max(1, layout.height),
    "measure height \(m.height) != \(layout.height)")
  invariant(
    abs(m.widest - layout.widest) <= 1e-6 * max(1, layout.widest),
    "measure widest \(m.widest) != \(layout.widest)")
}

/// Feature gates must change nothing: every run of the text gives HarfBuzz's glyphs, clusters
/// and positions with the gates used from each plan's first use, as without them.
func checkFeatureGates(_ text: String, style: TextStyle) {
  guard let runs = try? Typesetter(cacheCapacity: 0).shapingBaseline([(text, style)]).items else {
    return
  }
  let gated = AcceleratedShaper()
  gated.gateAfterUses = 1
  let whole = HarfBuzzShaper()
  for item in runs {
    let run = ShapingRun(
      start: 0, end: item.text.count, font: item.font, rtl: item.rtl, script: item.script)
    let a = gated.harfBuzzGlyphs(
      item.text, 0, item.text.count, run: run, language: item.language, features: item.features)
    let b = whole.harfBuzzGlyphs(
      item.text, 0, item.text.count, run: run, language: item.language, features: item.features)
    invariant(a == b, "feature gates changed the glyphs of a run in \(item.font.name)")
    // Direct shaping (no HarfBuzz for runs that need only glyphs, advances and pair kerning)
    // must give HarfBuzz's advances to the last bit.
    var direct = [Double](repeating: 0, count: item.text.count)
    var shaped = direct
    gated.shape(
      item.text, run: run, size: 16, language: item.language, features: item.features,
      into: &direct)
    whole.shape(
      item.text, run: run, size: 16, language: item.language, features: item.features,
      into: &shaped)
    invariant(direct == shaped, "direct shaping changed the advances of a run in \(item.font.name)")
  }
}

/// A typesetter that runs the accelerator where its fence allows, as the command line's does
/// (so that fuzzing reaches it).
func acceleratedTypesetter(cacheCapacity: Int, wordCacheCapacity: Int = 0) -> Typesetter {
  ShapingAccelerator.install()
  return Typesetter(cacheCapacity: cacheCapacity, wordCacheCapacity: wordCacheCapacity)
}
