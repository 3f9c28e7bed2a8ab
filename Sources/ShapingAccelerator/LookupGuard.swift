import Typesetting
/// GSUB lookups after a direct plan's single substitutions: ligatures (type 4) and chained
/// contexts by coverage (type 6, format 3) — Inter's contextual alternates, say, which change a
/// parenthesis or a hyphen beside capitals or digits and nothing else.
///
/// A run goes direct when no rule of these lookups matches anywhere in it (then none of them
/// changes a glyph, and each sees the glyphs the run's single substitutions left: they come after
/// every single substitution of the plan, ``DirectPlan/make``), or when the only ones that match
/// form ligatures or call single substitutions that direct shaping applies itself
/// (``appliesDirectly``; the lookups after them then see what they made,
/// ``DirectPlan/applyGuarded(_:count:clusters:font:)``). Matching is plain
/// adjacency: every glyph of a direct run is a base glyph (or unclassed) in GDEF, which no
/// lookup flag but IgnoreBaseGlyphs (refused) skips, and HarfBuzz matches backtrack and
/// lookahead within the run only.
struct LookupGuard: Sendable {
  /// A ligature: the components after the first, and the glyph they form.
  struct Ligature: Sendable {
    let rest: [UInt16]
    let glyph: UInt16
  }

  enum Rule: Sendable {
    /// Per covered first glyph (coverage index): its ligatures, in the order HarfBuzz tries them.
    case ligatures(Coverage, [[Ligature]])
    /// A chained context by coverage.
    case chain(Chain)
  }

  /// Coverages of the glyphs before (nearest first), of the input and after; the lookups it
  /// calls, each at a glyph of the input (a rule that calls none — `ignore sub` — only keeps later
  /// subtables from trying the position).
  struct Chain: Sendable {
    let backtrack: [Coverage]
    let input: [Coverage]
    let lookahead: [Coverage]
    let calls: [Call]
    /// Whether it calls lookups at all. (Also the field where `Rule` keeps its case: otherwise
    /// Swift keeps it in the spare bits of `calls`' pointer, which LeakSanitizer then cannot
    /// follow.)
    let changes: Bool
  }

  /// A lookup a chained context calls at the glyph `index` of its input.
  struct Call: Sendable {
    let index: Int
    let lookup: UInt16
  }

  /// Per lookup, its subtables in order.
  let lookups: [[Rule]]
  /// Per lookup: whether direct shaping applies it itself — ligature subtables only, or chained
  /// contexts only that call single substitutions (``singles``) — with lookup flags that skip
  /// nothing a direct run can hold (see ``DirectPlan/make``).
  let appliesDirectly: [Bool]
  /// The single substitutions chained contexts call, by lookup index.
  let singles: [UInt16: [SingleSubstitution]]
  /// The glyphs at which some rule's input starts (a bit per glyph id; 1,024 words).
  let starts: [UInt64]

  /// The ligatures of the ligature set at `set` (nil: unreadable, or past the work allowed).
  /// (HarfBuzz matches at most 64 glyphs of context: a longer rule is refused here.)
  static func ligatureSet(_ t: TableBytes, at set: Int, _ work: LookupRequirements.Work)
    -> [Ligature]?
  {
    guard let count = t.u16(set), work.spend(Int(count)) else { return nil }
    var ligatures: [Ligature] = []
    for l in 0..<Int(count) {
      guard let lig = t.offset(set, 2 + 2 * l), let glyph = t.u16(lig),
        let components = t.u16(lig + 2), components >= 1, components <= 64,
        work.spend(Int(components))
      else { return nil }
      var rest: [UInt16] = []
      for c in 1..<Int(components) {
        guard let g = t.u16(lig + 2 + 2 * c) else { return nil }
        rest.append(g)
      }
      ligatures.append(Ligature(rest: rest, glyph: glyph))
    }
    return ligatures
  }

  var isEmpty: Bool { lookups.isEmpty }
  /// Whether some lookup is applied directly.
  var appliesAny: Bool { appliesDirectly.contains(true) }
  /// Reads the subtables of one lookup (type and position, extensions unwrapped), or nil when
  /// one is of a kind not known here or cannot be read within `work`.
  static func rules(
    _ t: TableBytes, subtables: [(type: Int, at: Int)], work: LookupRequirements.Work
  ) -> [Rule]? {
    var rules: [Rule] = []
    for sub in subtables {
      guard let format = t.u16(sub.at) else { return nil }
      switch (sub.type, format) {
      case (4, 1):
        guard let cov = t.offset(sub.at, 2), let coverage = Coverage(t, at: cov),
          let setCount = t.u16(sub.at + 4), work.spend(coverage.size + Int(setCount))
        else { return nil }
        var sets: [[Ligature]] = []
        for s in 0..<Int(setCount) {
          guard let set = t.offset(sub.at, 6 + 2 * s), let ligatures = ligatureSet(t, at: set, work)
          else { return nil }
          sets.append(ligatures)
        }
        rules.append(.ligatures(coverage, sets))
      case (6, 3):
        func coverages(at field: Int) -> (list: [Coverage], next: Int)? {
          guard let count = t.u16(sub.at + field) else { return nil }
          var list: [Coverage] = []
          for k in 0..<Int(count) {
            guard let at = t.offset(sub.at, field + 2 + 2 * k), let c = Coverage(t, at: at),
              work.spend(c.size)
            else { return nil }
            list.append(c)
          }
          return (list, field + 2 + 2 * Int(count))
        }
        guard let back = coverages(at: 2), let input = coverages(at: back.next),
          !input.list.isEmpty, input.list.count <= 64, back.list.count <= 64,
          let ahead = coverages(at: input.next), ahead.list.count <= 64,
          let count = t.u16(sub.at + ahead.next), work.spend(Int(count)),
          // HarfBuzz stops calling lookups when a budget of operations runs out (at least
          // 16,384, 64 per glyph): a few calls per position stay far from it.
          count <= 4
        else { return nil }
        var calls: [Call] = []
        for k in 0..<Int(count) {
          guard let index = t.u16(sub.at + ahead.next + 2 + 4 * k),
            let lookup = t.u16(sub.at + ahead.next + 4 + 4 * k)
          else { return nil }
          calls.append(Call(index: Int(index), lookup: lookup))
        }
        rules.append(
          .chain(
            Chain(
              backtrack: back.list, input: input.list, lookahead: ahead.list, calls: calls,
              changes: !calls.isEmpty)))
      default:
        return nil
      }
    }
    return rules
  }

  /// The lookups the chained contexts of `rules` call.
  static func calledLookups(_ rules: [Rule]) -> [UInt16] {
    var lookups: [UInt16] = []
    for rule in rules {
      if case .chain(let chain) = rule {
        for call in chain.calls { lookups.append(call.lookup) }
      }
    }
    return lookups
  }

  /// `flagsAllow`: per lookup, whether its flags let direct shaping apply it.
  init(lookups: [[Rule]], flagsAllow: [Bool], singles: [UInt16: [SingleSubstitution]]) {
    precondition(flagsAllow.count == lookups.count)
    self.lookups = lookups
    self.singles = singles
    var applies: [Bool] = []
    for (rules, allowed) in zip(lookups, flagsAllow) {
      var ligatures = 0
      var contexts = 0
      for rule in rules {
        switch rule {
        case .ligatures: ligatures += 1
        case .chain(let chain):
          var known = true
          for call in chain.calls {
            if call.index >= chain.input.count || singles[call.lookup] == nil { known = false }
          }
          if known { contexts += 1 }
        }
      }
      // All ligatures, or all contexts calling single substitutions.
      applies.append(
        allowed && !rules.isEmpty && (ligatures == rules.count || contexts == rules.count))
    }
    self.appliesDirectly = applies
    var starts = [UInt64](repeating: 0, count: 1024)
    for rule in lookups.joined() {
      switch rule {
      case .ligatures(let coverage, _): coverage.add(to: &starts)
      case .chain(let chain): chain.input[0].add(to: &starts)
      }
    }
    self.starts = starts
  }

  /// Whether some lookup may change the run whose glyphs are in bits 32–47 of `packed[0..<n]`:
  /// at some position, the first of its subtables that matches there (as HarfBuzz tries them)
  /// forms a ligature or calls lookups. (Positions inside a matched input sequence, which
  /// HarfBuzz skips, are tried too: that can only send a run to HarfBuzz needlessly.)
  func mayApply(_ packed: UnsafeMutablePointer<UInt64>, count n: Int) -> Bool {
    mayApply(lookups.indices, packed, count: n)
  }

  /// ``mayApply(_:count:)`` for lookup `l` alone.
  func mayApply(lookup l: Int, _ packed: UnsafeMutablePointer<UInt64>, count n: Int) -> Bool {
    mayApply(l..<(l + 1), packed, count: n)
  }

  private func mayApply(
    _ range: Range<Int>, _ packed: UnsafeMutablePointer<UInt64>, count n: Int
  ) -> Bool {
    for k in 0..<n {
      let g = Self.glyph(packed, k)
      guard starts[Int(g) >> 6] & (1 << UInt64(g & 63)) != 0 else { continue }
      for l in range where Self.changes(lookups[l], at: k, g, packed, n) { return true }
    }
    return false
  }

  /// The ligature lookup `l` forms at `k` (its glyph and how many glyphs it takes), as HarfBuzz
  /// finds it: the first subtable covering the glyph that has a ligature matching there, its
  /// first such ligature.
  func ligature(
    lookup l: Int, at k: Int, _ packed: UnsafeMutablePointer<UInt64>, count n: Int
  ) -> (glyph: UInt16, length: Int)? {
    let g = Self.glyph(packed, k)
    guard starts[Int(g) >> 6] & (1 << UInt64(g & 63)) != 0 else { return nil }
    for rule in lookups[l] {
      guard case .ligatures(let coverage, let sets) = rule, let i = coverage.index(g),
        i < sets.count
      else { continue }
      for ligature in sets[i] where Self.matches(ligature, at: k, packed, n) {
        return (ligature.glyph, 1 + ligature.rest.count)
      }
    }
    return nil
  }

  private static func glyph(_ packed: UnsafeMutablePointer<UInt64>, _ k: Int) -> UInt16 {
    UInt16(truncatingIfNeeded: packed[k] >> 32)
  }

  private static func matches(
    _ ligature: Ligature, at k: Int, _ packed: UnsafeMutablePointer<UInt64>, _ n: Int
  ) -> Bool {
    guard k + ligature.rest.count < n else { return false }
    for (j, c) in ligature.rest.enumerated() where glyph(packed, k + 1 + j) != c { return false }
    return true
  }

  /// Whether the first of the lookup's subtables that matches at `k` changes something there.
  private static func changes(
    _ lookup: [Rule], at k: Int, _ g: UInt16, _ packed: UnsafeMutablePointer<UInt64>, _ n: Int
  ) -> Bool {
    func matches(_ rule: Rule) -> Bool {
      switch rule {
      case .ligatures(let coverage, let sets):
        guard let i = coverage.index(g), i < sets.count else { return false }
        return sets[i].contains { Self.matches($0, at: k, packed, n) }
      case .chain:
        return chainMatches(rule, at: k, packed, n)
      }
    }
    for rule in lookup where matches(rule) {
      if case .chain(let chain) = rule, !chain.changes { return false }
      return true
    }
    return false
  }

  private static func chainMatches(
    _ rule: Rule, at k: Int, _ packed: UnsafeMutablePointer<UInt64>, _ n: Int
  ) -> Bool {
    guard case .chain(let chain) = rule else { return false }
    let backtrack = chain.backtrack
    let input = chain.input
    let lookahead = chain.lookahead
    guard k >= backtrack.count, k + input.count + lookahead.count <= n else { return false }
    for (j, c) in input.enumerated() where c.index(glyph(packed, k + j)) == nil { return false }
    for (j, c) in backtrack.enumerated() where c.index(glyph(packed, k - 1 - j)) == nil {
      return false
    }
    for (j, c) in lookahead.enumerated() where c.index(glyph(packed, k + input.count + j)) == nil {
      return false
    }
    return true
  }

  /// The chained context of lookup `l` that HarfBuzz applies at `k` (the first subtable that
  /// matches there): the lookups it calls and the length of its input (HarfBuzz goes on after
  /// it), or nil when none matches.
  func context(
    lookup l: Int, at k: Int, _ packed: UnsafeMutablePointer<UInt64>, count n: Int
  ) -> (calls: [Call], length: Int)? {
    let g = Self.glyph(packed, k)
    guard starts[Int(g) >> 6] & (1 << UInt64(g & 63)) != 0 else { return nil }
    for rule in lookups[l] where Self.chainMatches(rule, at: k, packed, n) {
      guard case .chain(let chain) = rule else { continue }
      return (chain.calls, chain.input.count)
    }
    return nil
  }
}
