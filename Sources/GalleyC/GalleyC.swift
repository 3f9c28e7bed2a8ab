import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import SelfSizing
import ShapingAccelerator
import Typesetting

// The C ABI of include/galley.h. Every function here is a thin door to the library: it reads
// C values, calls what `galley measure` calls, and hands back memory the caller frees with
// galley_free. No Swift error crosses it: failures come back as NULL with a message, or as the
// error records the command line writes.

/// What an engine holds: the fonts, and a typesetter and cell sizer shared by its callers'
/// threads (both are thread-safe).
final class Engine {
  let library: FontLibrary
  let typesetter: Typesetter
  let sizer: CellSizer

  init(library: FontLibrary) {
    self.library = library
    _ = acceleratorFence
    typesetter = Typesetter(cacheCapacity: 0)
    sizer = CellSizer(typesetter: typesetter, cacheCapacity: 0)
  }
}

/// A copy of `text` in memory from malloc (NUL-terminated), for the caller to free.
func mallocString(_ text: String, length: UnsafeMutablePointer<Int>? = nil) -> UnsafeMutablePointer<CChar>? {
  var text = text
  return text.withUTF8 { mallocString($0, length: length) }
}

/// The same from UTF-8 bytes.
func mallocString(
  _ utf8: UnsafeBufferPointer<UInt8>, length: UnsafeMutablePointer<Int>? = nil
) -> UnsafeMutablePointer<CChar>? {
  length?.pointee = utf8.count
  guard let raw = malloc(utf8.count + 1) else { return nil }
  if let base = utf8.baseAddress { raw.copyMemory(from: base, byteCount: utf8.count) }
  raw.storeBytes(of: 0, toByteOffset: utf8.count, as: UInt8.self)
  return raw.assumingMemoryBound(to: CChar.self)
}

@_cdecl("galley_engine_create")
public func galley_engine_create(
  _ fontsDir: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> OpaquePointer? {
  galley_engine_create_with_options(fontsDir, 0, error)
}

/// `GALLEY_ANY_FONT_PATH`: records may name font files outside the fonts directory.
let anyFontPath: UInt32 = 1

@_cdecl("galley_engine_create_with_options")
public func galley_engine_create_with_options(
  _ fontsDir: UnsafePointer<CChar>?, _ options: UInt32,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> OpaquePointer? {
  guard options & ~anyFontPath == 0 else {
    error?.pointee = mallocString("unknown options \(options & ~anyFontPath)")
    return nil
  }
  let library = FontLibrary(
    directory: fontsDir.map { String(cString: $0) } ?? FontLibrary.bundledDirectory(),
    allowingPathsOutside: options & anyFontPath != 0)
  guard library.directoryExists else {
    error?.pointee = mallocString("fonts directory \(library.directory) does not exist")
    return nil
  }
  let engine = Engine(library: library)
  return OpaquePointer(Unmanaged.passRetained(engine).toOpaque())
}

@_cdecl("galley_engine_destroy")
public func galley_engine_destroy(_ engine: OpaquePointer?) {
  guard let engine else { return }
  Unmanaged<Engine>.fromOpaque(UnsafeRawPointer(engine)).release()
}

@_cdecl("galley_measure_jsonl")
public func galley_measure_jsonl(
  _ engine: OpaquePointer?, _ jsonl: UnsafePointer<CChar>?, _ length: Int,
  _ outLength: UnsafeMutablePointer<Int>?
) -> UnsafeMutablePointer<CChar>? {
  galley_measure_jsonl_template(engine, jsonl, length, nil, outLength)
}

@_cdecl("galley_measure_jsonl_template")
public func galley_measure_jsonl_template(
  _ engine: OpaquePointer?, _ jsonl: UnsafePointer<CChar>?, _ length: Int,
  _ templateName: UnsafePointer<CChar>?, _ outLength: UnsafeMutablePointer<Int>?
) -> UnsafeMutablePointer<CChar>? {
  outLength?.pointee = 0
  var template: CellTemplate? = nil
  if let templateName {
    guard let t = CellTemplate(rawValue: String(cString: templateName)) else { return nil }
    template = t
  }
  // (A length above SSIZE_MAX arrives negative: no buffer is that long.)
  guard let engine, let jsonl, length >= 0 else { return nil }
  let e = Unmanaged<Engine>.fromOpaque(UnsafeRawPointer(engine)).takeUnretainedValue()
  // Lines exactly as `galley measure` reads them, by its own reader.
  let reader = LineReader(bytes: Array(UnsafeRawBufferPointer(start: jsonl, count: length)))
  var out = JSONWriter()
  while let data = reader.next() {
    e.appendResult(
      of: data, line: reader.lineNumber, length: reader.lastLineLength, template: template,
      into: &out)
  }
  return out.withBytes { mallocString($0, length: outLength) }
}

extension Engine {
  /// Appends the result line of record `line`, `length` bytes long, to `out`: what `galley
  /// measure` writes for it, or the error of a record longer than a line may be (of which
  /// `data` may hold only the first bytes).
  func appendResult(
    of data: some Collection<UInt8>, line: Int, length: Int, template: CellTemplate?,
    into out: inout JSONWriter
  ) {
    if length > LineReader.maximumLineBytes {
      out.raw(
        RecordMeasuring.cutRecord(data.prefix(LineReader.keptOfCutLine), line: line, length: length))
    } else {
      _ = RecordMeasuring.measure(
        data, line: line, library: library, typesetter: typesetter, sizer: sizer,
        template: template, warn: writeToStandardError, into: &out)
    }
    out.raw(UInt8(ascii: "\n"))
  }
}

@_cdecl("galley_measure_arrow")
public func galley_measure_arrow(
  _ engine: OpaquePointer?, _ schema: UnsafeMutableRawPointer?, _ array: UnsafeMutableRawPointer?,
  _ templateName: UnsafePointer<CChar>?, _ numericFields: UnsafePointer<CChar>?,
  _ firstLine: Int64, _ outLength: UnsafeMutablePointer<Int>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> UnsafeMutablePointer<CChar>? {
  defer {
    ArrowRecords.release(array, isSchema: false)
    ArrowRecords.release(schema, isSchema: true)
  }
  outLength?.pointee = 0
  func failure(_ message: String) -> UnsafeMutablePointer<CChar>? {
    error?.pointee = mallocString(message)
    return nil
  }
  guard let engine, let schema, let array else {
    return failure(engine == nil ? "the engine is NULL" : "the Arrow schema or array is NULL")
  }
  var template: CellTemplate? = nil
  if let templateName {
    let name = String(cString: templateName)
    guard let t = CellTemplate(rawValue: name) else { return failure("unknown template \"\(name)\"") }
    template = t
  }
  let numeric = numericFields.map {
    Set(String(cString: $0).split(separator: ",").map(String.init))
  }
  let records: ArrowRecords
  do {
    records = try ArrowRecords(schema: schema, array: array, numericStrings: numeric ?? [])
  } catch {
    return failure(error.description)
  }
  let e = Unmanaged<Engine>.fromOpaque(UnsafeRawPointer(engine)).takeUnretainedValue()
  var record = JSONWriter()
  var out = JSONWriter()
  for row in 0..<records.count {
    record.removeAll()
    let length = records.write(row, into: &record, limit: LineReader.maximumLineBytes)
    record.withBytes {
      e.appendResult(
        of: $0, line: Int(firstLine) + row, length: length, template: template, into: &out)
    }
  }
  return out.withBytes { mallocString($0, length: outLength) }
}

@_cdecl("galley_free")
public func galley_free(_ pointer: UnsafeMutableRawPointer?) { free(pointer) }

/// Why the accelerator stays off in this library (nil: it runs): installed on first use of
/// this value, before the library's first typesetter.
let acceleratorFence: String? = ShapingAccelerator.install()

/// Static storage: "galley 0.1.0; harfbuzz 6.0.0; …; shaping: accelerated".
nonisolated(unsafe) let versionText: UnsafeMutablePointer<CChar>? = {
  _ = acceleratorFence
  let (mode, reason) = ShapingMode.resolve(nil)
  return mallocString(
    "galley \(EngineVersions.galley); harfbuzz \(EngineVersions.harfBuzz); freetype \(EngineVersions.freeType); "
      + "icu \(EngineVersions.icu); fontconfig \(EngineVersions.fontconfig); "
      + "shaping: \(mode.rawValue)" + (reason.map { " (\($0))" } ?? ""))
}()

@_cdecl("galley_version")
public func galley_version() -> UnsafePointer<CChar>? { UnsafePointer(versionText) }

@_cdecl("galley_prepare")
public func galley_prepare(
  _ engine: OpaquePointer?, _ caseJSON: UnsafePointer<CChar>?,
  _ errorOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> OpaquePointer? {
  guard let engine, let caseJSON else {
    errorOut?.pointee = mallocString(engine == nil ? "the engine is NULL" : "the case is NULL")
    return nil
  }
  let e = Unmanaged<Engine>.fromOpaque(UnsafeRawPointer(engine)).takeUnretainedValue()
  do {
    let length = strlen(caseJSON)
    let bytes = UnsafeBufferPointer(
      start: UnsafeRawPointer(caseJSON).assumingMemoryBound(to: UInt8.self), count: length)
    var object: JSONObject
    do {
      object = try JSONReader.readObject(bytes).object
    } catch {
      errorOut?.pointee = mallocString(error.description)
      return nil
    }
    if object["width"] == nil { object["width"] = 1 }
    let c = try TextCase(json: object, library: e.library)
    let prepared = try e.typesetter.prepare(c.text, style: c.style)
    return OpaquePointer(Unmanaged.passRetained(prepared).toOpaque())
  } catch {
    errorOut?.pointee = mallocString("\(error)")
    return nil
  }
}

@_cdecl("galley_prepared_layout")
public func galley_prepared_layout(
  _ prepared: OpaquePointer?, _ width: Double, _ lines: UnsafeMutablePointer<Int32>?,
  _ height: UnsafeMutablePointer<Double>?, _ widest: UnsafeMutablePointer<Double>?
) -> Int32 {
  guard let prepared else { return -1 }
  let p = Unmanaged<PreparedText>.fromOpaque(UnsafeRawPointer(prepared)).takeUnretainedValue()
  guard let m = try? p.measure(width: width) else { return -1 }
  lines?.pointee = Int32(clamping: m.lines)
  height?.pointee = m.height
  widest?.pointee = m.widest
  return 0
}

@_cdecl("galley_prepared_destroy")
public func galley_prepared_destroy(_ prepared: OpaquePointer?) {
  guard let prepared else { return }
  Unmanaged<PreparedText>.fromOpaque(UnsafeRawPointer(prepared)).release()
}
