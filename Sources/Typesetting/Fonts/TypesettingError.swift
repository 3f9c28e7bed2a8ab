/// Every failure the text engine reports. Each case names what was wrong, so that a batch run can
/// write it as an error record and go on.
public enum TypesettingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A font file could not be read (missing, unreadable, a directory).
  case fontFileUnreadable(path: String, reason: String)
  /// Font data was read but is not a usable font (truncated, corrupt, no glyphs, no `cmap`).
  case fontInvalid(name: String, reason: String)
  /// A face index beyond the number of faces in a collection.
  case fontFaceIndexOutOfRange(name: String, index: Int, count: Int)
  /// A font name that is not in the font directory.
  case fontNotFound(name: String, directory: String)
  /// A font named by a path that leaves the font directory, in a library that allows none
  /// (said the same whether or not such a file exists).
  case fontOutsideDirectory(name: String, directory: String)
  /// A style with no font in its stack.
  case emptyFontStack
  /// A font size that is not a number greater than zero and at most ``TextStyle/maximumLength``.
  case invalidFontSize(Double)
  /// A layout width that is NaN, infinite, zero or negative.
  case invalidWidth(Double)
  /// A style value that is out of range (negative line height or tab size, …).
  case invalidStyle(String)
  /// A text longer than ``Typesetter/maximumTextBytes`` of UTF-8 (the bytes given).
  case textTooLong(Int)
  /// A shaping mode that is neither `harfbuzz` nor `accelerated` (the value given).
  case invalidShapingMode(String)
  /// An ICU call failed.
  case icu(function: String, code: Int32)

  /// The error as one line of text.
  public var description: String {
    switch self {
    case .fontFileUnreadable(let path, let reason):
      return "cannot read font file \(path): \(reason)"
    case .fontInvalid(let name, let reason): return "invalid font \(name): \(reason)"
    case .fontFaceIndexOutOfRange(let name, let index, let count):
      return "font \(name) has \(count) face(s); face index \(index) is out of range"
    case .fontNotFound(let name, let directory): return "font \(name) not found in \(directory)"
    case .fontOutsideDirectory(let name, let directory):
      return "font \(name) is outside the font directory \(directory) "
        + "(fonts are named by file name there; paths elsewhere must be allowed)"
    case .emptyFontStack: return "the font stack is empty"
    case .invalidFontSize(let size):
      return
        "font size must be a number > 0 and at most \(Int(TextStyle.maximumLength)) (got \(size))"
    case .invalidWidth(let width): return "width must be a finite number > 0 (got \(width))"
    case .invalidStyle(let message): return "invalid style: \(message)"
    case .icu(let function, let code): return "ICU \(function) failed with code \(code)"
    case .textTooLong(let bytes):
      return
        "text of \(bytes) bytes is too long (the limit is \(Typesetter.maximumTextBytes) bytes)"
    case .invalidShapingMode(let value):
      return "shaping must be harfbuzz or accelerated (got '\(value)')"
    }
  }
}
