/// Static checks of a section's description, reported as warnings with JSON-like paths.
enum Lint {
  /// The warnings for section `index` whose outermost group resolves against `container`.
  /// - Complexity: O(size of the description), independent of the item count.
  static func warnings(section: Section, index: Int, container: Size) -> [String] {
    var linter = Linter(ortho: section.orthogonalScrollingBehavior != .none)
    linter.visit(
      section.group, path: "sections[\(index)].group", container: container, parent: (false, false))
    return linter.out
  }

  /// The walk over a section's groups, gathering warnings.
  struct Linter {
    /// The section scrolls orthogonally (its estimated sizes are reported once).
    let ortho: Bool
    var orthoReported = false
    var out: [String] = []

    init(ortho: Bool) { self.ortho = ortho }

    static func axisName(_ a: Axis) -> String { a == .horizontal ? "width" : "height" }

    /// A size's fractions that resolve against an estimate, and an estimate where self-sizing is
    /// unreliable.
    mutating func checkSize(_ size: LayoutSize, path: String, parent: (w: Bool, h: Bool)) {
      if parent.h, case .fractionalHeight = size.height {
        out.append(
          "\(path).size.height: fractionalHeight inside a group with an estimated height (resolved against the estimate)"
        )
      }
      if parent.w, case .fractionalWidth = size.width {
        out.append(
          "\(path).size.width: fractionalWidth inside a group with an estimated width (resolved against the estimate)"
        )
      }
      if ortho && !orthoReported && (size.width.isEstimated || size.height.isEstimated) {
        orthoReported = true
        let axis = size.width.isEstimated ? "width" : "height"
        out.append(
          "\(path).size.\(axis): estimated size in an orthogonally scrolling section (self-sizing there is unreliable in UIKit)"
        )
      }
    }

    /// How much of the group's axis a child takes (``GroupFit``, as the layout decides).
    static func footprint(_ child: GroupChild, in container: Size, axis: Axis) -> Double {
      let (size, spacing): (Size, EdgeSpacing?)
      switch child {
      case .item(let item): (size, spacing) = (item.size.resolve(in: container), item.edgeSpacing)
      case .group(let g): (size, spacing) = (g.size.resolve(in: container), g.edgeSpacing)
      }
      let horizontal = axis == .horizontal
      return GroupFit.footprint(
        horizontal ? size.width : size.height, spacing: spacing, horizontal: horizontal)
    }

    mutating func visit(_ g: Group, path: String, container: Size, parent: (w: Bool, h: Bool)) {
      checkSize(g.size, path: path, parent: parent)
      let size = g.size.resolve(in: container)
      let est = (w: g.size.width.isEstimated, h: g.size.height.isEstimated)
      let axis: Axis
      switch g.layout {
      case .horizontal: axis = .horizontal
      case .vertical: axis = .vertical
      case .custom: return
      }
      let mainEstimated = axis == .horizontal ? est.w : est.h
      if !mainEstimated && !g.subitems.isEmpty {
        checkFit(g, path: path, size: size, axis: axis)
      }
      for (j, child) in g.subitems.enumerated() {
        let p = "\(path).subitems[\(j)]"
        switch child {
        case .group(let sub): visit(sub, path: p, container: size, parent: est)
        case .item(let item): checkItem(item, path: p, parent: est)
        }
      }
    }

    /// Whether a group's subitems fit its fixed length on its axis, as the layout places them.
    mutating func checkFit(_ g: Group, path: String, size: Size, axis: Axis) {
      let mainLength = axis == .horizontal ? size.width : size.height
      let gap = g.interItemSpacing?.minimum ?? 0
      let name = Self.axisName(axis)
      switch g.repetition {
      case .fill:
        var used = 0.0
        for (j, child) in g.subitems.enumerated() {
          used += (j == 0 ? 0 : gap) + Self.footprint(child, in: size, axis: axis)
          if !GroupFit.fits(used, in: mainLength) {
            out.append(
              j == 0
                ? "\(path).subitems[0]: \(fmt(used)) pt does not fit the group's \(name) of \(fmt(mainLength)) pt; it overflows"
                : "\(path).subitems[\(j)]: does not fit after the subitems before it (\(fmt(used)) > \(fmt(mainLength)) pt); it is never placed"
            )
            break
          }
        }
      case .repeating(let n):
        var used = 0.0
        for k in 0..<Swift.max(0, n) {
          used +=
            (k == 0 ? 0 : gap) + Self.footprint(g.subitems[k % g.subitems.count], in: size, axis: axis)
        }
        if !GroupFit.fits(used, in: mainLength) {
          out.append(
            "\(path): repeatingCount \(n) needs \(fmt(used)) pt but the group's \(name) is \(fmt(mainLength)) pt; the items overflow"
          )
        }
      case .count(let n):
        if !GroupFit.fits(Double(n - 1) * gap, in: mainLength) {
          out.append("\(path): count \(n) with spacing \(fmt(gap)) leaves no room for the items")
        }
      }
    }

    /// An item's size, and content insets on an estimated axis (UIKit ignores them).
    mutating func checkItem(_ item: Item, path p: String, parent: (w: Bool, h: Bool)) {
      checkSize(item.size, path: p, parent: parent)
      let i = item.contentInsets
      if item.size.height.isEstimated && (i.top != 0 || i.bottom != 0) {
        out.append("\(p).contentInsets: ignored on the estimated height axis")
      }
      if item.size.width.isEstimated && (i.leading != 0 || i.trailing != 0) {
        out.append("\(p).contentInsets: ignored on the estimated width axis")
      }
    }
  }
}
