import Typesetting

/// `--shaping harfbuzz|accelerated` and `GALLEY_SHAPING`, read once per command: the typesetter
/// every command makes shapes in the mode they choose (the option wins over the variable).
enum ShapingOption {
  static let help = """
    --shaping harfbuzz|accelerated  who shapes runs: HarfBuzz alone, or the accelerator in front
                                    of it (the default; the same answers either way). The
                                    environment variable GALLEY_SHAPING does the same.
    """

  /// The mode asked for by `--shaping` or else `GALLEY_SHAPING` (nil: neither), or a usage
  /// error naming the bad value.
  static func requested(_ opts: Options) throws -> ShapingMode? {
    if let v = opts.values["shaping"] {
      guard let mode = ShapingMode(name: v) else {
        throw CLIError.usage("--shaping must be harfbuzz or accelerated (got '\(v)')")
      }
      return mode
    }
    do {
      return try ShapingMode.fromEnvironment()
    } catch {
      throw CLIError.usage("\(ShapingMode.environmentVariable): \(error)")
    }
  }

  /// A typesetter in the mode `opts` asks for.
  static func typesetter(_ opts: Options, cacheCapacity: Int) throws -> Typesetter {
    Typesetter(cacheCapacity: cacheCapacity, shaping: try requested(opts))
  }

  /// The line `galley version` prints for the mode `opts` asks for: `shaping: accelerated`, or
  /// `shaping: harfbuzz (why)` when that is not the default.
  static func describe(_ opts: Options) throws -> String {
    let asked = try requested(opts)
    var (mode, why) = ShapingMode.resolve(asked)
    // (Kept off against what was asked: the fence's or the missing accelerator's reason.)
    let keptOff = asked != .harfBuzz && mode == .harfBuzz && why != nil
    if !keptOff {
      if let v = opts.values["shaping"] {
        why = "--shaping \(v)"
      } else if let asked {
        why = "\(ShapingMode.environmentVariable)=\(asked.rawValue)"
      }
    }
    return "shaping: \(mode.rawValue)" + (why.map { " (\($0))" } ?? "")
  }
}
