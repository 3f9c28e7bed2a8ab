import CPNG
import Foundation

/// PNG files through libpng's simplified API (`png_image_*`: no setjmp, errors as messages).
public enum PNGImage {
  /// A decoded image: straight-alpha RGBA, rows top to bottom.
  public struct Bitmap: Sendable {
    public var width: Int
    public var height: Int
    public var rgba: [UInt8]

    /// The pixel at (x, y).
    public func color(x: Int, y: Int) -> Color {
      let i = (y * width + x) * 4
      return Color(r: rgba[i], g: rgba[i + 1], b: rgba[i + 2], a: rgba[i + 3])
    }
  }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// The canvas's pixels in straight alpha (what PNG stores).
  static func straight(_ canvas: Canvas) -> [UInt8] {
    var out = canvas.pixels
    for i in stride(from: 0, to: out.count, by: 4) {
      let a = out[i + 3]
      if a == 0 || a == 255 { continue }
      for c in 0..<3 {
        out[i + c] = UInt8(min(255, (Double(out[i + c]) * 255 / Double(a)).rounded()))
      }
    }
    return out
  }

  /// Encodes `canvas` as an 8-bit RGBA PNG.
  public static func encode(_ canvas: Canvas) throws -> Data {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    image.width = UInt32(canvas.pixelWidth)
    image.height = UInt32(canvas.pixelHeight)
    image.format = galley_png_format_rgba
    let px = straight(canvas)
    var size: png_alloc_size_t = 0
    let stride = Int32(canvas.pixelWidth * 4)
    // First call: the size needed.
    let ok1 = px.withUnsafeBufferPointer { p in
      png_image_write_to_memory(&image, nil, &size, 0, p.baseAddress, stride, nil)
    }
    guard ok1 != 0, size > 0 else { throw Failure(description: message(&image, "PNG size")) }
    var out = Data(count: Int(size))
    let ok2 = out.withUnsafeMutableBytes { o in
      px.withUnsafeBufferPointer { p in
        png_image_write_to_memory(&image, o.baseAddress, &size, 0, p.baseAddress, stride, nil)
      }
    }
    guard ok2 != 0 else { throw Failure(description: message(&image, "PNG encoding")) }
    out.count = Int(size)
    return out
  }

  /// Writes `canvas` to `path` as PNG.
  public static func write(_ canvas: Canvas, to path: String) throws {
    let data = try encode(canvas)
    guard FileManager.default.createFile(atPath: path, contents: data) else {
      throw Failure(description: "\(path): cannot be written")
    }
  }

  /// Decodes PNG bytes to straight-alpha RGBA.
  public static func decode(_ data: Data) throws -> Bitmap {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    let ok = data.withUnsafeBytes { d in
      png_image_begin_read_from_memory(&image, d.baseAddress, d.count)
    }
    guard ok != 0 else { throw Failure(description: message(&image, "not a PNG")) }
    image.format = galley_png_format_rgba
    let w = Int(image.width)
    let h = Int(image.height)
    var rgba = [UInt8](repeating: 0, count: w * h * 4)
    let ok2 = rgba.withUnsafeMutableBufferPointer { p in
      png_image_finish_read(&image, nil, p.baseAddress, Int32(w * 4), nil)
    }
    guard ok2 != 0 else { throw Failure(description: message(&image, "PNG decoding")) }
    return Bitmap(width: w, height: h, rgba: rgba)
  }

  /// Decodes the PNG file at `path`.
  public static func read(_ path: String) throws -> Bitmap {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(description: "\(path): cannot be read")
    }
    return try decode(data)
  }

  private static func message(_ image: inout png_image, _ what: String) -> String {
    let m = withUnsafeBytes(of: &image.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    png_image_free(&image)
    return m.isEmpty ? what + " failed" : "\(what): \(m)"
  }
}
