import Foundation
import XCTest

@testable import Typesetting

/// The font library under hostile names and files (issue 39): spellings of one file are one
/// font, names stay inside the directory, the cache is bounded, and a file changed under a
/// live library neither crashes it nor changes what it measures.
final class FontLibraryBoundsTests: XCTestCase {
  /// A fresh directory with copies of some bundled fonts, removed after the test.
  func fontsCopy(_ names: [String]) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "galley-fontlib-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
    for n in names {
      try FileManager.default.copyItem(
        atPath: Fixtures.fontsDir + "/" + n, toPath: dir.appendingPathComponent(n).path)
    }
    return dir
  }

  func width(_ text: String, _ font: Font) throws -> Double {
    let style = TextStyle(fonts: try FontStack([font]), size: 17)
    return try Typesetter(cacheCapacity: 0).prepare(text, style: style).layout(width: 1e6).widest
  }

  func testSpellingsOfOneFileAreOneFont() throws {
    let dir = try fontsCopy(["NotoSans-Regular.ttf"])
    let library = FontLibrary(directory: dir.path)
    let plain = try library.font(named: "NotoSans-Regular.ttf")
    for spelling in [
      "./NotoSans-Regular.ttf", "sub/../NotoSans-Regular.ttf", dir.path + "/./NotoSans-Regular.ttf",
      dir.path + "//NotoSans-Regular.ttf#0", dir.path + "/NotoSans-Regular.ttf#000",
    ] {
      XCTAssertTrue(try library.font(named: spelling) === plain, spelling)
    }
  }

  func testSymbolicLinksAreFollowed() throws {
    let dir = try fontsCopy([])
    try FileManager.default.createSymbolicLink(
      atPath: dir.appendingPathComponent("Sans.ttf").path,
      withDestinationPath: Fixtures.fontsDir + "/NotoSans-Regular.ttf")
    let library = FontLibrary(directory: dir.path)
    let font = try library.font(named: "Sans.ttf")
    XCTAssertEqual(font.name, "NotoSans-Regular.ttf", "named by the file it reaches")
    XCTAssertEqual(
      try width("Hello", font), try width("Hello", try Fixtures.library.font(named: "NotoSans-Regular.ttf")))
  }

  func testNamesStayInsideTheDirectoryAndRefusalsTellNothing() throws {
    let dir = try fontsCopy(["NotoSans-Regular.ttf"])
    let library = FontLibrary(directory: dir.path)
    let refused = [
      "/etc/passwd", "/no/such/file.ttf", "../NotoSans-Regular.ttf", "a/../../x.ttf",
      dir.path + "/../" + dir.lastPathComponent + "x/NotoSans-Regular.ttf",
      Fixtures.fontsDir + "/NotoSans-Regular.ttf",
    ]
    for name in refused {
      XCTAssertThrowsError(try library.font(named: name), name) { error in
        XCTAssertEqual(
          error as? TypesettingError, .fontOutsideDirectory(name: name, directory: dir.path), name)
      }
    }
    // The same message for a file that exists and one that does not.
    func message(_ name: String) -> String {
      do {
        _ = try library.font(named: name)
        return "loaded"
      } catch {
        return "\(error)".replacingOccurrences(of: name, with: "NAME")
      }
    }
    XCTAssertEqual(message("/etc/passwd"), message("/no/such/file.ttf"))
    // A path inside the directory, however spelt, is a name in it.
    XCTAssertNoThrow(try library.font(named: dir.path + "/sub/../NotoSans-Regular.ttf"))
    // Allowed outside: the file itself decides.
    let anywhere = FontLibrary(directory: dir.path, allowingPathsOutside: true)
    XCTAssertNoThrow(try anywhere.font(named: Fixtures.fontsDir + "/Inter-Regular.otf"))
    XCTAssertThrowsError(try anywhere.font(named: "/etc/passwd")) { error in
      guard case .fontInvalid = error as? TypesettingError else { return XCTFail("\(error)") }
    }
    // Relative names never leave the directory, allowed or not.
    XCTAssertThrowsError(try anywhere.font(named: "../x.ttf")) { error in
      XCTAssertEqual(
        error as? TypesettingError, .fontOutsideDirectory(name: "../x.ttf", directory: dir.path))
    }
  }

  func testTheCacheKeepsAtMostItsFacesAndDropsTheOldest() throws {
    let dir = try fontsCopy(["NotoSans-Regular.ttf", "Inter-Regular.otf", "NotoSansHebrew-Regular.ttf"])
    let library = FontLibrary(directory: dir.path, maximumFaces: 2)
    let sans = try library.font(named: "NotoSans-Regular.ttf")
    let inter = try library.font(named: "Inter-Regular.otf")
    XCTAssertTrue(try library.font(named: "NotoSans-Regular.ttf") === sans, "kept, and used last")
    _ = try library.font(named: "NotoSansHebrew-Regular.ttf")
    XCTAssertTrue(try library.font(named: "NotoSans-Regular.ttf") === sans, "still kept")
    XCTAssertFalse(try library.font(named: "Inter-Regular.otf") === inter, "dropped, read again")
    // A stack that held a dropped font is made anew, with the fonts kept now.
    let small = FontLibrary(directory: dir.path, maximumFaces: 1)
    let first = try small.stack(["NotoSans-Regular.ttf"])
    _ = try small.font(named: "Inter-Regular.otf")
    XCTAssertFalse(try small.stack(["NotoSans-Regular.ttf"]).primary === first.primary)
    // A byte budget smaller than two files keeps one.
    let bytes = FontLibrary(directory: dir.path, maximumBytes: 1)
    let a = try bytes.font(named: "NotoSans-Regular.ttf")
    _ = try bytes.font(named: "Inter-Regular.otf")
    XCTAssertFalse(try bytes.font(named: "NotoSans-Regular.ttf") === a)
  }

  /// Regression: fonts were memory-mapped, so a font file truncated under a live engine (as
  /// `cp` does) killed the host with SIGBUS at the next glyph; rewritten at the same size, its
  /// metrics changed silently. Now the library keeps what it read.
  func testAFontFileChangedUnderALiveLibraryChangesNothing() throws {
    let dir = try fontsCopy(["NotoSans-Regular.ttf", "Inter-Regular.otf"])
    let path = dir.appendingPathComponent("NotoSans-Regular.ttf").path
    let library = FontLibrary(directory: dir.path)
    let font = try library.font(named: "NotoSans-Regular.ttf")
    let text = "Hamburgefonstiv 0123456789 — every glyph of a line"
    let before = try width(text, font)
    // Truncated, as `cp` over it does, then rewritten with another font's first bytes.
    let other = try Data(contentsOf: dir.appendingPathComponent("Inter-Regular.otf"))
    let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: other.prefix(4096))
    try handle.close()
    XCTAssertEqual(try width(text, font), before)
    XCTAssertEqual(try width(text, try library.font(named: "NotoSans-Regular.ttf")), before)
    // A new library reads the file as it is now.
    let now = try? FontLibrary(directory: dir.path).font(named: "NotoSans-Regular.ttf")
    XCTAssertNotEqual(now.flatMap { try? width(text, $0) }, before)
  }

  func testDevicesPipesAndDirectoriesAreNotFonts() throws {
    let dir = try fontsCopy([])
    XCTAssertEqual(mkfifo(dir.appendingPathComponent("pipe.ttf").path, 0o600), 0)
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("folder.ttf"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: dir.appendingPathComponent("zero.ttf").path, withDestinationPath: "/dev/zero")
    let library = FontLibrary(directory: dir.path)
    for (name, reason) in [
      ("pipe.ttf", "not a regular file"), ("folder.ttf", "is a directory"),
      ("zero.ttf", "not a regular file"),
    ] {
      XCTAssertThrowsError(try library.font(named: name), name) { error in
        guard case .fontFileUnreadable(_, let why) = error as? TypesettingError else {
          return XCTFail("\(error)")
        }
        XCTAssertEqual(why, reason, name)
      }
    }
  }
}
