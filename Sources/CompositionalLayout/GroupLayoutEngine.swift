/// A group compiled for layout: children resolved to item-template indices.
final class CompiledGroup {
  let group: Group
  let children: [CompiledChild]
  /// Template index used for the frames of a custom group.
  let customTemplate: Int

  /// Fields read for every instance, cached so that no array or closure is retained per instance.
  let size: LayoutSize
  let repetition: GroupRepetition
  let interItemSpacing: Spacing
  let edgeSpacing: EdgeSpacing?
  /// 0 horizontal, 1 vertical, 2 custom.
  let axisKind: UInt8

  init(group: Group, children: [CompiledChild], customTemplate: Int) {
    self.group = group
    self.children = children
    self.customTemplate = customTemplate
    size = group.size
    repetition = group.repetition
    interItemSpacing = group.interItemSpacing ?? .fixed(0)
    edgeSpacing = group.edgeSpacing
    switch group.layout {
    case .horizontal: axisKind = 0
    case .vertical: axisKind = 1
    case .custom: axisKind = 2
    }
  }

  /// Compiles a group tree, appending item templates.
  static func compile(_ group: Group, templates: inout [Item]) -> CompiledGroup {
    var children: [CompiledChild] = []
    children.reserveCapacity(group.subitems.count)
    for child in group.subitems {
      switch child {
      case .item(let item):
        templates.append(item)
        children.append(.item(templates.count - 1))
      case .group(let sub):
        children.append(.group(compile(sub, templates: &templates)))
      }
    }
    var custom = -1
    if case .custom = group.layout {
      templates.append(Item(size: LayoutSize(width: .absolute(0), height: .absolute(0))))
      custom = templates.count - 1
    }
    return CompiledGroup(group: group, children: children, customTemplate: custom)
  }
}

/// A compiled subitem.
enum CompiledChild {
  case item(Int)
  case group(CompiledGroup)
}

/// What the engine reads of an item template: plain values only (no retain/release per item).
struct TemplateInfo {
  let size: LayoutSize
  let edgeSpacing: EdgeSpacing?
  let widthEstimated: Bool
  let heightEstimated: Bool
  let uniformWidth: Bool
  let uniformHeight: Bool

  init(_ item: Item) {
    size = item.size
    edgeSpacing = item.edgeSpacing
    widthEstimated = item.size.width.isEstimated
    heightEstimated = item.size.height.isEstimated
    if case .uniformAcrossSiblings = item.size.width {
      uniformWidth = true
    } else {
      uniformWidth = false
    }
    if case .uniformAcrossSiblings = item.size.height {
      uniformHeight = true
    } else {
      uniformHeight = false
    }
  }
}

/// A placed leaf: its frame before content insets, and its item template.
struct Leaf {
  var frame: Rect
  var template: Int32
}

/// A child of the group being laid out (scratch state).
struct Kid {
  var leafStart: Int
  var leafEnd: Int
  var main: Double
  var cross: Double
  var spacing: EdgeSpacing?
  var uniformCross: Bool
}

/// The one rule of how much of a group's main axis a subitem takes and whether it still fits:
/// the layout places by it, and the lint warns by it.
enum GroupFit {
  /// A subitem's length along `axis` with its leading and trailing edge spacing (their
  /// minimums: flexible spacing grows only into what is left).
  static func footprint(_ length: Double, spacing: EdgeSpacing?, horizontal: Bool) -> Double {
    let lead = (horizontal ? spacing?.leading : spacing?.top)?.minimum ?? 0
    let trail = (horizontal ? spacing?.trailing : spacing?.bottom)?.minimum ?? 0
    return lead + length + trail
  }

  /// Whether `used` points fit a main axis `length` points long (float noise of 1e-9 forgiven).
  static func fits(_ used: Double, in length: Double) -> Bool { used <= length + 1e-9 }
}

/// Lays out group instances one after another, consuming a section's items in order.
struct GroupLayoutEngine {
  let section: Int
  let itemCount: Int
  let sizing: (any SizingSource)?
  let templates: [TemplateInfo]
  let hasSizing: Bool
  var cursor = 0
  var leaves: [Leaf] = []
  var kids: [Kid] = []

  init(section: Int, itemCount: Int, sizing: (any SizingSource)?, templates: [Item]) {
    self.section = section
    self.itemCount = itemCount
    self.sizing = sizing
    self.templates = templates.map(TemplateInfo.init)
    hasSizing = sizing != nil
    leaves.reserveCapacity(itemCount)
  }

  /// The size of item template `t` in a group of `container` size, measured on estimated axes.
  /// - Complexity: O(1) plus one sizing call for an estimated item.
  mutating func itemSize(_ t: Int, container: Size, override: (Axis, Double)?) -> Size {
    let info = templates[t]
    var s = info.size.resolve(in: container)
    var wEst = info.widthEstimated
    var hEst = info.heightEstimated
    if let (axis, v) = override {
      if axis == .horizontal {
        s.width = v
        wEst = false
      } else {
        s.height = v
        hEst = false
      }
    }
    if wEst || hEst, hasSizing, let sizing {
      let proposal = ProposedSize(
        width: s.width, height: s.height, widthIsEstimated: wEst, heightIsEstimated: hEst)
      if let m = sizing.size(for: ItemPath(section: section, item: cursor), proposed: proposal) {
        if wEst, m.width.isFinite, m.width >= 0 { s.width = m.width }
        if hEst, m.height.isFinite, m.height >= 0 { s.height = m.height }
      }
    }
    return s
  }

  /// Lays out one instance of `g` with its origin at zero and returns its size.
  /// - Complexity: O(k · depth) for the k items it consumes.
  mutating func layout(_ g: CompiledGroup, container: Size, override: (Axis, Double)? = nil) -> Size
  {
    let gs = g.size
    var size = gs.resolve(in: container)
    var wEst = gs.width.isEstimated
    var hEst = gs.height.isEstimated
    if let (axis, v) = override {
      if axis == .horizontal {
        size.width = v
        wEst = false
      } else {
        size.height = v
        hEst = false
      }
    }
    guard g.axisKind != 2 else {
      if case .custom(let provider) = g.group.layout {
        return customLayout(g, provider, size: size, estimated: (wEst, hEst))
      }
      return size
    }
    let isH = g.axisKind == 0
    let mainEstimated = isH ? wEst : hEst
    let crossEstimated = isH ? hEst : wEst
    let mainLength = isH ? size.width : size.height
    let gap = g.interItemSpacing
    let base = kids.count
    let used = placeChildren(
      g, in: size, isH: isH, mainLength: mainLength, mainEstimated: mainEstimated)
    let flexSlots = evenUniformCrosses(from: base, isH: isH, flexibleGap: gap.isFlexible)
    let finalMain = mainEstimated ? used : mainLength
    let extra = flexSlots > 0 ? Swift.max(0, finalMain - used) / Double(flexSlots) : 0
    var finalCross = isH ? size.height : size.width
    if crossEstimated {
      finalCross = 0
      for i in base..<kids.count {
        let sp = kids[i].spacing
        let cl = (isH ? sp?.top : sp?.leading)?.minimum ?? 0
        let ct = (isH ? sp?.bottom : sp?.trailing)?.minimum ?? 0
        finalCross = Swift.max(finalCross, cl + kids[i].cross + ct)
      }
    }
    position(from: base, isH: isH, gap: gap, extra: extra, cross: finalCross)
    kids.removeSubrange(base...)
    return isH
      ? Size(width: finalMain, height: finalCross) : Size(width: finalCross, height: finalMain)
  }

  /// A custom group: the provider's frames, one item each while items last; an estimated side
  /// takes the frames' extent.
  mutating func customLayout(
    _ g: CompiledGroup, _ provider: @Sendable (CustomGroupEnvironment) -> [Rect], size: Size,
    estimated: (w: Bool, h: Bool)
  ) -> Size {
    var size = size
    let env = CustomGroupEnvironment(
      containerSize: size, firstItemIndex: cursor, remainingItems: itemCount - cursor)
    var maxX = 0.0
    var maxY = 0.0
    for f in provider(env) {
      if cursor >= itemCount { break }
      leaves.append(Leaf(frame: f, template: Int32(g.customTemplate)))
      cursor += 1
      maxX = Swift.max(maxX, f.maxX)
      maxY = Swift.max(maxY, f.maxY)
    }
    if estimated.w { size.width = maxX }
    if estimated.h { size.height = maxY }
    return size
  }

  /// The group's children laid out one after another, as many as its repetition takes and (when
  /// it fills a fixed length) fit, each a kid from `kids.count` on; returns the length they take
  /// along the main axis.
  mutating func placeChildren(
    _ g: CompiledGroup, in size: Size, isH: Bool, mainLength: Double, mainEstimated: Bool
  ) -> Double {
    let gap = g.interItemSpacing
    let children = g.children
    let limit: Int
    var countOverride: (Axis, Double)? = nil
    switch g.repetition {
    case .fill: limit = mainEstimated ? children.count : Int.max
    case .repeating(let n): limit = n
    case .count(let n):
      limit = n
      let each = (mainLength - Double(n - 1) * gap.minimum) / Double(Swift.max(n, 1))
      countOverride = (isH ? .horizontal : .vertical, Swift.max(0, each))
    }
    let isFill: Bool
    if case .fill = g.repetition { isFill = true } else { isFill = false }
    var used = 0.0
    var k = 0
    while cursor < itemCount && k < limit && !children.isEmpty {
      let child = countOverride != nil ? children[0] : children[k % children.count]
      let cursorBefore = cursor
      let leafStart = leaves.count
      let kid = place(child, in: size, isH: isH, override: countOverride)
      let add =
        (k == 0 ? 0 : gap.minimum) + GroupFit.footprint(kid.main, spacing: kid.spacing, horizontal: isH)
      if cursor == cursorBefore
        || (isFill && !mainEstimated && k > 0 && !GroupFit.fits(used + add, in: mainLength))
      {
        leaves.removeSubrange(leafStart...)
        cursor = cursorBefore
        break
      }
      used += add
      kids.append(kid)
      k += 1
    }
    return used
  }

  /// One child, an item or a group, laid out at the origin.
  mutating func place(_ child: CompiledChild, in size: Size, isH: Bool, override: (Axis, Double)?)
    -> Kid
  {
    let leafStart = leaves.count
    switch child {
    case .item(let t):
      let s = itemSize(t, container: size, override: override)
      leaves.append(Leaf(frame: Rect(origin: .zero, size: s), template: Int32(t)))
      cursor += 1
      let info = templates[t]
      let uniform = isH ? info.uniformHeight : info.uniformWidth
      return Kid(
        leafStart: leafStart, leafEnd: leafStart + 1, main: isH ? s.width : s.height,
        cross: isH ? s.height : s.width, spacing: info.edgeSpacing, uniformCross: uniform)
    case .group(let sub):
      let s = layout(sub, container: size, override: override)
      return Kid(
        leafStart: leafStart, leafEnd: leaves.count, main: isH ? s.width : s.height,
        cross: isH ? s.height : s.width, spacing: sub.edgeSpacing, uniformCross: false)
    }
  }

  /// Gives the kids from `base` on that take a uniform cross length the longest of theirs;
  /// returns the flexible spaces along the main axis (between kids when the gap is flexible,
  /// and each kid's flexible edges), which share out what is left of it.
  mutating func evenUniformCrosses(from base: Int, isH: Bool, flexibleGap: Bool) -> Int {
    let n = kids.count - base
    var flexSlots = flexibleGap && n > 1 ? n - 1 : 0
    var uniformMax = -Double.infinity
    for i in base..<kids.count {
      let sp = kids[i].spacing
      if (isH ? sp?.leading : sp?.top)?.isFlexible == true { flexSlots += 1 }
      if (isH ? sp?.trailing : sp?.bottom)?.isFlexible == true { flexSlots += 1 }
      if kids[i].uniformCross { uniformMax = Swift.max(uniformMax, kids[i].cross) }
    }
    guard uniformMax > -Double.infinity else { return flexSlots }
    for i in base..<kids.count where kids[i].uniformCross {
      kids[i].cross = uniformMax
      if isH {
        leaves[kids[i].leafStart].frame.size.height = uniformMax
      } else {
        leaves[kids[i].leafStart].frame.size.width = uniformMax
      }
    }
    return flexSlots
  }

  /// Moves the kids from `base` on (their leaves) to their places: along the main axis one after
  /// another with their spacing (flexible parts taking `extra` each), across by their edge
  /// spacing within `cross` (centred between two flexible edges).
  mutating func position(
    from base: Int, isH: Bool, gap: Spacing, extra: Double, cross finalCross: Double
  ) {
    var pos = 0.0
    for i in base..<kids.count {
      let kid = kids[i]
      let sp = kid.spacing
      let lead = isH ? sp?.leading : sp?.top
      let trail = isH ? sp?.trailing : sp?.bottom
      pos += (lead?.minimum ?? 0) + (lead?.isFlexible == true ? extra : 0)
      let mainPos = pos
      pos += kid.main + (trail?.minimum ?? 0) + (trail?.isFlexible == true ? extra : 0)
      pos += gap.minimum + (gap.isFlexible ? extra : 0)
      let cl = isH ? sp?.top : sp?.leading
      let ct = isH ? sp?.bottom : sp?.trailing
      let free = Swift.max(0, finalCross - kid.cross - (cl?.minimum ?? 0) - (ct?.minimum ?? 0))
      var crossPos = cl?.minimum ?? 0
      if cl?.isFlexible == true && ct?.isFlexible == true {
        crossPos += free / 2
      } else if cl?.isFlexible == true {
        crossPos += free
      }
      let dx = isH ? mainPos : crossPos
      let dy = isH ? crossPos : mainPos
      if dx != 0 || dy != 0 {
        for l in kid.leafStart..<kid.leafEnd {
          leaves[l].frame.origin.x += dx
          leaves[l].frame.origin.y += dy
        }
      }
    }
  }
}
