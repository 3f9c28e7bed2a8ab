/// Summary of absolute errors (points).
public struct ErrorStatistics: Sendable, Hashable {
  /// Number of errors summarised.
  public var count: Int
  /// Mean of the absolute errors.
  public var meanAbsError: Double
  /// Median absolute error (nearest rank).
  public var p50: Double
  /// 95th percentile of the absolute errors (nearest rank).
  public var p95: Double
  /// Largest absolute error.
  public var max: Double

  /// Statistics of `errors` (signed or not; absolute values are used). Percentiles by the
  /// nearest-rank method: the p-th percentile is the ⌈p·n/100⌉-th smallest value.
  public init(_ errors: [Double]) {
    let a = errors.map(abs).sorted()
    count = a.count
    guard !a.isEmpty else {
      meanAbsError = 0
      p50 = 0
      p95 = 0
      max = 0
      return
    }
    meanAbsError = a.reduce(0, +) / Double(a.count)
    func rank(_ p: Double) -> Double {
      let k = Int((p / 100 * Double(a.count)).rounded(.up))
      return a[Swift.max(0, Swift.min(a.count - 1, k - 1))]
    }
    p50 = rank(50)
    p95 = rank(95)
    max = a[a.count - 1]
  }
}
