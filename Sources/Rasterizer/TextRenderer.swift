import CFreeType
import Typesetting

/// Draws laid-out text with FreeType: grayscale anti-aliased outlines (unhinted, at the exact
/// subpixel positions of the layout) and colour emoji from bitmap strikes (CBDT), scaled to size
/// with a box filter. Runs arrive in visual order (`PreparedText.glyphRuns(_:)`), cut from the
/// glyphs the text was measured with, so right-to-left text needs nothing more and a drawn line
/// is as wide as its measured width.
///
/// One `FT_Face` per font, opened on first use and kept. Not thread-safe: use one renderer per
/// thread.
public final class TextRenderer {
  private let library: FreeTypeLibrary
  private var faces: [ObjectIdentifier: FreeTypeFace] = [:]
  /// When set, each missing glyph (the box a font draws for a character it lacks: tofu) is
  /// outlined in this colour over its em box, so that a picture shows where a size is wrong
  /// for a known reason.
  public var missingGlyphOutline: Color? = nil

  /// A renderer with its own FreeType library.
  /// - Throws: ``RasterizerError`` when FreeType cannot start.
  public init() throws {
    library = try FreeTypeLibrary()
  }

  func face(for font: Font) throws -> FreeTypeFace {
    if let f = faces[ObjectIdentifier(font)] { return f }
    let f = try FreeTypeFace(font: font, library: library)
    faces[ObjectIdentifier(font)] = f
    return f
  }

  /// Draws `prepared` as laid out in `layout`, its box's top-left corner at
  /// `origin` (points). Lines start at the box's left edge; in a right-to-left paragraph they end
  /// at its right edge, `boxWidth` (default: the layout's widest line) from the left.
  ///
  /// - Returns: each line's ink bounds in canvas points (the tight box of the pixels the glyphs
  ///   covered), nil for a line that drew nothing.
  /// - Complexity: O(glyphs) to place them (no shaping), then O(glyph pixels).
  @discardableResult
  public func draw(
    _ prepared: PreparedText, layout: TextLayout, at origin: (x: Double, y: Double),
    boxWidth: Double? = nil, color: Color = .black, on canvas: Canvas
  ) throws -> [Rect?] {
    try draw(
      runs: prepared.glyphRuns(layout), layout: layout, rightToLeft: prepared.isRightToLeft,
      at: origin, boxWidth: boxWidth, color: color, on: canvas)
  }

  /// The drawn width of each line of `runs`: the pen's extent from the start of its first run to
  /// the end of its last (what `galley measure` reports as the line's width).
  public static func lineWidths(_ runs: [GlyphRun], lineCount: Int) -> [Double] {
    var lo = [Double](repeating: .infinity, count: lineCount)
    var hi = [Double](repeating: -.infinity, count: lineCount)
    for r in runs where r.line < lineCount {
      lo[r.line] = min(lo[r.line], r.origin)
      hi[r.line] = max(hi[r.line], r.origin + r.width)
    }
    return zip(lo, hi).map { $0.isFinite ? max(0, $1 - $0) : 0 }
  }

  /// Where each line of `runs` starts from the left of a box `boxWidth` wide: 0, or for a
  /// right-to-left paragraph the box's width less the line's drawn width (its right edge on the
  /// box's). The one alignment rule of drawing and of the outlines drawn over it.
  public static func lineStarts(
    _ runs: [GlyphRun], lineCount: Int, rightToLeft: Bool, boxWidth: Double
  ) -> [Double] {
    guard rightToLeft else { return [Double](repeating: 0, count: lineCount) }
    return lineWidths(runs, lineCount: lineCount).map { boxWidth - $0 }
  }

  /// Draws glyph runs of `layout` (see ``draw(_:layout:at:boxWidth:color:on:)``).
  @discardableResult
  public func draw(
    runs: [GlyphRun], layout: TextLayout, rightToLeft: Bool, at origin: (x: Double, y: Double),
    boxWidth: Double? = nil, color: Color = .black, on canvas: Canvas
  ) throws -> [Rect?] {
    var ink = [Rect?](repeating: nil, count: layout.lines.count)
    let starts = TextRenderer.lineStarts(
      runs, lineCount: layout.lines.count, rightToLeft: rightToLeft,
      boxWidth: boxWidth ?? layout.widest)
    for run in runs where run.line < layout.lines.count {
      let left = starts[run.line]
      let face = try face(for: run.font)
      for k in run.glyphs.indices {
        let x = origin.x + left + run.x[k]
        let y = origin.y + run.baseline + run.y[k]
        if let r = drawGlyph(
          run.glyphs[k], face: face, size: run.size, x: x, y: y, color: color, on: canvas)
        {
          ink[run.line] = ink[run.line].map { $0.union(r) } ?? r
        }
        if run.glyphs[k] == 0, let outline = missingGlyphOutline {
          canvas.strokeRect(
            Rect(x: x, y: y - run.size * 0.8, width: max(1, run.advances[k]), height: run.size),
            outline, lineWidth: 1.5)
        }
      }
    }
    return ink
  }

  /// Draws one glyph with its origin at (x, y) points; returns the pixels it touched, in points.
  func drawGlyph(
    _ glyph: UInt32, face: FreeTypeFace, size: Double, x: Double, y: Double, color: Color,
    on canvas: Canvas
  ) -> Rect? {
    let s = canvas.scale
    let penX = x * s
    let penY = y * s
    if face.isColorBitmap {
      return drawColorGlyph(
        glyph, face: face, pixelSize: size * s, penX: penX, penY: penY, on: canvas)
    }
    face.setPixelSize(size * s)
    let ix = penX.rounded(.down)
    let iy = penY.rounded(.down)
    var delta = FT_Vector(
      x: FT_Pos(((penX - ix) * 64).rounded()), y: -FT_Pos(((penY - iy) * 64).rounded()))
    FT_Set_Transform(face.handle, nil, &delta)
    let flags = FT_Int32(FT_LOAD_NO_HINTING) | FT_Int32(FT_LOAD_RENDER)
    guard FT_Load_Glyph(face.handle, FT_UInt(glyph), flags) == 0 else { return nil }
    let slot = face.handle.pointee.glyph!
    let bm = slot.pointee.bitmap
    guard bm.width > 0, bm.rows > 0, let buffer = bm.buffer,
      bm.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue)
    else { return nil }
    let ox = pixelIndex(ix, .down) + Int(slot.pointee.bitmap_left)
    let oy = pixelIndex(iy, .down) - Int(slot.pointee.bitmap_top)
    let a = Double(color.a)
    let pr = Double(color.r) * a / 255
    let pg = Double(color.g) * a / 255
    let pb = Double(color.b) * a / 255
    var bounds = PixelBounds()
    for row in 0..<Int(bm.rows) {
      let line = buffer + row * Int(bm.pitch)
      for col in 0..<Int(bm.width) {
        let v = line[col]
        guard v > 0 else { continue }
        let px = ox + col
        let py = oy + row
        canvas.blend(px, py, pr, pg, pb, a, coverage: Double(v) / 255)
        bounds.add(px, py)
      }
    }
    return bounds.rect(scale: s)
  }

  /// A colour bitmap glyph (BGRA, premultiplied) scaled from the strike to `pixelSize` per em:
  /// each destination pixel averages a grid of source samples (a box filter).
  func drawColorGlyph(
    _ glyph: UInt32, face: FreeTypeFace, pixelSize: Double, penX: Double, penY: Double,
    on canvas: Canvas
  ) -> Rect? {
    var identity = FT_Vector(x: 0, y: 0)
    FT_Set_Transform(face.handle, nil, &identity)
    let flags = FT_Int32(FT_LOAD_COLOR) | FT_Int32(FT_LOAD_RENDER)
    guard FT_Load_Glyph(face.handle, FT_UInt(glyph), flags) == 0 else { return nil }
    let slot = face.handle.pointee.glyph!
    let bm = slot.pointee.bitmap
    guard bm.width > 0, bm.rows > 0, let buffer = bm.buffer,
      bm.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue)
    else { return nil }
    let scale = pixelSize / face.strikePPEM
    let left = penX + Double(slot.pointee.bitmap_left) * scale
    let top = penY - Double(slot.pointee.bitmap_top) * scale
    let w = Double(bm.width) * scale
    let h = Double(bm.rows) * scale
    // (Only the pixels on the canvas: a glyph scaled past it costs nothing.)
    let px0 = max(0, pixelIndex(left, .down))
    let py0 = max(0, pixelIndex(top, .down))
    let px1 = min(canvas.pixelWidth, pixelIndex(left + w, .up))
    let py1 = min(canvas.pixelHeight, pixelIndex(top + h, .up))
    guard px0 < px1, py0 < py1 else { return nil }
    let n = max(2, min(64, pixelIndex(1 / scale, .up)))
    let sw = Int(bm.width)
    let sh = Int(bm.rows)
    var bounds = PixelBounds()
    for py in py0..<py1 {
      for px in px0..<px1 {
        var sb = 0.0
        var sg = 0.0
        var sr = 0.0
        var sa = 0.0
        for j in 0..<n {
          let dy = (Double(py) + (Double(j) + 0.5) / Double(n) - top) / scale
          guard dy >= 0 else { continue }
          let syi = Int(dy)
          guard syi < sh else { continue }
          let line = buffer + syi * Int(bm.pitch)
          for i in 0..<n {
            let dx = (Double(px) + (Double(i) + 0.5) / Double(n) - left) / scale
            guard dx >= 0 else { continue }
            let sxi = Int(dx)
            guard sxi < sw else { continue }
            let p = line + sxi * 4
            sb += Double(p[0])
            sg += Double(p[1])
            sr += Double(p[2])
            sa += Double(p[3])
          }
        }
        let m = Double(n * n)
        guard sa > 0 else { continue }
        canvas.blend(px, py, sr / m, sg / m, sb / m, sa / m, coverage: 1)
        bounds.add(px, py)
      }
    }
    return bounds.rect(scale: canvas.scale)
  }
}
