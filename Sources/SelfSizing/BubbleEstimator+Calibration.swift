import Typesetting

/// How well a calibrated estimator predicts bubble heights.
public struct CalibrationReport: Sendable, Hashable {
  /// Height errors on the cells the parameters were fitted to.
  public var training: ErrorStatistics
  /// Height errors on cells held out of the fit (every fifth cell).
  public var heldOut: ErrorStatistics
}

extension BubbleEstimator {
  /// Fits the estimator to measured cells: class advances by least squares on the natural widths
  /// of single-paragraph texts, the `normal` line height from measured text heights, and the
  /// fill factor by search. Every fifth cell is held out and reported separately.
  public static func calibrate(_ cells: [BubbleCell], sizer: CellSizer) throws -> (
    BubbleEstimator, CalibrationReport
  ) {
    var training: [BubbleCell] = []
    var heldOut: [BubbleCell] = []
    for (i, c) in cells.enumerated() {
      if i % 5 == 4 { heldOut.append(c) } else { training.append(c) }
    }
    var e = BubbleEstimator()

    // 1. Advances: Σ_c n_c · a_c · size ≈ natural width.
    var ata = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 6)
    var atb = [Double](repeating: 0, count: 6)
    var heightRatios: [Double] = []
    for c in training where !c.text.contains("\n") && !c.text.isEmpty {
      var style = c.style
      style.size *= c.textScale
      style.maxLines = nil
      let natural = try sizer.lay(c.text, style, width: 1e7)
      let counts = BubbleEstimator.count(c.text)
      let row = counts.perClass.map { Double($0) * style.size }
      for i in 0..<6 {
        atb[i] += row[i] * natural.widest
        for j in 0..<6 { ata[i][j] += row[i] * row[j] }
      }
      if case .normal = style.lineHeight, natural.lineCount == 1 {
        heightRatios.append(natural.height / style.size)
      }
    }
    // A small ridge towards the defaults keeps classes with few samples sensible.
    let prior = e.advances
    for i in 0..<6 {
      let ridge = 1e-3 * (ata[i][i] + 1)
      ata[i][i] += ridge
      atb[i] += ridge * prior[i]
    }
    if let solved = solve(ata, atb) { e.advances = solved.map { Swift.max(0, $0) } }
    if !heightRatios.isEmpty {
      heightRatios.sort()
      e.normalLineHeight = heightRatios[heightRatios.count / 2]
    }

    // 2. Fill: the value that minimises the mean absolute height error on the training cells.
    let measured = try training.map { try sizer.measure($0).size.height }
    let counts = training.map { BubbleEstimator.count($0.text) }
    var best = (fill: e.fill, error: Double.infinity)
    for step in 0...40 {
      var t = e
      t.fill = 0.6 + Double(step) * 0.01
      var err = 0.0
      for (k, c) in training.enumerated() { err += abs(t.estimate(c, counts: counts[k]).height - measured[k]) }
      if err < best.error { best = (t.fill, err) }
    }
    e.fill = best.fill

    func stats(_ set: [BubbleCell]) throws -> ErrorStatistics {
      ErrorStatistics(try set.map { e.estimate($0).height - (try sizer.measure($0).size.height) })
    }
    return (e, CalibrationReport(training: try stats(training), heldOut: try stats(heldOut)))
  }

  /// Solves a small dense linear system by Gaussian elimination with partial pivoting.
  static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
    var m = a
    var v = b
    let n = v.count
    for col in 0..<n {
      var pivot = col
      for r in col..<n where abs(m[r][col]) > abs(m[pivot][col]) { pivot = r }
      guard abs(m[pivot][col]) > 1e-12 else { return nil }
      m.swapAt(col, pivot)
      v.swapAt(col, pivot)
      for r in 0..<n where r != col {
        let f = m[r][col] / m[col][col]
        if f == 0 { continue }
        for k in col..<n { m[r][k] -= f * m[col][k] }
        v[r] -= f * v[col]
      }
    }
    return (0..<n).map { v[$0] / m[$0][$0] }
  }
}
