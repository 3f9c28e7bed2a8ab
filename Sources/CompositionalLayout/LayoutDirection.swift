/// The direction text and leading/trailing run in.
public enum LayoutDirection: String, Hashable, Sendable {
  /// Leading is left.
  case leftToRight
  /// Leading is right: frames are mirrored.
  case rightToLeft
}
