import Foundation

/// A point in points, in a top-left origin coordinate space.
public struct Point: Hashable, Sendable {
  /// Horizontal coordinate.
  public var x: Double
  /// Vertical coordinate.
  public var y: Double
  /// Creates a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  /// The origin.
  public static let zero = Point(x: 0, y: 0)
}

/// A width and a height in points.
public struct Size: Hashable, Sendable {
  /// Horizontal extent.
  public var width: Double
  /// Vertical extent.
  public var height: Double
  /// Creates a size.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
  /// The empty size.
  public static let zero = Size(width: 0, height: 0)
}

/// An axis-aligned rectangle.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  /// Top-left corner.
  public var origin: Point
  /// Extent.
  public var size: Size
  /// Creates a rectangle from its origin and size.
  public init(x: Double, y: Double, width: Double, height: Double) {
    origin = Point(x: x, y: y)
    size = Size(width: width, height: height)
  }
  /// Creates a rectangle from an origin and a size.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }
  /// The empty rectangle at the origin.
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
  /// Left edge.
  public var minX: Double { origin.x }
  /// Top edge.
  public var minY: Double { origin.y }
  /// Right edge.
  public var maxX: Double { origin.x + size.width }
  /// Bottom edge.
  public var maxY: Double { origin.y + size.height }
  /// Horizontal centre.
  public var midX: Double { origin.x + size.width / 2 }
  /// Vertical centre.
  public var midY: Double { origin.y + size.height / 2 }
  /// Width.
  public var width: Double { size.width }
  /// Height.
  public var height: Double { size.height }
  /// Whether the two rectangles overlap or touch on a non-degenerate area (edges touching count, like `CGRect.intersects` for closed query rectangles).
  public func intersects(_ other: Rect) -> Bool {
    minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
  }
  /// The rectangle moved by `dx`, `dy`.
  public func offsetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
  }
  /// `[x, y, width, height]` for debugging.
  public var description: String {
    "[\(fmt(minX)), \(fmt(minY)), \(fmt(width)), \(fmt(height))]"
  }
}

/// Insets by leading/trailing edge, which flip in a right-to-left layout.
public struct DirectionalEdgeInsets: Hashable, Sendable {
  /// Top inset.
  public var top: Double
  /// Leading inset (left in left-to-right).
  public var leading: Double
  /// Bottom inset.
  public var bottom: Double
  /// Trailing inset (right in left-to-right).
  public var trailing: Double
  /// Creates insets.
  public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
    self.top = top
    self.leading = leading
    self.bottom = bottom
    self.trailing = trailing
  }
  /// No insets.
  public static let zero = DirectionalEdgeInsets()
  /// Whether every inset is zero.
  public var isZero: Bool { top == 0 && leading == 0 && bottom == 0 && trailing == 0 }
}

/// A layout axis.
public enum Axis: Sendable, Hashable {
  /// Left to right.
  case horizontal
  /// Top to bottom.
  case vertical
}

/// Formats a number compactly: rounded to 1e-6, no trailing zeros, integers without a decimal point.
func fmt(_ value: Double) -> String {
  guard value.isFinite else { return value.isNaN ? "null" : (value > 0 ? "1e308" : "-1e308") }
  var r = (value * 1_000_000).rounded() / 1_000_000
  if r == 0 { r = 0 }  // no "-0"
  if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
  var s = String(format: "%.6f", r)
  while s.hasSuffix("0") { s.removeLast() }
  if s.hasSuffix(".") { s.removeLast() }
  return s
}
