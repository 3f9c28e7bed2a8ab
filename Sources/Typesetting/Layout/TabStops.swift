/// Tab stops as CSS `tab-size` sets them: every `tabSize` spaces (a space's advance with its
/// letter spacing) from the start of the line; a tab less than half a space from the next stop
/// goes to the one after. Laying out and estimating both ask this one rule.
package enum TabStops {
  /// The advance of a tab at `position` on its line.
  @inlinable
  package static func advance(
    at position: Double, space: Double, tabSize: Int, letterSpacing: Double
  ) -> Double {
    let base = Double(tabSize) * space
    guard base > 0 else { return letterSpacing }
    var distance = base - position.truncatingRemainder(dividingBy: base)
    if distance < space / 2 { distance += base }
    return distance
  }
}
