/// What a custom group's closure receives.
public struct CustomGroupEnvironment: Sendable {
  /// The resolved size of the group (estimates resolved to their estimate).
  public var containerSize: Size
  /// The index of the first item the group will hold.
  public var firstItemIndex: Int
  /// How many items remain in the section from `firstItemIndex` on.
  public var remainingItems: Int
}

/// How a group fills its space with its subitems.
public enum GroupRepetition: Hashable, Sendable {
  /// Repeat the subitems list while it fits (one pass when the group's own axis is estimated).
  case fill
  /// iOS 13 `count`: N copies of the first subitem, resized to fit N along the axis with the spacing.
  case count(Int)
  /// iOS 16 `repeatingCount`: N subitems (cycling through the list) at their own size, not resized.
  case repeating(Int)
}

/// A subitem of a group: an item or a nested group.
public indirect enum GroupChild: Sendable {
  /// A leaf item.
  case item(Item)
  /// A nested group.
  case group(Group)
}

/// How a group arranges its subitems.
public enum GroupLayout: Sendable {
  /// Left to right (leading to trailing).
  case horizontal
  /// Top to bottom.
  case vertical
  /// Frames from a closure, relative to the group's origin; each frame holds one item.
  case custom(@Sendable (CustomGroupEnvironment) -> [Rect])
}

/// A group of items or groups, like `NSCollectionLayoutGroup`.
public struct Group: Sendable {
  /// The group's size, resolved against its container.
  public var size: LayoutSize
  /// The arrangement.
  public var layout: GroupLayout
  /// The items or groups inside.
  public var subitems: [GroupChild]
  /// How the subitems repeat.
  public var repetition: GroupRepetition
  /// Spacing between subitems along the group's axis.
  public var interItemSpacing: Spacing?
  /// Spacing around the group inside its parent group.
  public var edgeSpacing: EdgeSpacing?

  /// Creates a group.
  public init(
    size: LayoutSize, layout: GroupLayout, subitems: [GroupChild],
    repetition: GroupRepetition = .fill,
    interItemSpacing: Spacing? = nil, edgeSpacing: EdgeSpacing? = nil
  ) {
    self.size = size
    self.layout = layout
    self.subitems = subitems
    self.repetition = repetition
    self.interItemSpacing = interItemSpacing
    self.edgeSpacing = edgeSpacing
  }

  /// A horizontal group repeating `subitems` while they fit.
  public static func horizontal(_ size: LayoutSize, subitems: [GroupChild]) -> Group {
    Group(size: size, layout: .horizontal, subitems: subitems)
  }
  /// A vertical group repeating `subitems` while they fit.
  public static func vertical(_ size: LayoutSize, subitems: [GroupChild]) -> Group {
    Group(size: size, layout: .vertical, subitems: subitems)
  }
  /// iOS 13 `horizontal(layoutSize:subitem:count:)`: `count` equal items resized to fit.
  public static func horizontal(_ size: LayoutSize, subitem: GroupChild, count: Int) -> Group {
    Group(size: size, layout: .horizontal, subitems: [subitem], repetition: .count(count))
  }
  /// iOS 13 `vertical(layoutSize:subitem:count:)`: `count` equal items resized to fit.
  public static func vertical(_ size: LayoutSize, subitem: GroupChild, count: Int) -> Group {
    Group(size: size, layout: .vertical, subitems: [subitem], repetition: .count(count))
  }
  /// iOS 16 `horizontal(layoutSize:repeatingSubitem:count:)`: `count` items at their own size.
  public static func horizontal(_ size: LayoutSize, repeatingSubitem: GroupChild, count: Int)
    -> Group
  {
    Group(
      size: size, layout: .horizontal, subitems: [repeatingSubitem], repetition: .repeating(count))
  }
  /// iOS 16 `vertical(layoutSize:repeatingSubitem:count:)`: `count` items at their own size.
  public static func vertical(_ size: LayoutSize, repeatingSubitem: GroupChild, count: Int) -> Group
  {
    Group(
      size: size, layout: .vertical, subitems: [repeatingSubitem], repetition: .repeating(count))
  }
  /// A custom group whose closure returns one frame per item.
  public static func custom(
    _ size: LayoutSize, frames: @escaping @Sendable (CustomGroupEnvironment) -> [Rect]
  ) -> Group {
    Group(size: size, layout: .custom(frames), subitems: [])
  }
}
