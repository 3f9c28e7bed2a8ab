/// An ordered list of fonts: each character takes the first font that covers it (an emoji in
/// emoji presentation prefers the first colour font that covers it). The first font is the
/// *primary* font, whose metrics set the line's strut.
public struct FontStack: Sendable, Hashable {
  /// The fonts in fallback order; never empty.
  public let fonts: [Font]

  /// A stack of the given fonts, in fallback order.
  /// - Throws: ``TypesettingError/emptyFontStack`` when `fonts` is empty.
  public init(_ fonts: [Font]) throws {
    guard !fonts.isEmpty else { throw TypesettingError.emptyFontStack }
    self.fonts = fonts
  }

  /// The primary font.
  public var primary: Font { fonts[0] }

  /// The file names of the default stack, covering every script Galley is tested on.
  public static let defaultNames = [
    "NotoSans-Regular.ttf", "NotoSansCJK-Regular.ttc", "NanumGothic.ttf",
    "NotoSansArabic-Regular.ttf", "NotoSansHebrew-Regular.ttf", "NotoSansThai-Regular.ttf",
    "NotoSansDevanagari-Regular.ttf", "DejaVuSans.ttf", "NotoColorEmoji.ttf",
  ]

  /// Stacks are equal when they hold the same fonts (the same objects) in the same order.
  public static func == (a: FontStack, b: FontStack) -> Bool {
    a.fonts.count == b.fonts.count && zip(a.fonts, b.fonts).allSatisfy { $0 === $1 }
  }

  /// Hashes the fonts' identities.
  public func hash(into hasher: inout Hasher) {
    for f in fonts { hasher.combine(ObjectIdentifier(f)) }
  }
}
