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
  @inlinable
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

/// What a client module keeps with a font or a library, made on first use and shared by every
/// thread: one kind of value a slot, which its only client decides.
package final class ClientSlot: Sendable {
  private let lazy = FontLazy<any AnyObject & Sendable>()

  package init() {}

  /// The value, made by `make` on first use.
  package func value<Value: AnyObject & Sendable>(_ make: () -> Value) -> Value {
    // (Of the one kind its only client makes: a checked cast here costs as much as the rest of
    // the look-up.)
    unsafeDowncast(lazy.get(make), to: Value.self)
  }
}

extension Font {
  /// The nominal advance of every BMP code point the font covers (made on first call, then
  /// shared): see ``NominalAdvances``.
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

  /// The advance in em of the font's missing-glyph box (glyph 0), which the engine draws for a
  /// character no font of a stack has.
  package var missingGlyphAdvance: Double {
    Double(hb_font_get_glyph_h_advance(hbFont, 0)) / Double(unitsPerEm)
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
