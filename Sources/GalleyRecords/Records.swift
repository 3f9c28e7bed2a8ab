import GalleyJSON

/// Parsing one JSON Lines record.
package enum Records {
  /// The record that stands for an input line that gave no result: `{"id", "line", "error"}`
  /// (`id` when it could be read).
  package static func errorRecord(id: String?, line: Int, message: String) -> String {
    var pairs: [(String, String)] = []
    if let id { pairs.append(("id", JSONWriter.string(id))) }
    pairs.append(("line", String(line)))
    pairs.append(("error", JSONWriter.string(message)))
    return JSONWriter.object(pairs)
  }

  package enum Parsed {
    case success(JSONObject)
    /// What is wrong, and the record's `id` when it could be read before the error.
    case failure(String, id: String?)
  }

  /// The record of one line, read by the one JSON reader, and a warning when it was read only
  /// after a repair: unpaired UTF-16 surrogate escapes (`"a\ud800b"`, as JavaScript writes a
  /// string cut inside an emoji) are read as U+FFFD, as a browser draws such a string.
  package static func parseObjectRepairing(_ data: some Collection<UInt8>) -> (Parsed, warning: String?) {
    do {
      let (object, repaired) = try JSONReader.readObject(data)
      return (
        .success(object),
        repaired.map { "unpaired UTF-16 surrogate escape \($0) read as U+FFFD" }
      )
    } catch {
      return (.failure(error.description, id: error.recordID), nil)
    }
  }

  /// The error record of a line cut for its length (`length` bytes; `kept`, its first bytes),
  /// with the record's `id` when it stands before the cut.
  package static func cutRecordError(kept: some Collection<UInt8>, length: Int, limit: Int)
    -> (message: String, id: String?)
  {
    var id: String?
    _ = Array(kept).withUnsafeBufferPointer { b in
      JSONReader.readFields(b) { key, r in
        if key.elementsEqual("id".utf8) {
          id = r.stringValue()
          return false
        }
        return r.skipFieldValue()
      }
    }
    return ("record of \(length) bytes is longer than the limit of \(limit) bytes", id)
  }

  /// A record as the commands read it: repaired where it can be, with `warn` told which line
  /// (and id) was.
  package static func read(
    _ data: some Collection<UInt8>, line: Int, command: String, warn: (String) -> Void
  ) -> Parsed {
    let (parsed, warning) = parseObjectRepairing(data)
    if let warning, case .success(let o) = parsed {
      let id = o["id"]?.string.map { " (\($0))" } ?? ""
      warn("galley \(command): line \(line)\(id): \(warning)")
    }
    return parsed
  }
}

