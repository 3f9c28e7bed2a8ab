import CHarfBuzz

/// The Unicode script of every BMP code point as HarfBuzz gives it, in one byte per code point
/// (an index into the scripts met), made once: preparing text asks it for every character.
enum ScriptTable {
  private static let table: (index: [UInt8], scripts: [hb_script_t]) = {
    let funcs = hb_unicode_funcs_get_default()
    var index = [UInt8](repeating: 0, count: 0x10000)
    var scripts: [hb_script_t] = []
    var known: [hb_script_t: UInt8] = [:]
    // (Neighbouring code points mostly share a script: the last one is checked before hashing.)
    var last: (script: hb_script_t, index: UInt8)? = nil
    for c in 0..<0x10000 {
      let s = hb_unicode_script(funcs, hb_codepoint_t(c))
      if let last, last.script == s {
        index[c] = last.index
      } else if let k = known[s] {
        index[c] = k
        last = (s, k)
      } else {
        // (Unicode has fewer than 256 scripts.)
        precondition(scripts.count < 256, "more scripts than a byte can index")
        known[s] = UInt8(scripts.count)
        index[c] = UInt8(scripts.count)
        last = (s, UInt8(scripts.count))
        scripts.append(s)
      }
    }
    return (index, scripts)
  }()

  /// The table read in place (a loop over a text's characters reads it once).
  struct Lookup {
    let index: UnsafeBufferPointer<UInt8>
    let scripts: UnsafeBufferPointer<hb_script_t>

    /// The script of `c`.
    func script(of c: UInt32) -> hb_script_t {
      c < 0x10000
        ? scripts[Int(index[Int(c)])] : hb_unicode_script(hb_unicode_funcs_get_default(), c)
    }
  }

  /// The scripts the table's bytes index.
  static var scripts: [hb_script_t] { table.scripts }

  /// Calls `body` with the table.
  static func withLookup<R>(_ body: (Lookup) -> R) -> R {
    let t = table
    return t.index.withUnsafeBufferPointer { index in
      t.scripts.withUnsafeBufferPointer { body(Lookup(index: index, scripts: $0)) }
    }
  }

  /// The script of `c`.
  static func script(of c: UInt32) -> hb_script_t {
    withLookup { $0.script(of: c) }
  }
}
