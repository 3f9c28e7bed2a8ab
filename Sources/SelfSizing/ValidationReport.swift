/// How far an app's estimated cell sizes are from the measured ones.
///
/// `error` = actual − estimated (signed). Statistics use absolute errors. `maxJump` is the largest
/// content-offset change a reader would see scrolling down a single column from the top while the
/// items above the viewport get measured: the largest absolute running sum of signed errors.
public struct ValidationReport: Sendable {
  /// One measured item.
  public struct Item: Sendable, Hashable {
    public var id: String
    public var category: String?
    public var estimated: Double
    public var actual: Double
    public var error: Double { actual - estimated }

    public init(id: String, category: String?, estimated: Double, actual: Double) {
      self.id = id
      self.category = category
      self.estimated = estimated
      self.actual = actual
    }
  }

  /// A record that could not be measured.
  public struct Failure: Sendable, Hashable {
    public var line: Int
    public var id: String?
    public var message: String
    public init(line: Int, id: String?, message: String) {
      self.line = line
      self.id = id
      self.message = message
    }
  }

  public let items: [Item]
  public let failures: [Failure]
  public let statistics: ErrorStatistics
  public let maxJump: Double
  /// Sum of all signed errors: how far the content height was off in total.
  public let totalDrift: Double
  /// The items with the largest absolute errors, largest first (at most `worstCount`).
  public let worst: [Item]
  public let byCategory: [String: ErrorStatistics]

  public init(items: [Item], failures: [Failure] = [], worstCount: Int = 10) {
    self.items = items
    self.failures = failures
    statistics = ErrorStatistics(items.map(\.error))
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
    var groups: [String: [Double]] = [:]
    for item in items { groups[item.category ?? "none", default: []].append(item.error) }
    byCategory = groups.mapValues { ErrorStatistics($0) }
  }

  /// The signed drift accumulated by the items above `index` (what a reader scrolled to item
  /// `index` has seen the content move by).
  /// - Complexity: O(index).
  public func drift(above index: Int) -> Double {
    items.prefix(max(0, min(index, items.count))).reduce(0) { $0 + $1.error }
  }
}
