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
    .arabic: (0, 0), .cyrillic: (0, 0), .devanagari: (0, 0), .emoji: (0, 0),
    .hebrew: (0, 0), .japaneseChinese: (0, 21), .korean: (0, 0), .latin: (0, 0),
    .mixed: (0, 15), .thai: (0, 0), .none: (0, 0),
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
    let table = try checkPerScriptGroup(
      errors, ceilings: Self.ceilings, header: "group            n     p95     max")
    print("estimator, held out, calibrated on the other half:\n" + table)
  }
}
