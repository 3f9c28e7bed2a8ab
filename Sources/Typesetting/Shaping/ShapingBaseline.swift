import CHarfBuzz

/// The HarfBuzz runs behind a set of prepared texts, to be shaped again with nothing else around
/// them: the floor against which the cost of `prepare` is measured.
package final class ShapingBaseline: @unchecked Sendable {
  // @unchecked: immutable after init; `shapeAll` makes its own buffer.
  struct Item {
    var text: [UInt32]
    var font: Font
    var rtl: Bool
    var script: hb_script_t
    var language: hb_language_t?
    var features: [hb_feature_t]
  }

  let items: [Item]

  init(items: [Item]) { self.items = items }

  /// Number of runs.
  package var runCount: Int { items.count }

  /// Shapes every run once with one reused buffer, as a bare HarfBuzz client would, and returns
  /// the total advance in font units (so that the work cannot be optimised away).
  package func shapeAll() -> Int {
    let buffer = hb_buffer_create()!
    defer { hb_buffer_destroy(buffer) }
    var total = 0
    for item in items {
      hb_buffer_clear_contents(buffer)
      item.text.withUnsafeBufferPointer { p in
        hb_buffer_add_utf32(buffer, p.baseAddress, Int32(p.count), 0, Int32(p.count))
      }
      hb_buffer_set_direction(buffer, item.rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
      hb_buffer_set_script(buffer, item.script)
      if let l = item.language { hb_buffer_set_language(buffer, l) }
      item.features.withUnsafeBufferPointer { f in
        hb_shape(item.font.hbFont, buffer, f.baseAddress, UInt32(f.count))
      }
      var count: UInt32 = 0
      let positions = hb_buffer_get_glyph_positions(buffer, &count)!
      for k in 0..<Int(count) { total &+= Int(positions[k].x_advance) }
    }
    return total
  }
}
