/// GSUB lookups that direct shaping cannot apply but can show to do nothing to a run: ligatures
/// (type 4) and chained contexts by coverage (type 6, format 3) — Inter's contextual alternates,
/// say, which change a parenthesis or a hyphen beside capitals or digits and nothing else.
///
/// A run goes direct only when no rule of these lookups matches anywhere in it: then none of
/// them changes a glyph, and each sees the glyphs the run's single substitutions left (they
/// come after every single substitution of the plan, ``DirectPlan/make``). Matching is plain
/// adjacency: every glyph of a direct run is a base glyph (or unclassed) in GDEF, which no
/// lookup flag but IgnoreBaseGlyphs (refused) skips, and HarfBuzz matches backtrack and
/// lookahead within the run only.
struct LookupGuard: Sendable {
  enum Rule: Sendable {
    /// Per covered first glyph (coverage index): the other components of each of its ligatures.
    case ligatures(Coverage, [[[UInt16]]])
    /// Coverages of the glyphs before (nearest first), of the input and after; whether it
    /// calls lookups (a rule that calls none — `ignore sub` — only keeps later subtables from
    /// trying the position).
    case chain(backtrack: [Coverage], input: [Coverage], lookahead: [Coverage], changes: Bool)
  }

  /// Per lookup, its subtables in order.
  let lookups: [[Rule]]
  /// The glyphs at which some rule's input starts (a bit per glyph id; 1,024 words).
  let starts: [UInt64]

  var isEmpty: Bool { lookups.isEmpty }

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
        var sets: [[[UInt16]]] = []
        for s in 0..<Int(setCount) {
          guard let set = t.offset(sub.at, 6 + 2 * s), let count = t.u16(set),
            work.spend(Int(count))
          else { return nil }
          var ligatures: [[UInt16]] = []
          for l in 0..<Int(count) {
            guard let lig = t.offset(set, 2 + 2 * l), let components = t.u16(lig + 2),
              components >= 1, work.spend(Int(components))
            else { return nil }
            var rest: [UInt16] = []
            for c in 1..<Int(components) {
              guard let g = t.u16(lig + 2 + 2 * c) else { return nil }
              rest.append(g)
            }
            ligatures.append(rest)
          }
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
          !input.list.isEmpty, let ahead = coverages(at: input.next),
          let calls = t.u16(sub.at + ahead.next)
        else { return nil }
        rules.append(
          .chain(backtrack: back.list, input: input.list, lookahead: ahead.list, changes: calls > 0)
        )
      default:
        return nil
      }
    }
    return rules
  }

  init(lookups: [[Rule]]) {
    self.lookups = lookups
    var starts = [UInt64](repeating: 0, count: 1024)
    for rule in lookups.joined() {
      switch rule {
      case .ligatures(let coverage, _): coverage.add(to: &starts)
      case .chain(_, let input, _, _): input[0].add(to: &starts)
      }
    }
    self.starts = starts
  }

  /// Whether some lookup may change the run whose glyphs are in bits 32–47 of `packed[0..<n]`:
  /// at some position, the first of its subtables that matches there (as HarfBuzz tries them)
  /// forms a ligature or calls lookups. (Positions inside a matched input sequence, which
  /// HarfBuzz skips, are tried too: that can only send a run to HarfBuzz needlessly.)
  func mayApply(_ packed: UnsafeMutablePointer<UInt64>, count n: Int) -> Bool {
    @inline(__always) func glyph(_ k: Int) -> UInt16 {
      UInt16(truncatingIfNeeded: packed[k] >> 32)
    }
    func matches(_ rule: Rule, at k: Int, _ g: UInt16) -> Bool {
      switch rule {
      case .ligatures(let coverage, let sets):
        guard let i = coverage.index(g), i < sets.count else { return false }
        for rest in sets[i] where k + rest.count < n {
          var all = true
          for (j, c) in rest.enumerated() where glyph(k + 1 + j) != c {
            all = false
            break
          }
          if all { return true }
        }
        return false
      case .chain(let backtrack, let input, let lookahead, _):
        guard k >= backtrack.count, k + input.count + lookahead.count <= n else { return false }
        for (j, c) in input.enumerated() where c.index(glyph(k + j)) == nil { return false }
        for (j, c) in backtrack.enumerated() where c.index(glyph(k - 1 - j)) == nil {
          return false
        }
        for (j, c) in lookahead.enumerated() where c.index(glyph(k + input.count + j)) == nil {
          return false
        }
        return true
      }
    }
    for k in 0..<n {
      let g = glyph(k)
      guard starts[Int(g) >> 6] & (1 << UInt64(g & 63)) != 0 else { continue }
      for lookup in lookups {
        for rule in lookup where matches(rule, at: k, g) {
          if case .chain(_, _, _, let changes) = rule, !changes { break }
          return true
        }
      }
    }
    return false
  }
}
