import Typesetting
import CHarfBuzz
import Foundation

extension Font {
  /// Which substitution features runs may leave off, per plan (see ``FeatureGate``), and the
  /// direct plans: the accelerator's state of the font, kept with it.
  var featureGates: FeatureGates { acceleratorState.value { FeatureGates() } }
}

/// Gates, analyses and direct plans of one font, made once and shared by every thread.
final class FeatureGates: @unchecked Sendable {
  // @unchecked: the dictionaries are read and written only under `lock`.
  private let lock = Lock()
  private var gates: [Key: FeatureGate?] = [:]
  private var analyses: [AnalysisKey: FeatureGate.Analysis] = [:]
  private var directPlans: [Key: DirectPlan?] = [:]
  private var facts: FeatureGate.FontFacts?

  func fontFacts(_ font: Font) -> FeatureGate.FontFacts {
    lock.lock()
    defer { lock.unlock() }
    if let facts { return facts }
    let made = FeatureGate.FontFacts(font: font)
    facts = made
    return made
  }

  struct Key: Hashable {
    var script: UInt32
    /// (Direct plans differ by direction: right to left, characters HarfBuzz mirrors are left to
    /// it.)
    var direction: UInt32
    var language: UInt
    var features: [UInt64]
  }

  struct AnalysisKey: Hashable {
    var planLookups: Set<UInt32>
    var lookupsOf: [Set<UInt32>]
  }

  func gate(_ key: Key, make: () -> FeatureGate?) -> FeatureGate? {
    cached(\.gates, key, limit: 4096, make: make)
  }

  func directPlan(_ key: Key, make: () -> DirectPlan?) -> DirectPlan? {
    cached(\.directPlans, key, limit: 4096, make: make)
  }

  /// The gate under `key` if one was made already (by any thread): `.some(nil)` when the plan
  /// has none, nil when it was never asked for.
  func knownGate(_ key: Key) -> FeatureGate?? {
    lock.lock()
    defer { lock.unlock() }
    return gates[key]
  }

  /// The direct plan under `key` if one was made already, as ``knownGate(_:)``.
  func knownDirectPlan(_ key: Key) -> DirectPlan?? {
    lock.lock()
    defer { lock.unlock() }
    return directPlans[key]
  }

  func analysis(_ key: AnalysisKey, make: () -> FeatureGate.Analysis) -> FeatureGate.Analysis {
    cached(\.analyses, key, limit: 256, make: make)
  }

  /// The value under `key` in `table`, made outside the lock when missing (two threads may both
  /// make it; the results are equal); the table is emptied once it holds `limit` entries.
  private func cached<K: Hashable, V>(
    _ table: ReferenceWritableKeyPath<FeatureGates, [K: V]>, _ key: K, limit: Int,
    make: () -> V
  ) -> V {
    lock.lock()
    if let known = self[keyPath: table][key] {
      lock.unlock()
      return known
    }
    lock.unlock()
    let made = make()
    lock.lock()
    if self[keyPath: table].count > limit { self[keyPath: table].removeAll() }
    self[keyPath: table][key] = made
    lock.unlock()
    return made
  }
}
