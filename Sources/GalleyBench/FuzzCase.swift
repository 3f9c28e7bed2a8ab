import Typesetting

/// How the `typeset` fuzz target reads its input bytes (`Fuzz/typeset.swift`): the first 8 bytes
/// choose the style and the width, the rest is the text as UTF-8. Kept here, in one place, so
/// that `swift test` replays the inputs that once failed (`Fuzz/regressions/typeset/`) exactly
/// as the fuzzer ran them.
package enum FuzzCase {
  /// The font stacks the bytes choose from (file names in the bundled fonts).
  package static let stackNames: [[String]] = [
    ["NotoSans-Regular.ttf", "NotoColorEmoji.ttf"],
    FontStack.defaultNames,
    ["NotoSansCJK-Regular.ttc", "NotoSans-Regular.ttf"],
    ["NanumGothic.ttf", "NotoColorEmoji.ttf"],
    ["Inter-Regular.otf", "NotoSansArabic-Regular.ttf", "NotoSansHebrew-Regular.ttf"],
    ["NotoSansThai-Regular.ttf", "NotoSansDevanagari-Regular.ttf", "DejaVuSans.ttf"],
  ]
  static let languages = [
    "", "en", "ja", "ko", "zh-Hant", "zh-Hans", "th", "ar", "he", "hi", "de", "x-bad@lb",
  ]
  static let widths = [1e-9, 0.5, 7, 37.5, 100, 240.25, 320, 1e9]
  static let sizes = [17.0, 0.01, 1, 9.5, 13, 24, 100, 10_000]

  /// The text, style and width of `bytes` (nil under 8 bytes), in `stacks` (``stackNames``).
  package static func decode(_ bytes: some Collection<UInt8>, stacks: [FontStack]) -> (
    text: String, style: TextStyle, width: Double
  )? {
    guard bytes.count >= 8 else { return nil }
    let h = Array(bytes.prefix(8))
    var style = TextStyle(fonts: stacks[Int(h[0]) % stacks.count], size: sizes[Int(h[1] & 7)])
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
    return (String(decoding: bytes.dropFirst(8), as: UTF8.self), style, width)
  }
}
