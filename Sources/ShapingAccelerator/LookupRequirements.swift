import Typesetting
/// Reads a font's GSUB table to say, for a lookup, which glyphs a buffer must hold for the lookup
/// to change anything: a set of glyphs one of which has to be present.
///
/// Every rule of a lookup names the glyphs it matches position by position (its input, and for
/// chained rules the glyphs before and after); a rule applies only where each position finds its
/// glyph, so the glyphs of any one position are a valid requirement. Of the positions every rule
/// of a subtable has, the reader takes the one whose glyphs are least likely in text (`weights`:
/// a space or a letter of ASCII weighs more than a combining mark or an arrow). Positions given by
/// class 0 of a class table (every glyph the table leaves out) are never chosen. A lookup type or
/// format the reader does not know, or data out of bounds, gives no requirement (`nil`): the
/// lookup may always apply.
struct LookupRequirements: Sendable {
  /// How much reading one analysis may do (glyphs listed, tables visited): a hostile font can
  /// describe billions of glyphs in a few hundred kilobytes, and calls nested 65,535 deep. Past
  /// it, answers are nil (the lookup may always apply).
  final class Work {
    var left: Int
    init(_ limit: Int = 4_000_000) { left = limit }
    /// Spends `n`; false once the budget is gone.
    func spend(_ n: Int) -> Bool {
      left -= n
      return left >= 0
    }
  }

  private let table: TableBytes
  /// Offset of each lookup in `table`.
  private let lookups: [Int]
  /// How likely each glyph is in text (by glyph id; 0 past the end).
  private let weights: [Int]

  /// `table` is the GSUB table's bytes; `weights` says how likely each glyph is in text.
  init?(gsub table: TableBytes, weights: [Int]) {
    self.table = table
    self.weights = weights
    var offsets: [Int] = []
    guard let list = table.u16(8).map(Int.init), list > 0, let count = table.u16(list)
    else { return nil }
    for k in 0..<Int(count) {
      guard let o = table.u16(list + 2 + 2 * k) else { return nil }
      offsets.append(list + Int(o))
    }
    lookups = offsets
  }

  var lookupCount: Int { lookups.count }

  /// Glyphs one of which must be in the buffer for lookup `index` to apply, or nil when that
  /// cannot be told.
  func requirement(ofLookup index: Int, work: Work = Work()) -> [UInt16]? {
    guard let subtables = subtables(ofLookup: index) else { return nil }
    var result: [UInt16] = []
    for (kind, sub) in subtables {
      guard work.spend(1), let r = requirement(type: kind, at: sub, work: work) else { return nil }
      result += r
    }
    return result
  }

  /// The type and offset of each subtable of lookup `index`, extensions unwrapped (nil when the
  /// lookup or an extension cannot be read).
  private func subtables(ofLookup index: Int) -> [(kind: Int, at: Int)]? {
    guard index >= 0 && index < lookups.count else { return nil }
    let at = lookups[index]
    guard let type = u16(at), let count = u16(at + 4) else { return nil }
    var result: [(kind: Int, at: Int)] = []
    for s in 0..<Int(count) {
      guard let o = u16(at + 6 + 2 * s) else { return nil }
      var sub = at + Int(o)
      var kind = Int(type)
      if type == 7 {
        // Extension: format 1, the real type, a 32-bit offset from the extension subtable.
        guard u16(sub) == 1, let real = u16(sub + 2), let hi = u16(sub + 4), let lo = u16(sub + 6),
          real != 7
        else { return nil }
        kind = Int(real)
        sub += Int(hi) << 16 | Int(lo)
      }
      result.append((kind, sub))
    }
    return result
  }

  /// Every glyph lookup `index` can put in the buffer (its substitutes, and those of the lookups
  /// its rules call), or nil when that cannot be told.
  func outputs(ofLookup index: Int, work: Work = Work()) -> [UInt16]? {
    var seen = Set<Int>()
    var result: [UInt16] = []
    var deletes = false
    return collectOutputs(
      index, depth: 0, seen: &seen, into: &result, deletes: &deletes, work: work) ? result : nil
  }

  /// Whether lookup `index` (or one its rules call) can take a glyph out of the buffer (a
  /// multiple substitution by no glyph), or nil when that cannot be told. A deletion brings
  /// together glyphs that were not side by side.
  func deletes(ofLookup index: Int, work: Work = Work()) -> Bool? {
    var seen = Set<Int>()
    var result: [UInt16] = []
    var deletes = false
    return collectOutputs(
      index, depth: 0, seen: &seen, into: &result, deletes: &deletes, work: work) ? deletes : nil
  }

  /// The lookup's flags (which glyphs its matching skips), or nil.
  func flags(ofLookup index: Int) -> UInt16? {
    guard index >= 0 && index < lookups.count else { return nil }
    return u16(lookups[index] + 2)
  }

  /// For a lookup each of whose subtables needs two glyphs side by side — a ligature (its first
  /// glyph and its second), or a rule by coverage (two adjacent positions, the least likely
  /// pair) — those pairs of glyph sets: the lookup can apply only where a glyph of a pair's
  /// first set stands right before one of its second, when nothing is skipped between them.
  /// Nil for any other lookup.
  func adjacentPairs(
    ofLookup index: Int, work: Work = Work()
  ) -> [(first: [UInt16], second: [UInt16])]? {
    guard let subtables = subtables(ofLookup: index) else { return nil }
    var result: [(first: [UInt16], second: [UInt16])] = []
    for (kind, sub) in subtables {
      guard work.spend(1), let format = u16(sub) else { return nil }
      var sequence: [[UInt16]] = []
      switch (kind, format) {
      case (4, 1):
        guard let first = coverageList(sub, 2, work), let n = u16(sub + 4) else { return nil }
        var second = Set<UInt16>()
        for k in 0..<Int(n) {
          guard let so = u16(sub + 6 + 2 * k) else { return nil }
          let set = sub + Int(so)
          guard let m = u16(set), work.spend(Int(m)) else { return nil }
          for j in 0..<Int(m) {
            // A ligature of one glyph needs no second.
            guard let lo = u16(set + 2 + 2 * j), let components = u16(set + Int(lo) + 2),
              components >= 2, let c = u16(set + Int(lo) + 4)
            else { return nil }
            second.insert(c)
          }
        }
        sequence = [first, Array(second)]
      case (5, 3):
        guard let n = u16(sub + 2) else { return nil }
        for k in 0..<Int(n) {
          guard let c = coverageList(sub, 6 + 2 * k, work) else { return nil }
          sequence.append(c)
        }
      case (6, 3):
        // Backtrack (nearest first, so reversed here), input, lookahead.
        var at = sub + 2
        var parts: [[[UInt16]]] = []
        for _ in 0..<3 {
          guard let n = u16(at) else { return nil }
          var part: [[UInt16]] = []
          for k in 0..<Int(n) {
            guard let c = coverageList(sub, at + 2 + 2 * k - sub, work) else { return nil }
            part.append(c)
          }
          parts.append(part)
          at += 2 + 2 * Int(n)
        }
        sequence = parts[0].reversed() + parts[1] + parts[2]
      default:
        return nil
      }
      guard sequence.count >= 2 else { return nil }
      // The adjacent positions least likely to be found together.
      var best = 0
      var bestScore = Double.infinity
      for j in 0..<(sequence.count - 1) {
        let score = Double(score(sequence[j])) * Double(score(sequence[j + 1]))
        if score < bestScore {
          best = j
          bestScore = score
        }
      }
      result.append((sequence[best], sequence[best + 1]))
    }
    return result
  }

  /// (Calls nest at most 64 deep, as in HarfBuzz.)
  private func collectOutputs(
    _ index: Int, depth: Int, seen: inout Set<Int>, into out: inout [UInt16],
    deletes: inout Bool, work: Work
  ) -> Bool {
    guard index >= 0 && index < lookups.count, depth < 64, work.spend(1) else { return false }
    guard seen.insert(index).inserted else { return true }
    guard let subtables = subtables(ofLookup: index) else { return false }
    for (kind, sub) in subtables {
      guard let format = u16(sub) else { return false }
      switch (kind, format) {
      case (1, 1):
        guard let first = coverageList(sub, 2, work), let delta = u16(sub + 4) else {
          return false
        }
        out += first.map { $0 &+ delta }
      case (1, 2):
        guard let n = u16(sub + 4), let glyphs = array(sub + 6, Int(n), work) else { return false }
        out += glyphs
      case (2, 1), (3, 1):
        guard let n = u16(sub + 4) else { return false }
        for k in 0..<Int(n) {
          guard work.spend(1), let so = u16(sub + 6 + 2 * k), let m = u16(sub + Int(so)),
            let glyphs = array(sub + Int(so) + 2, Int(m), work)
          else { return false }
          if m == 0 && kind == 2 { deletes = true }
          out += glyphs
        }
      case (4, 1):
        guard let n = u16(sub + 4) else { return false }
        for k in 0..<Int(n) {
          guard work.spend(1), let so = u16(sub + 6 + 2 * k) else { return false }
          let set = sub + Int(so)
          guard let m = u16(set), work.spend(Int(m)) else { return false }
          for j in 0..<Int(m) {
            guard let lo = u16(set + 2 + 2 * j), let glyph = u16(set + Int(lo)) else {
              return false
            }
            out.append(glyph)
          }
        }
      case (5, _), (6, _):
        guard let called = calledLookups(type: kind, format: Int(format), at: sub, work) else {
          return false
        }
        for l in called {
          guard
            collectOutputs(
              l, depth: depth + 1, seen: &seen, into: &out, deletes: &deletes, work: work)
          else {
            return false
          }
        }
      case (8, 1):
        // Coverage, backtrack and lookahead coverages, then the substitutes.
        var at = sub + 4
        for _ in 0..<2 {
          guard let n = u16(at) else { return false }
          at += 2 + 2 * Int(n)
        }
        guard let n = u16(at), let glyphs = array(at + 2, Int(n), work) else { return false }
        out += glyphs
      default:
        return false
      }
    }
    return true
  }

  /// The lookups a context or chained context subtable calls.
  private func calledLookups(type: Int, format: Int, at sub: Int, _ work: Work) -> [Int]? {
    let chained = type == 6
    // Where each rule's lookup count is, and where its lookup records start.
    var blocks: [(count: Int, records: Int)] = []
    /// A rule of format 1 or 2 starting at `at`.
    func rule(_ at: Int) -> (Int, Int)? {
      if !chained {
        // glyphCount, seqLookupCount, input[glyphCount - 1], records.
        guard let i = u16(at) else { return nil }
        return (at + 2, at + 4 + 2 * max(0, Int(i) - 1))
      }
      // backtrack, input (less the first glyph), lookahead, seqLookupCount, records.
      var p = at
      guard let b = u16(p) else { return nil }
      p += 2 + 2 * Int(b)
      guard let i = u16(p) else { return nil }
      p += 2 + 2 * max(0, Int(i) - 1)
      guard let l = u16(p) else { return nil }
      p += 2 + 2 * Int(l)
      return (p, p + 2)
    }
    switch format {
    case 1, 2:
      let setsAt = sub + (format == 1 ? 6 : (chained ? 12 : 8))
      guard let setCount = u16(setsAt - 2) else { return nil }
      for s in 0..<Int(setCount) {
        guard let so = u16(setsAt + 2 * s) else { return nil }
        if so == 0 { continue }
        let set = sub + Int(so)
        guard let n = u16(set), work.spend(Int(n)) else { return nil }
        for r in 0..<Int(n) {
          guard let ro = u16(set + 2 + 2 * r), let block = rule(set + Int(ro)) else { return nil }
          blocks.append(block)
        }
      }
    case 3:
      if chained {
        var p = sub + 2
        for _ in 0..<3 {
          guard let n = u16(p) else { return nil }
          p += 2 + 2 * Int(n)
        }
        blocks.append((p, p + 2))
      } else {
        // glyphCount, seqLookupCount, coverages[glyphCount], records.
        guard let g = u16(sub + 2) else { return nil }
        blocks.append((sub + 4, sub + 6 + 2 * Int(g)))
      }
    default:
      return nil
    }
    var called: [Int] = []
    for (countAt, first) in blocks {
      guard let n = u16(countAt), work.spend(Int(n)) else { return nil }
      for k in 0..<Int(n) {
        guard let l = u16(first + 4 * k + 2) else { return nil }
        called.append(Int(l))
      }
    }
    return called
  }

  private func array(_ at: Int, _ n: Int, _ work: Work) -> [UInt16]? {
    guard work.spend(n) else { return nil }
    var result: [UInt16] = []
    result.reserveCapacity(n)
    for k in 0..<n {
      guard let g = u16(at + 2 * k) else { return nil }
      result.append(g)
    }
    return result
  }

  /// The requirement of one subtable: the least likely of the glyph sets every rule needs.
  private func requirement(type: Int, at sub: Int, work: Work) -> [UInt16]? {
    guard let format = u16(sub) else { return nil }
    var candidates: [[UInt16]] = []
    switch (type, format) {
    case (1, _), (2, 1), (3, 1):
      guard let cov = coverageList(sub, 2, work) else { return nil }
      candidates.append(cov)
    case (4, 1):
      // Each ligature needs its first glyph and its second (when it has one).
      guard let first = coverageList(sub, 2, work), let setCount = u16(sub + 4),
        Int(setCount) <= first.count
      else { return nil }
      var needed: [UInt16] = []
      // A ligature of one glyph needs only its first: then the whole coverage (its order need
      // not match the sets' when ranges give their own start indices).
      var single = false
      for k in 0..<Int(setCount) {
        guard let so = u16(sub + 6 + 2 * k) else { return nil }
        let set = sub + Int(so)
        guard let n = u16(set) else { return nil }
        for j in 0..<Int(n) {
          guard let lo = u16(set + 2 + 2 * j) else { return nil }
          let lig = set + Int(lo)
          guard let components = u16(lig + 2) else { return nil }
          if components <= 1 {
            single = true
          } else {
            guard let second = u16(lig + 4) else { return nil }
            needed.append(second)
          }
        }
      }
      if single { needed += first }
      candidates.append(needed)
      candidates.append(first)
    case (5, 1), (6, 1), (5, 2), (6, 2):
      // Rules by glyph or by class: the first glyph's coverage always; the next input glyph,
      // the glyph before and the glyph after when every rule has one.
      guard let cov = coverageList(sub, 2, work) else { return nil }
      candidates.append(cov)
      guard
        let more = ruleCandidates(
          type: type, format: Int(format), at: sub, coverage: cov, work)
      else {
        return nil
      }
      candidates += more
    case (5, 3):
      guard let n = u16(sub + 2) else { return nil }
      for k in 0..<Int(n) {
        guard let c = coverageList(sub, 6 + 2 * k, work) else { return nil }
        candidates.append(c)
      }
    case (6, 3), (8, 1):
      // Chained by coverage (and reverse chaining): backtrack, input, lookahead coverages.
      var at = sub + 2
      if type == 8 {
        guard let c = coverageList(sub, 2, work) else { return nil }
        candidates.append(c)
        at = sub + 4
      }
      for _ in 0..<(type == 8 ? 2 : 3) {
        guard let n = u16(at) else { return nil }
        for k in 0..<Int(n) {
          guard let c = coverageList(sub, at + 2 + 2 * k - sub, work) else { return nil }
          candidates.append(c)
        }
        at += 2 + 2 * Int(n)
      }
    default:
      return nil
    }
    return candidates.min { score($0) < score($1) }
  }

  /// How likely a run is to hold one of `glyphs` (the sum of their weights).
  func weight(of glyphs: [UInt16]) -> Int { score(glyphs) }

  private func score(_ set: [UInt16]) -> Int {
    set.reduce(0) { $0 + (Int($1) < weights.count ? weights[Int($1)] : 0) }
  }

  /// For rules by glyph (format 1) or by class (format 2): per position that every rule has
  /// (second input glyph, last glyph before, first glyph after), the glyphs any rule matches
  /// there; a position some rule leaves out, or matches by class 0, gives nothing. And one more
  /// candidate, rule set by rule set: a set's rules apply only at its own first glyphs (for
  /// rules by class, the covered glyphs of its class), so each set may name its own least likely
  /// position — `i` and `j` of DejaVu Sans need a mark after them, the marks need a letter
  /// before — and the candidate is the union of the sets' choices.
  private func ruleCandidates(
    type: Int, format: Int, at sub: Int, coverage: [UInt16], _ work: Work
  ) -> [[UInt16]]? {
    let chained = type == 6
    var byClass: [[UInt16: [UInt16]]] = []
    if format == 2 {
      guard let b = glyphsByClass(at: sub, chained: chained, work) else { return nil }
      byClass = b
    }
    let setsAt = format == 2 ? sub + (chained ? 12 : 8) : sub + 6
    guard let setCount = u16(setsAt - 2) else { return nil }
    // Which class table each position reads (format 2): input, backtrack, lookahead.
    let table = chained ? [1, 0, 2] : [0, 0, 0]
    func glyphs(_ values: Set<UInt16>, position p: Int) -> [UInt16] {
      format == 1 ? Array(values) : values.flatMap { byClass[table[p]][$0] ?? [] }
    }
    var firstOfClass: [UInt16: [UInt16]] = [:]
    if format == 2 {
      guard let f = firstGlyphsByClass(at: sub, chained: chained, coverage: coverage) else {
        return nil
      }
      firstOfClass = f
    }
    // Per position (input 2nd, backtrack 1st, lookahead 1st): the values rules use there, or
    // nil once some rule has none (or class 0) — over all rules, and over each set's.
    var positions: [Set<UInt16>?] = [[], [], []]
    var perSet: [UInt16]? = []
    for s in 0..<Int(setCount) {
      guard let so = u16(setsAt + 2 * s) else { return nil }
      if so == 0 { continue }
      let set = sub + Int(so)
      guard let n = u16(set), work.spend(Int(n)) else { return nil }
      var mine: [Set<UInt16>?] = [[], [], []]
      for r in 0..<Int(n) {
        guard let ro = u16(set + 2 + 2 * r),
          let (second, backtrack, lookahead) = ruleValues(at: set + Int(ro), chained: chained)
        else { return nil }
        for (p, value) in [second, backtrack, lookahead].enumerated() {
          if let v = value, format == 1 || v != 0 {
            positions[p]?.insert(v)
            mine[p]?.insert(v)
          } else {
            positions[p] = nil
            mine[p] = nil
          }
        }
      }
      guard n > 0 else { continue }
      // This set's least likely requirement: its first glyphs, or a position all its rules have.
      var options: [[UInt16]] = []
      if format == 1 {
        // (Which glyph set `s` belongs to is the coverage's say, read by binary search.)
        options.append(coverage)
      } else {
        options.append(firstOfClass[UInt16(s)] ?? [])
      }
      for (p, values) in mine.enumerated() {
        if let values, !values.isEmpty { options.append(glyphs(values, position: p)) }
      }
      guard work.spend(options.reduce(0) { $0 + $1.count }) else { return nil }
      if let best = options.min(by: { score($0) < score($1) }) {
        perSet? += best
      } else {
        perSet = nil
      }
    }
    var result: [[UInt16]] = []
    for (p, values) in positions.enumerated() {
      guard let values, !values.isEmpty else { continue }
      result.append(glyphs(values, position: p))
    }
    if let perSet { result.append(perSet) }
    return result
  }

  /// A context lookup by class's glyphs by class, per class table (input only, or backtrack,
  /// input and lookahead).
  private func glyphsByClass(at sub: Int, chained: Bool, _ work: Work) -> [[UInt16: [UInt16]]]? {
    var byClass: [[UInt16: [UInt16]]] = []
    for k in 0..<(chained ? 3 : 1) {
      guard let t = classDef(sub, 4 + 2 * k, work) else { return nil }
      var m: [UInt16: [UInt16]] = [:]
      for e in t { m[e.value, default: []].append(e.glyph) }
      byClass.append(m)
    }
    return byClass
  }

  /// The first glyphs of each rule set of a context lookup by class, by input class: each
  /// covered glyph's class as HarfBuzz finds it, by binary search over the table as it stands,
  /// out of order or not.
  private func firstGlyphsByClass(at sub: Int, chained: Bool, coverage: [UInt16])
    -> [UInt16: [UInt16]]?
  {
    guard let o = u16(sub + (chained ? 6 : 4)) else { return nil }
    var inputClass: ClassDefinition? = nil
    if o != 0 {
      guard let cd = ClassDefinition(self.table, at: sub + Int(o)) else { return nil }
      inputClass = cd
    }
    var firstOfClass: [UInt16: [UInt16]] = [:]
    for g in coverage { firstOfClass[inputClass?.class(g) ?? 0, default: []].append(g) }
    return firstOfClass
  }

  /// The values a rule at `at` matches at its second input glyph, last glyph before and first
  /// glyph after (nil: it has none there); nil when the rule cannot be read.
  private func ruleValues(at start: Int, chained: Bool) -> (UInt16?, UInt16?, UInt16?)? {
    var at = start
    var backtrack: UInt16? = nil
    var second: UInt16? = nil
    var lookahead: UInt16? = nil
    if chained {
      guard let b = u16(at) else { return nil }
      if b > 0 { backtrack = u16(at + 2) }
      at += 2 + 2 * Int(b)
      guard let i = u16(at) else { return nil }
      if i > 1 { second = u16(at + 2) }
      at += 2 + 2 * max(0, Int(i) - 1)
      guard let l = u16(at) else { return nil }
      if l > 0 { lookahead = u16(at + 2) }
    } else {
      guard let i = u16(at) else { return nil }
      if i > 1 { second = u16(at + 4) }
    }
    return (second, backtrack, lookahead)
  }

  // MARK: Tables

  /// The glyphs of the coverage table whose offset is at `base + field`, in coverage order.
  private func coverageList(_ base: Int, _ field: Int, _ work: Work) -> [UInt16]? {
    guard let o = u16(base + field) else { return nil }
    let at = base + Int(o)
    guard let format = u16(at), let n = u16(at + 2) else { return nil }
    var glyphs: [UInt16] = []
    switch format {
    case 1:
      guard work.spend(Int(n)) else { return nil }
      for k in 0..<Int(n) {
        guard let g = u16(at + 4 + 2 * k) else { return nil }
        glyphs.append(g)
      }
    case 2:
      for k in 0..<Int(n) {
        guard let lo = u16(at + 4 + 6 * k), let hi = u16(at + 6 + 6 * k) else { return nil }
        guard work.spend(lo <= hi ? Int(hi - lo) + 1 : 1) else { return nil }
        if lo <= hi { glyphs += (lo...hi).map { $0 } }
      }
    default:
      return nil
    }
    return glyphs
  }

  /// The class of each glyph the class table at `base + field` lists (class 0 is left out).
  private func classDef(_ base: Int, _ field: Int, _ work: Work) -> [(
    glyph: UInt16, value: UInt16
  )]? {
    guard let o = u16(base + field) else { return nil }
    var classes: [(glyph: UInt16, value: UInt16)] = []
    if o == 0 { return classes }
    let at = base + Int(o)
    guard let format = u16(at) else { return nil }
    switch format {
    case 1:
      guard let start = u16(at + 2), let n = u16(at + 4), work.spend(Int(n)) else { return nil }
      for k in 0..<Int(n) {
        guard let c = u16(at + 6 + 2 * k) else { return nil }
        let g = Int(start) + k
        if c != 0 && g <= 0xFFFF { classes.append((UInt16(g), c)) }
      }
    case 2:
      guard let n = u16(at + 2) else { return nil }
      for k in 0..<Int(n) {
        guard let lo = u16(at + 4 + 6 * k), let hi = u16(at + 6 + 6 * k),
          let c = u16(at + 8 + 6 * k), work.spend(lo <= hi ? Int(hi - lo) + 1 : 1)
        else { return nil }
        if c != 0 && lo <= hi { for g in lo...hi { classes.append((g, c)) } }
      }
    default:
      return nil
    }
    return classes
  }

  private func u16(_ at: Int) -> UInt16? { table.u16(at) }
}
