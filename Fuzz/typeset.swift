import Foundation

@testable import Typesetting

// Fuzz target (a): prepare + layout on arbitrary bytes decoded as UTF-8, with the style and the
// width taken from the first 8 bytes.

let stacks: [[String]] = [
  ["NotoSans-Regular.ttf", "NotoColorEmoji.ttf"],
  FontStack.defaultNames,
  ["NotoSansCJK-Regular.ttc", "NotoSans-Regular.ttf"],
  ["NanumGothic.ttf", "NotoColorEmoji.ttf"],
  ["Inter-Regular.otf", "NotoSansArabic-Regular.ttf", "NotoSansHebrew-Regular.ttf"],
  ["NotoSansThai-Regular.ttf", "NotoSansDevanagari-Regular.ttf", "DejaVuSans.ttf"],
]
let fontStacks: [FontStack] = stacks.map { try! fuzzLibrary.stack($0) }
let languages = [
  "", "en", "ja", "ko", "zh-Hant", "zh-Hans", "th", "ar", "he", "hi", "de", "x-bad@lb",
]
let widths = [1e-9, 0.5, 7, 37.5, 100, 240.25, 320, 1e9]
let sizes = [17.0, 0.01, 1, 9.5, 13, 24, 100, 10_000]
let typesetter = Typesetter(cacheCapacity: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTypeset(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard bytes.count >= 8 else { return 0 }
  let h = Array(bytes.prefix(8))
  var style = TextStyle(fonts: fontStacks[Int(h[0]) % fontStacks.count], size: sizes[Int(h[1] & 7)])
  style.whiteSpace = TextStyle.WhiteSpace.allCases[Int(h[1] >> 3) % 4]
  style.wordBreak = TextStyle.WordBreak.allCases[Int(h[1] >> 5) % 3]
  style.overflowWrap = TextStyle.OverflowWrap.allCases[Int(h[2]) % 3]
  style.language = languages[Int(h[2] >> 2) % languages.count]
  style.maxLines = h[3] & 3 == 0 ? nil : Int(h[3] & 3) - 1
  style.truncation = TextStyle.Truncation.allCases[Int(h[3] >> 2) % 3]
  style.profile = h[3] & 0x10 != 0 ? .apple : .browser
  style.direction = TextStyle.Direction.allCases[Int(h[3] >> 5) % 3]
  style.letterSpacing = Double(Int(h[4] & 0x0F) - 4) * 0.5
  style.tabSize = Int(h[4] >> 4)
  switch h[5] & 3 {
  case 1: style.lineHeight = .points(Double(h[5] >> 2))
  case 2: style.lineHeight = .multiple(Double(h[5] >> 2) / 16)
  default: break
  }
  if h[5] & 0x80 != 0 { style.features = ["liga": 0, "kern": UInt32(h[5] >> 6 & 1)] }
  if h[6] & 1 != 0 { style.minimumLineHeight = Double(h[6] >> 1) }
  if h[6] & 2 != 0 { style.lineSpacing = Double(h[6] >> 2) - 8 }
  let width = widths[Int(h[7]) % widths.count] * (1 + Double(h[7] >> 3) / 64)
  let text = String(decoding: bytes.dropFirst(8), as: UTF8.self)
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
    let wordTypesetter = Typesetter(cacheCapacity: 0, wordCacheCapacity: 64)
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
