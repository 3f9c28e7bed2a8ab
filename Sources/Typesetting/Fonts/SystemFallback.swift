import CFontconfig
import Foundation

/// Where a grapheme cluster that no font of its stack has is set: in another font of the
/// library's directory, chosen as Chromium's system fallback on Linux chooses among the fonts
/// fontconfig knows (`gfx::GetFallbackFontForChar`, ui/gfx/font_fallback_linux.cc), with the
/// directory as the only fonts there are.
///
/// fontconfig sorts the directory's faces for the text's language (``order(_:)``); the first
/// face that has the cluster's hint character (``hint(of:table:)``) is taken if it has the
/// whole cluster, else the face it ranks first with no language (Blink's last-resort font), if
/// that has it. Emoji in emoji presentation are looked up as Chromium does, for U+1F46A in the
/// language `und-Zsye`. A cluster neither has keeps the missing-glyph box.
///
/// The directory is read once, on the first cluster that needs it; at most
/// ``keptLanguages`` orders are kept.
package final class SystemFallback: @unchecked Sendable {
  // @unchecked: `config` and `orders` are touched under `lock` only; an `Order` is immutable.
  /// The library whose directory is searched and which loads the faces (weak: the library
  /// owns this).
  weak var library: FontLibrary?
  private let directory: String
  private let lock = Lock()
  private var config: OpaquePointer?
  /// The directory's faces, as fontconfig describes them.
  private var faces: UnsafeMutablePointer<FcFontSet>?
  private var scanned = false
  private var orders: [String: Order] = [:]

  /// The most language orders kept at once (each holds one entry per face of the directory).
  package static let keptLanguages = 16
  /// The most files of the directory read (in the order the file system lists them).
  package static let maximumFiles = 4096

  init(directory: String) {
    self.directory = directory
  }

  deinit {
    orders.removeAll()
    if let faces { FcFontSetDestroy(faces) }
    if let config { FcConfigDestroy(config) }
  }

  /// The faces of the directory in the order fontconfig ranks them for one language, each with
  /// the characters it has.
  final class Order: @unchecked Sendable {
    // @unchecked: read-only after init; the character sets live in `set`, freed in deinit.
    let names: [String]
    let characters: [OpaquePointer]
    private let set: UnsafeMutablePointer<FcFontSet>?

    init(set: UnsafeMutablePointer<FcFontSet>?, root: String) {
      self.set = set
      var names: [String] = []
      var characters: [OpaquePointer] = []
      if let set {
        for i in 0..<Int(set.pointee.nfont) {
          guard let face = set.pointee.fonts[i],
            let entry = Order.entry(of: face, root: root)
          else { continue }
          names.append(entry.name)
          characters.append(entry.characters)
        }
      }
      self.names = names
      self.characters = characters
    }

    deinit {
      if let set { FcFontSetDestroy(set) }
    }

    /// The library name (`sub/file.ttc#2`) and character set of a face fontconfig found, or
    /// nil for a face Chromium would not take (not scalable, not TrueType or CFF) or outside
    /// `root`.
    private static func entry(of face: OpaquePointer, root: String) -> (
      name: String, characters: OpaquePointer
    )? {
      var scalable: FcBool = 0
      guard FcPatternGetBool(face, "scalable", 0, &scalable) == FcResultMatch, scalable != 0
      else { return nil }
      var format: UnsafeMutablePointer<FcChar8>? = nil
      guard FcPatternGetString(face, "fontformat", 0, &format) == FcResultMatch, let format
      else { return nil }
      let kind = String(cString: format)
      guard kind == "TrueType" || kind == "CFF" else { return nil }
      var file: UnsafeMutablePointer<FcChar8>? = nil
      guard FcPatternGetString(face, "file", 0, &file) == FcResultMatch, let file else {
        return nil
      }
      let path = String(cString: file)
      guard path.hasPrefix(root) else { return nil }
      var index: Int32 = 0
      if FcPatternGetInteger(face, "index", 0, &index) != FcResultMatch { index = 0 }
      var characters: OpaquePointer? = nil
      guard FcPatternGetCharSet(face, "charset", 0, &characters) == FcResultMatch,
        let characters
      else { return nil }
      return (String(path.dropFirst(root.count)) + "#\(index)", characters)
    }

    /// The first face that has `c`.
    func first(having c: UInt32) -> String? {
      for (i, set) in characters.enumerated() where FcCharSetHasChar(set, c) != 0 {
        return names[i]
      }
      return nil
    }
  }

  /// The directory's faces in fontconfig's order for `language` (empty: no language), as
  /// `CachedFontSet::CreateForLocale` asks for them: scalable faces, the language, fontconfig's
  /// default substitutions, all faces sorted.
  func order(_ language: String) -> Order {
    lock.lock()
    defer { lock.unlock() }
    if let kept = orders[language] { return kept }
    let root = scanDirectory()
    var set: UnsafeMutablePointer<FcFontSet>? = nil
    if let config, faces != nil, let pattern = FcPatternCreate() {
      if !language.isEmpty { FcPatternAddString(pattern, "lang", language) }
      FcPatternAddBool(pattern, "scalable", 1)
      FcConfigSubstitute(config, pattern, FcMatchPattern)
      FcDefaultSubstitute(pattern)
      if language.isEmpty { FcPatternDel(pattern, "lang") }
      var result = FcResultMatch
      var sets: UnsafeMutablePointer<FcFontSet>? = faces
      set = FcFontSetSort(config, &sets, 1, pattern, 0, nil, &result)
      FcPatternDestroy(pattern)
    }
    let order = Order(set: set, root: root)
    if orders.count >= SystemFallback.keptLanguages { orders.removeAll() }
    orders[language] = order
    return order
  }

  /// Reads the faces of the directory (and of its subdirectories) on first use, as fontconfig
  /// scans a font directory, into a set of its own: no system configuration is read and no
  /// cache written. At most ``maximumFiles`` files are read. Returns the directory's resolved
  /// path with a trailing slash, which the faces' file names start with. Called locked.
  private func scanDirectory() -> String {
    var resolved = directory
    if let r = realpath(directory, nil) {
      resolved = String(cString: r)
      free(r)
    }
    let root = resolved.hasSuffix("/") ? resolved : resolved + "/"
    if !scanned {
      scanned = true
      config = FcConfigCreate()
      faces = FcFontSetCreate()
      var files: [String] = []
      if let walk = FileManager.default.enumerator(atPath: root) {
        while let relative = walk.nextObject() as? String, files.count < SystemFallback.maximumFiles {
          var isDirectory: ObjCBool = false
          let path = root + relative
          if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
            !isDirectory.boolValue
          {
            files.append(path)
          }
        }
      }
      if let faces {
        for path in files.sorted() {
          var count: Int32 = 0
          _ = FcFreeTypeQueryAll(path, UInt32.max, nil, &count, faces)
        }
      }
    }
    return root
  }

  /// The name of the face system fallback tries for a cluster whose hint (``hint(of:table:)``)
  /// is `hint`, in
  /// `language` (BCP 47; empty means `en-US`, Chromium's default locale): the first face of
  /// the language's order that has it; nil for a private-use character or a noncharacter, which
  /// Chromium does not look up (`FontCache::FallbackFontForCharacter`).
  func face(hint: UInt32, emoji: Bool, language: String) -> String? {
    if emoji {
      return order("und-zsye").first(having: 0x1F46A)
    }
    if SystemFallback.isPrivateOrNoncharacter(hint) { return nil }
    return order(language.isEmpty ? "en-us" : language).first(having: hint)
  }

  /// The last-resort face: the one fontconfig ranks first with no language (Blink asks for
  /// the family `Sans`, which names no face here, so fontconfig's best match is that one).
  func lastResort() -> String? {
    order("").names.first
  }

  /// The face named `name` (as ``face(hint:emoji:language:)`` names it), loaded through the
  /// library and so within its bounds; nil when it cannot be.
  func load(_ name: String) -> Font? {
    try? library?.font(named: name)
  }

  /// The character system fallback is asked about for a cluster, as Blink picks it
  /// (`CollectFallbackHintChars`, `FontFallbackIterator::ChooseHintIndex`): the first with a
  /// script of its own (not Common or Inherited), else the first.
  static func hint(of cluster: UnsafeBufferPointer<UInt32>, table: ScriptTable.Lookup) -> UInt32? {
    for c in cluster where !HarfBuzzShaper.isCommonOrInherited(table.script(of: c)) { return c }
    return cluster.first
  }

  static func isPrivateOrNoncharacter(_ c: UInt32) -> Bool {
    (0xE000...0xF8FF).contains(c) || c >= 0xF0000 || (0xFDD0...0xFDEF).contains(c)
      || c & 0xFFFE == 0xFFFE
  }

  /// Whether Chromium looks the cluster up as an emoji (`FontFallbackPriority::kEmojiEmoji`):
  /// its first character is shown as an emoji by default or a VS16 asks for that.
  static func asksForColour(_ cluster: UnsafeBufferPointer<UInt32>) -> Bool {
    guard let first = cluster.first else { return false }
    if let asked = FontSelection.presentationAsked(cluster) { return asked }
    return UnicodeProperties.isEmojiPresentation(first)
  }
}
