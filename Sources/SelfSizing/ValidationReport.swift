/// How far an app's estimated cell sizes are from the measured ones.
///
/// `error` = actual − estimated (signed). Statistics use absolute errors. `maxJump` is the largest
/// content-offset change a reader would see scrolling down a single column from the top while the
/// items above the viewport get measured: the largest absolute running sum of signed errors.
public struct ValidationReport: Sendable {
  /// Whether every error is within `limit` points (float noise of 1e-9 pt forgiven): the one
  /// pass/fail rule of `galley validate --max-error`, its exit status and its HTML report.
  public func passes(maxError limit: Double) -> Bool { statistics.max <= limit + 1e-9 }

  /// One measured item.
  public struct Item: Sendable, Hashable {
    /// The record's identifier.
    public var id: String
    /// The record's category, for the per-category statistics.
    public var category: String?
    /// The app's estimate, points.
    public var estimated: Double
    /// The measured size, points.
    public var actual: Double
    /// The largest error that is one line off, when known: the tallest line box of the
    /// measured text and the pixel its height is rounded by.
    public var lineBox: Double?
    /// Actual − estimated (signed).
    public var error: Double { actual - estimated }

    /// An item with its estimate and measured size.
    public init(
      id: String, category: String?, estimated: Double, actual: Double, lineBox: Double? = nil
    ) {
      self.id = id
      self.category = category
      self.estimated = estimated
      self.actual = actual
      self.lineBox = lineBox
    }
  }

  /// A record that could not be measured.
  public struct Failure: Sendable, Hashable {
    /// The input line (1-based).
    public var line: Int
    /// The record's identifier.
    public var id: String?
    /// Why the record could not be measured.
    public var message: String
    /// A failure at an input line.
    public init(line: Int, id: String?, message: String) {
      self.line = line
      self.id = id
      self.message = message
    }
  }

  /// Every measured item, in input order.
  public let items: [Item]
  /// Every record that could not be measured.
  public let failures: [Failure]
  /// Statistics of all items' absolute errors.
  public let statistics: ErrorStatistics
  /// The largest absolute running sum of signed errors (the largest jump while scrolling).
  public let maxJump: Double
  /// Sum of all signed errors: how far the content height was off in total.
  public let totalDrift: Double
  /// The items with the largest absolute errors, largest first (at most `worstCount`).
  public let worst: [Item]
  /// Statistics per category.
  public let byCategory: [String: ErrorStatistics]

  /// The report of measured items (in scroll order) and failed records.
  public init(items: [Item], failures: [Failure] = [], worstCount: Int = 10) {
    self.items = items
    self.failures = failures
    statistics = Self.statistics(items[...])
    var running = 0.0
    var jump = 0.0
    for item in items {
      running += item.error
      jump = max(jump, abs(running))
    }
    maxJump = jump
    totalDrift = running
    worst = Array(
      items.enumerated().sorted {
        abs($0.element.error) != abs($1.element.error)
          ? abs($0.element.error) > abs($1.element.error) : $0.offset < $1.offset
      }.prefix(worstCount).map(\.element))
    var groups: [String: [Item]] = [:]
    for item in items { groups[item.category ?? "none", default: []].append(item) }
    byCategory = groups.mapValues { Self.statistics($0[...]) }
  }

  /// The statistics of `items`, with line boxes when every item has one.
  static func statistics(_ items: ArraySlice<Item>) -> ErrorStatistics {
    let boxes = items.compactMap(\.lineBox)
    return ErrorStatistics(
      items.map(\.error), lineBoxes: boxes.count == items.count && !items.isEmpty ? boxes : nil)
  }

  /// The signed drift accumulated by the items above `index` (what a reader scrolled to item
  /// `index` has seen the content move by).
  /// - Complexity: O(index).
  public func drift(above index: Int) -> Double {
    items.prefix(max(0, min(index, items.count))).reduce(0) { $0 + $1.error }
  }
}
