import Geometry

/// The box of the device pixels touched so far, for the ink a drawing call reports back in
/// points (glyphs drawn, a region's ink).
struct PixelBounds {
  private var minX = Int.max
  private var minY = Int.max
  private var maxX = Int.min
  private var maxY = Int.min

  /// Takes pixel (`x`, `y`) into the box.
  mutating func add(_ x: Int, _ y: Int) {
    minX = min(minX, x)
    maxX = max(maxX, x)
    minY = min(minY, y)
    maxY = max(maxY, y)
  }

  /// The box in points at `scale` pixels per point (nil when no pixel was added).
  func rect(scale: Double) -> Rect? {
    guard minX <= maxX else { return nil }
    return Rect(
      x: Double(minX) / scale, y: Double(minY) / scale, width: Double(maxX - minX + 1) / scale,
      height: Double(maxY - minY + 1) / scale)
  }
}
