import Foundation
import SelfSizing
import Typesetting

@testable import CompositionalLayout
@testable import GalleyCLI
@testable import GalleyRecords

// Fuzz target (c): a compositional layout spec through runLayoutSpec, with cells measured by
// the text engine as `galley layout` measures them. Whatever the bytes: a LayoutSpecError or a
// cell error, or one JSON object.

let sizer = CellSizer(typesetter: acceleratedTypesetter(cacheCapacity: 256), cacheCapacity: 256)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayoutSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let spec = Data(bytes: data, count: size)
  do {
    let out = try runLayoutSpec(spec) { request in
      try LayoutCommand.measureCell(request, library: fuzzLibrary, sizer: sizer)
    }
    let object = try? JSONSerialization.jsonObject(with: out)
    invariant(object is [String: Any], "output is not a JSON object")
  } catch is LayoutSpecError {
  } catch is LayoutCommand.CellMeasureError {
  } catch {
    invariant(false, "unexpected error type \(type(of: error)): \(error)")
  }
  return 0
}
