import Foundation
import Typesetting

/// The shaping accelerator: feature gates, direct shaping and the word cache in front of
/// HarfBuzz, giving HarfBuzz's own glyphs, clusters, advances and offsets for the runs it
/// answers. Nothing runs it unless asked: a program that links this module calls
/// ``install()`` once, before it makes a ``Typesetter``, and typesetters made after that shape
/// in ``ShapingMode/accelerated`` mode unless told otherwise — where the linked HarfBuzz is a
/// version the accelerator was verified against (``fence``).
///
/// ```swift
/// import ShapingAccelerator
/// ShapingAccelerator.install()   // nil: installed; else why it stays off
/// let prepared = try Typesetter.shared.prepare("Hello", style: style)
/// ```
public enum ShapingAccelerator {
  /// The HarfBuzz versions whose answers the accelerator was checked against (the test suite's
  /// glyph-by-glyph comparisons and the conformance corpus, shaped both ways).
  public static let verifiedHarfBuzzVersions: [String] = ["6.0.0"]

  /// The environment variable that makes the fence judge as if another HarfBuzz version were
  /// linked, to see (and test) what a machine with that version gets. It can only close the
  /// fence: naming a verified version where an unverified one is linked changes nothing.
  public static let fenceVersionVariable = "GALLEY_FENCE_HARFBUZZ_VERSION"

  /// Why the accelerator is off in this process whatever is asked (nil: it may run): the linked
  /// HarfBuzz (or the one `GALLEY_FENCE_HARFBUZZ_VERSION` names) is not a verified version.
  public static let fence: String? = {
    let named = ProcessInfo.processInfo.environment[fenceVersionVariable] ?? ""
    return fence(linked: EngineVersions.harfBuzz) ?? (named.isEmpty ? nil : fence(linked: named))
  }()

  /// Why the accelerator must be off where HarfBuzz `version` is linked (nil: it may run).
  public static func fence(linked version: String) -> String? {
    verifiedHarfBuzzVersions.contains(version)
      ? nil
      : "the accelerator is verified on HarfBuzz \(verifiedHarfBuzzVersions.joined(separator: ", "))"
        + " only; this is HarfBuzz \(version)"
  }

  /// Makes typesetters made from now on shape through the accelerator (unless they ask for
  /// ``ShapingMode/harfBuzz``), or, behind the fence, records why it stays off (their
  /// ``Typesetter/shapingReason``). Returns that reason; nil when installed. Safe to call more
  /// than once.
  @discardableResult
  public static func install() -> String? { install(fence: fence) }

  /// Installs the accelerator, or its refusal where `fence` says why it may not run.
  @discardableResult
  static func install(fence: String?) -> String? {
    if let fence {
      ShapingAccelerators.install(.refused(fence))
      return fence
    }
    ShapingAccelerators.install(.engine { AcceleratedShaper(wordCacheCapacity: $0) })
    return nil
  }
}
