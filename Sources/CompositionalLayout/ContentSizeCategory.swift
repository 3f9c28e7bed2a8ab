/// Dynamic Type size categories, smallest to largest.
public enum ContentSizeCategory: String, Hashable, Sendable, CaseIterable, Comparable {
  /// xSmall.
  case extraSmall
  /// Small.
  case small
  /// Medium.
  case medium
  /// Large (the default).
  case large
  /// xLarge.
  case extraLarge
  /// xxLarge.
  case extraExtraLarge
  /// xxxLarge.
  case extraExtraExtraLarge
  /// Accessibility medium.
  case accessibilityMedium
  /// Accessibility large.
  case accessibilityLarge
  /// Accessibility xLarge.
  case accessibilityExtraLarge
  /// Accessibility xxLarge.
  case accessibilityExtraExtraLarge
  /// Accessibility xxxLarge.
  case accessibilityExtraExtraExtraLarge
  /// Whether one category is smaller than another.
  public static func < (a: Self, b: Self) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
  /// Whether this is one of the accessibility sizes.
  public var isAccessibilityCategory: Bool { self >= .accessibilityMedium }
}
