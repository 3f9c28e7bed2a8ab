import CHarfBuzz
import CICUShims

/// The scripts a code point may be set in, as ``ScriptRuns`` reads them: its Script_Extensions
/// (Unicode 17.0, ``ScriptExtensionsData``) in Chromium's order of preference
/// (`ICUScriptData::GetScripts`): its own script first; for a Common code point with several,
/// the one of lowest ICU script code, Latin last; katakana as hiragana (one OpenType
/// script; Chromium lists it as hiragana, then katakana, which no set tells apart but those
/// of a few marks). Code points of the
/// Basic Multilingual Plane with extensions or a paired bracket are listed once in a table.
enum ScriptSets {
  /// A code point with extensions, several scripts or a bracket type.
  struct Special: Hashable {
    var scripts: [hb_script_t]
    /// 0 none, 1 opening, 2 closing.
    var bracket: UInt8
  }

  /// What ``table`` holds for a code point: below `special`, its one script's index in
  /// `scripts` (no bracket, no extensions; ``ScriptTable``'s index); from `special` on, `special` + its entry in
  /// `entries`; `beyond` for a code point past the Basic Multilingual Plane.
  static let special: UInt16 = 0x8000
  static let beyond: UInt16 = 0xFFFF

  /// Per BMP code point, what ``ScriptRuns`` reads of it (see ``special``). Made once a
  /// process, from the ranges of the few code points that are special: ScriptTable's bytes
  /// for all the others.
  static let table: (kinds: [UInt16], scripts: [hb_script_t], entries: [Special]) = {
    // A code point of one script takes ScriptTable's index of it (katakana read as hiragana).
    let plain = ScriptTable.scripts.map { $0 == HB_SCRIPT_KATAKANA ? HB_SCRIPT_HIRAGANA : $0 }
    var bracket = [UInt8](repeating: 0, count: 0x10000)
    var special: [Int] = []
    let brackets = pairedBrackets()
    for r in stride(from: 0, to: brackets.count, by: 2) {
      bracket[Int(brackets[r])] = UInt8(clamping: brackets[r + 1])
      special.append(Int(brackets[r]))
    }
    let ranges = ScriptExtensionsData.ranges
    for r in stride(from: 0, to: ranges.count, by: 3) where ranges[r] < 0x10000 {
      special.append(contentsOf: Int(ranges[r])...Int(min(ranges[r + 1], 0xFFFF)))
    }
    var entries: [Special] = []
    var known: [Special: UInt16] = [:]
    var kinds: [UInt16] = []
    ScriptTable.withLookup { lookup in
      kinds = lookup.index.map { UInt16($0) }
      // (In code point order, each once: an entry's index is its first code point's order.)
      for c in Set(special).sorted() {
        let entry = Special(scripts: scripts(of: UInt32(c), table: lookup), bracket: bracket[c])
        if let k = known[entry] {
          kinds[c] = ScriptSets.special + k
        } else {
          known[entry] = UInt16(entries.count)
          kinds[c] = ScriptSets.special + UInt16(entries.count)
          entries.append(entry)
        }
      }
    }
    return (kinds, plain, entries)
  }()

  /// ICU's paired brackets of the BMP, each code point then its type
  /// (``galley_paired_brackets``).
  static func pairedBrackets() -> [UInt32] {
    var out = [UInt32](repeating: 0, count: 512)
    let n = galley_paired_brackets(&out, Int32(out.count))
    if n > out.count {
      out = [UInt32](repeating: 0, count: Int(n))
      _ = galley_paired_brackets(&out, Int32(out.count))
    }
    return Array(out.prefix(Int(n)))
  }

  /// The scripts of `c` in order of preference.
  static func scripts(of c: UInt32, table: ScriptTable.Lookup) -> [hb_script_t] {
    let own = table.script(of: c)
    let primary = own == HB_SCRIPT_KATAKANA ? HB_SCRIPT_HIRAGANA : own
    guard var list = extensions(of: c) else { return [primary] }
    if primary == list[0] { return list }
    if !isCommonOrInherited(primary) {
      // Its own script first.
      if let k = list.firstIndex(of: primary) {
        list.swapAt(0, k)
      } else {
        list.append(primary)
        list.swapAt(0, list.count - 1)
      }
      return list
    }
    if primary == HB_SCRIPT_COMMON {
      if list.count == 1 { return [HB_SCRIPT_COMMON, list[0]] }
      preferFirst(&list, from: 0)
      return list
    }
    // Inherited: it first, then the preferred of the others.
    list.append(list[0])
    list[0] = HB_SCRIPT_INHERITED
    preferFirst(&list, from: 1)
    return list
  }

  /// Swaps the lowest ICU script code among `list[at...]` into `list[at]`, Latin only when
  /// alone (Chromium's order of preference for a Common or Inherited code point).
  private static func preferFirst(_ list: inout [hb_script_t], from at: Int) {
    for i in (at + 1)..<list.count
    where list[at] == HB_SCRIPT_LATIN || icuCode(list[i]) < icuCode(list[at]) {
      list.swapAt(at, i)
    }
  }

  /// `c`'s Script_Extensions when it has more than its script, in ICU's order (by script code).
  static func extensions(of c: UInt32) -> [hb_script_t]? {
    let ranges = ScriptExtensionsData.ranges
    var lo = 0
    var hi = ranges.count / 3
    while lo < hi {
      let mid = (lo + hi) / 2
      if ranges[3 * mid + 1] < c { lo = mid + 1 } else { hi = mid }
    }
    guard lo < ranges.count / 3, ranges[3 * lo] <= c else { return nil }
    return sets[Int(ranges[3 * lo + 2])]
  }

  /// ``ScriptExtensionsData/sets`` as HarfBuzz scripts in ICU's order.
  private static let sets: [[hb_script_t]] = named.map { set in
    set.map { ($0, icuCode($0)) }.sorted { $0.1 < $1.1 }.map { $0.0 }
  }

  /// ``ScriptExtensionsData/sets`` as HarfBuzz scripts, as listed.
  private static let named: [[hb_script_t]] = ScriptExtensionsData.sets.map { codes in
    codes.utf8.split(separator: UInt8(ascii: " ")).map { code in
      hb_script_from_iso15924_tag(code.reduce(0) { $0 << 8 | hb_tag_t($1) })
    }
  }

  /// ICU's script code of `s` (scripts newer than the system's ICU after all others): of the
  /// scripts the sets name, looked up once.
  static func icuCode(_ s: hb_script_t) -> Int32 {
    codes[s.rawValue] ?? lookUpCode(s)
  }

  private static let codes: [UInt32: Int32] = {
    var codes: [UInt32: Int32] = [:]
    for set in named {
      for s in set where codes[s.rawValue] == nil { codes[s.rawValue] = lookUpCode(s) }
    }
    return codes
  }()

  private static func lookUpCode(_ s: hb_script_t) -> Int32 {
    let tag = hb_script_to_iso15924_tag(s)
    // (The four letters and a NUL, on the stack.)
    let code = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 5) { name in
      for k in 0..<4 { name[k] = CChar(truncatingIfNeeded: tag >> (24 - 8 * k)) }
      name[4] = 0
      return galley_script_code(name.baseAddress!)
    }
    return code >= 0 ? code : 10_000 + Int32(bitPattern: tag >> 8 & 0xFFFF)
  }

  static func isCommonOrInherited(_ s: hb_script_t) -> Bool {
    s == HB_SCRIPT_COMMON || s == HB_SCRIPT_INHERITED
  }

  /// Han and the scripts written with it that Chromium groups with it (hiragana, bopomofo).
  static func isHanLike(_ s: hb_script_t) -> Bool {
    s == HB_SCRIPT_HAN || s == HB_SCRIPT_HIRAGANA || s == HB_SCRIPT_BOPOMOFO
  }

  /// The scripts of East Asian punctuation: the extensions of U+300C LEFT CORNER BRACKET.
  static let hanLike: [hb_script_t] = extensions(of: 0x300C) ?? [HB_SCRIPT_HAN]
}
