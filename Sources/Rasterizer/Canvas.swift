@_exported import Geometry
/// A colour with straight (not premultiplied) alpha, 0…255 per channel.
public struct Color: Sendable, Hashable {
  /// Red, 0…255.
  public var r: UInt8
  /// Green, 0…255.
  public var g: UInt8
  /// Blue, 0…255.
  public var b: UInt8
  /// Opacity, 0 (transparent) … 255 (opaque).
  public var a: UInt8

  /// A colour from its channels.
  public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  /// `0xRRGGBB`, opaque, or with `alpha` (0…1).
  public init(hex: UInt32, alpha: Double = 1) {
    self.init(
      r: UInt8((hex >> 16) & 0xFF), g: UInt8((hex >> 8) & 0xFF), b: UInt8(hex & 0xFF),
      a: UInt8((max(0, min(1, alpha)) * 255).rounded()))
  }

  /// Opaque white.
  public static let white = Color(r: 255, g: 255, b: 255)
  /// Opaque black.
  public static let black = Color(r: 0, g: 0, b: 0)
  /// Fully transparent.
  public static let clear = Color(r: 0, g: 0, b: 0, a: 0)
}

/// An RGBA raster at a display scale: drawing takes points, pixels are `scale` × points.
///
/// Pixels are stored **premultiplied** (r, g, b already multiplied by a), 8 bits per channel, rows
/// top to bottom; ``PNGImage`` converts to straight alpha when it writes a file. Shapes are
/// anti-aliased by pixel coverage and composited with "source over".
///
/// Not thread-safe: one canvas, one thread.
public final class Canvas {
  /// Width in pixels.
  public let pixelWidth: Int
  /// Height in pixels.
  public let pixelHeight: Int
  /// Pixels per point.
  public let scale: Double
  /// Premultiplied RGBA, `pixelWidth × pixelHeight × 4` bytes (a copy).
  public var pixels: [UInt8] { Array(storage) }
  /// The pixels, owned by the canvas (drawing writes here without copy-on-write checks).
  let storage: UnsafeMutableBufferPointer<UInt8>
  /// When set, drawing only touches pixels whose centres lie inside this rectangle (points).
  public var clip: Rect? {
    didSet {
      if let c = clip {
        clipPixels = (
          pixelIndex(c.minX * scale, .toNearestOrAwayFromZero),
          pixelIndex(c.minY * scale, .toNearestOrAwayFromZero),
          pixelIndex(c.maxX * scale, .toNearestOrAwayFromZero),
          pixelIndex(c.maxY * scale, .toNearestOrAwayFromZero)
        )
      } else {
        clipPixels = nil
      }
    }
  }
  private var clipPixels: (Int, Int, Int, Int)? = nil

  /// The most pixels a canvas holds (400 MB of RGBA): a larger one is cut to this many (the
  /// command line refuses such a picture before it makes it).
  public static let maximumPixels = 100_000_000

  /// A canvas of `width × height` points, filled with `background` (at most ``maximumPixels``:
  /// a larger one keeps its width, as far as it can, and is cut at the bottom).
  public init(width: Double, height: Double, scale: Double = 2, background: Color = .white) {
    self.scale = scale
    let w = min(Canvas.maximumPixels, max(1, pixelIndex(width * scale, .up)))
    pixelWidth = w
    pixelHeight = min(Canvas.maximumPixels / w, max(1, pixelIndex(height * scale, .up)))
    let p = Canvas.premultiply(background)
    storage = .allocate(capacity: pixelWidth * pixelHeight * 4)
    for i in stride(from: 0, to: storage.count, by: 4) {
      storage[i] = p.0
      storage[i + 1] = p.1
      storage[i + 2] = p.2
      storage[i + 3] = p.3
    }
  }

  deinit { storage.deallocate() }

  static func premultiply(_ c: Color) -> (UInt8, UInt8, UInt8, UInt8) {
    let a = UInt32(c.a)
    return (
      UInt8((UInt32(c.r) * a + 127) / 255), UInt8((UInt32(c.g) * a + 127) / 255),
      UInt8((UInt32(c.b) * a + 127) / 255), c.a
    )
  }

  /// Composites premultiplied `(r, g, b, a)` over pixel (px, py) with `coverage` (0…1).
  func blend(
    _ px: Int, _ py: Int, _ r: Double, _ g: Double, _ b: Double, _ a: Double, coverage: Double
  ) {
    guard px >= 0, py >= 0, px < pixelWidth, py < pixelHeight, coverage > 0 else { return }
    if let c = clipPixels, px < c.0 || py < c.1 || px >= c.2 || py >= c.3 { return }
    let share = coverage >= 1 ? 1 : coverage
    let sa = a * share
    guard sa > 0 else { return }
    let i = (py * pixelWidth + px) * 4
    let inv = 1 - sa / 255
    let px = storage.baseAddress! + i
    if sa >= 255 {
      px[0] = UInt8(min(255, r.rounded()))
      px[1] = UInt8(min(255, g.rounded()))
      px[2] = UInt8(min(255, b.rounded()))
      px[3] = 255
      return
    }
    px[0] = UInt8(min(255, (r * share + Double(px[0]) * inv).rounded()))
    px[1] = UInt8(min(255, (g * share + Double(px[1]) * inv).rounded()))
    px[2] = UInt8(min(255, (b * share + Double(px[2]) * inv).rounded()))
    px[3] = UInt8(min(255, (sa + Double(px[3]) * inv).rounded()))
  }

  func blend(_ px: Int, _ py: Int, _ c: Color, coverage: Double) {
    let a = Double(c.a)
    blend(
      px, py, Double(c.r) * a / 255, Double(c.g) * a / 255, Double(c.b) * a / 255, a,
      coverage: coverage)
  }

  /// The pixel at (x, y) as straight-alpha `Color` (for tests and inspection).
  public func color(atPixelX x: Int, y: Int) -> Color {
    let i = (y * pixelWidth + x) * 4
    let a = storage[i + 3]
    guard a > 0 else { return .clear }
    func un(_ v: UInt8) -> UInt8 { UInt8(min(255, (Double(v) * 255 / Double(a)).rounded())) }
    return Color(r: un(storage[i]), g: un(storage[i + 1]), b: un(storage[i + 2]), a: a)
  }

  /// Fills `rect` (points); edges that fall inside a pixel are blended by coverage.
  /// - Complexity: O(pixels covered).
  public func fill(_ rect: Rect, _ color: Color) {
    let x0 = rect.minX * scale
    let y0 = rect.minY * scale
    let x1 = rect.maxX * scale
    let y1 = rect.maxY * scale
    guard x1 > x0, y1 > y0 else { return }
    let px0 = max(0, pixelIndex(x0, .down))
    let py0 = max(0, pixelIndex(y0, .down))
    let px1 = min(pixelWidth, pixelIndex(x1, .up))
    let py1 = min(pixelHeight, pixelIndex(y1, .up))
    guard px1 > px0, py1 > py0 else { return }
    for py in py0..<py1 {
      let cy = min(Double(py + 1), y1) - max(Double(py), y0)
      for px in px0..<px1 {
        let cx = min(Double(px + 1), x1) - max(Double(px), x0)
        blend(px, py, color, coverage: cx * cy)
      }
    }
  }

  /// Fills `rect` with corners rounded to `radius` points, anti-aliased (coverage from the
  /// signed distance to the outline at each pixel centre).
  /// - Complexity: O(pixels covered).
  public func fillRoundedRect(_ rect: Rect, radius: Double, _ color: Color) {
    let s = scale
    let x0 = rect.minX * s
    let y0 = rect.minY * s
    let x1 = rect.maxX * s
    let y1 = rect.maxY * s
    guard x1 > x0, y1 > y0 else { return }
    let r = max(0, min(radius * s, (x1 - x0) / 2, (y1 - y0) / 2))
    let px0 = max(0, pixelIndex(x0, .down))
    let py0 = max(0, pixelIndex(y0, .down))
    let px1 = min(pixelWidth, pixelIndex(x1, .up))
    let py1 = min(pixelHeight, pixelIndex(y1, .up))
    guard px1 > px0, py1 > py0 else { return }
    let cxm = (x0 + x1) / 2
    let cym = (y0 + y1) / 2
    let hx = (x1 - x0) / 2 - r
    let hy = (y1 - y0) / 2 - r
    for py in py0..<py1 {
      let fy = Double(py) + 0.5
      for px in px0..<px1 {
        let fx = Double(px) + 0.5
        // Signed distance to a rounded box.
        let qx = abs(fx - cxm) - hx
        let qy = abs(fy - cym) - hy
        let ox = max(qx, 0)
        let oy = max(qy, 0)
        let d = (ox * ox + oy * oy).squareRoot() + min(max(qx, qy), 0) - r
        let cov = max(0, min(1, 0.5 - d))
        // Straight edges: exact partial coverage of edge pixels.
        let ex = min(Double(px + 1), x1) - max(Double(px), x0)
        let ey = min(Double(py + 1), y1) - max(Double(py), y0)
        blend(px, py, color, coverage: min(cov, ex, ey))
      }
    }
  }

  /// Outlines `rect` with a line of `lineWidth` points drawn inside it; `dash` (points on,
  /// points off) makes it dashed.
  public func strokeRect(
    _ rect: Rect, _ color: Color, lineWidth: Double = 1, dash: (on: Double, off: Double)? = nil
  ) {
    let w = lineWidth
    guard rect.width > 0, rect.height > 0 else { return }
    func segments(_ length: Double, _ body: (Double, Double) -> Void) {
      guard let dash, dash.on > 0 else {
        body(0, length)
        return
      }
      var t = 0.0
      while t < length {
        body(t, min(dash.on, length - t))
        t += dash.on + max(0, dash.off)
      }
    }
    segments(rect.width) { t, l in
      fill(Rect(x: rect.minX + t, y: rect.minY, width: l, height: w), color)
      fill(Rect(x: rect.minX + t, y: rect.maxY - w, width: l, height: w), color)
    }
    segments(max(0, rect.height - 2 * w)) { t, l in
      fill(Rect(x: rect.minX, y: rect.minY + w + t, width: w, height: l), color)
      fill(Rect(x: rect.maxX - w, y: rect.minY + w + t, width: w, height: l), color)
    }
  }

  /// The tight bounds, in points, of the pixels inside `region` that differ from `background`
  /// (nil when none do).
  public func inkBounds(in region: Rect, background: Color) -> Rect? {
    let bg = Canvas.premultiply(background)
    let px0 = max(0, pixelIndex(region.minX * scale, .down))
    let py0 = max(0, pixelIndex(region.minY * scale, .down))
    let px1 = min(pixelWidth, pixelIndex(region.maxX * scale, .up))
    let py1 = min(pixelHeight, pixelIndex(region.maxY * scale, .up))
    var bounds = PixelBounds()
    guard px1 > px0, py1 > py0 else { return nil }
    for py in py0..<py1 {
      for px in px0..<px1 {
        let i = (py * pixelWidth + px) * 4
        if storage[i] != bg.0 || storage[i + 1] != bg.1 || storage[i + 2] != bg.2
          || storage[i + 3] != bg.3
        {
          bounds.add(px, py)
        }
      }
    }
    return bounds.rect(scale: scale)
  }
}

/// The whole pixel at a position in pixels, rounded by `rule`, held within ±2^40 so that no
/// position, however large or not a number, traps the conversion (it lies far outside every
/// canvas, where drawing is cut off).
func pixelIndex(_ x: Double, _ rule: FloatingPointRoundingRule) -> Int {
  let r = x.rounded(rule)
  guard r.isFinite else { return r.isNaN ? 0 : (r > 0 ? 1 << 40 : -(1 << 40)) }
  return Int(max(-0x1p40, min(0x1p40, r)))
}
