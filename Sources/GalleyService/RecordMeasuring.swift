import GalleyJSON
import GalleyRecords
import SelfSizing
import Typesetting

/// One record line in, its result line out: what `galley measure`, the C ABI and so the Python
/// package give for a record (docs/CASE-FORMAT.md, docs/CELLS.md). Never throws: a record that
/// cannot be measured gives its error record.
package enum RecordMeasuring {
  /// One input line → one output line (never throws: errors become records).
  package static func measure(
    _ data: some Collection<UInt8>, line: Int, library: FontLibrary, typesetter: Typesetter, sizer: CellSizer,
    template: CellTemplate?, explain: Bool = false, strictGlyphs: Bool = false,
    missing: MissingGlyphs? = nil, warn: (String) -> Void
  ) -> (String, Bool) {
    var w = JSONWriter()
    let isError = measure(
      data, line: line, library: library, typesetter: typesetter, sizer: sizer, template: template,
      explain: explain, strictGlyphs: strictGlyphs, missing: missing, warn: warn, into: &w)
    return (w.text, isError)
  }

  /// The same, the record appended to `w`; whether it is an error.
  package static func measure(
    _ data: some Collection<UInt8>, line: Int, library: FontLibrary, typesetter: Typesetter, sizer: CellSizer,
    template: CellTemplate?, explain: Bool = false, strictGlyphs: Bool = false,
    missing: MissingGlyphs? = nil, warn: (String) -> Void, into w: inout JSONWriter
  ) -> Bool {
    var id: String? = nil
    func failure(_ message: String, _ w: inout JSONWriter) -> Bool {
      w.raw(Records.errorRecord(id: id, line: line, message: message))
      return true
    }
    func measure(_ c: TextCase, _ w: inout JSONWriter) -> Bool {
      do {
        guard c.width.isFinite, c.width > 0 else {
          return failure(TypesettingError.invalidWidth(c.width).description, &w)
        }
        let prepared = try typesetter.prepare(c.text, style: c.style)
        let layout = try prepared.layout(width: c.width)
        if explain {
          // (Through `warn`: in input order whatever the threads; it ends the text with a newline.)
          var text = c.id + "\n" + prepared.explanation
          if text.hasSuffix("\n") { text.removeLast() }
          warn(text)
        }
        let absent = prepared.missingCharacters
        missing?.note(line: line, id: c.id, absent)
        if strictGlyphs && !absent.isEmpty { return failure(MissingGlyphs.message(absent), &w) }
        if let e = ResultRecord.unrepresentable(layout) { return failure(e, &w) }
        ResultRecord.text(id: c.id, layout, missingGlyphs: absent.count, into: &w)
        return false
      } catch let e as TypesettingError {
        return failure(e.description, &w)
      } catch {
        return failure("\(error)", &w)
      }
    }
    // Most lines are plain text cases: read without building the object.
    if template == nil,
      let c = data.withContiguousStorageIfAvailable({
        TextCase(plainLine: $0, library: library)
      }) ?? nil
    {
      id = c.id
      return measure(c, &w)
    }
    let object: JSONObject
    switch Records.read(data, line: line, command: "measure", warn: warn) {
    case .failure(let message, let readID):
      id = readID
      return failure(message, &w)
    case .success(let o): object = o
    }
    id = object["id"]?.string
    if template != nil || object["template"] != nil {
      do {
        let record = try CellRecord(json: object, library: library, defaultTemplate: template)
        let m = try sizer.measure(record.cell)
        missing?.note(line: line, id: record.id, m.missingCharacters)
        if strictGlyphs && !m.missingCharacters.isEmpty {
          return failure(MissingGlyphs.message(m.missingCharacters), &w)
        }
        if let e = ResultRecord.unrepresentable(m) { return failure(e, &w) }
        ResultRecord.cell(id: record.id, m, into: &w)
        return false
      } catch let e as CellError {
        return failure(e.description, &w)
      } catch {
        return failure("\(error)", &w)
      }
    }
    do {
      return measure(try TextCase(json: object, library: library), &w)
    } catch let e as CaseError {
      return failure(e.description, &w)
    } catch {
      return failure("\(error)", &w)
    }
  }

  /// The error record of a line the reader cut for its length (`kept`: its first bytes).
  package static func cutRecord(_ kept: some Collection<UInt8>, line: Int, length: Int) -> String {
    let (message, id) = Records.cutRecordError(
      kept: kept, length: length, limit: LineReader.maximumLineBytes)
    return Records.errorRecord(id: id, line: line, message: message)
  }
}
