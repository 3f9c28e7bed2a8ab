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
  /// 99th percentile of the absolute errors (nearest rank).
  public var p99: Double
  /// Largest absolute error.
  public var max: Double
  /// Errors larger than 2 points (a pixel or two at any display scale: a visible difference).
  public var overTwoPoints: Int
  /// Errors larger than 20 points (about a line of chat text).
  public var overTwentyPoints: Int
  /// Errors larger than the item's own line box and pixel (more than one line off), when line
  /// boxes were given.
  public var overOneLineBox: Int?

  /// Statistics of `errors` (signed or not; absolute values are used). Percentiles by the
  /// nearest-rank method: the p-th percentile is the ⌈p·n/100⌉-th smallest value. `lineBoxes`,
  /// one per error, are the largest errors that are one line off (the items' tallest measured
  /// line boxes, and a pixel).
  public init(_ errors: [Double], lineBoxes: [Double]? = nil) {
    let a = errors.map(abs).sorted()
    count = a.count
    // (Float noise of 1e-9 pt is no error.)
    overTwoPoints = a.count(where: { $0 > 2 + 1e-9 })
    overTwentyPoints = a.count(where: { $0 > 20 + 1e-9 })
    overOneLineBox = lineBoxes.map { boxes in
      zip(errors, boxes).count(where: { abs($0.0) > $0.1 + 1e-9 })
    }
    guard !a.isEmpty else {
      meanAbsError = 0
      p50 = 0
      p95 = 0
      p99 = 0
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
    p99 = rank(99)
    max = a[a.count - 1]
  }

  /// `n` of these errors per 10,000 (0 when there are none).
  public func perTenThousand(_ n: Int) -> Double {
    count == 0 ? 0 : Double(n) * 10_000 / Double(count)
  }
}
