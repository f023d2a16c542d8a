import XCTest

@testable import Ripple

/// `IndexPrediction` on its own: the column lookups of records read in the same order on
/// every row.
final class IndexPredictionTests: XCTestCase {
    /// A lookup that counts its calls, over the columns `names`.
    private final class Lookup {
        let names: [String]
        var calls = 0
        init(_ names: [String]) { self.names = names }
        func index(of name: String) -> Int? {
            calls += 1
            return names.firstIndex(of: name)
        }
    }

    func testTheSameOrderOnEachRowIsLookedUpOnce() {
        var prediction = IndexPrediction<String>()
        let lookup = Lookup(["id", "name", "score"])
        for _ in 0..<3 {
            prediction.rewind()
            XCTAssertEqual(prediction.index(of: "name") { lookup.index(of: "name") }, 1)
            XCTAssertEqual(prediction.index(of: "id") { lookup.index(of: "id") }, 0)
            XCTAssertEqual(prediction.index(of: "missing") { lookup.index(of: "missing") }, nil)
            XCTAssertEqual(prediction.index(of: "score") { lookup.index(of: "score") }, 2)
        }
        XCTAssertEqual(lookup.calls, 4, "each column looked up once, the missing one too")
    }

    func testAnotherOrderOrNoRewindFindsTheKnownColumns() {
        var prediction = IndexPrediction<String>()
        let lookup = Lookup(["a", "b", "c"])
        for name in ["a", "b", "c"] { _ = prediction.index(of: name) { lookup.index(of: name) } }
        // No rewind, then another order: the known columns are found without a lookup.
        for name in ["c", "a", "b", "b", "a"] {
            XCTAssertEqual(prediction.index(of: name) { lookup.index(of: name) }, lookup.names.firstIndex(of: name))
        }
        XCTAssertEqual(lookup.calls, 3)
    }

    func testMoreColumnsThanTheCapacityAreStillFound() {
        // The remembered sequence stops growing at its capacity; the prediction's position
        // never goes past it, and every column is still found, by lookup if need be.
        let capacity = IndexPrediction<String>.capacity
        let names = (0..<(capacity + 50)).map { "c\($0)" }
        var prediction = IndexPrediction<String>()
        let lookup = Lookup(names)
        for _ in 0..<2 {
            prediction.rewind()
            for (index, name) in names.enumerated() {
                XCTAssertEqual(prediction.index(of: name) { lookup.index(of: name) }, index)
                XCTAssertLessThanOrEqual(Int(prediction.position), capacity)
            }
        }
        XCTAssertEqual(prediction.entries.count, capacity)
        XCTAssertEqual(lookup.calls, capacity + 50 * 2, "the columns past the capacity are looked up each time")
    }
}
