extension LayoutResult {
  /// A text dump of one section's geometry for debugging (like UIKit's `visualDescription`): the section frame,
  /// orthogonal scrolling, then every element with its frame and zIndex, plus a coarse sketch of the cells.
  public func visualDescription(section: Int, sketchColumns: Int = 40) -> String {
    guard section >= 0, section < numberOfSections else { return "no section \(section)\n" }
    let frame = sectionFrames[section]
    var out = "section \(section) frame \(frame) items \(numberOfItems(inSection: section))\n"
    if let o = orthogonalSections.first(where: { $0.section == section }) {
      out += "  orthogonal \(o.behavior.rawValue) contentWidth \(fmt(o.contentWidth)) pageOffsets ["
      out += o.pageOffsets.map(fmt).joined(separator: ", ") + "]\n"
    }
    for a in supplementaryElements(inSection: section) {
      let label =
        a.scope == .item
        ? "\(a.category.rawValue) \(a.kind) \(a.indexPath)" : "\(a.category.rawValue) \(a.kind)"
      out += "  \(label) \(a.frame) z\(a.zIndex)\n"
    }
    let sectionCells = blocks[section].cells.map { placed($0, section: section) }
    for a in sectionCells {
      out += "  cell \(a.indexPath) \(a.frame)\n"
    }
    // Sketch: one character column per (width / columns) points, one row per distinct cell top.
    let unit = frame.width / Double(Swift.max(1, sketchColumns))
    guard unit > 0 else { return out }
    var rows: [Double: [LayoutAttributes]] = [:]
    for a in sectionCells { rows[a.frame.minY, default: []].append(a) }
    for y in rows.keys.sorted().prefix(50) {
      var line = [Character](repeating: ".", count: sketchColumns)
      for a in rows[y]! {
        // (Columns held within ±1e9 before they become whole numbers: a cell far off a
        // narrow section must not trap the conversion.)
        func column(_ x: Double) -> Int { Int(Swift.max(-1e9, Swift.min(1e9, (x / unit).rounded()))) }
        let lo = column(a.frame.minX - frame.minX)
        let hi = column(a.frame.maxX - frame.minX)
        let first = Swift.max(0, lo)
        let end = Swift.min(sketchColumns, Swift.max(lo + 1, hi))
        guard first < end else { continue }  // off the visible width (orthogonal sections)
        for c in first..<end {
          line[c] = c == first ? "[" : (c == hi - 1 ? "]" : "=")
        }
      }
      out += "  |" + String(line) + "| y=\(fmt(y))\n"
    }
    return out
  }
}
