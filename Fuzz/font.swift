import Foundation

@testable import Typesetting

// Fuzz target (d): font loading from mutated bytes (Font(data:name:faceIndex:)), then shaping
// and laying out a mixed text with whatever loaded. The first byte picks the face index.

let typesetter = acceleratedTypesetter(cacheCapacity: 0)
let sample = "Hello, world! 세계 世界 שלום مرحبا สวัสดี नमस्ते 😀 fi ffl a\u{301}"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFont(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size >= 1 else { return 0 }
  let face = Int(data[0] % 4)
  let bytes = Data(bytes: data + 1, count: size - 1)
  let font: Font
  do {
    font = try Font(data: bytes, name: "fuzz.ttf", faceIndex: face)
  } catch {
    guard let e = error as? TypesettingError else {
      invariant(false, "\(error)")
      return 0
    }
    switch e {
    case .fontInvalid(name: "fuzz.ttf", _), .fontFaceIndexOutOfRange(name: "fuzz.ttf", _, _): break
    default: invariant(false, "unexpected error \(e)")
    }
    return 0
  }
  invariant(font.unitsPerEm > 0, "units per em \(font.unitsPerEm)")
  for v in [font.ascender, font.descender, font.lineGap] { invariant(v.isFinite, "metric \(v)") }
  guard let stack = try? FontStack([font]) else { return 0 }
  for profile in TextStyle.Profile.allCases {
    var style = TextStyle(fonts: stack, size: 17)
    style.profile = profile
    guard let prepared = try? typesetter.prepare(sample, style: style) else {
      invariant(false, "prepare threw")
      return 0
    }
    for width in [50.0, 1e9] {
      guard let layout = try? prepared.layout(width: width) else {
        invariant(false, "layout threw")
        return 0
      }
      checkLayout(layout, prepared, width: width)
    }
  }
  // A hostile GSUB must not trap the reader behind feature gates, nor make a gate change glyphs.
  checkFeatureGates(sample, style: TextStyle(fonts: stack, size: 17))
  return 0
}
