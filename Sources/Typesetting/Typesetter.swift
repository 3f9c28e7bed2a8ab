import CHarfBuzz
import Foundation

/// Prepares paragraphs: white-space processing, bidi, font fallback, shaping and break
/// opportunities. Thread-safe; keeps a bounded cache of prepared texts and a pool of shaping
/// buffers.
///
/// ```swift
/// let fonts = try FontLibrary.bundled.stack(["Inter-Regular.otf", "NanumGothic.ttf"])
/// var style = TextStyle(fonts: fonts, size: 17)
/// style.language = "ko"
/// let prepared = try Typesetter.shared.prepare("오늘 저녁 7시에 만나요", style: style)
/// let layout = try prepared.layout(width: 240)
/// print(layout.lineCount, layout.height)
/// ```
public final class Typesetter: @unchecked Sendable {
  // @unchecked: the cache and the shaper pool are only touched under `lock`.
  /// A process-wide typesetter.
  public static let shared = Typesetter()

  /// The longest text, in bytes of UTF-8, that ``prepare(_:style:)`` takes: a text costs up to
  /// ~130 bytes of memory per byte while it is prepared, so one at this size stays under
  /// 600 MB (docs/RELIABILITY.md), and a hostile record cannot take the machine's memory.
  public static let maximumTextBytes = 4 << 20

  private let lock = Lock()
  /// Workers not in use, each with the thread that used it last.
  private var workers: [(thread: pthread_t, worker: PreparationWorker)] = []
  private var constants: [StyleConstants.Key: StyleConstants] = [:]
  /// Shaped words kept by each shaper (0: no word cache).
  let wordCacheCapacity: Int
  private var cache: OldestFirstCache<CacheKey, PreparedText>
  /// The most prepared texts kept; the oldest is dropped first.
  public let cacheCapacity: Int

  struct CacheKey: Hashable {
    var text: String
    var style: TextStyle
  }

  /// A typesetter whose cache keeps at most `cacheCapacity` prepared texts (0 disables it).
  /// - Parameters:
  ///   - cacheCapacity: prepared texts kept (0: none).
  ///   - wordCacheCapacity: shaped words kept across texts by each thread's shaper (0, the
  ///     default: none, every run is shaped whole). Words are shaped apart only where the
  ///     font's lookups and HarfBuzz's flags show that this changes nothing; about 150 bytes
  ///     per word and thread. It pays where words recur (chat in spaced scripts); text without
  ///     spaces (Chinese, Japanese, Thai) gains nothing. Part of the accelerator: off when
  ///     shaping is `.harfBuzz`.
  ///   - shaping: who shapes runs (``ShapingMode``); nil, the default: what `GALLEY_SHAPING`
  ///     says, else `.accelerated` where the accelerator is installed. It stays off where it
  ///     is not installed, or on a HarfBuzz it was not verified against (``shaping`` then says
  ///     `.harfBuzz`, ``shapingReason`` why).
  public init(cacheCapacity: Int = 2048, wordCacheCapacity: Int = 0, shaping: ShapingMode? = nil)
  {
    self.cacheCapacity = max(0, cacheCapacity)
    cache = OldestFirstCache(capacity: cacheCapacity)
    accelerator = ShapingAccelerators.current
    (self.shaping, shapingReason) = ShapingMode.resolve(shaping, accelerator: accelerator)
    self.wordCacheCapacity = self.shaping == .accelerated ? max(0, wordCacheCapacity) : 0
  }

  /// The accelerator installed when this typesetter was made.
  private let accelerator: ShapingAccelerators.Installed?
  /// Who shapes runs in this typesetter.
  public let shaping: ShapingMode
  /// Why ``shaping`` is not the default (the environment asked, or the fence turned the
  /// accelerator off); nil when it is.
  public let shapingReason: String?

  /// Drops every cached prepared text.
  public func clearCache() {
    lock.lock()
    cache.removeAll()
    lock.unlock()
  }

  /// Number of shaped words in the word caches of the shapers not in use.
  public var wordCacheCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return workers.reduce(0) { $0 + $1.worker.shaper.cachedWords }
  }

  /// How many runs the shapers not in use have shaped, and how many of them without HarfBuzz
  /// (a benchmark figure: the share the accelerator answers).
  package var shapingCounts: (runs: Int, direct: Int) {
    lock.lock()
    defer { lock.unlock() }
    return workers.reduce((0, 0)) {
      let counts = $1.worker.shaper.shapingCounts
      return ($0.0 + counts.runs, $0.1 + counts.direct)
    }
  }

  /// Number of prepared texts in the cache.
  public var cachedCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return cache.count
  }

  /// Shapes and segments `text` for `style`; the result can be laid out at any width.
  /// - Throws: ``TypesettingError`` for an invalid style.
  /// - Complexity: O(n) in the length of the text (shaping included); O(1) for a cached text.
  public func prepare(_ text: String, style: TextStyle) throws -> PreparedText {
    try style.validate()
    // (Without a cache, no key: making one copies the text and the style.)
    guard cacheCapacity > 0 else { return try build(text, style: style) }
    let key = CacheKey(text: text, style: style)
    lock.lock()
    if let hit = cache[key] {
      lock.unlock()
      return hit
    }
    lock.unlock()
    let prepared = try build(text, style: style)
    lock.lock()
    cache.insert(prepared, for: key)
    lock.unlock()
    return prepared
  }

  /// Builds with a worker of the pool.
  private func build(_ text: String, style: TextStyle) throws -> PreparedText {
    let worker = takeWorker()
    defer { giveBack(worker) }
    return try build(text, style: style, worker: worker)
  }

  /// A worker of the pool: the one this thread used last when it is there (its memos, plans and
  /// buffers are in this core's cache; a worker that moves between threads drags them across
  /// cores), else the one given back longest ago (its thread is the least likely to ask
  /// again), else a new one.
  private func takeWorker() -> PreparationWorker {
    let me = pthread_self()
    lock.lock()
    defer { lock.unlock() }
    if let i = workers.lastIndex(where: { pthread_equal($0.thread, me) != 0 }) {
      return workers.remove(at: i).worker
    }
    if !workers.isEmpty { return workers.removeFirst().worker }
    return PreparationWorker(shaper: makeEngine())
  }

  /// A thread's shaping engine: the installed accelerator's when this typesetter runs it,
  /// else HarfBuzz's.
  private func makeEngine() -> any ShapingEngine {
    if shaping == .accelerated, case .engine(let make) = accelerator {
      return make(wordCacheCapacity)
    }
    return HarfBuzzShaper()
  }

  private func giveBack(_ worker: PreparationWorker) {
    let me = pthread_self()
    lock.lock()
    if workers.count < 64 { workers.append((me, worker)) }
    lock.unlock()
  }

  // MARK: - Building

  /// The HarfBuzz runs that preparing these texts shapes, for timing `hb_shape` alone against
  /// the whole of `prepare` (benchmarks).
  package func shapingBaseline(_ texts: [(String, TextStyle)]) throws -> ShapingBaseline {
    let shaper = HarfBuzzShaper()
    let worker = PreparationWorker(shaper: shaper)
    var items: [ShapingBaseline.Item] = []
    shaper.recorder = { items.append($0) }
    for (text, style) in texts {
      try style.validate()
      _ = try build(text, style: style, worker: worker)
    }
    shaper.recorder = nil
    return ShapingBaseline(items: items)
  }

  /// The stages, in order: source text → itemization → shaping → break opportunities and
  /// segments → ``PreparedText``. Each stage reads what the ones before it made, borrowed (an
  /// initializer's arguments are otherwise its own: the style and the stages' arrays copied,
  /// and retained, at every call).
  func build(_ text: String, style asked: TextStyle, worker: PreparationWorker) throws
    -> PreparedText
  {
    let source = try SourceText(text, style: asked)
    let scratch = worker.scratch
    var style = asked
    var items = Itemization(source, style: style, scratch: scratch)
    // Clusters no font of the stack has: the stack again with the fonts system fallback finds
    // for them (rare; every later stage then reads the longer stack).
    if items.hasUncovered,
      let wider = style.fonts.withSystemFallback(
        for: source.processed.scalars,
        bounds: Itemization.fontClusters(
          source.processed.scalars, bounds: source.fontClusterStart, scripts: items.scripts),
        language: style.language)
    {
      items.giveBack(to: scratch)
      style.fonts = wider
      items = Itemization(source, style: style, scratch: scratch)
    }
    let language = worker.languageInfo(style.language)
    var shaped = ShapedText(
      source, items: items, style: style, language: language.harfBuzz, engine: worker.shaper,
      scratch: scratch)
    let opportunities = try BreakOpportunities.compute(
      source.processed.scalars, locale: language.breakLocale, wordBreak: style.wordBreak,
      browserTailoring: style.profile != .apple)
    let segments = Segmentation(
      source, items: items, shaped: shaped, letterSpacing: style.letterSpacing,
      opportunities: opportunities)
    let endHangs =
      style.profile == .browser && style.letterSpacing == 0
      ? PunctuationTrim.endHangs(source, segments: segments, shaped: shaped, size: style.size)
      : []
    let startGains =
      style.profile == .browser
      ? PunctuationTrim.startGains(
        source, segments: segments, shaped: shaped, fonts: style.fonts.fonts, size: style.size,
        language: style.language)
      : []
    // (Chromium's line breaker shapes a line's end again; TextKit's lines keep the paragraph's
    // glyphs.)
    // (Only a grapheme marked kerned may gain: a text with none has no adjustments.)
    let kernedEnds =
      style.profile == .browser
      && LineEndKerning.markKernedEnds(
        shaped, bounds: source.graphemeStart, flags: &items.graphemeFlags)
    var ligatureSplits: [LigatureSplits.Split] = []
    if style.profile == .browser && style.overflowWrap != .normal
      && LigatureSplits.markTails(
        shaped, bounds: source.graphemeStart, segmentEnds: segments.end,
        flags: &items.graphemeFlags)
    {
      ligatureSplits = LigatureSplits.splits(
        source, flags: items.graphemeFlags, advances: segments.graphemeAdvance, runs: shaped.runs,
        fonts: style.fonts.fonts, style: style, language: language.harfBuzz, engine: worker.shaper)
    }
    let endAdjustments =
      kernedEnds
      ? LineEndKerning.adjustments(
        source, items: items, segments: segments, shaped: shaped, fonts: style.fonts.fonts,
        size: style.size, hangs: endHangs, startGains: startGains,
        reshape: { from, end, font, script in
          worker.shapeAlone(
            Array(source.processed.scalars[from..<end]), font: style.fonts.fonts[font],
            script: script, style: style, language: language.harfBuzz)
        })
      : []
    shaped.giveBack(to: scratch)
    items.giveBack(to: scratch)
    let constants = styleConstants(style, worker: worker)
    return PreparedText(
      text: text, style: style, source: source, items: items, shaped: shaped,
      segments: segments, endAdjustments: endAdjustments, endHangs: endHangs,
      startGains: startGains, ligatureSplits: ligatureSplits, constants: constants)
  }

  /// The constants of `style`: from the worker's memo when it met the style, else from the
  /// typesetter's (under its lock), else worked out.
  func styleConstants(_ style: TextStyle, worker: PreparationWorker) -> StyleConstants {
    // The worker's previous text most often had the same: no key made, no hashing, no lock.
    if let last = worker.lastStyleConstants, last.0.isKey(of: style) { return last.1 }
    let key = StyleConstants.Key(style)
    // Then the styles this worker met before (no lock: a lock shared by threads that prepare
    // text at once bounces between their cores), then those of the whole typesetter.
    let k: StyleConstants
    if let mine = worker.styleConstants[key] {
      k = mine
    } else {
      k = sharedStyleConstants(style, key: key, worker: worker)
      if worker.styleConstants.count >= PreparationWorker.keptStyles {
        worker.styleConstants.removeAll()
      }
      worker.styleConstants[key] = k
    }
    worker.lastStyleConstants = (key, k)
    return k
  }

  private func sharedStyleConstants(
    _ style: TextStyle, key: StyleConstants.Key, worker: PreparationWorker
  ) -> StyleConstants {
    lock.lock()
    if let k = constants[key] {
      lock.unlock()
      return k
    }
    lock.unlock()
    let k = StyleConstants(style, engine: worker.shaper)
    lock.lock()
    if constants.count >= PreparationWorker.keptStyles { constants.removeAll() }
    constants[key] = k
    lock.unlock()
    return k
  }
}
