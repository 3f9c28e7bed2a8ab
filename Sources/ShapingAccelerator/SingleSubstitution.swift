import Typesetting
/// A GSUB single substitution subtable: format 1 adds a delta to each covered glyph, format 2
/// lists each covered glyph's substitute.
struct SingleSubstitution: Sendable {
  private let coverage: Coverage
  private let delta: UInt16
  private let substitutes: [UInt16]

  init?(_ t: TableBytes, at sub: Int, work: LookupRequirements.Work) {
    guard let format = t.u16(sub), let cov = t.offset(sub, 2),
      let coverage = Coverage(t, at: cov), let field = t.u16(sub + 4),
      work.spend(coverage.size + Int(field))
    else { return nil }
    self.coverage = coverage
    switch format {
    case 1:
      delta = field
      substitutes = []
    case 2:
      guard sub + 6 + 2 * Int(field) <= t.data.count else { return nil }
      delta = 0
      substitutes = (0..<Int(field)).map { t.u16(sub + 6 + 2 * $0)! }
    default:
      return nil
    }
  }

  /// The substitute of a covered glyph (nil when not covered, or listed past the array's end:
  /// HarfBuzz leaves such a glyph alone).
  func substitute(_ g: UInt16) -> UInt16? {
    guard let k = coverage.index(g) else { return nil }
    if substitutes.isEmpty { return g &+ delta }
    return k < substitutes.count ? substitutes[k] : nil
  }
}
