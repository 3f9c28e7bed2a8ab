import CHarfBuzz

/// Shapes runs of text with HarfBuzz's OpenType functions and reports advances per code point.
///
/// One `hb_buffer_t` per shaper; a shaper is used by one thread at a time (``Typesetter`` keeps
/// one per thread).
final class Shaper {
  private let buffer: OpaquePointer
  /// When set, every shaped run is recorded (for ``ShapingBaseline``).
  var recorder: ((ShapingBaseline.Item) -> Void)? = nil

  init() {
    buffer = hb_buffer_create()!
  }

  deinit {
    hb_buffer_destroy(buffer)
  }

  /// A run: code points `[start, end)` of `text`, all in one font, direction and script.
  struct Run {
    var start: Int
    var end: Int
    var font: Font
    var rtl: Bool
    var script: hb_script_t
  }

  /// Adds the advance (in points) of every glyph of `run` to `advances[cluster]`, where the cluster
  /// is the index of the code point the glyph came from.
  func shape(
    _ text: [UInt32], run: Run, size: Double, language: hb_language_t?, features: [hb_feature_t],
    into advances: inout [Double]
  ) {
    if let recorder {
      recorder(
        .init(
          text: Array(text[run.start..<run.end]), font: run.font, rtl: run.rtl, script: run.script,
          language: language, features: features))
    }
    hb_buffer_clear_contents(buffer)
    text.withUnsafeBufferPointer { p in
      hb_buffer_add_utf32(
        buffer, p.baseAddress, Int32(p.count), UInt32(run.start), Int32(run.end - run.start))
    }
    hb_buffer_set_direction(buffer, run.rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
    hb_buffer_set_script(buffer, run.script)
    if let language { hb_buffer_set_language(buffer, language) }
    hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES)
    features.withUnsafeBufferPointer { f in
      hb_shape(run.font.hbFont, buffer, f.baseAddress, UInt32(f.count))
    }
    var count: UInt32 = 0
    let infos = hb_buffer_get_glyph_infos(buffer, &count)!
    let positions = hb_buffer_get_glyph_positions(buffer, &count)!
    let font = run.font
    if let ppem = font.bitmapStrikePPEM, !font.bitmapAdvances.isEmpty {
      // Bitmap-only fonts are measured in whole pixels of their strike, then scaled.
      let scale = size / Double(ppem)
      for k in 0..<Int(count) {
        let g = Int(infos[k].codepoint)
        let adv = g < font.bitmapAdvances.count ? font.bitmapAdvances[g] : 0
        let hbAdv = Double(positions[k].x_advance)
        advances[Int(infos[k].cluster)] += hbAdv == 0 ? 0 : adv * scale
      }
    } else {
      let scale = size / Double(font.unitsPerEm)
      for k in 0..<Int(count) {
        advances[Int(infos[k].cluster)] += Double(positions[k].x_advance) * scale
      }
    }
  }

  /// The Unicode script of a code point.
  @inline(__always)
  static func script(of c: UInt32) -> hb_script_t {
    hb_unicode_script(hb_unicode_funcs_get_default(), c)
  }

  static func isCommonOrInherited(_ s: hb_script_t) -> Bool {
    s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED || s == HB_SCRIPT_UNKNOWN
  }

  /// Parses `["kern": 0, "ss01": 1]` into HarfBuzz features over the whole buffer.
  static func features(_ map: [String: UInt32]) -> [hb_feature_t] {
    map.sorted { $0.key < $1.key }.map { key, value in
      var tag: UInt32 = 0
      for b in key.utf8.prefix(4) { tag = (tag << 8) | UInt32(b) }
      for _ in min(key.utf8.count, 4)..<4 { tag = (tag << 8) | 0x20 }
      return hb_feature_t(tag: tag, value: value, start: 0, end: UInt32.max)
    }
  }
}
