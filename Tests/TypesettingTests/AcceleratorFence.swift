import XCTest

@testable import Typesetting

/// The accelerator's comparison tests run only where it may run (a verified HarfBuzz): on any
/// other they skip, saying why, and the rest of the suite runs on HarfBuzz alone.
func requireVerifiedAccelerator() throws {
  if let fence = ShapingMode.fence { throw XCTSkip("accelerator off: \(fence)") }
}
