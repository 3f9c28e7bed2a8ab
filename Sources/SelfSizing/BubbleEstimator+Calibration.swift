import Typesetting

/// How well a calibrated estimator predicts bubble heights.
public struct CalibrationReport: Sendable, Hashable {
  /// Height errors on the cells the parameters were fitted to.
  public var training: ErrorStatistics
  /// Height errors on cells held out of the fit (every fifth cell).
  public var heldOut: ErrorStatistics
}

extension BubbleEstimator {
  /// Fits the per-font factors to measured cells by least squares on the natural (unwrapped)
  /// widths of their paragraphs; every fifth cell is held out and reported apart.
  public static func calibrate(_ cells: [BubbleCell], sizer: CellSizer) throws -> (
    BubbleEstimator, CalibrationReport
  ) {
    var training: [BubbleCell] = []
    var heldOut: [BubbleCell] = []
    for (i, c) in cells.enumerated() {
      if i % 5 == 4 { heldOut.append(c) } else { training.append(c) }
    }
    var e = BubbleEstimator()
    let (columns, rows) = try calibrationRows(training, sizer: sizer, estimator: e)
    let factors = leastAbsoluteDeviations(rows, columns: columns.count)
    for (k, font) in columns.enumerated() { e.fontScales[font] = max(0.1, factors[k]) }
    func stats(_ set: [BubbleCell]) throws -> ErrorStatistics {
      ErrorStatistics(try set.map { e.estimate($0).height - (try sizer.measure($0).size.height) })
    }
    return (e, CalibrationReport(training: try stats(training), heldOut: try stats(heldOut)))
  }

  /// A row per one-line paragraph of `cells`: each font's share of its estimated width (with
  /// factor 1), by column, and its measured width; the columns are the fonts seen, by name.
  static func calibrationRows(
    _ cells: [BubbleCell], sizer: CellSizer, estimator e: BubbleEstimator
  ) throws -> (columns: [String], rows: [([(Int, Double)], Double)]) {
    var column: [String: Int] = [:]
    var columns: [String] = []
    var rows: [([(Int, Double)], Double)] = []
    for c in cells {
      var style = c.style
      style.size *= c.textScale
      style.maxLines = nil
      for paragraph in c.text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
        var text = Substring(paragraph)
        while let last = text.unicodeScalars.last, last == " " || last == "\t" {
          text = text.dropLast()
        }
        guard !text.isEmpty else { continue }
        let natural = try sizer.layOut(String(text), style, width: 1e7)
        guard natural.lineCount == 1 else { continue }
        let fonts = style.fonts.fonts
        var perFont: [Double]? = [Double](repeating: 0, count: fonts.count)
        var words = WordsBuilder()
        _ = e.read(String(text), style, size: style.size, perFont: &perFont, into: &words)
        var row: [(Int, Double)] = []
        for (i, x) in perFont!.enumerated() where x > 0 {
          let key = fonts[i].name
          let j: Int
          if let k = column[key] {
            j = k
          } else {
            j = columns.count
            column[key] = j
            columns.append(key)
          }
          row.append((j, x))
        }
        if !row.isEmpty { rows.append((row, natural.widest)) }
      }
    }
    return (columns, rows)
  }

  /// The factors (one per column) that fit `rows` by least absolute deviations (iteratively
  /// reweighted least squares): the factors that make the typical paragraph right, not the
  /// mean pulled by a few (a paragraph's width is off by kerning or a ligature it happens to
  /// hold). Ridge-regularised towards factor 1 (the nominal advances).
  static func leastAbsoluteDeviations(_ rows: [([(Int, Double)], Double)], columns n: Int)
    -> [Double]
  {
    var factors = [Double](repeating: 1, count: n)
    guard n > 0 else { return factors }
    var weights = [Double](repeating: 1, count: rows.count)
    for _ in 0..<12 {
      var ata = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
      var atb = [Double](repeating: 0, count: n)
      for (r, (row, y)) in rows.enumerated() {
        let w = weights[r]
        for (i, vi) in row {
          atb[i] += w * vi * y
          for (j, vj) in row { ata[i][j] += w * vi * vj }
        }
      }
      for i in 0..<n {
        let ridge = 1e-3 * (ata[i][i] + 1)
        ata[i][i] += ridge
        atb[i] += ridge
      }
      guard let solved = solve(ata, atb) else { break }
      factors = solved
      for (r, (row, y)) in rows.enumerated() {
        let residual = abs(row.reduce(0) { $0 + factors[$1.0] * $1.1 } - y)
        // (Residuals are points of width: below 0.01 pt they count as that.)
        weights[r] = 1 / max(residual, 0.01)
      }
    }
    return factors
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
