/// The nearest known word to a mistyped command or option, for "did you mean …?".
enum Suggestion {
  /// The candidate closest to `word` by edit distance (insertions, deletions, substitutions and
  /// swaps of two neighbours count one each), when it is close enough to be a slip: at most a
  /// third of the word's length, and at least one edit allowed. Nil when none is.
  static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
    let w = Array(word.lowercased())
    let allowed = max(1, w.count / 3)
    var best: (distance: Int, word: String)? = nil
    for c in candidates.sorted() {
      let d = distance(w, Array(c.lowercased()))
      if d <= allowed && d < (best?.distance ?? .max) { best = (d, c) }
    }
    return best?.word
  }

  /// " (did you mean X?)" or "".
  static func hint(for word: String, in candidates: some Sequence<String>, prefix: String = "")
    -> String
  {
    nearest(to: word, in: candidates).map { " (did you mean \(prefix)\($0)?)" } ?? ""
  }

  /// Optimal string alignment distance.
  private static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        }
      }
    }
    return d[a.count][b.count]
  }
}
