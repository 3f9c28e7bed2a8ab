import Foundation
import Typesetting

// galley-stress: long-running reliability figures that do not belong in a test (they print
// timings and memory, and assert nothing). Build with -c release.
//
//   galley-stress memory [--count N] [--every K] [--unique-languages]
//       streams N generated unique messages (default 1 000 000) through Typesetter.shared
//       (prepare + layout) and prints the resident set size (VmRSS) every K messages, to show
//       that the caches plateau.
//   galley-stress hostile
//       times each row of the hostile-input table at n and 2n and prints the ratio (about 2 for
//       time linear in the input, about 4 for quadratic).

/// Writes a line to standard output at once (print is buffered when piped).
func say(_ line: String) { FileHandle.standardOutput.write((line + "\n").data(using: .utf8)!) }

func residentKB() -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return -1
  }
  for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
  }
  return -1
}

func fontsDir() -> String { FontLibrary.bundledDirectory() }

/// A deterministic generator (SplitMix64).
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

func memory(count: Int, every: Int, uniqueLanguages: Bool) throws {
  let library = FontLibrary(directory: fontsDir())
  let style = TextStyle(fonts: try library.defaultStack(), size: 17)
  let words = [
    "hello", "world", "오늘", "저녁", "만나요", "👋", "😀", "ok", "내일", "회의는", "10시", "Swift",
    "テスト", "です", "中文", "消息", "שלום", "مرحبا", "👍🏽", "—", "(soon)", "https://example.com/x",
  ]
  let widths = [120.0, 240, 320]
  var rng = SplitMix(state: 6)
  let typesetter = Typesetter.shared
  let start = Date()
  var lines = 0
  say(
    "messages  VmRSS(MB)  cached  seconds   (Typesetter.shared, capacity \(typesetter.cacheCapacity))"
  )
  say(String(format: "%8d  %9.1f  %6d  %7.1f", 0, Double(residentKB()) / 1024, 0, 0.0))
  for n in 1...count {
    var text = "#\(n) "
    for _ in 0..<Int.random(in: 3...14, using: &rng) {
      text += words.randomElement(using: &rng)! + " "
    }
    var s = style
    if uniqueLanguages { s.language = "x-m\(n)" }
    let prepared = try typesetter.prepare(text, style: s)
    lines += try prepared.layout(width: widths[n % 3]).lineCount
    if n % every == 0 {
      let row = String(
        format: "%8d  %9.1f  %6d  %7.1f\n", n, Double(residentKB()) / 1024,
        typesetter.cachedCount, Date().timeIntervalSince(start))
      FileHandle.standardOutput.write(row.data(using: .utf8)!)
    }
  }
  say("lines laid out: \(lines)")
}

func hostile() throws {
  let library = FontLibrary(directory: fontsDir())
  let typesetter = Typesetter(cacheCapacity: 0)
  let latin = TextStyle(
    fonts: try library.stack(["NotoSans-Regular.ttf", "NotoColorEmoji.ttf"]), size: 17)
  var cjk = TextStyle(fonts: try library.stack(["NotoSansCJK-Regular.ttc"]), size: 17)
  cjk.language = "ja"
  var nowrap = latin
  nowrap.overflowWrap = .normal
  let bidi = TextStyle(
    fonts: try library.stack(["NotoSans-Regular.ttf", "NotoSansHebrew-Regular.ttf"]), size: 17)
  let rows: [(String, TextStyle, (Int) -> String)] = [
    ("no break opportunity (x × n)", nowrap, { String(repeating: "x", count: $0) }),
    ("break-word (x × n)", latin, { String(repeating: "x", count: $0) }),
    ("combining marks on one base", latin, { "a" + String(repeating: "\u{301}", count: $0) }),
    ("ZWJ-joined emoji", latin, { "👩" + String(repeating: "\u{200D}👩", count: $0 / 2) }),
    (
      "bidi embeddings n deep", bidi,
      {
        String(repeating: "\u{202B}", count: $0) + "abc שלום"
          + String(repeating: "\u{202C}", count: $0)
      }
    ),
    (
      "bidi isolates n deep", bidi,
      {
        String(repeating: "\u{2067}", count: $0) + "abc שלום"
          + String(repeating: "\u{2069}", count: $0)
      }
    ),
    ("halved punctuation 」」a", cjk, { String(repeating: "」」a", count: $0 / 3) }),
    ("words", latin, { String(repeating: "word ", count: $0 / 5) }),
  ]
  say("row                              n        t(n) ms   t(2n) ms  ratio")
  for (name, style, make) in rows {
    for n in [1 << 17, 1 << 19] {
      func time(_ k: Int) throws -> Double {
        let text = make(k)
        var best = Double.infinity
        for _ in 0..<3 {
          let t0 = DispatchTime.now().uptimeNanoseconds
          let p = try typesetter.prepare(text, style: style)
          _ = try p.layout(width: 300)
          _ = try p.measure(width: 200)
          best = min(best, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        }
        return best
      }
      let a = try time(n)
      let b = try time(2 * n)
      say(
        name.padding(toLength: 30, withPad: " ", startingAt: 0)
          + String(format: " %8d  %9.1f  %9.1f  %5.2f", n, a, b, b / a))
    }
  }
}

let args = Array(CommandLine.arguments.dropFirst())
func value(_ flag: String) -> Int? {
  guard let i = args.firstIndex(of: flag), i + 1 < args.count else { return nil }
  return Int(args[i + 1])
}
do {
  switch args.first {
  case "memory":
    try memory(
      count: value("--count") ?? 1_000_000, every: value("--every") ?? 50_000,
      uniqueLanguages: args.contains("--unique-languages"))
  case "hostile":
    try hostile()
  default:
    say("usage: galley-stress memory [--count N] [--every K] [--unique-languages] | hostile")
    exit(64)
  }
} catch {
  FileHandle.standardError.write("galley-stress: \(error)\n".data(using: .utf8)!)
  exit(1)
}
