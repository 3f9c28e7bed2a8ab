/// An ordered list of fonts: each character takes the first font that covers it (an emoji in
/// emoji presentation prefers the first colour font that covers it). The first font is the
/// *primary* font, whose metrics set the line's strut. A stack whose primary font a
/// ``FontLibrary`` loaded also has the library's directory behind it: a cluster none of its
/// fonts has is set in a font of the directory, as a browser's system fallback does
/// (``SystemFallback``).
public struct FontStack: Sendable, Hashable {
  /// The fonts in fallback order; never empty. A prepared text's stack
  /// (``PreparedText/style``) ends with the fonts system fallback added for it.
  public let fonts: [Font]
  /// How many of ``fonts`` were asked for; the rest were added by system fallback.
  public let askedCount: Int

  /// A stack of the given fonts, in fallback order.
  /// - Throws: ``TypesettingError/emptyFontStack`` when `fonts` is empty.
  public init(_ fonts: [Font]) throws {
    guard !fonts.isEmpty else { throw TypesettingError.emptyFontStack }
    self.fonts = fonts
    askedCount = fonts.count
  }

  /// This stack followed by `added`, fonts system fallback found for a text.
  private init(_ stack: FontStack, adding added: [Font]) {
    fonts = stack.fonts + added
    askedCount = stack.askedCount
  }

  /// Where a cluster that none of the fonts has is looked for (nil: nowhere; it is measured
  /// with the missing-glyph box): the primary font's library's directory.
  var systemFallback: SystemFallback? { fonts[0].systemFallback }

  /// The primary font.
  public var primary: Font { fonts[0] }

  /// Whether system fallback has a directory to look in.
  public var hasSystemFallback: Bool { systemFallback != nil }

  /// The file names of the default stack, covering every script Galley is tested on.
  public static let defaultNames = [
    "NotoSans-Regular.ttf", "NotoSansCJK-Regular.ttc", "NanumGothic.ttf",
    "NotoSansArabic-Regular.ttf", "NotoSansHebrew-Regular.ttf", "NotoSansThai-Regular.ttf",
    "NotoSansDevanagari-Regular.ttf", "DejaVuSans.ttf", "NotoColorEmoji.ttf",
  ]

  /// ``withSystemFallback(for:bounds:language:)`` over the grapheme clusters of `scalars` (the
  /// shaping-free estimator's way to the engine's fonts).
  package func withSystemFallback(
    for scalars: [UInt32], splitModifiers: Bool, language: String
  ) -> FontStack? {
    guard systemFallback != nil else { return nil }
    var continuations: [Int32] = []
    let bounds = Graphemes.boundaries(
      of: scalars, splitModifiers: splitModifiers, continuations: &continuations)
    let clusters = Itemization.fontClusters(
      scalars, bounds: SourceText.merging(bounds, continuations))
    return withSystemFallback(for: scalars, bounds: clusters, language: language)
  }

  /// The stack with the fonts system fallback takes for the clusters of `scalars` (between
  /// `bounds`) that none of its fonts has, in `language`; nil when it adds none. Each hint
  /// character is looked up once a text.
  func withSystemFallback(
    for scalars: [UInt32], bounds: [Int32], language: String
  ) -> FontStack? {
    guard let systemFallback else { return nil }
    var search = FallbackSearch(fonts: fonts, fallback: systemFallback, language: language)
    scalars.withUnsafeBufferPointer { text in
      CharacterTable.withLookup { table in
        ScriptTable.withLookup { scripts in
          for g in 0..<(bounds.count - 1) where search.own.count < 255 {
            search.add(
              UnsafeBufferPointer(rebasing: text[Int(bounds[g])..<Int(bounds[g + 1])]),
              table: table, scripts: scripts)
          }
        }
      }
    }
    let own = search.own
    return own.count == fonts.count ? nil : FontStack(self, adding: Array(own[fonts.count...]))
  }

  /// Stacks are equal when they hold the same fonts (the same objects) in the same order, as
  /// many of them asked for.
  public static func == (a: FontStack, b: FontStack) -> Bool {
    a.fonts.count == b.fonts.count && a.askedCount == b.askedCount
      && zip(a.fonts, b.fonts).allSatisfy { $0 === $1 }
  }

  /// Hashes the fonts' identities.
  public func hash(into hasher: inout Hasher) {
    for f in fonts { hasher.combine(ObjectIdentifier(f)) }
  }
}

/// One text's system fallback: the stack so far, and what was asked (the face each hint
/// character names, each face named loaded once, the characters alone in their cluster that no
/// face takes).
private struct FallbackSearch {
  var own: [Font]
  let fallback: SystemFallback
  let language: String
  var named: [UInt32: String?] = [:]
  var loaded: [String: Font?] = [:]
  var hopeless = Set<UInt32>()

  init(fonts: [Font], fallback: SystemFallback, language: String) {
    own = fonts
    self.fallback = fallback
    self.language = language
  }

  mutating func load(_ name: String?) -> Font? {
    guard let name else { return nil }
    if let f = loaded[name] { return f }
    let f = fallback.load(name)
    loaded[name] = f
    return f
  }

  /// Adds the font system fallback finds for `cluster`, if no font so far has it.
  mutating func add(
    _ cluster: UnsafeBufferPointer<UInt32>, table: CharacterTable.Lookup,
    scripts: ScriptTable.Lookup
  ) {
    let alone = cluster.count == 1
    guard !(alone && hopeless.contains(cluster[0])),
      !FontSelection.choice(for: cluster, in: own, table: table).covered,
      let hint = SystemFallback.hint(of: cluster, table: scripts)
    else { return }
    let emoji = SystemFallback.asksForColour(cluster)
    let key = emoji ? 0x1F46A | 1 << 31 : hint
    let name: String?
    if let known = named[key] {
      name = known
    } else {
      name = fallback.face(hint: hint, emoji: emoji, language: language)
      named[key] = .some(name)
    }
    var candidate = load(name)
    if candidate == nil || !FontSelection.shapes(candidate!, cluster) {
      candidate = load(fallback.lastResort())
    }
    guard let f = candidate, FontSelection.shapes(f, cluster) else {
      if alone { hopeless.insert(hint) }
      return
    }
    if !own.contains(where: { $0 === f }) { own.append(f) }
  }
}
