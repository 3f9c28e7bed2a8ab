import CHarfBuzz
import XCTest

@testable import Typesetting

nonisolated(unsafe) var probeOut = ""
func print(_ s: String) { probeOut += s + "\n"; try? probeOut.write(toFile: "/tmp/g/probe.txt", atomically: true, encoding: .utf8) }

final class TmpProbeTests: XCTestCase {
  func testProbe() throws {
    let cases = try Fixtures.jsonLines("corpus.jsonl").map { try TextCase(json: $0, library: Fixtures.library) }
    let items = try Typesetter(cacheCapacity: 0, wordCacheCapacity: 0).shapingBaseline(cases.map { ($0.text, $0.style) }).items
    let direct = Shaper()
    direct.gateAfterUses = 1
    let whole = Shaper()
    whole.featureGating = false
    var differ = 0
    var byFont: [String: (Int, Int)] = [:]
    for pass in 0..<2 {
      for item in items {
        let run = Shaper.Run(start: 0, end: item.text.count, font: item.font, rtl: item.rtl, script: item.script)
        var a = [Double](repeating: 0, count: item.text.count)
        var b = a
        let before = direct.directRuns
        direct.shape(item.text, run: run, size: 16, language: item.language, features: item.features, into: &a)
        whole.shape(item.text, run: run, size: 16, language: item.language, features: item.features, into: &b)
        if pass == 1 { var e = byFont[item.font.name] ?? (0, 0); e.0 += 1; if direct.directRuns > before { e.1 += 1 }; byFont[item.font.name] = e }
        if a != b {
          differ += 1
          if differ < 20 { print("\(item.font.name) \(String(String.UnicodeScalarView(item.text.compactMap(Unicode.Scalar.init))).debugDescription) \(a) vs \(b)") }
        }
      }
    }
    var why: [String: Int] = [:]
    for item in items where !item.rtl {
      let run = Shaper.Run(start: 0, end: item.text.count, font: item.font, rtl: item.rtl, script: item.script)
      var a = [Double](repeating: 0, count: item.text.count)
      let before = direct.directRuns
      direct.shape(item.text, run: run, size: 16, language: item.language, features: item.features, into: &a)
      if direct.directRuns == before && (item.font.name.contains("DejaVu") || item.font.name.contains("Inter") || item.font.name.contains("NotoSans-R")) {
        // which single chars fail alone
        var bad: [String] = []
        for c in Set(item.text) {
          var b = [Double](repeating: 0, count: 1)
          let r0 = direct.directRuns
          direct.shape([c], run: Shaper.Run(start: 0, end: 1, font: item.font, rtl: false, script: item.script), size: 16, language: item.language, features: item.features, into: &b)
          if direct.directRuns == r0 { bad.append(String(Unicode.Scalar(c)!)) }
        }
        var pairsFound: [String] = []
        if bad.isEmpty {
          for k in 1..<item.text.count {
            var b = [Double](repeating: 0, count: 2)
            let r0 = direct.directRuns
            direct.shape(Array(item.text[(k-1)...k]), run: Shaper.Run(start: 0, end: 2, font: item.font, rtl: false, script: item.script), size: 16, language: item.language, features: item.features, into: &b)
            if direct.directRuns == r0 { pairsFound.append(String(String.UnicodeScalarView(item.text[(k-1)...k].compactMap(Unicode.Scalar.init)))) }
          }
        }
        for p in (bad.isEmpty ? pairsFound : [bad.sorted().joined()]) {
          let key = "\(item.font.name.prefix(8)) \(item.script.rawValue) \(item.text.count) " + p + " " + p.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ",")
          why[key] = (why[key] ?? 0) + 1
        }
      }
    }
    for (k, v) in why.sorted(by: { $0.value > $1.value }).prefix(20) { print("  \(v) \(k.debugDescription)") }
    var cost: [String: (Double, Int)] = [:]
    for item in items {
      let run = Shaper.Run(start: 0, end: item.text.count, font: item.font, rtl: item.rtl, script: item.script)
      var a = [Double](repeating: 0, count: item.text.count)
      let before = direct.directRuns
      direct.shape(item.text, run: run, size: 16, language: item.language, features: item.features, into: &a)
      let isDirect = direct.directRuns > before
      let t0 = DispatchTime.now().uptimeNanoseconds
      for _ in 0..<10 { direct.shape(item.text, run: run, size: 16, language: item.language, features: item.features, into: &a) }
      let dt = Double(DispatchTime.now().uptimeNanoseconds - t0) / 10
      let key = "\(item.font.name) \(isDirect ? "direct" : "hb")"
      var e = cost[key] ?? (0, 0); e.0 += dt; e.1 += 1; cost[key] = e
    }
    for (k, v) in cost.sorted(by: { $0.value.0 > $1.value.0 }) { print("  cost \(k): \(Int(v.0 / 1000)) us over \(v.1) runs") }
    print("differ \(differ) direct \(direct.directRuns) of \(2 * items.count)")
    for (k, v) in byFont.sorted(by: { $0.key < $1.key }) { print("  \(k): \(v.1) of \(v.0)") }
  }
}
