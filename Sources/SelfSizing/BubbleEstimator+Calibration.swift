import Typesetting

/// How well a calibrated estimator predicts bubble heights.
public struct CalibrationReport: Sendable, Hashable {
  /// Height errors on the cells the parameters were fitted to.
  public var training: ErrorStatistics
  /// Height errors on cells held out of the fit (every fifth cell).
  public var heldOut: ErrorStatistics
}

extension BubbleEstimator {
  /// Fits the per-font class advances to measured cells by least squares on the natural
  /// (unwrapped) widths of their paragraphs; every fifth cell is held out and reported apart.
  public static func calibrate(_ cells: [BubbleCell], sizer: CellSizer) throws -> (
    BubbleEstimator, CalibrationReport
  ) {
    var training: [BubbleCell] = []
    var heldOut: [BubbleCell] = []
    for (i, c) in cells.enumerated() {
      if i % 5 == 4 { heldOut.append(c) } else { training.append(c) }
    }
    var e = BubbleEstimator()
    // Columns: (font, class) pairs seen in the samples.
    var column: [String: Int] = [:]
    var columns: [(String, Int)] = []
    var rows: [([(Int, Double)], Double)] = []
    for c in training {
      var style = c.style
      style.size *= c.textScale
      style.maxLines = nil
      for paragraph in c.text.split(separator: "\n", omittingEmptySubsequences: true) {
        let text = String(paragraph)
        let natural = try sizer.lay(text, style, width: 1e7)
        guard natural.lineCount == 1 else { continue }
        var otherSample: UInt32? = nil
        for s in text.unicodeScalars where classify(s.value) == .other {
          otherSample = s.value
          break
        }
        let counts = count(text)
        // ASCII is exact (the font's own advances): take it off the target.
        let latin = latinFont(style).asciiAdvances
        var asciiWidth = 0.0
        var nonASCIINarrow = 0
        var classifier = Classifier()
        var last = 0.0
        for s in text.unicodeScalars {
          let v = s.value
          let (c, keycap) = classifier.next(v)
          if keycap {
            asciiWidth -= last  // the base became an emoji, counted in the emoji column
            continue
          }
          if v < 0x80 && latin[Int(v)] > 0 && (c == .narrow || c == .space) {
            last = latin[Int(v)] * style.size
            asciiWidth += last
          } else if c == .narrow || c == .space {
            nonASCIINarrow += 1
            last = 0
          }
        }
        var counts2 = counts
        counts2[CharacterClass.narrow.rawValue] = nonASCIINarrow
        counts2[CharacterClass.space.rawValue] = 0
        var row: [(Int, Double)] = []
        for cls in CharacterClass.allCases where counts2[cls.rawValue] > 0 && cls != .mark {
          let probe = cls == .other ? (otherSample ?? cls.representative) : cls.representative
          let fonts = style.fonts.fonts
          let font =
            (cls == .emoji ? fonts.first { $0.hasColorGlyphs && $0.covers(probe) } : nil)
            ?? fonts.first { $0.covers(probe) } ?? fonts[0]
          let key = "\(font.name)|\(cls.rawValue)"
          let j: Int
          if let k = column[key] {
            j = k
          } else {
            j = columns.count
            column[key] = j
            columns.append((font.name, cls.rawValue))
          }
          row.append((j, Double(counts2[cls.rawValue]) * style.size))
        }
        rows.append((row, natural.widest - asciiWidth))
      }
    }
    // Ridge-regularised normal equations, pulled towards the class defaults.
    let n = columns.count
    if n > 0 {
      var ata = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
      var atb = [Double](repeating: 0, count: n)
      for (row, y) in rows {
        for (i, vi) in row {
          atb[i] += vi * y
          for (j, vj) in row { ata[i][j] += vi * vj }
        }
      }
      for i in 0..<n {
        let ridge = 1e-4 * (ata[i][i] + 1)
        ata[i][i] += ridge
        atb[i] += ridge * e.classAdvances[columns[i].1]
      }
      if let solved = solve(ata, atb) {
        for (k, (font, cls)) in columns.enumerated() {
          var table = e.fontAdvances[font] ?? e.classAdvances
          table[cls] = max(0, solved[k])
          e.fontAdvances[font] = table
        }
      }
    }
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
