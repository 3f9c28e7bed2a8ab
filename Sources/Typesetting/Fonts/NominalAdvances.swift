import CHarfBuzz
import Foundation

/// Advances of a font's glyphs straight from its `cmap` and `hmtx`, without shaping: what an
/// estimator needs to guess widths in a few nanoseconds per character.
///
/// Each code point of the Basic Multilingual Plane maps to the advance (in em) of its nominal
/// glyph; marks (glyph class 3 in `GDEF`, which shaping places without advance) get 0; code points
/// the font does not cover get a negative value. Bitmap-only fonts use their strike's whole-pixel
/// advances, as the shaper does. No kerning, ligatures or contextual forms: those are what an
/// estimator calibrates for.
///
/// ```swift
/// let table = font.nominalAdvances()
/// let em = table[0xAC00]  // 1.0 in Noto Sans CJK
/// ```
public final class NominalAdvances: @unchecked Sendable {
  // @unchecked: the storage is written once in `init` and only read afterwards.
  /// One entry per BMP code point, in em; negative where the font has no glyph.
  @usableFromInline let storage: UnsafeMutablePointer<Float>
  /// Per block of 256 code points: the advance shared by all of them, or NaN when they differ.
  /// Most CJK and Hangul blocks are uniform, so a lookup there reads 1 KiB instead of 256 KiB.
  @usableFromInline let uniform: UnsafeMutablePointer<Float>

  init(bmp: [Float]) {
    precondition(bmp.count == 0x10000)
    storage = .allocate(capacity: 0x10000)
    storage.initialize(from: bmp, count: 0x10000)
    uniform = .allocate(capacity: 256)
    for block in 0..<256 {
      let first = bmp[block * 256]
      let same = bmp[(block * 256)..<(block * 256 + 256)].allSatisfy { $0 == first }
      uniform[block] = same ? first : .nan
    }
  }

  deinit {
    storage.deallocate()
    uniform.deallocate()
  }

  /// The advance of a code point in em (negative when not covered or outside the BMP; 0 for marks).
  @inlinable @inline(__always)
  public subscript(scalar: UInt32) -> Float {
    guard scalar < 0x10000 else { return -1 }
    let u = uniform[Int(scalar >> 8)]
    return u.isNaN ? storage[Int(scalar)] : u
  }
}

/// A value a font computes once, on first use, for any thread.
final class FontLazy<Value: Sendable>: @unchecked Sendable {
  // @unchecked: `value` is read and written only under `lock`.
  private let lock = Lock()
  private var value: Value?

  func get(_ make: () -> Value) -> Value {
    lock.lock()
    defer { lock.unlock() }
    if let value { return value }
    let v = make()
    value = v
    return v
  }
}

extension Font {
  /// The nominal advance of every BMP code point the font covers (made on first call, ~1 µs per
  /// covered code point, then shared): see ``NominalAdvances``.
  public func nominalAdvances() -> NominalAdvances {
    nominalCache.get {
      var bmp = [Float](repeating: -1, count: 0x10000)
      let face = hb_font_get_face(hbFont)
      let upem = Float(unitsPerEm)
      for block in 0..<bmpCoverage.count {
        var bits = bmpCoverage[block]
        while bits != 0 {
          let cp = UInt32(block * 64 + bits.trailingZeroBitCount)
          bits &= bits - 1
          bmp[Int(cp)] = Float(nominalAdvance(cp, face: face, upem: upem) ?? -1)
        }
      }
      return NominalAdvances(bmp: bmp)
    }
  }

  /// The nominal advance of any code point in em: nil when the font does not cover it, 0 for a
  /// mark glyph. (For the BMP, ``nominalAdvances()`` is the fast way.)
  public func nominalAdvance(_ scalar: UInt32) -> Double? {
    nominalAdvance(scalar, face: hb_font_get_face(hbFont), upem: Float(unitsPerEm)).map(Double.init)
  }

  private func nominalAdvance(_ scalar: UInt32, face: OpaquePointer?, upem: Float) -> Float? {
    var g: hb_codepoint_t = 0
    guard hb_font_get_nominal_glyph(hbFont, scalar, &g) != 0 else { return nil }
    if hb_ot_layout_get_glyph_class(face, g) == HB_OT_LAYOUT_GLYPH_CLASS_MARK { return 0 }
    if let ppem = bitmapStrikePPEM, Int(g) < bitmapAdvances.count {
      return Float(bitmapAdvances[Int(g)] / Double(ppem))
    }
    return Float(hb_font_get_glyph_h_advance(hbFont, g)) / upem
  }
}

/// The advances of the characters whose glyph a font may choose by language (its `locl` forms:
/// Noto Sans CJK's Korean space is wider than its nominal one, its Chinese middle dot wider
/// still), as HarfBuzz shapes each between two letters in a language.
package struct LanguageAdvances: Sendable {
  /// The characters, in the order of ``advances``: space, middle dot, dashes, quotes, ellipsis.
  package static let characters: [UInt32] = [
    0x20, 0xB7, 0x2013, 0x2014, 0x2018, 0x2019, 0x201C, 0x201D, 0x2026,
  ]
  /// Per character of ``characters``, its advance in em in the language (its nominal advance
  /// where the font has no glyph for it or no letter to shape it between); the rest 0.
  package let advances: SIMD16<Float>

  /// The number of ``characters``.
  package static var count: Int { @inline(__always) get { 9 } }

  /// The slot of `scalar` in ``characters``, or -1.
  @inline(__always)
  package static func slot(_ scalar: UInt32) -> Int {
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
  /// The languages asked last, newest last (a batch asks for one or two: compared in turn,
  /// short tags are cheaper to compare than to hash).
  private var recent: [(language: String, advances: LanguageAdvances)] = []

  func get(_ language: String, _ make: () -> LanguageAdvances) -> LanguageAdvances {
    lock.lock()
    defer { lock.unlock() }
    for k in recent.indices.reversed() where recent[k].language == language {
      return recent[k].advances
    }
    let v = make()
    // (Bounded: a stream of distinct tags must not grow it without end.)
    if recent.count >= 16 { recent.removeFirst() }
    recent.append((language, v))
    return v
  }
}

extension Font {
  /// The advances of the characters the font may choose by language, in `language` (made once
  /// per language, then shared): see ``LanguageAdvances``.
  package func languageAdvances(language: String) -> LanguageAdvances {
    languageCache.get(language) {
      let tag = LanguageTag.canonical(language)
      let letter: UInt32? = glyph(for: 0x61) != nil ? 0x61 : nil
      let buffer = hb_buffer_create()!
      defer { hb_buffer_destroy(buffer) }
      let upem = Float(unitsPerEm)
      let advances = LanguageAdvances.characters.map { c -> Float in
        guard glyph(for: c) != nil, let letter else { return Float(nominalAdvance(c) ?? 0) }
        // (Between two letters, as the character is shaped in a run of text: alone, it would
        // be of the Common script, whose language systems may lack the language's forms.)
        let text: [UInt32] = [letter, c, letter]
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf32(buffer, text, 3, 0, 3)
        hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        if !tag.isEmpty {
          tag.withCString { hb_buffer_set_language(buffer, hb_language_from_string($0, -1)) }
        }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(hbFont, buffer, nil, 0)
        var n: UInt32 = 0
        let info = hb_buffer_get_glyph_infos(buffer, &n)!
        let pos = hb_buffer_get_glyph_positions(buffer, &n)!
        var sum: Int32 = 0
        for i in 0..<Int(n) where info[i].cluster == 1 { sum += pos[i].x_advance }
        return Float(sum) / upem
      }
      var simd = SIMD16<Float>()
      for (k, a) in advances.enumerated() { simd[k] = a }
      return LanguageAdvances(advances: simd)
    }
  }
}
