import XCTest

@testable import Ripple

/// A cursor that hands out its elements through its own `forEach`, and counts the calls
/// to `next()` that generic code makes instead.
private final class ForEachCursor: Cursor {
    private let elements: [Int]
    private(set) var nextCount = 0
    private(set) var forEachCount = 0

    init(_ elements: [Int]) {
        self.elements = elements
    }

    func next() -> Int? {
        nextCount += 1
        return nil
    }

    func forEach(_ body: (Int) throws -> Void) throws {
        forEachCount += 1
        for element in elements { try body(element) }
    }
}

/// `forEach` is a requirement of `Cursor`: the collections and adapters built from a
/// cursor call the cursor's own, as GRDB's do.
final class CursorForEachTests: XCTestCase {
    private func assertUsesForEach<T: Equatable>(
        _ expected: T, line: UInt = #line, _ build: (ForEachCursor) throws -> T
    ) throws {
        let cursor = ForEachCursor([1, 2, 3, 2])
        XCTAssertEqual(try build(cursor), expected, line: line)
        XCTAssertEqual(cursor.nextCount, 0, "next() was called", line: line)
        XCTAssertEqual(cursor.forEachCount, 1, line: line)
    }

    func testCollectionsCallTheCursorsForEach() throws {
        try assertUsesForEach([1, 2, 3, 2]) { try Array($0) }
        try assertUsesForEach([1, 2, 3, 2]) { try Array($0, minimumCapacity: 10) }
        try assertUsesForEach([0, 1, 2, 3, 2]) { cursor in
            var array = [0]
            try array.append(contentsOf: cursor)
            return array
        }
        try assertUsesForEach(ContiguousArray([1, 2, 3, 2])) { try ContiguousArray($0) }
        try assertUsesForEach(Set([1, 2, 3])) { try Set($0) }
        try assertUsesForEach([false: [1, 3], true: [2, 2]]) { try Dictionary(grouping: $0, by: { $0.isMultiple(of: 2) }) }
        try assertUsesForEach([1: 1, 3: 9]) { try Dictionary(uniqueKeysWithValues: $0.filter { $0 != 2 }.map { ($0, $0 * $0) }) }
        try assertUsesForEach(8) { try $0.reduce(0, +) }
    }

    func testAdaptersCallTheirBasesForEach() throws {
        try assertUsesForEach([1, 4, 9, 4]) { try Array($0.map { $0 * $0 }) }
        try assertUsesForEach([2, 2]) { try Array($0.filter { $0.isMultiple(of: 2) }) }
        try assertUsesForEach(["0:1", "1:2", "2:3", "3:2"]) { try Array($0.enumerated().map { "\($0):\($1)" }) }
        try assertUsesForEach([1, 2, 3, 2]) { try Array(AnyCursor($0)) }
    }

    func testForEachOfAClosureCursorCallsTheClosure() throws {
        var remaining = [1, 2][...]
        let cursor = AnyCursor { remaining.popFirst() }
        var seen: [Int] = []
        try cursor.forEach { seen.append($0) }
        XCTAssertEqual(seen, [1, 2])
        XCTAssertNil(try cursor.next())
    }

    func testEnumeratedForEachContinuesTheOffsets() throws {
        let enumerated = AnyCursor([10, 20, 30]).enumerated()
        XCTAssertEqual(try enumerated.next()?.0, 0)
        var offsets: [Int] = []
        try enumerated.forEach { offset, _ in offsets.append(offset) }
        XCTAssertEqual(offsets, [1, 2])
    }
}
