@_exported import Geometry

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
