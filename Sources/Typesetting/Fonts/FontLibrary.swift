import Foundation

/// Loads fonts by file name from a directory and keeps the faces used lately, so that a 19 MB
/// collection is read once however many styles name it.
///
/// Bounded for long-lived hosts fed by strangers: a name is resolved to the file it reaches
/// (symbolic links followed), so every spelling of one file is one font; at most
/// ``maximumFaces`` faces and ``maximumBytes`` of font files are kept, the least recently used
/// dropped first; and by default a name reaches only files inside ``directory`` (decided from
/// the name alone, before the file system is asked, so a refusal tells nothing of what exists).
/// Each file is read into memory once (see ``Font/init(contentsOf:faceIndex:)``): a font file
/// changed under a live library never crashes it, and its faces stay what they were.
///
/// ```swift
/// let library = FontLibrary(directory: "fonts")
/// let stack = try library.stack(["Inter-Regular.otf", "NanumGothic.ttf"])
/// ```
public final class FontLibrary: @unchecked Sendable {
  // @unchecked: the caches are guarded by `lock`; `Font` values are immutable.
  /// The directory that font names resolve in.
  public let directory: String
  /// Whether a name may be an absolute path outside ``directory``.
  public let allowsPathsOutside: Bool
  /// The most faces kept at once (default 256).
  public let maximumFaces: Int
  /// The most bytes of font files kept at once (default 1 GiB; a file counts once however many
  /// of its faces are kept). A stack in use keeps its fonts beyond this until it is let go.
  public let maximumBytes: Int

  private let lock = Lock()
  /// The faces kept, by the file they were read from and their index (`/real/path#1`).
  private var faces: [String: (font: Font, path: String, lastUse: Int)] = [:]
  /// The files the kept faces were read from, by their resolved path.
  private var files: [String: FontFile] = [:]
  private var bytesKept = 0
  private var uses = 0
  /// The directory as an absolute path with no `.` or `..`, which names are checked against.
  private let root: [Substring]
  private var stacks: [[String]: FontStack] = [:]
  /// The stacks asked for last, newest first: records name the same few stacks over and over,
  /// and comparing a few names costs less than hashing them.
  private var recentStacks = RecentList<(names: [String], stack: FontStack)>(capacity: 8)
  /// Fonts dropped to keep within the bounds so far (see ``evictions``).
  private var evictionCount = 0
  /// What a client of the library keeps with it (``clientCache(_:)``).
  private let clientSlot = ClientSlot()
  /// The directory's fonts for clusters no font of a stack has (every font the library loads
  /// carries it to the stacks it is the primary font of).
  let systemFallback: SystemFallback

  /// A library reading fonts from `directory`; with `allowingPathsOutside`, names may also be
  /// absolute paths to font files anywhere.
  public init(
    directory: String, allowingPathsOutside: Bool = false, maximumFaces: Int = 256,
    maximumBytes: Int = 1 << 30
  ) {
    self.directory = directory
    self.allowsPathsOutside = allowingPathsOutside
    self.maximumFaces = max(1, maximumFaces)
    self.maximumBytes = maximumBytes
    let absolute =
      directory.hasPrefix("/")
      ? directory : FileManager.default.currentDirectoryPath + "/" + directory
    root = FontLibrary.normalized(absolute) ?? []
    systemFallback = SystemFallback(directory: directory)
    systemFallback.library = self
  }

  /// Whether ``directory`` is a directory that can be read (a library over one that is not
  /// finds no font).
  public var directoryExists: Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory)
      && isDirectory.boolValue
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

  /// The components of an absolute `path` with `.` and `..` worked out, or nil when `..` climbs
  /// above the root.
  private static func normalized(_ path: String) -> [Substring]? {
    var out: [Substring] = []
    for part in path.split(separator: "/") where part != "." {
      if part == ".." {
        guard out.popLast() != nil else { return nil }
      } else {
        out.append(part)
      }
    }
    return out
  }

  /// The path a font name (without its `#index`) names: a file name, or a relative path, in
  /// ``directory``, or an absolute path, which must lie inside it unless paths outside are
  /// allowed. Decided from the name alone.
  private func path(of file: String, name: String) throws -> String {
    let notFound = TypesettingError.fontNotFound(name: name, directory: directory)
    guard !file.isEmpty else { throw notFound }
    let absolute = file.hasPrefix("/")
    if absolute && allowsPathsOutside { return file }
    guard let parts = FontLibrary.normalized(absolute ? file : "/" + file) else {
      throw TypesettingError.fontOutsideDirectory(name: name, directory: directory)
    }
    if !absolute {
      guard !parts.isEmpty else { throw notFound }
      return directory + "/" + parts.joined(separator: "/")
    }
    guard parts.count > root.count, parts.starts(with: root) else {
      throw TypesettingError.fontOutsideDirectory(name: name, directory: directory)
    }
    return "/" + parts.joined(separator: "/")
  }

  /// The font named `name` (a file name in ``directory``, optionally `name#index` for a face of a
  /// collection), loading it on first use.
  /// - Throws: ``TypesettingError/fontNotFound(name:directory:)``,
  ///   ``TypesettingError/fontOutsideDirectory(name:directory:)`` or a loading error naming the
  ///   file.
  public func font(named name: String) throws -> Font {
    var file = name
    var index = 0
    if let hash = name.lastIndex(of: "#"), let i = Int(name[name.index(after: hash)...]) {
      file = String(name[..<hash])
      index = i
    }
    let path = try path(of: file, name: name)
    guard let resolved = realpath(path, nil) else {
      throw TypesettingError.fontNotFound(name: name, directory: directory)
    }
    let real = String(cString: resolved)
    free(resolved)
    let key = "\(real)#\(index)"
    lock.lock()
    uses += 1
    if let kept = faces[key] {
      faces[key]!.lastUse = uses
      lock.unlock()
      return kept.font
    }
    let known = files[real]
    lock.unlock()
    let data = try known ?? FontFile(path: real)
    let font = try Font(
      file: data, name: (real as NSString).lastPathComponent, faceIndex: index,
      systemFallback: systemFallback)
    lock.lock()
    defer { lock.unlock() }
    if let kept = faces[key] { return kept.font }
    if files[real] == nil {
      files[real] = data
      bytesKept += data.count
    }
    faces[key] = (font, real, uses)
    evict(keeping: key)
    return font
  }

  /// Drops the least recently used faces (never `key`) until at most ``maximumFaces`` faces
  /// and ``maximumBytes`` of files are kept, and the stacks that hold them. Called locked.
  private func evict(keeping key: String) {
    var dropped: [Font] = []
    while faces.count > 1 && (faces.count > maximumFaces || bytesKept > maximumBytes) {
      let others = faces.filter { $0.key != key }
      guard let oldest = others.min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
      faces[oldest.key] = nil
      dropped.append(oldest.value.font)
      let path = oldest.value.path
      if !faces.values.contains(where: { $0.path == path }),
        let file = files.removeValue(forKey: path)
      {
        bytesKept -= file.count
      }
    }
    guard !dropped.isEmpty else { return }
    func holdsDropped(_ stack: FontStack) -> Bool {
      stack.fonts.contains { f in dropped.contains { $0 === f } }
    }
    stacks = stacks.filter { !holdsDropped($0.value) }
    recentStacks.removeAll { holdsDropped($0.stack) }
    evictionCount += dropped.count
  }

  /// How many fonts the library has dropped to keep within its bounds: a client that keeps
  /// stacks (``clientCache(_:)``) lets them go when this changes, so that a dropped font's
  /// memory is given back.
  package var evictions: Int {
    lock.lock()
    defer { lock.unlock() }
    return evictionCount
  }

  /// What a client keeps with the library, made by `make` on first use (one kind a process:
  /// the first `make` decides); the record readers keep the font lists they have read there.
  package func clientCache<Cache: AnyObject & Sendable>(_ make: () -> Cache) -> Cache {
    clientSlot.value(make)
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

  /// The default stack: Latin, Korean, Japanese/Chinese, Arabic, Hebrew, Thai, Devanagari and emoji.
  public func defaultStack() throws -> FontStack {
    try stack(FontStack.defaultNames)
  }
}
