/// The device-pixel grid sizes are rounded to, `scale` pixels per point: the one rule for
/// rounding a length to whole pixels (text heights, cell sizes, chat bubbles), with the one
/// tolerance for floating-point noise.
public enum PixelGrid {
  /// Noise ignored when rounding, in pixels: a sum of widths that lands a hair past a pixel
  /// boundary is on it.
  public static let noise = 1e-6

  /// The whole pixels `value` points cover (a size never shrinks: rounded up).
  @inlinable public static func pixelsCovering(_ value: Double, scale: Double) -> Double {
    (value * scale - noise).rounded(.up)
  }

  /// The whole pixels within `value` points (a limit is never passed: rounded down).
  @inlinable public static func pixelsWithin(_ value: Double, scale: Double) -> Double {
    (value * scale + noise).rounded(.down)
  }

  /// `value` rounded up to the grid, in points (unchanged where `scale` is not positive).
  @inlinable public static func roundedUp(_ value: Double, scale: Double) -> Double {
    scale > 0 ? pixelsCovering(value, scale: scale) / scale : value
  }
}
