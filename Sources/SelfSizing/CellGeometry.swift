import Typesetting
import CompositionalLayout
import Geometry

/// Insets of a cell's content, in points (the layout model's insets: top, leading, bottom, trailing).
public typealias Padding = DirectionalEdgeInsets

/// A cell's width and height in points (the layout model's size).
public typealias CellSize = Size

extension DirectionalEdgeInsets {
  /// The same inset on every edge.
  public init(all v: Double) { self.init(top: v, leading: v, bottom: v, trailing: v) }

  var horizontal: Double { leading + trailing }
  var vertical: Double { top + bottom }
}

/// What measuring a cell found.
public struct CellMeasurement: Hashable, Sendable {
  /// The cell's size, rounded up to whole device pixels (1/scale).
  public var size: CellSize
  /// Lines of the main text.
  public var lines: Int
  /// Height of the main text, exact.
  public var textHeight: Double
  /// Whether `maxLines` cut the main text.
  public var truncated: Bool
  /// Where the timestamp went, for a bubble that has one.
  public var timestampPlacement: TimestampPlacement?
  /// Characters of the cell's texts that no font of their stacks has (drawn as tofu, and
  /// measured so): a size that is wrong for a known reason says so.
  public var missingCharacters: [Unicode.Scalar] = []
}

/// Where a bubble's timestamp sits.
public enum TimestampPlacement: String, Hashable, Sendable {
  /// On the last line of the text, after it, when there is room (as common messengers do).
  case inline
  /// On a line of its own below the text.
  case below
}

/// Why a cell cannot be measured.
public enum CellError: Error, Equatable, Sendable, CustomStringConvertible {
  case missingField(String)
  case unknownField(String)
  case wrongType(String, String)
  case invalidValue(String, String)
  case unknownTemplate(String)
  /// The text engine's error for one of the cell's texts (a font not found, a style out of
  /// range, a text too long), with its case.
  case text(TypesettingError)

  /// The error as one line of text.
  public var description: String {
    switch self {
    case .missingField(let f): return "missing field \"\(f)\""
    case .unknownField(let f): return "unknown field \"\(f)\""
    case .wrongType(let f, let t): return "field \"\(f)\" must be \(t)"
    case .invalidValue(let f, let why): return "field \"\(f)\": \(why)"
    case .unknownTemplate(let t):
      return "unknown template \"\(t)\" (expected \"bubble\" or \"productCard\")"
    case .text(let e): return e.description
    }
  }
}

/// The bounds of a cell's numbers, checked by every cell's `validate()`: lengths are finite,
/// at least 0 and at most ``TextStyle/maximumLength`` (so that every size a cell gives is a
/// finite number), and a display scale rounds to a grid between 1/100 and 10 points.
package enum CellLimits {
  /// Pixels per point a cell may round to.
  static let scales: ClosedRange<Double> = 0.1...100
  /// Image aspect ratios (width / height) a card may have.
  static let aspectRatios: ClosedRange<Double> = 1e-3...1e3

  /// Checks a length: finite, > 0 (or ≥ 0 when `zeroAllowed`), at most the longest length.
  /// (The field's name is made only for the error: a valid cell, the usual one, makes none.)
  package static func length(
    _ value: Double, _ field: @autoclosure () -> String, zeroAllowed: Bool = false
  ) throws {
    guard value.isFinite, zeroAllowed ? value >= 0 : value > 0 else {
      throw CellError.invalidValue(
        field(), "must be a number \(zeroAllowed ? ">=" : ">") 0 (got \(value))")
    }
    guard value <= TextStyle.maximumLength else {
      throw CellError.invalidValue(
        field(), "must be at most \(Int(TextStyle.maximumLength)) (got \(value))")
    }
  }

  /// Checks each inset of a padding (`padding.top`, …).
  static func padding(_ p: Padding, _ field: String) throws {
    try length(p.top, "\(field).top", zeroAllowed: true)
    try length(p.leading, "\(field).leading", zeroAllowed: true)
    try length(p.bottom, "\(field).bottom", zeroAllowed: true)
    try length(p.trailing, "\(field).trailing", zeroAllowed: true)
  }

  /// Checks a display scale.
  static func scale(_ value: Double, _ field: String) throws {
    guard value.isFinite, scales.contains(value) else {
      throw CellError.invalidValue(
        field,
        "must be from \(scales.lowerBound) to \(Int(scales.upperBound)) pixels per point "
          + "(got \(value))")
    }
  }
}

/// `value` rounded up to a multiple of 1/scale (``PixelGrid``).
func roundUp(_ value: Double, scale: Double) -> Double {
  PixelGrid.roundedUp(value, scale: scale)
}
