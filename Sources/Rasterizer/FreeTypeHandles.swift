import CFreeType
import Typesetting

/// Owns one `FT_Library`; freed when the last face using it goes.
final class FreeTypeLibrary {
  let handle: FT_Library

  init() throws {
    var lib: FT_Library?
    guard FT_Init_FreeType(&lib) == 0, let lib else {
      throw RasterizerError.freeType("FT_Init_FreeType failed")
    }
    handle = lib
  }

  deinit { FT_Done_FreeType(handle) }
}

/// Owns one `FT_Face` opened over a ``Font``'s bytes (the font is kept alive with it).
final class FreeTypeFace {
  let handle: FT_Face
  let font: Font
  let library: FreeTypeLibrary
  /// Whether glyphs come from a colour bitmap strike (CBDT/sbix): drawn scaled from `strikePPEM`.
  let isColorBitmap: Bool
  let strikePPEM: Double
  /// The pixel size last set with `FT_Set_Char_Size` (outline faces).
  var currentPixelSize = -1.0

  init(font: Font, library: FreeTypeLibrary) throws {
    self.font = font
    self.library = library
    var face: FT_Face?
    let err = font.withFileData { raw -> FT_Error in
      guard let base = raw.baseAddress, raw.count > 0 else { return -1 }
      return FT_New_Memory_Face(
        library.handle, base.assumingMemoryBound(to: FT_Byte.self), FT_Long(raw.count),
        FT_Long(font.faceIndex), &face)
    }
    guard err == 0, let face else {
      throw RasterizerError.freeType("\(font.name): FT_New_Memory_Face failed (\(err))")
    }
    handle = face
    if face.pointee.num_fixed_sizes > 0 && font.hasColorGlyphs && FT_Select_Size(face, 0) == 0 {
      isColorBitmap = true
      let ppem = Double(face.pointee.size.pointee.metrics.y_ppem)
      strikePPEM = font.bitmapStrikePPEM.map(Double.init) ?? (ppem > 0 ? ppem : 109)
    } else {
      isColorBitmap = false
      strikePPEM = 0
    }
  }

  deinit { FT_Done_Face(handle) }

  /// Sets the outline size in pixels per em (26.6 fixed point, 72 dpi: points = pixels).
  func setPixelSize(_ px: Double) {
    guard !isColorBitmap, px != currentPixelSize else { return }
    FT_Set_Char_Size(handle, 0, FT_F26Dot6((px * 64).rounded()), 72, 72)
    currentPixelSize = px
  }
}

/// What can go wrong while rasterizing.
public enum RasterizerError: Error, CustomStringConvertible, Sendable {
  /// FreeType refused (the message says which call).
  case freeType(String)

  /// A readable message.
  public var description: String {
    switch self {
    case .freeType(let m): return "FreeType: \(m)"
    }
  }
}
