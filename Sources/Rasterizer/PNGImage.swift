import CPNG
import Foundation

/// Owns one libpng simplified-API control structure; `png_image_free` releases whatever libpng
/// still holds (a no-op once a read or write has finished).
final class PNGControl {
  var image = png_image()

  init() {
    image.version = UInt32(PNG_IMAGE_VERSION)
  }

  deinit { png_image_free(&image) }

  /// libpng's message for the last failure.
  func message(_ what: String) -> String {
    let m = withUnsafeBytes(of: &image.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    return m.isEmpty ? what + " failed" : "\(what): \(m)"
  }
}

/// PNG files through libpng's simplified API (`png_image_*`: no setjmp, errors as messages).
public enum PNGImage {
  /// The version of the libpng this process runs (`png_access_version_number`: 10639 is
  /// "1.6.39").
  public static var libpngVersion: String {
    let v = Int(png_access_version_number())
    return "\(v / 10_000).\(v / 100 % 100).\(v % 100)"
  }

  /// A decoded image: straight-alpha RGBA, rows top to bottom.
  public struct Bitmap: Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width × height × 4` bytes, straight alpha.
    public var rgba: [UInt8]

    /// The pixel at (x, y).
    public func color(x: Int, y: Int) -> Color {
      let i = (y * width + x) * 4
      return Color(r: rgba[i], g: rgba[i + 1], b: rgba[i + 2], a: rgba[i + 3])
    }
  }

  /// Why a PNG could not be read or written (libpng's message).
  public struct Failure: Error, CustomStringConvertible {
    /// What went wrong.
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

  /// Encodes `canvas` as an 8-bit RGBA PNG (straight alpha).
  /// - Complexity: O(pixels).
  public static func encode(_ canvas: Canvas) throws -> Data {
    let control = PNGControl()
    control.image.width = UInt32(canvas.pixelWidth)
    control.image.height = UInt32(canvas.pixelHeight)
    control.image.format = galley_png_format_rgba
    let px = straight(canvas)
    var size: png_alloc_size_t = 0
    let stride = Int32(canvas.pixelWidth * 4)
    // First call: the size needed.
    let ok1 = px.withUnsafeBufferPointer { p in
      png_image_write_to_memory(&control.image, nil, &size, 0, p.baseAddress, stride, nil)
    }
    guard ok1 != 0, size > 0 else { throw Failure(description: control.message("PNG size")) }
    var out = Data(count: Int(size))
    let ok2 = out.withUnsafeMutableBytes { o in
      px.withUnsafeBufferPointer { p in
        png_image_write_to_memory(
          &control.image, o.baseAddress, &size, 0, p.baseAddress, stride, nil)
      }
    }
    guard ok2 != 0 else { throw Failure(description: control.message("PNG encoding")) }
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
    let control = PNGControl()
    let ok = data.withUnsafeBytes { d in
      png_image_begin_read_from_memory(&control.image, d.baseAddress, d.count)
    }
    guard ok != 0 else { throw Failure(description: control.message("not a PNG")) }
    control.image.format = galley_png_format_rgba
    let w = Int(control.image.width)
    let h = Int(control.image.height)
    var rgba = [UInt8](repeating: 0, count: w * h * 4)
    let ok2 = rgba.withUnsafeMutableBufferPointer { p in
      png_image_finish_read(&control.image, nil, p.baseAddress, Int32(w * 4), nil)
    }
    guard ok2 != 0 else { throw Failure(description: control.message("PNG decoding")) }
    return Bitmap(width: w, height: h, rgba: rgba)
  }

  /// Decodes the PNG file at `path`.
  public static func read(_ path: String) throws -> Bitmap {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(description: "\(path): cannot be read")
    }
    return try decode(data)
  }
}
