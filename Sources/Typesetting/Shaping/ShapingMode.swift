import CHarfBuzz
import Foundation

/// Who shapes a run: HarfBuzz alone, or the accelerator in front of it.
///
/// HarfBuzz is the reference. The accelerator (``Shaper``'s feature gates and direct shaping,
/// in `Shaping/Accelerator/`) answers simple runs itself, and only with HarfBuzz's glyphs,
/// clusters and positions; it is on only for the HarfBuzz versions it was verified against
/// (``ShapingMode/verifiedHarfBuzzVersions``). Either way the answers are the same: `.harfBuzz`
/// is the switch that proves it.
public enum ShapingMode: String, Sendable, CaseIterable {
  /// Every run is shaped by HarfBuzz (`hb_shape`); no word cache.
  case harfBuzz = "harfbuzz"
  /// Simple runs are shaped by the accelerator, the rest by HarfBuzz (the default where the
  /// linked HarfBuzz is a verified version).
  case accelerated

  /// The environment variable that chooses the mode of a typesetter made without one:
  /// `GALLEY_SHAPING=harfbuzz` or `GALLEY_SHAPING=accelerated`.
  public static let environmentVariable = "GALLEY_SHAPING"

  /// The HarfBuzz versions whose answers the accelerator was checked against (the test suite's
  /// glyph-by-glyph comparisons and the conformance corpus, shaped both ways).
  public static let verifiedHarfBuzzVersions: [String] = ["6.0.0"]

  /// The version of the HarfBuzz this process runs (`hb_version_string()`).
  public static let linkedHarfBuzzVersion = String(cString: hb_version_string())

  /// The environment variable that makes the fence judge as if another HarfBuzz version were
  /// linked, to see (and test) what a machine with that version gets. It can only close the
  /// fence: naming a verified version where an unverified one is linked changes nothing.
  public static let fenceVersionVariable = "GALLEY_FENCE_HARFBUZZ_VERSION"

  /// Why the accelerator is off in this process whatever is asked (nil: it may run): the linked
  /// HarfBuzz (or the one `GALLEY_FENCE_HARFBUZZ_VERSION` names) is not a verified version.
  public static let fence: String? = {
    let named = ProcessInfo.processInfo.environment[fenceVersionVariable] ?? ""
    return fence(linked: linkedHarfBuzzVersion) ?? (named.isEmpty ? nil : fence(linked: named))
  }()

  /// Why the accelerator must be off where HarfBuzz `version` is linked (nil: it may run).
  public static func fence(linked version: String) -> String? {
    verifiedHarfBuzzVersions.contains(version)
      ? nil
      : "the accelerator is verified on HarfBuzz \(verifiedHarfBuzzVersions.joined(separator: ", "))"
        + " only; this is HarfBuzz \(version)"
  }

  /// The mode `GALLEY_SHAPING` asks for: nil when it is not set; an error naming the value when
  /// it is neither `harfbuzz` nor `accelerated`.
  public static func fromEnvironment() throws -> ShapingMode? {
    guard let value = ProcessInfo.processInfo.environment[environmentVariable], !value.isEmpty
    else { return nil }
    guard let mode = ShapingMode(name: value) else {
      throw TypesettingError.invalidShapingMode(value)
    }
    return mode
  }

  /// The mode named `name` (`harfbuzz` or `accelerated`, any case).
  public init?(name: String) {
    switch name.lowercased() {
    case "harfbuzz": self = .harfBuzz
    case "accelerated": self = .accelerated
    default: return nil
    }
  }

  /// The mode a typesetter runs in when `requested` is asked for (nil: the environment's, else
  /// accelerated), and why it differs from the default when it does: the environment asked for
  /// it, or the fence turned the accelerator off.
  public static func resolve(_ requested: ShapingMode?) -> (mode: ShapingMode, reason: String?) {
    var asked = requested
    var reason: String? = nil
    if asked == nil {
      // (An invalid value is the command line's error to report; a library ignores it.)
      if let env = try? fromEnvironment() {
        asked = env
        reason = "\(environmentVariable)=\(env.rawValue)"
      }
    }
    let mode = asked ?? .accelerated
    if mode == .accelerated, let fence { return (.harfBuzz, fence) }
    return (mode, reason)
  }
}
