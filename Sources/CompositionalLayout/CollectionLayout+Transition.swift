import Foundation

extension CollectionLayout {
  /// The transition of `batch` applied to this layout holding `itemCounts` items per section:
  /// both layouts (the section provider answers for the sections after the batch when asked
  /// with `sizingAfter`), the changes and the content offset after, kept by `anchor`.
  /// - Throws: ``BatchError`` for a batch UIKit would reject; nothing is laid out then.
  public func transition(
    itemCounts: [Int], batch: BatchUpdate, environment: LayoutEnvironment,
    sizingBefore: (any SizingSource)? = nil, sizingAfter: (any SizingSource)? = nil,
    layoutAfter: CollectionLayout? = nil, contentOffset: Double = 0, anchor: BatchAnchor = .top
  ) throws -> LayoutTransition {
    let mapping = try BatchMapping(batch, counts: itemCounts)
    let before = layout(itemCounts: itemCounts, environment: environment, sizing: sizingBefore)
    let after = (layoutAfter ?? self).layout(
      itemCounts: mapping.countsAfter, environment: environment, sizing: sizingAfter)
    let vertical = configuration.scrollDirection == .vertical
    return LayoutTransition(
      before: before, after: after, mapping: mapping, contentOffset: contentOffset,
      viewport: vertical ? environment.containerSize.height : environment.containerSize.width,
      anchor: anchor)
  }
}
