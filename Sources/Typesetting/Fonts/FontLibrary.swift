import Foundation

/// Loads fonts by file name from a directory and keeps each loaded face, so that a 19 MB
/// collection is read once per process however many styles name it.
///
/// ```swift
/// let library = FontLibrary(directory: "fonts")
/// let stack = try library.stack(["Inter-Regular.otf", "NanumGothic.ttf"])
/// ```
public final class FontLibrary: @unchecked Sendable {
  // @unchecked: the cache is guarded by `lock`; `Font` values are immutable.
  /// The directory that font names resolve in.
  public let directory: String
  private let lock = Lock()
  private var cache: [String: Font] = [:]
  private var stacks: [[String]: FontStack] = [:]
  /// The stacks asked for last, newest first: records name the same few stacks over and over,
  /// and comparing a few names costs less than hashing them.
  private var recentStacks = RecentList<(names: [String], stack: FontStack)>(capacity: 8)
  /// Stacks by how a reader of records found their names written (see
  /// ``recentStack(spelledAs:)``).
  private var spellings = RecentList<(spelling: [UInt8], names: [String], stack: FontStack)>(
    capacity: 64)

  /// A library reading fonts from `directory`.
  public init(directory: String) {
    self.directory = directory
  }

  /// The fonts bundled with Galley, found in `fonts/` next to the working directory, next to the
  /// executable, or at `$GALLEY_FONTS`.
  public static func bundledDirectory() -> String {
    if let env = ProcessInfo.processInfo.environment["GALLEY_FONTS"], !env.isEmpty { return env }
    let fm = FileManager.default
    var candidates = [fm.currentDirectoryPath + "/fonts"]
    var exe = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
    for _ in 0..<5 {
      exe = exe.deletingLastPathComponent()
      candidates.append(exe.path + "/fonts")
    }
    var sourceDir = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { sourceDir = sourceDir.deletingLastPathComponent() }
    candidates.append(sourceDir.path + "/fonts")
    for c in candidates where fm.fileExists(atPath: c + "/NotoSans-Regular.ttf") { return c }
    return candidates[0]
  }

  /// A shared library over ``bundledDirectory()``.
  public static let bundled = FontLibrary(directory: bundledDirectory())

  /// The font named `name` (a file name in ``directory``, optionally `name#index` for a face of a
  /// collection), loading it on first use.
  /// - Throws: ``TypesettingError/fontNotFound(name:directory:)`` or a loading error naming the file.
  public func font(named name: String) throws -> Font {
    lock.lock()
    if let f = cache[name] {
      lock.unlock()
      return f
    }
    lock.unlock()
    var file = name
    var index = 0
    if let hash = name.lastIndex(of: "#"), let i = Int(name[name.index(after: hash)...]) {
      file = String(name[..<hash])
      index = i
    }
    guard !file.isEmpty, !file.contains("/") || file.hasPrefix("/") else {
      throw TypesettingError.fontNotFound(name: name, directory: directory)
    }
    let path = file.hasPrefix("/") ? file : directory + "/" + file
    guard FileManager.default.fileExists(atPath: path) else {
      throw TypesettingError.fontNotFound(name: name, directory: directory)
    }
    let font = try Font(contentsOf: path, faceIndex: index)
    lock.lock()
    defer { lock.unlock() }
    if let f = cache[name] { return f }
    cache[name] = font
    return font
  }

  /// A font stack from names, in fallback order.
  public func stack(_ names: [String]) throws -> FontStack {
    // (Records name the same few stacks over and over: one lookup instead of one per font.)
    lock.lock()
    if let recent = recentStacks.find({ $0.names == names }) {
      lock.unlock()
      return recent.stack
    }
    if let s = stacks[names] {
      recentStacks.insert((names, s))
      lock.unlock()
      return s
    }
    lock.unlock()
    let s = try FontStack(names.map { try font(named: $0) })
    lock.lock()
    if stacks.count < 4096 { stacks[names] = s }
    recentStacks.insert((names, s))
    lock.unlock()
    return s
  }

  /// The stack whose names a reader of records found written as `spelling` (the bytes of a
  /// field, as ``noteSpelling(_:of:_:)`` was told), with those names: a reader that meets the
  /// same bytes again skips decoding the names. Nil when no stack was noted so spelled lately.
  package func recentStack(spelledAs spelling: UnsafeBufferPointer<UInt8>) -> (
    names: [String], stack: FontStack
  )? {
    guard let base = spelling.baseAddress else { return nil }
    // (Found by a hash first: the entries' own bytes are each elsewhere in memory.)
    let hash = FontLibrary.hash(spelling)
    lock.lock()
    defer { lock.unlock() }
    let hit = spellings.find(word: hash) { e in
      e.spelling.count == spelling.count
        && e.spelling.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, $0.count) == 0 }
    }
    return hit.map { ($0.names, $0.stack) }
  }

  /// A hash of a few dozen bytes, a word at a time (equal hashes are then compared byte for
  /// byte: no need for the standard library's keyed one).
  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let n = bytes.count
    var h = UInt64(n) &* 0x9E37_79B9_7F4A_7C15
    guard let p = bytes.baseAddress.map(UnsafeRawPointer.init) else { return h }
    func mix(_ w: UInt64) { h = (h ^ w) &* 0x0000_0100_0000_01B3 ^ (h >> 29) }
    var i = 0
    while i + 8 <= n {
      mix(p.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      i += 8
    }
    if i < n {
      // (The last eight bytes again, overlapping, or the few there are.)
      if n >= 8 {
        mix(p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
      } else {
        var w: UInt64 = 0
        for k in 0..<n { w |= UInt64(bytes[k]) << (8 * k) }
        mix(w)
      }
    }
    return h
  }

  /// Notes that `names`, whose stack is `stack` (as ``stack(_:)`` gave it), were written as
  /// `spelling` in a record, for ``recentStack(spelledAs:)``. The 64 spellings noted last are kept.
  package func noteSpelling(
    _ spelling: UnsafeBufferPointer<UInt8>, of names: [String], _ stack: FontStack
  ) {
    guard !spelling.isEmpty else { return }
    lock.lock()
    defer { lock.unlock() }
    spellings.insert((Array(spelling), names, stack), word: FontLibrary.hash(spelling))
  }

  /// The default stack: Latin, Korean, Japanese/Chinese, Arabic, Hebrew, Thai, Devanagari and emoji.
  public func defaultStack() throws -> FontStack {
    try stack(FontStack.defaultNames)
  }
}
