import Foundation
import XCTest

@testable import SelfSizing

/// The estimator's error per script group on held-out corpus messages: calibrated on the even
/// messages, checked on the odd ones. Each ceiling is the level reached so far (a ratchet: lower
/// them as the estimator improves, never raise them); the goal is p95 ≤ 4 pt and max ≤ 20 pt
/// in every group.
final class EstimatorScriptTests: XCTestCase {
  /// p95 and max of |estimated − measured| bubble height, points, per group, on the test
  /// transcript's bubbles (`galley validate --against estimator --calibration … --group-by
  /// script` gives the same kind of table for any cells).
  static let ceilings: [ScriptGroup: (p95: Double, max: Double)] = [
    .arabic: (0, 16), .cyrillic: (0, 0), .devanagari: (0, 3), .emoji: (0, 0),
    .hebrew: (1, 4), .japaneseChinese: (1, 21), .korean: (0, 5), .latin: (0, 6),
    .mixed: (2, 22.34), .thai: (0, 23), .none: (0, 0),
  ]

  func testHeldOutErrorPerScriptGroup() throws {
    let all = try Fixtures.transcript(3000).enumerated().filter { !$0.element.text.isEmpty }
    let fit = all.filter { $0.offset % 2 == 0 }.map(\.element)
    let held = all.filter { $0.offset % 2 == 1 }.map(\.element)
    let (estimator, _) = try BubbleEstimator.calibrate(fit, sizer: .shared)
    var errors: [ScriptGroup: [Double]] = [:]
    for cell in held {
      let e = estimator.estimate(cell).height - (try CellSizer.shared.measure(cell).size.height)
      errors[ScriptGroup.of(cell.text), default: []].append(e)
    }
    var table = "group            n     p95     max\n"
    for (group, list) in errors.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      let s = ErrorStatistics(list)
      table += group.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)
        + String(format: "%4d %7.2f %7.2f\n", s.count, s.p95, s.max)
      let ceiling = try XCTUnwrap(Self.ceilings[group], "no ceiling for \(group)")
      XCTAssertLessThanOrEqual(s.p95, ceiling.p95 + 1e-6, "p95 of \(group)")
      XCTAssertLessThanOrEqual(s.max, ceiling.max + 1e-6, "max of \(group)")
    }
    print("estimator, held out, calibrated on the other half:\n" + table)
  }
}
