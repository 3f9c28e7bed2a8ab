import Foundation

/// Writes `message` and a newline to standard error: how the command line and the C ABI both
/// say what is wrong with a record (warnings, reports), never on standard output.
package func writeToStandardError(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}
