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

/// An axis-aligned rectangle in points (y grows downwards): a layout's frames and a picture's
/// boxes alike.
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
  /// The smallest rectangle holding both.
  public func union(_ o: Rect) -> Rect {
    let x0 = min(minX, o.minX)
    let y0 = min(minY, o.minY)
    return Rect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
  }
  /// Whether `o` lies inside this rectangle, allowing `tolerance` points on every side.
  public func contains(_ o: Rect, tolerance: Double = 0) -> Bool {
    o.minX >= minX - tolerance && o.minY >= minY - tolerance && o.maxX <= maxX + tolerance
      && o.maxY <= maxY + tolerance
  }
  /// `[x, y, width, height]` for debugging.
  public var description: String {
    "[\(fmt(minX)), \(fmt(minY)), \(fmt(width)), \(fmt(height))]"
  }
}

/// Formats a number compactly: rounded to 1e-6, no trailing zeros, integers without a decimal point.
package func fmt(_ value: Double) -> String {
  guard value.isFinite else { return value.isNaN ? "null" : (value > 0 ? "1e308" : "-1e308") }
  var r = (value * 1_000_000).rounded() / 1_000_000
  if r == 0 { r = 0 }  // no "-0"
  if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
  var s = String(format: "%.6f", r)
  while s.hasSuffix("0") { s.removeLast() }
  if s.hasSuffix(".") { s.removeLast() }
  return s
}
