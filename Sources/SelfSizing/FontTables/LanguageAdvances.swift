import CHarfBuzz
import Typesetting

/// The advances of the characters whose glyph a font may choose by language (its `locl` forms:
/// Noto Sans CJK's Korean space is wider than its nominal one, its Chinese middle dot wider
/// still), as HarfBuzz shapes each between two letters in a language.
struct LanguageAdvances: Sendable {
  /// The characters, in the order of ``advances``: space, middle dot, dashes, quotes, ellipsis.
  static let characters: [UInt32] = [
    0x20, 0xB7, 0x2013, 0x2014, 0x2018, 0x2019, 0x201C, 0x201D, 0x2026,
  ]
  /// Per character of ``characters``, its advance in em in the language (its nominal advance
  /// where the font has no glyph for it or no letter to shape it between); the rest 0.
  let advances: SIMD16<Float>

  /// The slots of the ``characters`` that may begin a script run of their own
  /// (Script_Extensions), a bit each: from such a character on, a text is read with its script
  /// runs (``BubbleEstimator/Reading/runScript``).
  static let runSplitting: UInt16 = characters.enumerated().reduce(0) {
    ScriptRuns.hasExtensions($1.element) ? $0 | 1 << $1.offset : $0
  }

  /// Whether `text` has one of the ``characters`` that may begin a script run of their own.
  static func splitsRuns(_ text: [UInt32]) -> Bool {
    var found = false
    for (k, c) in characters.enumerated() where runSplitting & 1 << k != 0 {
      // (Or-ed without stopping: the loop vectorizes.)
      text.withUnsafeBufferPointer { t in
        var hits: UInt32 = 0
        for v in t { hits |= v == c ? 1 : 0 }
        found = found || hits != 0
      }
    }
    return found
  }

  /// The number of ``characters``.
  static var count: Int { 9 }

  /// The slot of `scalar` in ``characters``, or -1.
  static func slot(_ scalar: UInt32) -> Int {
    switch scalar {
    case 0x20: return 0
    case 0xB7: return 1
    case 0x2013: return 2
    case 0x2014: return 3
    case 0x2018: return 4
    case 0x2019: return 5
    case 0x201C: return 6
    case 0x201D: return 7
    case 0x2026: return 8
    default: return -1
    }
  }
}

/// A font's ``LanguageAdvances`` per language asked.
final class LanguageAdvancesCache: @unchecked Sendable {
  // @unchecked: `recent` is read and written only under `lock`.
  private let lock = Lock()
  /// The languages (and scripts: 0 for between Latin letters) asked last, newest last (a
  /// batch asks for one or two: compared in turn, short tags are cheaper to compare than to
  /// hash).
  private var recent: [(language: String, script: UInt32, advances: LanguageAdvances)] = []

  func get(_ language: String, script: UInt32 = 0, _ make: () -> LanguageAdvances)
    -> LanguageAdvances
  {
    lock.lock()
    defer { lock.unlock() }
    for k in recent.indices.reversed()
    where recent[k].script == script && recent[k].language == language {
      return recent[k].advances
    }
    let v = make()
    // (Bounded: a stream of distinct tags must not grow it without end; a few scripts per
    // language.)
    if recent.count >= 64 { recent.removeFirst() }
    recent.append((language, script, v))
    return v
  }
}

extension Font {
  /// The advances of the characters the font may choose by language, in `language` (made once
  /// per language, then shared): see ``LanguageAdvances``.
  func languageAdvances(language: String) -> LanguageAdvances {
    languageAdvances(language: language, tables: estimationTables())
  }

  /// ``languageAdvances(language:)`` kept in the font's `tables`; in a run of `script` when
  /// given (a script the font has no forms for takes its default ones), else between Latin
  /// letters.
  func languageAdvances(language: String, script: hb_script_t? = nil, tables: EstimationTables)
    -> LanguageAdvances
  {
    tables.languages.get(language, script: script?.rawValue ?? 0) {
      let tag = LanguageTag.canonical(language)
      let letter: UInt32? = glyph(for: 0x61) != nil ? 0x61 : nil
      let shaper = SampleShaper(self)
      let advances = LanguageAdvances.characters.map { c -> Float in
        guard glyph(for: c) != nil, let letter else { return Float(nominalAdvance(c) ?? 0) }
        // (Between two letters, as the character is shaped in a run of text: alone, it would
        // be of the Common script, whose language systems may lack the language's forms.)
        return shaper.advance(
          [letter, c, letter], of: 1..<2, rtl: false, language: tag, script: script)
      }
      var simd = SIMD16<Float>()
      for (k, a) in advances.enumerated() { simd[k] = a }
      return LanguageAdvances(advances: simd)
    }
  }
}
