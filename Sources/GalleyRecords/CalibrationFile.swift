import CompositionalLayout
import Foundation
import GalleyJSON
import Geometry
import SelfSizing
import Typesetting

extension BubbleEstimator {
  /// Why a calibration file cannot be used.
  public struct CalibrationFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// The estimator of a calibration file (docs/CELLS.md, "Calibration"): small versioned JSON,
  /// `{"format": "galley-calibration", "version": 1, "fontScales": {"Font.ttf": factor, …}, …}`.
  /// - Throws: ``CalibrationFileError`` for anything but that (not JSON, another format or a
  ///   later version, a factor that is not a number in (0, 10]).
  public init(calibration data: Data) throws {
    let root: JSONValue
    do {
      root = try JSONReader.readDocument(data)
    } catch {
      throw CalibrationFileError(message: "not JSON (\(error))")
    }
    guard let o = root.object, o["format"]?.string == "galley-calibration" else {
      throw CalibrationFileError(message: "not a galley calibration file (no \"format\": \"galley-calibration\")")
    }
    guard o["version"]?.number == 1 else {
      let v = o["version"]?.jsonText
      throw CalibrationFileError(
        message: "calibration version \(v ?? "missing") (this galley reads 1)")
    }
    guard let scales = o["fontScales"]?.object else {
      throw CalibrationFileError(message: "\"fontScales\" must be an object of font file name: factor")
    }
    self.init()
    for field in scales {
      guard case .number(let n) = field.value, n > 0, n <= 10 else {
        throw CalibrationFileError(
          message: "fontScales.\(field.key): a factor in (0, 10], got \(field.value.jsonText)")
      }
      fontScales[field.key] = n
    }
  }

  /// The calibration file of this estimator, with how it was fitted.
  public func calibrationFile(cells: Int, report: CalibrationReport) -> Data {
    func stats(_ s: ErrorStatistics) -> [String: Any] {
      ["count": s.count, "meanAbsError": s.meanAbsError, "p95": s.p95, "max": s.max]
    }
    let o: [String: Any] = [
      "format": "galley-calibration", "version": 1, "fontScales": fontScales, "cells": cells,
      "training": stats(report.training), "heldOut": stats(report.heldOut),
    ]
    return (try? JSONSerialization.data(withJSONObject: o, options: [.prettyPrinted, .sortedKeys]))
      ?? Data()
  }
}
