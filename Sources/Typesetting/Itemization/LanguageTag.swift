import CHarfBuzz
import CICUShims
import Foundation

/// The part of a BCP 47 language tag that HarfBuzz and ICU are given.
///
/// HarfBuzz interns every language it sees in a list that is never freed and caches a shape
/// plan per face and language in another list, both searched linearly; ICU opens a break
/// iterator per locale. A stream of cases with distinct `lang` values ("x-m1", "x-m2", …) made
/// memory grow without bound and time grow quadratically (20 000 such messages took minutes).
/// Only what can change shaping or line breaking reaches them, from a bounded set:
/// - the primary language subtag, when it is an ISO 639 code ICU knows (about 600), lowercased;
/// - for Chinese only, a `Hans`/`Hant` script and a `CN`/`HK`/`MO`/`SG`/`TW` region, which
///   select different OpenType language systems and punctuation conventions.
/// Variants, extensions, private use and `@` keywords are dropped; a tag whose primary subtag is
/// not a known language becomes "" (no language).
package enum LanguageTag {
  static let iso639: Set<String> = {
    var codes = Set<String>()
    var i: Int32 = 0
    while let code = galley_iso_language(i) {
      codes.insert(String(cString: code))
      i += 1
    }
    return codes
  }()

  static let chineseScripts: Set<String> = ["hans", "hant"]
  static let chineseRegions: Set<String> = ["cn", "hk", "mo", "sg", "tw"]

  private static let memo = Memo()

  /// Remembers the canonical forms of the tags seen (bounded: cleared when full).
  private final class Memo: @unchecked Sendable {
    // @unchecked: `forms` is only touched under `lock`.
    let lock = Lock()
    var forms: [String: String] = [:]
  }

  /// The canonical, bounded form of `tag` (see the type's documentation).
  package static func canonical(_ tag: String) -> String {
    if tag.isEmpty { return "" }
    memo.lock.lock()
    if let known = memo.forms[tag] {
      memo.lock.unlock()
      return known
    }
    memo.lock.unlock()
    let form = compute(tag)
    memo.lock.lock()
    if memo.forms.count >= 4096 { memo.forms.removeAll() }
    memo.forms[tag] = form
    memo.lock.unlock()
    return form
  }

  /// The HarfBuzz language of `tag`: its canonical form interned by HarfBuzz, nil when that is
  /// empty (no language).
  package static func harfBuzz(_ tag: String) -> hb_language_t? {
    let form = canonical(tag)
    return form.isEmpty ? nil : form.withCString { hb_language_from_string($0, -1) }
  }

  static func compute(_ tag: String) -> String {
    let base = tag.prefix { $0 != "@" }
    let subtags = base.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
    guard let primary = subtags.first, (2...3).contains(primary.utf8.count),
      primary.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }),
      iso639.contains(primary)
    else { return "" }
    guard primary == "zh" else { return primary }
    var result = "zh"
    var rest = subtags.dropFirst()
    if let s = rest.first, chineseScripts.contains(s) {
      result += "-" + s.prefix(1).uppercased() + s.dropFirst()
      rest = rest.dropFirst()
    }
    if let r = rest.first, chineseRegions.contains(r) { result += "-" + r.uppercased() }
    return result
  }
}
