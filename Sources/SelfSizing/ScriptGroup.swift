/// The script group a text belongs to, for reports by script: the script of most of its
/// letters, or `mixed` when none has four fifths of them.
public enum ScriptGroup: String, CaseIterable, Sendable {
  case latin, korean, japaneseChinese, arabic, hebrew, thai, devanagari, cyrillic, emoji, mixed,
    none

  /// The group of `text` (letters and emoji counted; digits, punctuation and spaces not).
  public static func of(_ text: String) -> ScriptGroup {
    var counts = [ScriptGroup: Int]()
    var total = 0
    for s in text.unicodeScalars {
      guard let g = group(s.value) else { continue }
      counts[g, default: 0] += 1
      total += 1
    }
    guard total > 0, let top = counts.max(by: { $0.value < $1.value }) else { return .none }
    return top.value * 5 >= total * 4 ? top.key : .mixed
  }

  static func group(_ c: UInt32) -> ScriptGroup? {
    switch c {
    case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF: return .latin
    case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF: return .korean
    case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF:
      return .japaneseChinese
    case 0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF:
      return .arabic
    case 0x0590...0x05FF, 0xFB1D...0xFB4F: return .hebrew
    case 0x0E00...0x0E7F: return .thai
    case 0x0900...0x097F, 0xA8E0...0xA8FF: return .devanagari
    case 0x0400...0x052F: return .cyrillic
    case 0x2600...0x27BF, 0x1F000...0x1FAFF: return .emoji
    default: return nil
    }
  }
}
