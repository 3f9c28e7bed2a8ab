import Typesetting
import CHarfBuzz
import Foundation

extension FeatureGate {
  /// The part of a gate that depends only on the font and the lookups: the glyphs each
  /// candidate needs, and which candidates no other lookup of the plan can feed.
  struct Analysis: Sendable {
    let usable: UInt8
    let needs: [Set<UInt16>]
    /// Per candidate: pairs of glyph sets, a glyph of the first right before one of the second,
    /// one of which its lookups that need two glyphs side by side need to apply.
    let pairs: [[Pair]]

    /// Per candidate: the other candidates that must be off with it (their lookups could make
    /// a glyph it needs, were they on).
    let requires: [UInt8]

    /// The most pairs a gate tells apart (two bits each in a 64-bit mask per character, above
    /// the byte of what the character blocks alone).
    static let maximumPairs = 28

    init(font: Font, planLookups: Set<UInt32>, lookupsOf: [Set<UInt32>]) {
      let facts = font.featureGates.fontFacts(font)
      let work = LookupRequirements.Work()
      var known: UInt8 = 0
      var needs: [Set<UInt16>] = []
      var pairs: [[Pair]] = []
      var requires = [UInt8](repeating: 0, count: lookupsOf.count)
      var paired = Paired()
      if let reader = facts.reader {
        paired = Analysis.paired(
          reader: reader, facts: facts, planLookups: planLookups, lookupsOf: lookupsOf, work: work)
      }
      for (k, lookups) in lookupsOf.enumerated() {
        var c = Candidate(ok: !lookups.isEmpty && facts.reader != nil)
        if let reader = facts.reader {
          c = Analysis.candidate(
            k, lookups, reader: reader, facts: facts, planLookups: planLookups,
            lookupsOf: lookupsOf, paired: paired, work: work)
        }
        requires[k] = c.requires
        if c.ok { known |= 1 << UInt8(k) }
        needs.append(c.ok ? c.need : [])
        pairs.append(c.ok ? c.pairs : [])
      }
      // A candidate that needs another off that can never be off cannot be off either.
      let usable = FeatureGate.closed(known, requires: requires)
      for k in pairs.indices where usable >> UInt8(k) & 1 == 0 {
        pairs[k] = []
        needs[k] = []
      }
      self.usable = usable
      self.needs = needs
      self.pairs = pairs
      self.requires = requires
    }

    /// The lookups read as pairs, and each lookup's single requirement (read once for both
    /// passes; nil inside: cannot be told).
    struct Paired {
      var lookups: [UInt32: [Pair]] = [:]
      var requirementOf: [UInt32: [UInt16]?] = [:]
    }

    /// Which candidates read their lookups that need two glyphs side by side as pairs (each
    /// candidate all of them, or none), while the pairs fit in a gate: first those whose single
    /// glyphs would block the most text (Inter's `calt` needs a hyphen, say, where its pairs
    /// need a hyphen next to a capital; its `ccmp` needs a mark either way).
    static func paired(
      reader: LookupRequirements, facts: FeatureGate.FontFacts, planLookups: Set<UInt32>,
      lookupsOf: [Set<UInt32>], work: LookupRequirements.Work
    ) -> Paired {
      var paired = Paired()
      var options: [(weight: Int, found: [UInt32: [Pair]], distinct: Int)] = []
      for lookups in lookupsOf {
        var found: [UInt32: [Pair]] = [:]
        var distinct: [Pair] = []
        var single: [UInt16]? = []
        let others = planLookups.subtracting(lookups).subtracting(facts.fractionOnly)
        for l in lookups.sorted() {
          let r = reader.requirement(ofLookup: Int(l), work: work)
          paired.requirementOf[l] = .some(r)
          if let r {
            single? += r
          } else {
            single = nil
          }
          let before = others.filter { $0 < l || facts.earlyLookups.contains($0) }.sorted()
          guard let list = reader.adjacentPairs(ofLookup: Int(l), work: work),
            Analysis.sideBySide(l, after: before, reader: reader, work: work)
          else { continue }
          let pairs = list.map { Pair(first: Set($0.first), second: Set($0.second)) }
          found[l] = pairs
          for p in pairs where distinct.count <= Analysis.maximumPairs && !distinct.contains(p) {
            distinct.append(p)
          }
        }
        let weight = single.map { reader.weight(of: Array(Set($0))) } ?? Int.max
        options.append((weight, found, distinct.count))
      }
      var room = Analysis.maximumPairs
      for option in options.sorted(by: { $0.weight > $1.weight })
      where option.distinct > 0 && option.distinct <= room {
        room -= option.distinct
        paired.lookups.merge(option.found) { a, _ in a }
      }
      return paired
    }

    /// What candidate `k` needs to be left off: whether it can be, the glyphs and pairs it
    /// needs, and the other candidates that must be off with it.
    struct Candidate {
      var ok: Bool
      var need = Set<UInt16>()
      var pairs: [Pair] = []
      var requires: UInt8 = 0
    }

    /// Candidate `k`, whose lookups are `lookups`.
    static func candidate(
      _ k: Int, _ lookups: Set<UInt32>, reader: LookupRequirements, facts: FeatureGate.FontFacts,
      planLookups: Set<UInt32>, lookupsOf: [Set<UInt32>], paired: Paired,
      work: LookupRequirements.Work
    ) -> Candidate {
      var c = Candidate(ok: !lookups.isEmpty)
      let others = planLookups.subtracting(lookups).subtracting(facts.fractionOnly).sorted()
      // Per lookup: the glyphs whose coming in could let it apply.
      var needOf: [(lookup: UInt32, need: Set<UInt16>)] = []
      for l in lookups.sorted() where c.ok {
        if let found = paired.lookups[l] {
          var all = Set<UInt16>()
          for pair in found {
            all.formUnion(pair.first)
            all.formUnion(pair.second)
            if !c.pairs.contains(pair) { c.pairs.append(pair) }
          }
          needOf.append((l, all))
        } else if let r = paired.requirementOf[l] ?? reader.requirement(ofLookup: Int(l), work: work) {
          c.need.formUnion(r)
          needOf.append((l, Set(r)))
        } else {
          c.ok = false
        }
      }
      // The lookups left on must not be able to make a glyph the candidate needs (a run's own
      // glyphs are clear of them, so nothing else could bring one in) — before the candidate's
      // lookup looks for it. HarfBuzz applies a stage's lookups in the order of their indices,
      // each over the whole run, and the default and Hangul shapers have one stage after
      // `rvrn`'s: so a lookup can feed only those after it, and `rvrn`'s every one. A lookup of
      // another candidate may feed it if that candidate is off too: then, in lookup order, none
      // of the lookups of either can apply, so none brings anything in.
      for other in others where c.ok {
        let fed = needOf.filter { other < $0.lookup || facts.earlyLookups.contains(other) }
        guard !fed.isEmpty else { continue }
        guard let made = reader.outputs(ofLookup: Int(other), work: work) else {
          c.ok = false
          continue
        }
        guard made.contains(where: { g in fed.contains { $0.need.contains(g) } }) else {
          continue
        }
        if let owner = lookupsOf.firstIndex(where: { $0.contains(other) }) {
          c.requires |= 1 << UInt8(owner)
        } else {
          c.ok = false
        }
      }
      return c
    }

    /// Whether the glyphs of lookup `l` that are side by side in the run stay side by side up
    /// to it: no lookup before it can delete a glyph, and, when `l` skips some glyphs (marks,
    /// ligatures), none can bring any glyph in at all (it could be one that `l` skips).
    static func sideBySide(
      _ l: UInt32, after before: [UInt32], reader: LookupRequirements,
      work: LookupRequirements.Work
    ) -> Bool {
      guard let flags = reader.flags(ofLookup: Int(l)) else { return false }
      for other in before {
        guard reader.deletes(ofLookup: Int(other), work: work) == false else { return false }
        if flags & ~1 != 0 {
          guard let made = reader.outputs(ofLookup: Int(other), work: work), made.isEmpty else {
            return false
          }
        }
      }
      return true
    }
  }

  /// Two sets of glyphs, one of each needed side by side (first, then second).
  struct Pair: Sendable, Equatable {
    let first: Set<UInt16>
    let second: Set<UInt16>
  }
}

extension Font {
  func gateAnalysis(planLookups: Set<UInt32>, lookupsOf: [Set<UInt32>]) -> FeatureGate.Analysis {
    featureGates.analysis(.init(planLookups: planLookups, lookupsOf: lookupsOf)) {
      FeatureGate.Analysis(font: self, planLookups: planLookups, lookupsOf: lookupsOf)
    }
  }
}
