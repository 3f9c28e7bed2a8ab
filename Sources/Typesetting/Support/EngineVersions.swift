import CFontconfig
import CFreeType
import CHarfBuzz
import CICUShims

/// The versions of the libraries the text engine runs on in this process (as loaded, not as
/// compiled against): what a bug report or a result that differs between machines needs.
public enum EngineVersions {
  /// Galley's own version: what `galley version`, `galley_version()` and the Python package
  /// say. galley.pc and python/pyproject.toml state it too (a test holds them to this).
  public static let galley = "0.1.0"

  /// HarfBuzz's `hb_version_string()`.
  public static let harfBuzz = String(cString: hb_version_string())

  /// FreeType's `FT_Library_Version` ("2.12.1"), or "unknown" when no library can be made.
  public static let freeType: String = {
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else { return "unknown" }
    defer { FT_Done_FreeType(library) }
    var major: FT_Int = 0
    var minor: FT_Int = 0
    var patch: FT_Int = 0
    FT_Library_Version(library, &major, &minor, &patch)
    return "\(major).\(minor).\(patch)"
  }()

  /// fontconfig's `FcGetVersion` ("2.14.1"), which ranks the fonts of system fallback.
  public static var fontconfig: String {
    let v = Int(FcGetVersion())
    return "\(v / 10000).\(v / 100 % 100).\(v % 100)"
  }

  /// ICU's `u_getVersion` ("72.1").
  public static var icu: String { String(cString: galley_icu_version()) }

  /// The Unicode version ICU implements ("15.0").
  public static var unicode: String { String(cString: galley_unicode_version()) }
}
