import Foundation
import GalleyBench
import ShapingAccelerator
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
    ("lines starting with trimmed （", cjk, { String(repeating: "，（", count: $0 / 2) }),
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
      // (A row whose text at 2n is past the engine's limit on a text's size is timed no
      // further: that text is refused, not measured.)
      guard make(2 * n).utf8.count <= Typesetter.maximumTextBytes else {
        say(name.padding(toLength: 30, withPad: " ", startingAt: 0) + " \(n)  past the text limit")
        continue
      }
      let a = try time(n)
      let b = try time(2 * n)
      say(
        name.padding(toLength: 30, withPad: " ", startingAt: 0)
          + String(format: " %8d  %9.1f  %9.1f  %5.2f", n, a, b, b / a))
    }
  }
}

/// `words`: texts made of words that recur (from the corpus, in random order, with random
/// neighbours: digits, punctuation, emoji, other scripts), in random styles, prepared by one
/// typesetter whose small word cache is shared by all of them (words stored by one text are
/// found by the next), each compared line by line with a typesetter without the cache. Prints
/// the first texts that differ (their index: the sequence is the seed's, so a difference
/// reproduces by running again) and the count.
func words(count: Int, seed: UInt64, capacity: Int) throws {
  let pool = try wordPool()
  let stacks = try stressStacks(FontLibrary(directory: fontsDir()))
  var rng = SplitMix(state: seed)
  var made: [(String, TextStyle, Double)] = []
  let timing = args.contains("--time")
  let chat = args.contains("--chat")
  let cached = Typesetter(cacheCapacity: 0, wordCacheCapacity: capacity)
  let plain = Typesetter(cacheCapacity: 0, wordCacheCapacity: 0)
  var differing = 0
  for i in 0..<count {
    let (text, style, width) = randomText(&rng, pool: pool, stacks: stacks, chat: chat)
    if timing || chat {
      made.append((text, style, width))
      continue
    }
    let a = try cached.prepare(text, style: style).layout(width: width)
    let b = try plain.prepare(text, style: style).layout(width: width)
    if a.lines.map(\.start) != b.lines.map(\.start) || a.lines.map(\.width) != b.lines.map(\.width) {
      differing += 1
      if differing <= 5 {
        say(
          "text \(i) differs: \(text.debugDescription) size \(style.size) lang \(style.language) "
            + "dir \(style.direction) features \(style.features)")
        say("  cached \(a.lines.map(\.width))\n  plain  \(b.lines.map(\.width))")
      }
    }
  }
  if timing || chat {
    try timeWordCache(made, capacity: capacity)
    return
  }
  say("words: \(count) texts, word cache of \(capacity) shared: \(differing) differ")
}

/// The words of the corpus's texts, split at spaces.
func wordPool() throws -> [String] {
  let corpus = fontsDir() + "/../Corpus/corpus.jsonl"
  let lines = try String(contentsOfFile: corpus, encoding: .utf8).split(separator: "\n")
  var pool: [String] = []
  for line in lines {
    guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let t = o["text"] as? String
    else { continue }
    pool += t.split(separator: " ").map(String.init)
  }
  return pool
}

/// The font stacks random styles take.
func stressStacks(_ library: FontLibrary) throws -> [FontStack] {
  try [
    ["NotoSans-Regular.ttf", "NotoColorEmoji.ttf"], FontStack.defaultNames,
    ["NotoSansCJK-Regular.ttc", "NotoSans-Regular.ttf"], ["NanumGothic.ttf", "NotoColorEmoji.ttf"],
    ["Inter-Regular.otf", "NotoSansArabic-Regular.ttf", "NotoSansHebrew-Regular.ttf"],
    ["NotoSansThai-Regular.ttf", "NotoSansDevanagari-Regular.ttf", "DejaVuSans.ttf"],
  ].map { try library.stack($0) }
}

/// A random text of `pool`'s words with random neighbours (digits, punctuation, emoji, other
/// scripts) and separators, in a random style, at a random width; with `chat`, a chat message
/// instead: words of the corpus in a new sentence, the default stack at 17 pt.
func randomText(
  _ rng: inout SplitMix, pool: [String], stacks: [FontStack], chat: Bool
) -> (String, TextStyle, Double) {
  let extras = [
    "1", "12", "(", ")", "—", "-", "\u{00A0}", ".", ",", "!", "😀", "👩‍👩‍👧", "ا", "ש", "ก", "क",
    "\t", "fi", "ffl", "→", "'", "\"", "\u{2044}", "2", "%", "x", "X", "\u{0301}", "\u{200D}",
  ]
  let languages = ["", "en", "ja", "ko", "zh-Hant", "th", "ar", "he", "hi", "de"]
  let sizes = [17.0, 0.01, 1, 9.5, 13, 24, 100, 10_000]
  var style = TextStyle(
    fonts: stacks[Int(rng.next() % UInt64(stacks.count))],
    size: sizes[Int(rng.next() % UInt64(sizes.count))])
  if chat {
    let sentence = (0..<(3 + Int(rng.next() % 12))).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }
    return (sentence.joined(separator: " "), TextStyle(fonts: stacks[1], size: 17), 260)
  }
  style.language = languages[Int(rng.next() % UInt64(languages.count))]
  style.direction = TextStyle.Direction.allCases[Int(rng.next() % 3)]
  if rng.next() % 4 == 0 { style.features = ["liga": 0, "kern": UInt32(rng.next() % 2)] }
  if rng.next() % 5 == 0 { style.letterSpacing = 0.5 }
  if rng.next() % 3 == 0 {
    // The fuzzer's wider settings: white-space modes, tabs, truncation, the Apple profile.
    style.whiteSpace = TextStyle.WhiteSpace.allCases[Int(rng.next() % 4)]
    style.wordBreak = TextStyle.WordBreak.allCases[Int(rng.next() % 3)]
    style.overflowWrap = TextStyle.OverflowWrap.allCases[Int(rng.next() % 3)]
    style.maxLines = rng.next() % 2 == 0 ? nil : Int(rng.next() % 3)
    style.truncation = TextStyle.Truncation.allCases[Int(rng.next() % 3)]
    style.profile = rng.next() % 2 == 0 ? .apple : .browser
    style.tabSize = Int(rng.next() % 9)
  }
  var parts: [String] = []
  for _ in 0..<(1 + Int(rng.next() % 14)) {
    var w = pool[Int(rng.next() % UInt64(pool.count))]
    if rng.next() % 4 == 0 { w += extras[Int(rng.next() % UInt64(extras.count))] }
    if rng.next() % 6 == 0 { w = extras[Int(rng.next() % UInt64(extras.count))] + w }
    parts.append(w)
  }
  let spaces = [" ", " ", " ", "  ", "\u{00A0}", " \u{200B}", "\t", " \n", "   "]
  var text = parts[0]
  for p in parts.dropFirst() { text += spaces[Int(rng.next() % UInt64(spaces.count))] + p }
  return (text, style, Double(20 + rng.next() % 400))
}

/// Prepare + layout of every text, with a word cache that starts empty and without one,
/// alternated three times; the best of each.
func timeWordCache(_ made: [(String, TextStyle, Double)], capacity: Int) throws {
  var best = (cached: Double.infinity, plain: Double.infinity)
  for _ in 0..<3 {
    for withCache in [true, false] {
      let t = Typesetter(cacheCapacity: 0, wordCacheCapacity: withCache ? capacity : 0)
      let start = DispatchTime.now().uptimeNanoseconds
      for (text, style, width) in made { _ = try t.prepare(text, style: style).measure(width: width) }
      let micros = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(made.count)
      if withCache { best.cached = min(best.cached, micros) } else { best.plain = min(best.plain, micros) }
    }
  }
  say(String(format: "words: %d texts, µs/text with a word cache of %d: %.2f, without: %.2f (%.2fx)",
    made.count, capacity, best.cached, best.plain, best.plain / best.cached))
}

ShapingAccelerator.install()
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
  case "words":
    try words(
      count: value("--count") ?? 100_000, seed: UInt64(value("--seed") ?? 1),
      capacity: value("--capacity") ?? 64)
  default:
    say(
      "usage: galley-stress memory [--count N] [--every K] [--unique-languages] | hostile"
        + " | words [--count N] [--seed S] [--capacity C]")
    exit(64)
  }
} catch {
  FileHandle.standardError.write("galley-stress: \(error)\n".data(using: .utf8)!)
  exit(1)
}
