import CHarfBuzz
import CICUShims

/// The script each code point is shaped in, by Chromium's rule for script runs
/// (`ScriptRunIterator`, third_party/blink/renderer/platform/fonts/script_run_iterator.cc):
///
/// - a code point may belong to several scripts (its Script_Extensions, Unicode 17.0's as
///   Chromium 156's ICU has them: ``ScriptExtensionsData``); a run goes on while the sets it
///   meets share a script, keeping its first choice while it can;
/// - Common and Inherited code points go on with any run; katakana counts as hiragana (one
///   OpenType script);
/// - a closing bracket takes the script its opening bracket ended up in (an East Asian opening
///   bracket counts as Han-like), and an inherited mark with extensions after a common code point
///   lends that code point its scripts;
/// - a run's script is its set's first, or for a run of Common code points the first script a
///   "Common with a preferred script" code point named.
///
/// Unlike HarfBuzz's resolution of Common by the script before it, so U+00B7 MIDDLE DOT after
/// Hangul begins a run of its own (its extensions do not name Hangul): in Noto Sans CJK it
/// then takes the default forms, not the Korean ones.
package enum ScriptRuns {
  /// Sets the script of every code point of `text` in `scripts`.
  static func resolve(
    _ text: UnsafeBufferPointer<UInt32>, into scripts: UnsafeMutableBufferPointer<hb_script_t>,
    table lookup: ScriptTable.Lookup
  ) {
    let table = ScriptSets.table
    table.kinds.withUnsafeBufferPointer { kinds in
      table.scripts.withUnsafeBufferPointer { plain in
        table.entries.withUnsafeBufferPointer { entries in
          resolve(text, into: scripts, kinds: kinds, plain: plain, entries: entries, lookup: lookup)
        }
      }
    }
  }

  /// ``resolve(_:into:table:)`` over the tables lent to it.
  private static func resolve(
    _ text: UnsafeBufferPointer<UInt32>, into scripts: UnsafeMutableBufferPointer<hb_script_t>,
    kinds: UnsafeBufferPointer<UInt16>, plain: UnsafeBufferPointer<hb_script_t>,
    entries: UnsafeBufferPointer<ScriptSets.Special>, lookup: ScriptTable.Lookup
  ) {
    func kind(_ c: UInt32) -> UInt16 { ScriptRuns.kind(c, kinds) }
    func entry(_ c: UInt32, _ k: UInt16) -> Entry {
      if k < ScriptSets.special { return Entry(script: plain[Int(k)], many: nil, bracket: 0) }
      if k == ScriptSets.beyond {
        let set = ScriptSets.scripts(of: c, table: lookup)
        return Entry(script: set[0], many: set.count > 1 ? set : nil, bracket: 0)
      }
      let s = entries[Int(k - ScriptSets.special)]
      return Entry(script: s.scripts[0], many: s.scripts.count > 1 ? s.scripts : nil, bracket: s.bracket)
    }
    var state = State()
    var runStart = 0
    var inheritedNext = false  // the code point was lent to the one before (an inherited mark)
    var i = 0
    while i < text.count {
      if !inheritedNext && state.rest.isEmpty {
        i = plainStretchEnd(from: i, text, kinds: kinds, plain: plain, state: &state)
        if i == text.count { break }
      }
      defer { i += 1 }
      let c = text[i]
      let k = kind(c)
      let aheadKind = i + 1 < text.count ? kind(text[i + 1]) : 0
      if inheritedNext {
        inheritedNext = false
        continue
      }
      var ends: Bool
      var next: Entry
      if k | aheadKind < ScriptSets.special {
        // One script and no bracket, nor an inherited mark after it (most code points).
        let s = plain[Int(k)]
        if ScriptSets.isCommonOrInherited(s) { continue }
        if s == state.first && state.rest.isEmpty { continue }
        ends = !state.mergeOne(s)
        next = Entry(script: s, many: nil, bracket: 0)
      } else {
        next = entry(c, k)
        // One code point ahead: an inherited mark with extensions lends them to a common base.
        if i + 1 < text.count && aheadKind >= ScriptSets.special {
          let ahead = entry(text[i + 1], aheadKind)
          if let set = ahead.many, set[0] == HB_SCRIPT_INHERITED {
            if next.first == HB_SCRIPT_COMMON { next.many = Array(set.dropFirst()) }
            inheritedNext = true
          }
        }
        if next.bracket == 1 { state.open(c, &next) }
        if next.bracket == 2 { state.close(c, &next) }
        ends = !state.merge(next)
      }
      if ends {
        let script = state.resolved
        for k in runStart..<i { scripts[k] = script }
        state.fixUp(script, excludingLast: next.bracket == 1)
        state.start(next)
        runStart = i
      }
    }
    let script = state.resolved
    for k in runStart..<text.count { scripts[k] = script }
  }

  /// What ``ScriptSets/table`` says of `c` (``ScriptSets/beyond`` past the BMP).
  private static func kind(_ c: UInt32, _ kinds: UnsafeBufferPointer<UInt16>) -> UInt16 {
    c < 0x10000 ? kinds[Int(c)] : ScriptSets.beyond
  }

  /// Where the rule first needs more than a run of one script, from code point `start` on:
  /// the code points before it and the one after each are of one script with no bracket, and
  /// each goes on with the run (``State/mergeOne(_:)``, asked only of a script other than the
  /// run's that is neither Common nor Inherited). Most text is such stretches.
  private static func plainStretchEnd(
    from start: Int, _ text: UnsafeBufferPointer<UInt32>, kinds: UnsafeBufferPointer<UInt16>,
    plain: UnsafeBufferPointer<hb_script_t>, state: inout State
  ) -> Int {
    let n = text.count
    var i = start
    guard i < n else { return n }
    var k = kind(text[i], kinds)
    while k < ScriptSets.special {
      let ahead = i &+ 1 < n ? kind(text[i &+ 1], kinds) : 0
      if ahead >= ScriptSets.special { return i }
      let s = plain[Int(k)]
      if s != state.first && !ScriptSets.isCommonOrInherited(s) && !state.mergeOne(s) {
        return i
      }
      i &+= 1
      if i == n { return n }
      k = ahead
    }
    return i
  }

  /// What the rule reads of one code point: its scripts in priority order (`many`, or when
  /// there is one only, `script`) and its bracket type.
  struct Entry {
    var script: hb_script_t
    var many: [hb_script_t]?
    /// 0 none, 1 opening, 2 closing (Bidi_Paired_Bracket_Type).
    var bracket: UInt8

    init(script: hb_script_t, many: [hb_script_t]?, bracket: UInt8) {
      self.script = script
      self.many = many
      self.bracket = bracket
    }

    /// The first of its scripts.
    var first: hb_script_t { many?[0] ?? script }
  }

  /// The iterator's state between code points.
  struct State {
    /// The scripts the current run may still be in: its choice, then the others.
    var first = HB_SCRIPT_COMMON
    var rest: [hb_script_t] = []
    /// The script a run of Common code points takes (the first a "Common with a preferred
    /// script" code point named; kept for the whole text, as Chromium keeps it).
    var commonPreferred = HB_SCRIPT_COMMON
    /// Opening brackets met, each with the script its run resolved to (Common until then).
    var brackets: [(codePoint: UInt32, script: hb_script_t)] = []
    /// How many brackets on top of the stack opened in the current run.
    var fixupDepth = 0
    static let maxBrackets = 32

    var resolved: hb_script_t { first == HB_SCRIPT_COMMON ? commonPreferred : first }

    mutating func start(_ next: Entry) {
      if let set = next.many {
        first = set[0]
        rest = Array(set.dropFirst())
      } else {
        first = next.script
        rest = []
      }
    }

    /// Whether the run goes on with a code point of one script, `s`, neither Common nor
    /// Inherited (then `s` is the run's only script).
    mutating func mergeOne(_ s: hb_script_t) -> Bool {
      if first == s && rest.isEmpty { return true }
      guard ScriptSets.isCommonOrInherited(first) || first == s || rest.contains(s) else {
        return false
      }
      first = s
      if !rest.isEmpty { rest = [] }
      return true
    }

    /// Whether the run goes on with `next` (the current scripts made those it shares with it).
    mutating func merge(_ next: Entry) -> Bool {
      guard let set = next.many else {
        if ScriptSets.isCommonOrInherited(next.script) { return true }
        return mergeOne(next.script)
      }
      if ScriptSets.isCommonOrInherited(set[0]) {
        if set.count == 2 && ScriptSets.isCommonOrInherited(first)
          && commonPreferred == HB_SCRIPT_COMMON
        {
          commonPreferred = set[1]
        }
        return true
      }
      if ScriptSets.isCommonOrInherited(first) {
        start(next)
        return true
      }
      // Keep the run's choice if the code point has it, else the code point's first choice if
      // the run has it; then the others both have, in the run's order.
      var priority = first
      var hasPriority = set.contains(priority)
      if rest.isEmpty { return hasPriority }
      // (Nothing to drop: the run's scripts stay as they are, with no array made.)
      if hasPriority && rest.allSatisfy(set.contains) { return true }
      var others = set[...]
      if !hasPriority {
        priority = set[0]
        others = set.dropFirst()
        hasPriority = rest.contains(priority)
      }
      var kept: [hb_script_t] = hasPriority ? [priority] : []
      if !others.isEmpty {
        for s in rest where others.contains(s) { kept.append(s) }
      }
      guard let head = kept.first else { return false }
      first = head
      rest = Array(kept.dropFirst())
      return true
    }

    mutating func open(_ c: UInt32, _ next: inout Entry) {
      if brackets.count == State.maxBrackets {
        brackets.removeFirst()
        if fixupDepth == State.maxBrackets { fixupDepth -= 1 }
      }
      // East Asian punctuation counts as Han-like (so a run of CJK punctuation stays whole).
      if next.many == nil && next.script == HB_SCRIPT_COMMON && galley_is_east_asian(c) != 0 {
        next.many = ScriptSets.hanLike
      }
      brackets.append((c, HB_SCRIPT_COMMON))
      fixupDepth += 1
    }

    mutating func close(_ c: UInt32, _ next: inout Entry) {
      let target = galley_paired_bracket(c)
      guard let at = brackets.lastIndex(where: { $0.codePoint == target }) else { return }
      var script = brackets[at].script
      // Han-like scripts stay as the run has them (font features apply to runs of punctuation).
      if ScriptSets.isHanLike(script) {
        if ScriptSets.isHanLike(first) {
          script = first
        } else if let han = rest.first(where: ScriptSets.isHanLike) {
          script = han
        }
      }
      if script != HB_SCRIPT_COMMON {
        next.script = script
        next.many = nil
      }
      // (Chromium pops the brackets above the match and keeps the match.)
      let popped = brackets.count - 1 - at
      brackets.removeLast(popped)
      fixupDepth = max(0, fixupDepth - popped)
    }

    /// Gives the brackets opened in the run that ended the run's script.
    mutating func fixUp(_ script: hb_script_t, excludingLast: Bool) {
      var count = min(fixupDepth, brackets.count)
      guard count > 0 else { return }
      var k = brackets.count - 1
      if excludingLast {
        k -= 1
        count -= 1
        fixupDepth = 1
      } else {
        fixupDepth = 0
      }
      while count > 0 {
        brackets[k].script = script
        k -= 1
        count -= 1
      }
    }
  }
}

extension ScriptRuns {
  /// The script of each code point of `scalars`, as the engine shapes it (for readers that
  /// estimate without shaping).
  package static func scripts(of scalars: [UInt32]) -> [hb_script_t] {
    var scripts = [hb_script_t](repeating: HB_SCRIPT_COMMON, count: scalars.count)
    Itemization.resolveScripts(scalars, into: &scripts)
    return scripts
  }

  /// Whether `c` has Script_Extensions (so it may begin a run of its own where a character of
  /// one script would go on with the run).
  package static func hasExtensions(_ c: UInt32) -> Bool {
    ScriptSets.extensions(of: c) != nil
  }
}
