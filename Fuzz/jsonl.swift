import Foundation
import SelfSizing

@testable import GalleyRecords
@testable import GalleyService
@testable import Typesetting

// Fuzz target (b): one JSON Lines record through `galley measure`'s record path: UTF-8 check,
// JSON parsing, TextCase decoding, preparing and laying out, formatting. Whatever the bytes,
// the answer is one line of valid JSON: a result or an error record.

let typesetter = acceleratedTypesetter(cacheCapacity: 0)
let sizer = CellSizer(typesetter: typesetter, cacheCapacity: 0)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let record = Data(bytes: data, count: size)
  let (out, isError) = RecordMeasuring.measure(
    record, line: 1, library: fuzzLibrary, typesetter: typesetter, sizer: sizer, template: nil,
    warn: { _ in })
  invariant(!out.contains("\n"), "output spans lines")
  guard let object = try? JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
  else {
    invariant(false, "output is not a JSON object: \(out)")
    return 0
  }
  if isError {
    invariant(object["error"] is String && object["line"] as? Int == 1, "error record \(out)")
  } else {
    invariant(object["lines"] is Int && object["height"] != nil, "result record \(out)")
  }
  // The same record as a cell: one line of JSON, a size or an error.
  for template in CellTemplate.allCases {
    let (cell, _) = RecordMeasuring.measure(
      record, line: 1, library: fuzzLibrary, typesetter: typesetter, sizer: sizer,
      template: template, warn: { _ in })
    invariant(!cell.contains("\n"), "\(template) output spans lines")
    let parsed = try? JSONSerialization.jsonObject(with: Data(cell.utf8)) as? [String: Any]
    invariant(
      parsed?["error"] is String || parsed?["height"] != nil, "\(template) record \(cell)")
  }
  // The same record through TextCase directly never crashes either.
  _ = try? TextCase(jsonLine: record, library: fuzzLibrary)
  return 0
}
