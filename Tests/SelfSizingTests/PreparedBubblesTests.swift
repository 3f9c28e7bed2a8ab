import SelfSizing
import Typesetting
import XCTest

/// The estimator's prepared form: same answers as estimating one bubble, any width, any threads.
final class PreparedBubblesTests: XCTestCase {
  /// Transcript cells with every kind of surrounding: names, timestamps, replies, min sizes.
  func cells(_ n: Int) throws -> [BubbleCell] {
    var cells = try Fixtures.transcript(n)
    for i in cells.indices {
      if i % 5 == 2 { cells[i].senderName = "Name \(i % 13)" }
      if i % 7 == 3 {
        cells[i].replyText = Fixtures.corpus[(i * 31) % Fixtures.corpus.count]["text"] as? String
        cells[i].replyName = i % 2 == 0 ? "Reply" : nil
      }
      if i % 11 == 5 { cells[i].minSize = CellSize(width: 80, height: 60) }
      if i % 17 == 1 { cells[i].padding = Padding(top: 4, leading: 20, bottom: 10, trailing: 6) }
      if i % 19 == 7 {
        // Tabs, whose stops are counted from each line's start.
        cells[i].style.whiteSpace = .preWrap
        cells[i].text = "key\tvalue\tanother\t\tcolumn of words\tand\tmore " + cells[i].text
      }
    }
    return cells
  }

  func testPreparedEqualsOneByOneAtAnyWidth() throws {
    let cells = try cells(3000)
    let e = BubbleEstimator()
    let prepared = e.prepare(cells)
    XCTAssertEqual(prepared.count, cells.count)
    for width in [390.0, 320, 744] {
      let sizes = prepared.sizes(containerWidth: width)
      for (i, var c) in cells.enumerated() {
        c.containerWidth = width
        XCTAssertEqual(sizes[i], e.estimate(c), "cell \(i) at \(width)")
        XCTAssertEqual(prepared.size(at: i, containerWidth: width), sizes[i])
      }
    }
  }

  func testThreadsDoNotChangeResults() throws {
    let cells = try cells(9000)
    let prepared = BubbleEstimator().prepare(cells, threads: 1)
    let one = prepared.sizes(containerWidth: 375, threads: 1)
    XCTAssertEqual(prepared.sizes(containerWidth: 375, threads: 2), one)
    XCTAssertEqual(prepared.sizes(containerWidth: 375, threads: 8), one)
    // Read on several threads and joined: the same bubbles.
    for threads in [2, 3, 4] {
      let joined = BubbleEstimator().prepare(cells, threads: threads)
      XCTAssertEqual(joined.count, cells.count)
      XCTAssertEqual(joined.sizes(containerWidth: 375, threads: 1), one, "\(threads) threads")
    }
  }

  func testEmptyAndBlankTexts() throws {
    let style = TextStyle(fonts: try Fixtures.library.stack(["Inter-Regular.otf"]), size: 15)
    var cell = BubbleCell(text: "", style: style, containerWidth: 390)
    let e = BubbleEstimator()
    // No text: the paddings only (as measuring gives).
    XCTAssertEqual(e.estimate(cell), try CellSizer.shared.measure(cell).size)
    // White space collapses to nothing in `normal`, and stays a line in `pre-wrap`.
    cell.text = " \n  "
    cell.style.whiteSpace = .normal
    XCTAssertEqual(e.estimate(cell).height, 16)
    XCTAssertEqual(e.estimate(cell), try CellSizer.shared.measure(cell).size)
    cell.style.whiteSpace = .preWrap
    XCTAssertEqual(e.estimate(cell), try CellSizer.shared.measure(cell).size)
  }

  /// The estimator takes any cell without trapping: absurd scales, zero or huge widths, empty
  /// and white-space-only texts, tabs in a font whose space has no width.
  func testAbsurdCellsGiveNumbersNotCrashes() throws {
    let style = TextStyle(fonts: try Fixtures.library.stack(["Inter-Regular.otf"]), size: 15)
    let e = BubbleEstimator()
    var cells: [BubbleCell] = []
    for scale in [1e30, .infinity, .nan, 0, -1] {
      var c = BubbleCell(text: "long words here\tand\ttabs", style: style, containerWidth: 390)
      c.textScale = scale
      cells.append(c)
    }
    for width in [0.0, -5, 1e300, .nan] {
      cells.append(BubbleCell(text: "abc   \u{200B}   x", style: style, containerWidth: width))
    }
    var pre = style
    pre.whiteSpace = .pre
    cells.append(BubbleCell(text: "\t\t", style: pre, containerWidth: 390))
    let prepared = e.prepare(cells)
    for w in [390.0, 1, 1e9] {
      XCTAssertEqual(prepared.sizes(containerWidth: w).count, cells.count)
    }
    for c in cells { _ = e.estimate(c) }
  }

  func testRunsOfIdeographsWrapAsSingleCharactersWould() throws {
    // 40 Hangul syllables (no spaces, `normal`: a break before each): exact in Noto Sans CJK,
    // whose syllables are all one em, so the estimate equals the measured size.
    let style = TextStyle(fonts: try Fixtures.library.stack(["NotoSansCJK-Regular.ttc"]), size: 15)
    let text = String(repeating: "가나다라마바사아자차", count: 4)
    let e = BubbleEstimator()
    for width in [200.0, 260, 333, 390] {
      let cell = BubbleCell(text: text, style: style, containerWidth: width)
      XCTAssertEqual(e.estimate(cell), try CellSizer.shared.measure(cell).size, "at \(width)")
    }
  }
}
