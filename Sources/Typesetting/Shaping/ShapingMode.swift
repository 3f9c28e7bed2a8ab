import CHarfBuzz
import Foundation

/// Who shapes a run: HarfBuzz alone, or the accelerator in front of it.
///
/// HarfBuzz is the reference, and the text engine knows nothing else. The accelerator (the
/// `ShapingAccelerator` target) answers simple runs itself, only with HarfBuzz's glyphs,
/// clusters and positions; a program that links it calls `ShapingAccelerator.install()`, which
/// puts it here when the linked HarfBuzz is a version it was verified against. Either way the
/// answers are the same: `.harfBuzz` is the switch that proves it.
public enum ShapingMode: String, Sendable, CaseIterable {
  /// Every run is shaped by HarfBuzz (`hb_shape`); no word cache.
  case harfBuzz = "harfbuzz"
  /// Simple runs are shaped by the accelerator, the rest by HarfBuzz (the default where the
  /// accelerator is installed).
  case accelerated

  /// The environment variable that chooses the mode of a typesetter made without one:
  /// `GALLEY_SHAPING=harfbuzz` or `GALLEY_SHAPING=accelerated`.
  public static let environmentVariable = "GALLEY_SHAPING"

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
  /// accelerated where the accelerator is installed), and why it differs from the default when
  /// it does: the environment asked for it, or the accelerator is missing or fenced off.
  public static func resolve(_ requested: ShapingMode?) -> (mode: ShapingMode, reason: String?) {
    resolve(requested, accelerator: ShapingAccelerators.current)
  }

  /// The mode `requested` gives where `accelerator` is what was installed.
  package static func resolve(
    _ requested: ShapingMode?, accelerator: ShapingAccelerators.Installed?
  ) -> (mode: ShapingMode, reason: String?) {
    var asked = requested
    var reason: String? = nil
    if asked == nil {
      // (An invalid value is the command line's error to report; a library ignores it.)
      if let env = try? fromEnvironment() {
        asked = env
        reason = "\(environmentVariable)=\(env.rawValue)"
      }
    }
    guard asked ?? .accelerated == .accelerated else { return (.harfBuzz, reason) }
    switch accelerator {
    case .engine: return (.accelerated, reason)
    case .refused(let why): return (.harfBuzz, why)
    case nil:
      // Not linked: nothing was asked of it unless `.accelerated` was asked by name.
      return (.harfBuzz, asked == nil ? nil : ShapingAccelerators.notInstalled)
    }
  }
}

/// The accelerator as the text engine knows it: a maker of engines that put themselves in front
/// of a ``HarfBuzzShaper``, installed by the program that links it (or its refusal to run, and
/// why). One per process.
package enum ShapingAccelerators {
  package enum Installed: Sendable {
    /// Makes a thread's engine, with a word cache of the given capacity (0: none).
    case engine(@Sendable (_ wordCacheCapacity: Int) -> any ShapingEngine)
    /// The accelerator was linked but may not run here.
    case refused(String)
  }

  package static let notInstalled =
    "the accelerator is not installed (link ShapingAccelerator and call ShapingAccelerator.install())"

  private static let lock = Lock()
  nonisolated(unsafe) private static var installed: Installed? = nil

  /// What was installed (nil: nothing).
  package static var current: Installed? {
    lock.lock()
    defer { lock.unlock() }
    return installed
  }

  /// Installs the accelerator (typesetters made from now on use it), its refusal, or (nil)
  /// nothing.
  package static func install(_ value: Installed?) {
    lock.lock()
    installed = value
    lock.unlock()
  }
}
