/// Which edge of an element along the scroll axis a reader is looking at.
public enum AnchorEdge: String, Hashable, Sendable {
  /// The top (leading edge along the scroll axis).
  case top
  /// The bottom (trailing edge along the scroll axis).
  case bottom
}

/// The element a scroll position is pinned to while sizes change: a point at `offset` from one of its edges.
public struct ScrollAnchor: Hashable, Sendable {
  /// The anchored item.
  public var indexPath: ItemPath
  /// The edge the offset is measured from.
  public var edge: AnchorEdge
  /// Points from that edge towards the other (positive goes down from top, up from bottom).
  public var offset: Double
  /// Creates an anchor.
  public init(indexPath: ItemPath, edge: AnchorEdge = .top, offset: Double = 0) {
    self.indexPath = indexPath
    self.edge = edge
    self.offset = offset
  }

  /// The anchored coordinate along the scroll axis for a frame.
  func position(in frame: Rect, vertical: Bool) -> Double {
    switch edge {
    case .top: return (vertical ? frame.minY : frame.minX) + offset
    case .bottom: return (vertical ? frame.maxY : frame.maxX) - offset
    }
  }
}
