import CompositionalLayout
import Foundation
import GalleyJSON
import GalleyRecords
import GalleyService
import Rasterizer
import SelfSizing
import Typesetting

/// Pictures of transcripts, layout specs, batch animations and single texts (what `galley
/// render` and `galley validate --html` draw), one kind per file (TranscriptPicture,
/// LayoutSpecPicture, TransitionStripPicture, TextPicture); here what they share.
enum Pictures {
  /// A record that could not be drawn.
  struct Failure {
    var line: Int
    var id: String?
    var message: String
  }

  /// One drawn cell: where it is and the ink of its text (points), for `--frames`.
  struct Placed {
    var line: Int
    var id: String
    var frame: Rect
    var estimated: Rect?
    var ink: [Rect]
    /// The drawn width of each line of the cell's main text (see ``CellPainter/Drawn``).
    var lineWidths: [Double] = []
  }

  /// The `--scale`s a picture may be drawn at, in pixels per point.
  static let scales: ClosedRange<Double> = 0.1...8
  static let margin = 8.0

  /// A picture too large to hold (over 100 million pixels).
  struct TooLarge: Error, CustomStringConvertible {
    var description: String
  }

  static func checkSize(width: Double, height: Double, scale: Double) throws {
    let pixels = (width * scale).rounded(.up) * (height * scale).rounded(.up)
    // (Not a number, or infinite, is too large too.)
    guard pixels <= Double(Canvas.maximumPixels) else {
      throw TooLarge(
        description:
          "the picture would be \(fmt((width * scale).rounded(.up)))×"
          + "\(fmt((height * scale).rounded(.up))) px, more than \(Canvas.maximumPixels): "
          + "draw fewer records or use a lower --scale"
      )
    }
  }

  /// `--frames` output: one JSON object per drawn cell.
  static func framesJSON(_ placed: [Placed]) -> String {
    func r(_ x: Rect) -> String { JSONWriter.numbers([x.minX, x.minY, x.width, x.height]) }
    return placed.map { p in
      var pairs: [(String, String)] = [
        ("id", JSONWriter.string(p.id)), ("line", String(p.line)), ("frame", r(p.frame)),
      ]
      if let e = p.estimated { pairs.append(("estimated", r(e))) }
      pairs.append(("ink", JSONWriter.array(p.ink.map(r))))
      pairs.append(("lineWidths", JSONWriter.numbers(p.lineWidths)))
      return JSONWriter.object(pairs) + "\n"
    }.joined()
  }
}
