import Foundation
import GalleyRecords
import Rasterizer
import SelfSizing
import Typesetting

/// `galley validate --html`: one self-contained HTML file (pictures inlined as PNG data URIs).
enum HTMLReport {
  static func escape(_ s: String) -> String {
    var o = ""
    for c in s {
      switch c {
      case "&": o += "&amp;"
      case "<": o += "&lt;"
      case ">": o += "&gt;"
      case "\"": o += "&quot;"
      default: o.append(c)
      }
    }
    return o
  }

  static func f(_ v: Double) -> String { String(format: "%.2f", v) }

  /// A histogram of signed errors as inline SVG: bars of `binWidth` points.
  static func histogram(_ errors: [Double]) -> String {
    guard let lo = errors.min(), let hi = errors.max() else { return "<p>no items</p>" }
    let span = max(1, hi - lo)
    let bins = min(40, max(1, errors.count < 10 ? 5 : 30))
    var binWidth = span / Double(bins)
    binWidth = max(0.5, (binWidth * 2).rounded(.up) / 2)
    let start = (lo / binWidth).rounded(.down) * binWidth
    let n = Int(((hi - start) / binWidth).rounded(.down)) + 1
    var counts = [Int](repeating: 0, count: n)
    for e in errors { counts[min(n - 1, Int(((e - start) / binWidth).rounded(.down)))] += 1 }
    let maxCount = counts.max() ?? 1
    let w = 720.0
    let h = 180.0
    let bw = w / Double(n)
    var svg =
      "<svg id=\"histogram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h + 30))\" role=\"img\" aria-label=\"histogram of errors\">"
    for (i, c) in counts.enumerated() {
      let bh = Double(c) / Double(maxCount) * h
      let x0 = start + Double(i) * binWidth
      let color = x0 + binWidth <= 0 ? "#ff3b30" : (x0 >= 0 ? "#0a84ff" : "#8e8e93")
      svg +=
        "<rect x=\"\(f(Double(i) * bw + 1))\" y=\"\(f(h - bh))\" width=\"\(f(max(1, bw - 2)))\" height=\"\(f(bh))\" fill=\"\(color)\"><title>[\(f(x0)), \(f(x0 + binWidth))) pt: \(c)</title></rect>"
    }
    // The zero line: estimates left of it were too tall, right of it too short.
    let zeroX = (0 - start) / binWidth * bw
    if zeroX >= 0 && zeroX <= w {
      svg +=
        "<line x1=\"\(f(zeroX))\" y1=\"0\" x2=\"\(f(zeroX))\" y2=\"\(Int(h + 6))\" stroke=\"#1c1c1e\" stroke-width=\"1\"/><text x=\"\(f(zeroX))\" y=\"\(Int(h + 20))\" font-size=\"12\" text-anchor=\"middle\">0</text>"
    }
    svg +=
      "<text x=\"0\" y=\"\(Int(h + 20))\" font-size=\"12\">\(f(start)) pt</text><text x=\"\(Int(w))\" y=\"\(Int(h + 20))\" font-size=\"12\" text-anchor=\"end\">\(f(start + Double(n) * binWidth)) pt</text></svg>"
    return svg
  }

  /// A cell drawn twice: at its estimated size and at its measured size, as PNG data URIs.
  static func pictures(
    of record: CellRecord, estimated: Double, painter: CellPainter, sizer: CellSizer
  ) throws -> (String, String) {
    let scale = 2.0
    func uri(_ c: Canvas) throws -> String {
      "data:image/png;base64," + (try PNGImage.encode(c)).base64EncodedString()
    }
    switch record.cell {
    case .bubble(let b):
      let placement = try sizer.place(b)
      let guess = BubbleEstimator().estimate(b)
      let ew = record.estimatedWidth ?? guess.width
      let w = max(placement.size.width, ew) + 16
      let h1 = max(estimated, placement.size.height) + 16
      let est = Canvas(width: w, height: h1, scale: scale)
      var forced = placement
      forced.size = CellSize(width: ew, height: estimated)
      // What a reader would see with the estimate: the bubble at that size, text clipped.
      est.clip = Rect(x: 8, y: 8, width: ew, height: estimated)
      _ = try painter.drawBubble(b, forced, x: 8, y: 8, on: est)
      est.clip = nil
      est.strokeRect(
        Rect(x: 8, y: 8, width: ew, height: estimated), CellPainter.estimatedOutline,
        lineWidth: 1, dash: (4, 3))
      let act = Canvas(width: w, height: h1, scale: scale)
      _ = try painter.drawBubble(b, placement, x: 8, y: 8, on: act)
      return (try uri(est), try uri(act))
    case .productCard(let c):
      let placement = try sizer.place(c)
      let h1 = max(estimated, placement.size.height) + 16
      let est = Canvas(width: placement.size.width + 16, height: h1, scale: scale)
      est.clip = Rect(x: 8, y: 8, width: placement.size.width, height: estimated)
      _ = try painter.drawCard(placement, x: 8, y: 8, on: est)
      est.clip = nil
      est.strokeRect(
        Rect(x: 8, y: 8, width: placement.size.width, height: estimated),
        CellPainter.estimatedOutline, lineWidth: 1, dash: (4, 3))
      let act = Canvas(width: placement.size.width + 16, height: h1, scale: scale)
      _ = try painter.drawCard(placement, x: 8, y: 8, on: act)
      return (try uri(est), try uri(act))
    }
  }

  /// The report page. `records` gives each worst item's record for its pictures.
  static func page(
    _ r: ValidationReport, source: String, maxError: Double?, records: [String: CellRecord],
    sizer: CellSizer
  ) throws -> String {
    let s = r.statistics
    var html = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8"><title>galley validate — \(escape(source))</title>
      <style>
      body{font-family:system-ui,sans-serif;margin:24px;color:#1c1c1e;background:#fff}
      h1{font-size:22px} h2{font-size:17px;margin-top:28px}
      table{border-collapse:collapse} td,th{padding:4px 10px;border-bottom:1px solid #e5e5ea;text-align:right}
      th:first-child,td:first-child{text-align:left}
      .summary td{font-variant-numeric:tabular-nums} .ok{color:#248a3d} .fail{color:#d70015}
      .pair{display:flex;gap:16px;align-items:flex-start} .pair figure{margin:0}
      figcaption{font-size:12px;color:#6e6e73} img{border:1px solid #e5e5ea}
      </style></head><body>
      <h1>Estimated vs measured cell heights</h1>
      <p>Input: <code>\(escape(source))</code>. Error = actual − estimated, points.</p>
      <h2>Summary</h2>
      <table class="summary" id="summary">
      <tr><th>cells</th><td id="count">\(r.items.count)</td></tr>
      <tr><th>unusable records</th><td id="errors">\(r.failures.count)</td></tr>
      <tr><th>mean |error|</th><td id="meanAbsError">\(f(s.meanAbsError))</td></tr>
      <tr><th>p50</th><td id="p50">\(f(s.p50))</td></tr>
      <tr><th>p95</th><td id="p95">\(f(s.p95))</td></tr>
      <tr><th>max</th><td id="max">\(f(s.max))</td></tr>
      <tr><th>largest jump while scrolling</th><td id="maxJump">\(f(r.maxJump))</td></tr>
      <tr><th>total drift</th><td id="totalDrift">\(f(r.totalDrift))</td></tr>
      </table>

      """
    if let m = maxError {
      html +=
        r.passes(maxError: m)
        ? "<p class=\"ok\">OK: max error ≤ \(f(m))</p>\n"
        : "<p class=\"fail\">FAIL: max error \(f(s.max)) &gt; \(f(m))</p>\n"
    }
    html += "<h2>Errors</h2>\n<p>Red: the estimate was too tall; blue: too short.</p>\n"
    html += histogram(r.items.map(\.error)) + "\n"
    html +=
      "<h2>By category</h2>\n<table id=\"byCategory\"><tr><th>category</th><th>count</th><th>mean |error|</th><th>p95</th><th>max</th></tr>\n"
    for (k, v) in r.byCategory.sorted(by: { $0.key < $1.key }) {
      html +=
        "<tr><td>\(escape(k))</td><td>\(v.count)</td><td>\(f(v.meanAbsError))</td><td>\(f(v.p95))</td><td>\(f(v.max))</td></tr>\n"
    }
    html += "</table>\n<h2>Worst items</h2>\n"
    let painter = try CellPainter(sizer: sizer)
    for w in r.worst {
      html +=
        "<h3 id=\"worst-\(escape(w.id))\">\(escape(w.id)): estimated \(f(w.estimated)), actual \(f(w.actual)), error \(f(w.error))</h3>\n"
      if let rec = records[w.id],
        let (e, a) = try? pictures(of: rec, estimated: w.estimated, painter: painter, sizer: sizer)
      {
        html +=
          "<div class=\"pair\"><figure><img alt=\"estimate\" src=\"\(e)\" style=\"zoom:0.5\"><figcaption>estimate (dashed; content clipped to it)</figcaption></figure><figure><img alt=\"actual\" src=\"\(a)\" style=\"zoom:0.5\"><figcaption>measured</figcaption></figure></div>\n"
      }
    }
    if !r.failures.isEmpty {
      html += "<h2>Unusable records</h2>\n<table><tr><th>line</th><th>id</th><th>error</th></tr>\n"
      for fl in r.failures.prefix(100) {
        html +=
          "<tr><td>\(fl.line)</td><td>\(escape(fl.id ?? ""))</td><td>\(escape(fl.message))</td></tr>\n"
      }
      html += "</table>\n"
    }
    html += "</body></html>\n"
    return html
  }
}
