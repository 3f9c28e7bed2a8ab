import CFreeType
import CHarfBuzz
import Foundation

/// One face of a font file, ready for shaping on any thread.
///
/// Galley shapes with HarfBuzz's own OpenType functions (`hb_ot`), whose fonts are immutable once
/// made and so may be shared across threads. Vertical metrics are read once, in font units.
///
/// ```swift
/// let inter = try Font(contentsOf: "fonts/Inter-Regular.otf")
/// let cjk = try Font(contentsOf: "fonts/NotoSansCJK-Regular.ttc", faceIndex: 0)
/// ```
public final class Font: @unchecked Sendable {
  // @unchecked: the HarfBuzz blob, face and font are never mutated after `init`
  // (`hb_face_make_immutable`, `hb_font_make_immutable`), which makes them thread-safe to read.

  /// The file name (or the name given for in-memory data), used in error messages and reports.
  public let name: String
  /// The face index inside a collection (0 for a plain TTF/OTF).
  public let faceIndex: Int
  /// Design units per em.
  public let unitsPerEm: Int
  /// Ascender above the baseline, in em (positive; a font that claims less gets 0).
  public let ascender: Double
  /// Descender below the baseline, in em (positive; a font that claims less gets 0).
  public let descender: Double
  /// Line gap, in em (never negative: a font that claims less gets 0).
  public let lineGap: Double
  /// Whether the font draws colour glyphs (CBDT/sbix bitmaps, COLR layers or SVG).
  public let hasColorGlyphs: Bool
  /// For a font made only of bitmap strikes (e.g. Noto Color Emoji), the strike's pixels per em.
  public let bitmapStrikePPEM: Int?
  /// Which code points of the Basic Multilingual Plane the `cmap` maps (one bit each).
  let bmpCoverage: [UInt64]
  /// Advance of each ASCII character (index = code point) in em, 0 where the font has no glyph:
  /// for estimators that want widths without shaping (no kerning, no ligatures).
  package let asciiAdvances: [Double]

  package let hbFont: OpaquePointer
  private let hbFace: OpaquePointer
  private let hbBlob: OpaquePointer
  /// Advances in strike pixels for bitmap-only fonts, indexed by glyph id (how Skia measures them).
  package let bitmapAdvances: [Double]
  /// The nominal-advance table, made on first use (see ``nominalAdvances()``).
  let nominalCache = FontLazy<NominalAdvances>()
  /// What an estimator reads of the font (its tables, made on first use and kept with the
  /// font: ``estimatorTables(_:)``).
  private let estimatorCache = ClientSlot()
  /// What the shaping accelerator keeps of the font (its gates and direct plans: see
  /// ``FeatureGates``), made on first use.
  package let acceleratorState = ClientSlot()
  /// Where a stack whose primary font this is looks for a cluster none of its fonts has: the
  /// directory of the ``FontLibrary`` that loaded it (nil for a font loaded on its own).
  let systemFallback: SystemFallback?

  /// Loads face `faceIndex` of the font file at `path`, reading the file into memory (see
  /// ``FontLibrary``, which reads each file once for all its faces).
  /// - Throws: ``TypesettingError`` naming the file when it is missing, unreadable or not a font.
  public convenience init(contentsOf path: String, faceIndex: Int = 0) throws {
    let file = try FontFile(path: path)
    try self.init(file: file, name: (path as NSString).lastPathComponent, faceIndex: faceIndex)
  }

  /// Loads face `faceIndex` of a file already read (the face shares its bytes).
  convenience init(
    file: FontFile, name: String, faceIndex: Int, systemFallback: SystemFallback? = nil
  ) throws {
    try self.init(
      blob: hb_blob_reference(file.blob), name: name, faceIndex: faceIndex,
      systemFallback: systemFallback)
  }

  /// Loads face `faceIndex` of a font held in memory (TTF, OTF or TTC bytes).
  public convenience init(data: Data, name: String, faceIndex: Int = 0) throws {
    guard data.count <= Font.maximumFileSize else {
      throw TypesettingError.fontInvalid(name: name, reason: "\(data.count) bytes is too large")
    }
    let blob: OpaquePointer = data.withUnsafeBytes { raw in
      hb_blob_create(
        raw.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) }, UInt32(raw.count),
        HB_MEMORY_MODE_DUPLICATE, nil, nil)
    }
    try self.init(blob: blob, name: name, faceIndex: faceIndex)
  }

  /// Loads face `faceIndex` of the font in `blob`, which it takes over (destroyed on failure).
  private init(
    blob: OpaquePointer, name: String, faceIndex: Int, systemFallback: SystemFallback? = nil
  ) throws {
    self.name = name
    self.faceIndex = faceIndex
    self.systemFallback = systemFallback
    let face = try Font.face(blob: blob, name: name, faceIndex: faceIndex)
    hb_face_make_immutable(face)
    let upem = Int(hb_face_get_upem(face))
    let font = hb_font_create(face)!
    hb_font_set_scale(font, Int32(upem), Int32(upem))
    hb_font_make_immutable(font)
    var extents = hb_font_extents_t()
    hb_font_get_h_extents(font, &extents)
    self.unitsPerEm = upem
    // A broken font can claim a negative ascender, descender or line gap (e.g. through
    // USE_TYPO_METRICS and a typo line gap of -9815), which made line boxes negative.
    self.ascender = max(0, Double(extents.ascender) / Double(upem))
    self.descender = max(0, Double(-extents.descender) / Double(upem))
    self.lineGap = max(0, Double(extents.line_gap) / Double(upem))
    self.hasColorGlyphs =
      hb_ot_color_has_png(face) != 0 || hb_ot_color_has_layers(face) != 0
      || hb_ot_color_has_svg(face) != 0
    self.hbBlob = blob
    self.hbFace = face
    self.hbFont = font
    self.bmpCoverage = Font.bmpCoverage(face)
    self.asciiAdvances = Font.asciiAdvances(font, upem: upem)
    let hasOutlines =
      Font.tableLength(face, "glyf") > 0 || Font.tableLength(face, "CFF ") > 0
      || Font.tableLength(face, "CFF2") > 0
    if !hasOutlines && (Font.tableLength(face, "CBDT") > 0 || Font.tableLength(face, "sbix") > 0) {
      let strike = Font.bitmapStrike(
        blob: blob, faceIndex: faceIndex, glyphs: Int(hb_face_get_glyph_count(face)))
      self.bitmapStrikePPEM = strike?.ppem
      self.bitmapAdvances = strike?.advances ?? []
    } else {
      self.bitmapStrikePPEM = nil
      self.bitmapAdvances = []
    }
  }

  /// Face `faceIndex` of `blob`, checked: a file too short, not OpenType, without the face,
  /// glyphs or a character map is an error (and `blob` is destroyed).
  private static func face(blob: OpaquePointer, name: String, faceIndex: Int) throws
    -> OpaquePointer
  {
    func fail(_ error: TypesettingError) -> TypesettingError {
      hb_blob_destroy(blob)
      return error
    }
    let size = Int(hb_blob_get_length(blob))
    guard size >= 12 else {
      throw fail(.fontInvalid(name: name, reason: "\(size) bytes is too short"))
    }
    guard faceIndex >= 0 else {
      throw fail(.fontFaceIndexOutOfRange(name: name, index: faceIndex, count: 0))
    }
    let faceCount = Int(hb_face_count(blob))
    guard faceCount > 0 else {
      throw fail(.fontInvalid(name: name, reason: "not an OpenType font or collection"))
    }
    guard faceIndex < faceCount else {
      throw fail(.fontFaceIndexOutOfRange(name: name, index: faceIndex, count: faceCount))
    }
    let face = hb_face_create(blob, UInt32(faceIndex))!
    let problem: String? =
      hb_face_get_glyph_count(face) == 0
      ? "no glyphs (truncated or corrupt)"
      : tableLength(face, "cmap") == 0 ? "no character map (cmap table)" : nil
    if let problem {
      hb_face_destroy(face)
      throw fail(.fontInvalid(name: name, reason: problem))
    }
    return face
  }

  /// The length in bytes of table `tag` of `face` (0: none).
  private static func tableLength(_ face: OpaquePointer, _ tag: String) -> Int {
    let b = hb_face_reference_table(face, Font.tag(tag))
    defer { hb_blob_destroy(b) }
    return Int(hb_blob_get_length(b))
  }

  /// The BMP code points `face` maps, a bit each.
  private static func bmpCoverage(_ face: OpaquePointer) -> [UInt64] {
    var coverage = [UInt64](repeating: 0, count: 1024)
    let set = hb_set_create()!
    hb_face_collect_unicodes(face, set)
    var cp: hb_codepoint_t = UInt32.max  // HB_SET_VALUE_INVALID: start before the first
    while hb_set_next(set, &cp) != 0 && cp < 0x10000 {
      coverage[Int(cp >> 6)] |= 1 << UInt64(cp & 63)
    }
    hb_set_destroy(set)
    return coverage
  }

  /// The advances in em of printable ASCII's nominal glyphs (0 where there is none).
  private static func asciiAdvances(_ font: OpaquePointer, upem: Int) -> [Double] {
    var ascii = [Double](repeating: 0, count: 128)
    for c in UInt32(0x20)..<0x7F {
      var g: hb_codepoint_t = 0
      if hb_font_get_nominal_glyph(font, c, &g) != 0 {
        ascii[Int(c)] = Double(hb_font_get_glyph_h_advance(font, g)) / Double(upem)
      }
    }
    return ascii
  }

  /// The largest font file Galley loads: files are read into memory, and the largest real
  /// fonts (a pan-CJK collection, a colour emoji font) are a few hundred megabytes.
  public static let maximumFileSize: UInt64 = 1 << 29

  deinit {
    hb_font_destroy(hbFont)
    hb_face_destroy(hbFace)
    hb_blob_destroy(hbBlob)
  }

  /// Lends the font file's bytes (valid while this `Font` lives): for a rasterizer that opens the
  /// same face with FreeType.
  public func withFileData<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    var length: UInt32 = 0
    guard let p = hb_blob_get_data(hbBlob, &length) else {
      return try body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
    return try body(UnsafeRawBufferPointer(start: UnsafeRawPointer(p), count: Int(length)))
  }

  /// The advance in points at `size` of glyph `id` as the font's metrics give it, before any
  /// positioning (kerning, text-spacing-trim): what a glyph shaped on its own takes. Outline
  /// fonts only (a bitmap font's glyphs take their strike's whole pixels).
  func ownAdvance(of id: UInt32, size: Double) -> Double {
    Font.ownAdvance(of: id, in: hbFont, pointsPerUnit: size / Double(unitsPerEm))
  }

  /// ``ownAdvance(of:size:)`` in a font's HarfBuzz font, with the size's points per font unit
  /// worked out once (for a loop over many glyphs, which then holds no reference to the font).
  static func ownAdvance(of id: UInt32, in hbFont: OpaquePointer, pointsPerUnit: Double)
    -> Double
  {
    Double(hb_font_get_glyph_h_advance(hbFont, id)) * pointsPerUnit
  }

  /// Whether the font has a table `tag` (Apple's `morx`, say, which HarfBuzz applies instead of
  /// GSUB).
  func hasTable(_ tag: String) -> Bool {
    let blob = hb_face_reference_table(hbFace, Font.tag(tag))
    defer { hb_blob_destroy(blob) }
    return hb_blob_get_length(blob) > 0
  }

  /// Whether HarfBuzz shapes this font with Apple's layout tables (`morx`/`mort` instead of
  /// GSUB, `kerx` instead of GPOS kerning, `trak` tracking): the accelerator leaves such a font
  /// to HarfBuzz, whole.
  package var hasAppleLayoutTables: Bool {
    ["morx", "mort", "kerx", "trak"].contains(where: hasTable)
  }

  /// The feature tags of the font's layout table `table` (`GSUB` or `GPOS`), all of them, as
  /// HarfBuzz lists them (in any script and language).
  package func featureTags(_ table: String) -> Set<hb_tag_t> {
    var out = Set<hb_tag_t>()
    var page = [hb_tag_t](repeating: 0, count: 64)
    var start: UInt32 = 0
    while true {
      var count = UInt32(page.count)
      let total = hb_ot_layout_table_get_feature_tags(hbFace, Font.tag(table), start, &count, &page)
      out.formUnion(page.prefix(Int(count)))
      start += count
      if count == 0 || start >= total { return out }
    }
  }

  /// The glyph for a code point from the font's `cmap`, or nil when the font does not cover it.
  /// - Complexity: O(log n) in the size of the cmap subtable.
  public func glyph(for scalar: UInt32) -> UInt32? {
    var glyph: hb_codepoint_t = 0
    return hb_font_get_nominal_glyph(hbFont, scalar, &glyph) != 0 ? glyph : nil
  }

  /// Whether the font has a glyph for the code point.
  /// - Complexity: O(1) for the Basic Multilingual Plane (a bitmap made at load), else a cmap lookup.
  public func covers(_ scalar: UInt32) -> Bool {
    if scalar < 0x10000 {
      return bmpCoverage[Int(scalar >> 6)] & (1 << UInt64(scalar & 63)) != 0
    }
    return glyph(for: scalar) != nil
  }

  /// Whether the font's layout table `table` (`GSUB` or `GPOS`) has the feature `feature`.
  package func hasFeature(_ feature: String, in table: String) -> Bool {
    featureTags(table).contains(Font.tag(feature))
  }

  /// The tables an estimator reads of the font, made by `make` on first use and kept with the
  /// font for every thread (one kind of tables a process: the first `make` decides).
  package func estimatorTables<Tables: AnyObject & Sendable>(_ make: () -> Tables) -> Tables {
    estimatorCache.value(make)
  }


  package static func tag(_ s: String) -> hb_tag_t {
    var v: UInt32 = 0
    for b in s.utf8.prefix(4) { v = (v << 8) | UInt32(b) }
    return v
  }

  /// Reads the first bitmap strike with FreeType: its size and every glyph's advance in whole
  /// pixels of that strike, which is how Skia (and so Chromium) measures bitmap-only fonts.
  private static func bitmapStrike(blob: OpaquePointer, faceIndex: Int, glyphs: Int) -> (
    ppem: Int, advances: [Double]
  )? {
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else { return nil }
    defer { FT_Done_FreeType(library) }
    var length: UInt32 = 0
    guard let bytes = hb_blob_get_data(blob, &length) else { return nil }
    let raw = UnsafeRawBufferPointer(start: bytes, count: Int(length))
    return { () -> (Int, [Double])? in
      var face: FT_Face?
      guard
        FT_New_Memory_Face(
          library, raw.baseAddress!.assumingMemoryBound(to: FT_Byte.self), raw.count,
          FT_Long(faceIndex), &face) == 0, let face
      else { return nil }
      defer { FT_Done_Face(face) }
      guard face.pointee.num_fixed_sizes > 0, FT_Select_Size(face, 0) == 0 else { return nil }
      let ppem = Int(face.pointee.size.pointee.metrics.x_ppem)
      var advances = [Double](repeating: 0, count: glyphs)
      // Metrics only: decoding thousands of PNG strikes would take a noticeable time.
      let flags =
        FT_Int32(FT_LOAD_DEFAULT) | FT_Int32(FT_LOAD_BITMAP_METRICS_ONLY) | FT_Int32(FT_LOAD_COLOR)
      for g in 0..<glyphs where FT_Load_Glyph(face, FT_UInt(g), flags) == 0 {
        advances[g] = Double(face.pointee.glyph.pointee.advance.x) / 64.0
      }
      return (ppem, advances)
    }()
  }
}

/// A font as a dictionary key by identity. It holds the font, so that no other font can be
/// created at the same address while the key is in use (an `ObjectIdentifier` alone could
/// then name a different font).
package struct FontKey: Hashable, @unchecked Sendable {
  // @unchecked: `Font` is immutable and Sendable; the key only compares identities.
  package let font: Font
  package init(_ font: Font) { self.font = font }
  package static func == (a: FontKey, b: FontKey) -> Bool { a.font === b.font }
  package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(font)) }
}
