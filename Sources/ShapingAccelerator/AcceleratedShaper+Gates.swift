import Typesetting
import CHarfBuzz

/// Feature gates (``FeatureGate``): a run shaped with the features that cannot change it left
/// off, the plan chosen per run; part of the accelerator. Its per-shaper state is ``AcceleratedShaper``'s
/// `gateEntries`.
extension AcceleratedShaper {
  /// Per shape plan: its gate once the plan has been used often enough to be worth one.
  final class GateEntry {
    @exclusivity(unchecked) var uses = 0
    @exclusivity(unchecked) var decided = false
    @exclusivity(unchecked) var gate: FeatureGate?
    /// Per code point of the memo's planes, 0 until first seen, then what it blocks
    /// (``FeatureGate/blocks(_:font:)``, never 0) in the low byte and its
    /// ``FeatureGate/pairBits(_:font:)`` above (with a gate).
    @exclusivity(unchecked) var memo: CharacterMemo?
    /// Per set of candidates left off: the plan and features (nil: that combination is not
    /// exact), once worked out.
    @exclusivity(unchecked) var variants = [Variant](repeating: .unknown, count: 256)

    enum Variant {
      case unknown
      case inexact
      case exact(plan: OpaquePointer, features: [hb_feature_t])
    }
  }

  /// The plan (and its features) that shapes `text[start..<end]` exactly as `base` does with the
  /// features that cannot change it left off, or nil when there are none (or the plan is new).
  func gated(
    _ base: OpaquePointer, _ text: [UInt32], _ start: Int, _ end: Int, font: Font,
    props: hb_segment_properties_t, features: [hb_feature_t]
  ) -> (plan: OpaquePointer, features: [hb_feature_t])? {
    let entry = gateEntries.entry(base) { GateEntry() }
    if !entry.decided {
      entry.uses += 1
      guard AcceleratedShaper.Warmup.isCheck(entry.uses, after: gateAfterUses) else { return nil }
      let key = AcceleratedShaper.gateKey(props, features)
      if entry.uses >= gateAfterUses {
        entry.gate = font.featureGates.gate(key) {
          FeatureGate.make(font: font, plan: base, props: props, features: features)
        }
      } else {
        // Another shaper (a thread, an earlier typesetter) had the gate made: no need to wait.
        guard let known = font.featureGates.knownGate(key) else { return nil }
        entry.gate = known
      }
      entry.decided = true
      if entry.gate != nil { entry.memo = CharacterMemo() }
    }
    guard let gate = entry.gate, let memo = entry.memo else { return nil }
    let keep: UInt8 = text.withUnsafeBufferPointer { t in
      var keep: UInt8 = ~gate.usable
      var previous: UInt64 = 0
      for k in start..<end {
        let c = t[k]
        let v = memo.value(c) { UInt64(gate.blocks(c, font: font)) | gate.pairBits(c, font: font) }
        keep |= UInt8(truncatingIfNeeded: v)
        // Pairs side by side: a glyph of a pair's first set right before one of its second.
        let pairs = v & ~0xFF
        if previous != 0 && pairs != 0 { keep |= gate.pairKeeps(previous, pairs) }
        previous = pairs
      }
      return keep
    }
    let mask = gate.off(keeping: keep)
    guard mask != 0 else { return nil }
    switch entry.variants[Int(mask)] {
    case .exact(let plan, let features):
      gatedRuns += 1
      return (plan, features)
    case .inexact:
      return nil
    case .unknown:
      let off = FeatureGate.features(features, off: mask)
      let variant = harfBuzz.plan(font: font, props: props, features: off)
      guard gate.isExact(variant, mask: mask) else {
        entry.variants[Int(mask)] = .inexact
        return nil
      }
      entry.variants[Int(mask)] = .exact(plan: variant, features: off)
      gatedRuns += 1
      return (variant, off)
    }
  }

  /// When a plan met for the first time is looked up in what its font already knows (gates and
  /// direct plans made for it by other shapers), before it has been used `after` times and may
  /// have them made: at its 1st, 2nd, 4th, 8th… use, and at the `after`-th.
  enum Warmup {
    static func isCheck(_ uses: Int, after: Int) -> Bool {
      uses >= after || uses & (uses - 1) == 0
    }
  }

  /// What a plan's gate and direct plan are kept under in its font (``FeatureGates``).
  static func gateKey(_ props: hb_segment_properties_t, _ features: [hb_feature_t])
    -> FeatureGates.Key
  {
    FeatureGates.Key(
      script: props.script.rawValue, direction: props.direction.rawValue,
      language: HarfBuzzShaper.languageKey(props.language), features: featureKeys(features))
  }

  /// Features as numbers for keys, without loss: tag and value, then start and end.
  static func featureKeys(_ features: [hb_feature_t]) -> [UInt64] {
    var keys: [UInt64] = []
    keys.reserveCapacity(2 * features.count)
    for f in features {
      keys.append(UInt64(f.tag) << 32 | UInt64(f.value))
      keys.append(UInt64(f.start) << 32 | UInt64(f.end))
    }
    return keys
  }
}
