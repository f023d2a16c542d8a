import XCTest

@testable import Ripple

private struct TestError: Error {}

/// A cursor over an array that counts its reads, and may throw once its elements are
/// exhausted.
private final class ProbeCursor<Element>: Cursor {
    private var remaining: ArraySlice<Element>
    private let failsAtEnd: Bool
    private(set) var readCount = 0

    init(_ elements: [Element], failsAtEnd: Bool = false) {
        self.remaining = elements[...]
        self.failsAtEnd = failsAtEnd
    }

    func next() throws -> Element? {
        readCount += 1
        if let element = remaining.popFirst() { return element }
        if failsAtEnd { throw TestError() }
        return nil
    }
}

/// Equal by `id` only: shows which of two equal elements a set keeps.
private struct Tagged: Hashable {
    var id: Int
    var tag: String
    static func == (lhs: Tagged, rhs: Tagged) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

private func assertThrowsTestError<T>(_ expression: @autoclosure () throws -> T, line: UInt = #line) {
    XCTAssertThrowsError(try expression(), line: line) { error in
        XCTAssertTrue(error is TestError, "unexpected error \(error)", line: line)
    }
}

/// The same cursor, read again: nil past its end.
private func assertEnded(_ cursor: some Cursor, line: UInt = #line) throws {
    XCTAssertNil(try cursor.next(), line: line)
    XCTAssertNil(try cursor.next(), line: line)
}

final class CursorAlgorithmsTests: XCTestCase {
    private let samples: [[Int]] = [[], [7], [3, 1, 2], [1, 2, 3, 4, 5], [2, 2, 1, 3, 1]]

    // MARK: - AnyCursor

    func testAnyCursorHandsOutTheElementsOfACursorASequenceAnIteratorAndAClosure() throws {
        let base = ProbeCursor([1, 2, 3])
        let erased = AnyCursor(base)
        XCTAssertEqual(base.readCount, 0, "wrapping reads nothing")
        XCTAssertEqual(try Array(erased), [1, 2, 3])
        try assertEnded(erased)

        let fromSequence = AnyCursor([1, 2, 3])
        XCTAssertEqual(try Array(fromSequence), [1, 2, 3])
        try assertEnded(fromSequence)

        let fromIterator = AnyCursor(iterator: (1...3).makeIterator())
        XCTAssertEqual(try Array(fromIterator), [1, 2, 3])
        try assertEnded(fromIterator)

        var names = ["Arthur", "Barbara"][...]
        let fromClosure = AnyCursor { names.popFirst() }
        XCTAssertEqual(try Array(fromClosure), ["Arthur", "Barbara"])
        try assertEnded(fromClosure)

        // Type erasure of an adapter, as a function returning AnyCursor does.
        let adapted: AnyCursor<String> = AnyCursor(AnyCursor([1, 2]).map { "\($0)" })
        XCTAssertEqual(try Array(adapted), ["1", "2"])
    }

    func testAnyCursorPassesOnErrors() throws {
        let erased = AnyCursor(ProbeCursor([1], failsAtEnd: true))
        XCTAssertEqual(try erased.next(), 1)
        assertThrowsTestError(try erased.next())

        let fromClosure = AnyCursor<Int> { throw TestError() }
        assertThrowsTestError(try fromClosure.next())
    }

    // MARK: - Algorithms

    func testIsEmptyReadsOneElement() throws {
        XCTAssertTrue(try AnyCursor([Int]()).isEmpty)
        let base = ProbeCursor([1, 2])
        XCTAssertFalse(try base.isEmpty)
        XCTAssertEqual(base.readCount, 1)
        XCTAssertEqual(try Array(base), [2], "the element read by isEmpty is gone")
        // A nil element is an element.
        XCTAssertFalse(try AnyCursor<Int?>([nil]).isEmpty)
        XCTAssertTrue(try AnyCursor<Int?>([1, nil]).contains { $0 == nil })
        XCTAssertEqual(try AnyCursor<Int?>([1, nil]).first { $0 == nil }, .some(nil))
    }

    func testContainsAndFirstMatchArraysAndStopAtTheFirstMatch() throws {
        for array in samples {
            for value in 0...6 {
                XCTAssertEqual(try AnyCursor(array).contains(value), array.contains(value))
                XCTAssertEqual(try AnyCursor(array).contains { $0 > value }, array.contains { $0 > value })
                XCTAssertEqual(try AnyCursor(array).first { $0 > value }, array.first { $0 > value })
            }
        }
        let base = ProbeCursor([1, 2, 3, 4])
        XCTAssertTrue(try base.contains(2))
        XCTAssertEqual(base.readCount, 2)
        XCTAssertTrue(try base.contains { $0 == 3 })
        XCTAssertEqual(base.readCount, 3)
        XCTAssertEqual(try base.first { $0 == 4 }, 4)
        XCTAssertEqual(base.readCount, 4)
    }

    func testForEachAndReduceMatchArrays() throws {
        for array in samples {
            var visited: [Int] = []
            try AnyCursor(array).forEach { visited.append($0) }
            XCTAssertEqual(visited, array)
            XCTAssertEqual(try AnyCursor(array).reduce(10, -), array.reduce(10, -))
            let counts = try AnyCursor(array).reduce(into: [:]) { counts, n in counts[n, default: 0] += 1 }
            XCTAssertEqual(counts, array.reduce(into: [:]) { counts, n in counts[n, default: 0] += 1 })
        }
    }

    func testMinAndMaxMatchArrays() throws {
        for array in samples {
            XCTAssertEqual(try AnyCursor(array).min(), array.min())
            XCTAssertEqual(try AnyCursor(array).max(), array.max())
            XCTAssertEqual(try AnyCursor(array).min(by: >), array.min(by: >))
            XCTAssertEqual(try AnyCursor(array).max(by: >), array.max(by: >))
        }
        // Of equal elements, the first, as arrays do.
        let pairs = [(1, "a"), (3, "b"), (0, "c"), (3, "d"), (0, "e")]
        XCTAssertEqual(try AnyCursor(pairs).max { $0.0 < $1.0 }?.1, pairs.max { $0.0 < $1.0 }?.1)
        XCTAssertEqual(try AnyCursor(pairs).min { $0.0 < $1.0 }?.1, pairs.min { $0.0 < $1.0 }?.1)
        XCTAssertEqual(try AnyCursor(pairs).max { $0.0 < $1.0 }?.1, "b")
        XCTAssertEqual(try AnyCursor(pairs).min { $0.0 < $1.0 }?.1, "c")
    }

    func testDropLastAndSuffixMatchArrays() throws {
        for array in samples {
            for k in 0...6 {
                XCTAssertEqual(try AnyCursor(array).dropLast(k), Array(array.dropLast(k)), "\(array) \(k)")
                XCTAssertEqual(try AnyCursor(array).suffix(k), Array(array.suffix(k)), "\(array) \(k)")
            }
            XCTAssertEqual(try AnyCursor(array).dropLast(), Array(array.dropLast()))
        }
        let base = ProbeCursor([1, 2])
        XCTAssertEqual(try base.suffix(0), [])
        XCTAssertEqual(base.readCount, 0, "an empty suffix reads nothing")
    }

    func testJoinedWithSeparatorMatchesArrays() throws {
        for array in [[], ["foo"], ["foo", "bar", "baz"], ["", "a", ""]] {
            XCTAssertEqual(try AnyCursor(array).joined(), array.joined())
            XCTAssertEqual(try AnyCursor(array).joined(separator: "><"), array.joined(separator: "><"))
        }
        let substrings: [Substring] = "a,b,c".split(separator: ",")
        XCTAssertEqual(try AnyCursor(substrings).joined(separator: "-"), "a-b-c")
    }

    // MARK: - Lazy adapters

    func testMapFilterAndCompactMapMatchArrays() throws {
        for array in samples {
            XCTAssertEqual(try Array(AnyCursor(array).map { $0 * 10 }), array.map { $0 * 10 })
            XCTAssertEqual(try Array(AnyCursor(array).filter { $0 > 1 }), array.filter { $0 > 1 })
        }
        let strings = ["1", "x", "3", "", "5"]
        let numbers = AnyCursor(strings).compactMap { Int($0) }
        XCTAssertEqual(try Array(numbers), strings.compactMap { Int($0) })
        try assertEnded(numbers)
    }

    func testEnumeratedMatchesArraysAndHasUnlabeledPairs() throws {
        for array in samples {
            let cursor = AnyCursor(array).enumerated()
            var pairs: [String] = []
            while let (n, x) = try cursor.next() { pairs.append("\(n):\(x)") }
            XCTAssertEqual(pairs, array.enumerated().map { "\($0.offset):\($0.element)" })
            try assertEnded(cursor)
        }
        // Elements are plain (Int, Element) pairs, as GRDB's: they feed key-value APIs.
        let byOffset = try Dictionary(uniqueKeysWithValues: AnyCursor(["a", "b"]).enumerated())
        XCTAssertEqual(byOffset, [0: "a", 1: "b"])
    }

    func testDropWhileMatchesArraysAndStopsCallingThePredicate() throws {
        for array in samples {
            for limit in 0...6 {
                XCTAssertEqual(try Array(AnyCursor(array).drop { $0 < limit }), Array(array.drop { $0 < limit }))
            }
        }
        var calls = 0
        let cursor = AnyCursor([1, 2, 5, 1, 6]).drop {
            calls += 1
            return $0 < 3
        }
        XCTAssertEqual(try Array(cursor), [5, 1, 6])
        XCTAssertEqual(calls, 3, "not called once it returned false")
    }

    func testDropFirstAndPrefixMatchArrays() throws {
        for array in samples {
            for k in 0...6 {
                let dropped = AnyCursor(array).dropFirst(k)
                XCTAssertEqual(try Array(dropped), Array(array.dropFirst(k)), "\(array) \(k)")
                try assertEnded(dropped)
                let prefix = AnyCursor(array).prefix(k)
                XCTAssertEqual(try Array(prefix), Array(array.prefix(k)), "\(array) \(k)")
                try assertEnded(prefix)
            }
            XCTAssertEqual(try Array(AnyCursor(array).dropFirst()), Array(array.dropFirst()))
            XCTAssertEqual(try Array(AnyCursor(array).dropFirst(1).dropFirst(2)), Array(array.dropFirst(3)))
            XCTAssertEqual(try Array(AnyCursor(array).prefix(4).prefix(2)), Array(array.prefix(2)))
        }
        // As GRDB's: a negative length is an empty prefix, not an error.
        XCTAssertEqual(try Array(AnyCursor([1, 2]).prefix(-1)), [])
    }

    func testPrefixWhileMatchesArraysAndStopsReading() throws {
        for array in samples {
            for limit in 0...6 {
                XCTAssertEqual(try Array(AnyCursor(array).prefix { $0 < limit }), Array(array.prefix { $0 < limit }))
            }
        }
        var calls = 0
        let base = ProbeCursor([1, 2, 5, 1, 6])
        let cursor = base.prefix {
            calls += 1
            return $0 < 3
        }
        XCTAssertEqual(try Array(cursor), [1, 2])
        try assertEnded(cursor)
        XCTAssertEqual(calls, 3, "not called once it returned false")
        XCTAssertEqual(base.readCount, 3, "the base is not read once an element failed")
    }

    func testFlatMapAndJoinedMatchArrays() throws {
        func repeated(_ n: Int) -> [Int] { Array(repeating: n, count: n) }
        for array in samples + [[0, 2, 0, 1]] {
            let expected = array.flatMap(repeated)
            let ofCursors = AnyCursor(array).flatMap { AnyCursor(repeated($0)) }
            XCTAssertEqual(try Array(ofCursors), expected)
            try assertEnded(ofCursors)
            XCTAssertEqual(try Array(AnyCursor(array).flatMap { repeated($0) }), expected)
            // Sequence.flatMap returning cursors gives a cursor.
            let fromSequence: FlattenCursor<MapCursor<AnyCursor<Int>, AnyCursor<Int>>> = array.flatMap { AnyCursor(repeated($0)) }
            XCTAssertEqual(try Array(fromSequence), expected)
            XCTAssertEqual(try Array(AnyCursor(array.map(repeated)).joined()), expected)
            XCTAssertEqual(try Array(AnyCursor(array.map { AnyCursor(repeated($0)) }).joined()), expected)
        }
    }

    // MARK: - Laziness

    func testAdaptersReadTheirBaseOnlyWhenRead() throws {
        let adapters: [(String, (ProbeCursor<Int>) -> AnyCursor<Int>)] = [
            ("map", { AnyCursor($0.map { $0 }) }),
            ("filter", { AnyCursor($0.filter { _ in true }) }),
            ("compactMap", { AnyCursor($0.compactMap { $0 }) }),
            ("enumerated", { AnyCursor($0.enumerated().map { $0.1 }) }),
            ("drop(while:)", { AnyCursor($0.drop { _ in false }) }),
            ("dropFirst", { AnyCursor($0.dropFirst(0)) }),
            ("prefix", { AnyCursor($0.prefix(10)) }),
            ("prefix(while:)", { AnyCursor($0.prefix { _ in true }) }),
            ("flatMap", { AnyCursor($0.flatMap { [$0] }) }),
        ]
        for (name, adapt) in adapters {
            let base = ProbeCursor([1, 2, 3, 4])
            let cursor = adapt(base)
            XCTAssertEqual(base.readCount, 0, name)
            XCTAssertEqual(try cursor.next(), 1, name)
            XCTAssertEqual(base.readCount, 1, name)
        }
    }

    func testPrefixReadsNoMoreThanItsLength() throws {
        let base = ProbeCursor([1, 2, 3, 4])
        let cursor = base.prefix(2)
        XCTAssertEqual(try Array(cursor), [1, 2])
        try assertEnded(cursor)
        XCTAssertEqual(base.readCount, 2)

        // Ended by its base: the base is not read again.
        let shortBase = ProbeCursor([1])
        let longPrefix = shortBase.prefix(5)
        XCTAssertEqual(try Array(longPrefix), [1])
        try assertEnded(longPrefix)
        XCTAssertEqual(shortBase.readCount, 2)

        // A base that fails after its elements: a prefix that does not go that far does not fail.
        XCTAssertEqual(try Array(ProbeCursor([1, 2], failsAtEnd: true).prefix(2)), [1, 2])
    }

    func testDropFirstDropsAtTheFirstRead() throws {
        let base = ProbeCursor([1, 2, 3, 4])
        let cursor = base.dropFirst(2)
        XCTAssertEqual(base.readCount, 0)
        XCTAssertEqual(try cursor.next(), 3)
        XCTAssertEqual(base.readCount, 3)
    }

    func testFlatMapOpensASegmentOnlyWhenThePreviousOneEnded() throws {
        let base = ProbeCursor([1, 2])
        let cursor = base.flatMap { [$0, $0 * 10] }
        XCTAssertEqual(try cursor.next(), 1)
        XCTAssertEqual(try cursor.next(), 10)
        XCTAssertEqual(base.readCount, 1)
        XCTAssertEqual(try cursor.next(), 2)
        XCTAssertEqual(base.readCount, 2)
    }

    // MARK: - Errors

    func testErrorsOfTheBaseAreThrown() throws {
        func failing() -> ProbeCursor<Int> { ProbeCursor([1, 2, 3], failsAtEnd: true) }
        assertThrowsTestError(try ProbeCursor<Int>([], failsAtEnd: true).isEmpty)
        assertThrowsTestError(try failing().contains(9))
        assertThrowsTestError(try failing().contains { $0 > 5 })
        assertThrowsTestError(try failing().first { $0 > 5 })
        assertThrowsTestError(try failing().forEach { _ in })
        assertThrowsTestError(try failing().reduce(0, +))
        assertThrowsTestError(try failing().reduce(into: 0) { $0 += $1 })
        assertThrowsTestError(try failing().max())
        assertThrowsTestError(try failing().min())
        assertThrowsTestError(try failing().dropLast(1))
        assertThrowsTestError(try failing().suffix(1))
        assertThrowsTestError(try ProbeCursor(["a"], failsAtEnd: true).joined(separator: ","))
        assertThrowsTestError(try Array(failing().map { $0 }))
        assertThrowsTestError(try Array(failing().filter { _ in true }))
        assertThrowsTestError(try Array(failing().compactMap { $0 }))
        assertThrowsTestError(try Array(failing().enumerated()))
        assertThrowsTestError(try Array(failing().drop { $0 < 2 }))
        assertThrowsTestError(try Array(failing().dropFirst(1)))
        assertThrowsTestError(try Array(failing().dropFirst(5)))
        assertThrowsTestError(try Array(failing().prefix(4)))
        assertThrowsTestError(try Array(failing().prefix { _ in true }))
        assertThrowsTestError(try Array(failing().flatMap { [$0] }))
        assertThrowsTestError(try Array(failing().flatMap { _ in failing() }))
        assertThrowsTestError(try Array(AnyCursor([AnyCursor([1]), AnyCursor(failing())]).joined()))
        assertThrowsTestError(try Set(failing()))
        assertThrowsTestError(try Set([0]).union(failing()))
        assertThrowsTestError(try Set([0]).intersection(failing()))
        assertThrowsTestError(try Dictionary(grouping: failing(), by: { $0 }))
        assertThrowsTestError(try Dictionary(uniqueKeysWithValues: failing().map { ($0, $0) }))
    }

    func testErrorsOfClosuresAreThrown() throws {
        func fail(_: Int) throws -> Bool { throw TestError() }
        assertThrowsTestError(try Array(AnyCursor([1]).map { _ in try fail(0) }))
        assertThrowsTestError(try Array(AnyCursor([1]).filter(fail)))
        assertThrowsTestError(try Array(AnyCursor([1]).drop(while: fail)))
        assertThrowsTestError(try Array(AnyCursor([1]).prefix(while: fail)))
        assertThrowsTestError(try Array(AnyCursor([1]).compactMap { try fail($0) }))
        assertThrowsTestError(try Array(AnyCursor([1]).flatMap { _ -> [Int] in throw TestError() }))
        assertThrowsTestError(try AnyCursor([1, 2]).max { _, _ in throw TestError() })
        assertThrowsTestError(try Dictionary(grouping: AnyCursor([1]), by: { _ -> Int in throw TestError() }))
    }

    func testAppendingFromACursorKeepsWhatWasReadBeforeAnError() {
        var array = [0]
        assertThrowsTestError(try array.append(contentsOf: ProbeCursor([1, 2], failsAtEnd: true)))
        XCTAssertEqual(array, [0, 1, 2])
    }

    // MARK: - Collections

    func testCollectionsOfCursorsMatchCollectionsOfArrays() throws {
        for array in samples {
            XCTAssertEqual(try Array(AnyCursor(array), minimumCapacity: 100), array)
            XCTAssertEqual(try ContiguousArray(AnyCursor(array)), ContiguousArray(array))
            var appended = [9]
            try appended.append(contentsOf: AnyCursor(array))
            XCTAssertEqual(appended, [9] + array)

            XCTAssertEqual(try Set(AnyCursor(array)), Set(array))
            XCTAssertEqual(try Set(AnyCursor(array), minimumCapacity: 100), Set(array))
            let set: Set = [1, 4]
            XCTAssertEqual(try set.union(AnyCursor(array)), set.union(array))
            XCTAssertEqual(try set.intersection(AnyCursor(array)), set.intersection(array))
            var formed = set
            try formed.formUnion(AnyCursor(array))
            XCTAssertEqual(formed, set.union(array))
            formed = set
            try formed.formIntersection(AnyCursor(array))
            XCTAssertEqual(formed, set.intersection(array))

            XCTAssertEqual(try Dictionary(grouping: AnyCursor(array), by: { $0 % 2 }), Dictionary(grouping: array, by: { $0 % 2 }))
            XCTAssertEqual(
                try Dictionary(minimumCapacity: 100, grouping: AnyCursor(array), by: { $0 % 2 }), Dictionary(grouping: array, by: { $0 % 2 }))
            let pairs = Set(array).map { ($0, "\($0)") }
            XCTAssertEqual(try Dictionary(uniqueKeysWithValues: AnyCursor(pairs)), Dictionary(uniqueKeysWithValues: pairs))
            XCTAssertEqual(try Dictionary(minimumCapacity: 100, uniqueKeysWithValues: AnyCursor(pairs)), Dictionary(uniqueKeysWithValues: pairs))
        }
    }

    func testSetOperationsKeepTheMembersOfTheSet() throws {
        let set: Set = [Tagged(id: 1, tag: "set")]
        let cursor = { AnyCursor([Tagged(id: 1, tag: "cursor"), Tagged(id: 2, tag: "cursor")]) }
        XCTAssertEqual(try set.union(cursor()).first { $0.id == 1 }?.tag, "set")
        XCTAssertEqual(try set.intersection(cursor()).map(\.tag), ["set"])
        var formed = set
        try formed.formIntersection(cursor())
        XCTAssertEqual(formed.map(\.tag), ["set"])
    }

    // MARK: - Database cursors

    func testDatabaseCursors() throws {
        let oneToTen = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10) SELECT x FROM n"
        let array = Array(1...10)
        try DatabaseQueue().read { db in
            func numbers() throws -> some Cursor<Int> { try Int.fetchCursor(db, sql: oneToTen) }
            XCTAssertEqual(try Array(numbers().prefix(3)), [1, 2, 3])
            XCTAssertEqual(try Array(numbers().dropFirst(8)), [9, 10])
            XCTAssertEqual(try Array(numbers().drop { $0 < 9 }), [9, 10])
            XCTAssertEqual(try Array(numbers().prefix { $0 < 3 }), [1, 2])
            XCTAssertEqual(try Array(numbers().compactMap { $0 % 3 == 0 ? $0 : nil }), [3, 6, 9])
            XCTAssertEqual(try Array(numbers().enumerated().map { $0.0 + $0.1 }), array.enumerated().map { $0.offset + $0.element })
            XCTAssertEqual(try numbers().suffix(2), [9, 10])
            XCTAssertEqual(try numbers().dropLast(8), [1, 2])
            XCTAssertEqual(try numbers().max(), 10)
            XCTAssertEqual(try numbers().min(by: >), 10)
            XCTAssertEqual(try numbers().reduce(into: 0) { $0 += $1 }, 55)
            XCTAssertTrue(try numbers().contains(7))
            XCTAssertFalse(try numbers().isEmpty)
            XCTAssertTrue(try Int.fetchCursor(db, sql: "SELECT 1 WHERE 0").isEmpty)
            XCTAssertFalse(try Int?.fetchCursor(db, sql: "SELECT NULL").isEmpty)
            XCTAssertEqual(try Dictionary(grouping: numbers(), by: { $0 % 3 }), Dictionary(grouping: array, by: { $0 % 3 }))
            XCTAssertEqual(try Set(numbers().map { $0 % 4 }, minimumCapacity: 4), [0, 1, 2, 3])

            // Cursors of statements opened while another is being read.
            let nested = try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 2").flatMap { n in
                try Int.fetchCursor(db, sql: "SELECT ? * 10 UNION ALL SELECT ? * 10 + 1", arguments: [n, n])
            }
            XCTAssertEqual(try Array(nested), [10, 11, 20, 21])

            let names = try String.fetchCursor(db, sql: "SELECT 'Arthur' UNION ALL SELECT 'Barbara'")
            XCTAssertEqual(try names.joined(separator: ", "), "Arthur, Barbara")

            let erased: AnyCursor<Row> = try AnyCursor(Row.fetchCursor(db, sql: oneToTen).dropFirst(9))
            let row = try XCTUnwrap(erased.next())
            XCTAssertEqual(row[0] as Int, 10)
            try assertEnded(erased)
        }
    }

    func testDatabaseErrorsComeOnlyFromRowsThatAreRead() throws {
        // abs() of the least integer fails: the third row is an error. (It depends on x, so
        // that SQLite does not compute it once before the first row.)
        let sql = """
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 5)
            SELECT CASE WHEN x < 3 THEN x ELSE abs(-9223372036854775807 - (x - 2)) END FROM n
            """
        try DatabaseQueue().read { db in
            XCTAssertEqual(try Array(Int.fetchCursor(db, sql: sql).prefix(2)), [1, 2])
            assertDatabaseError(.SQLITE_ERROR) { try Array(Int.fetchCursor(db, sql: sql).prefix(3)) }
            assertDatabaseError(.SQLITE_ERROR) { try Int.fetchCursor(db, sql: sql).map { $0 * 2 }.suffix(1) }
            // The connection is usable after the error.
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT 1"), 1)
        }
    }

    // MARK: - Programmer errors

    func testDuplicateKeysAndNegativeCountsAreFatal() throws {
        try assertFatalError(
            inScenario: "RippleTests.CursorAlgorithmsTests/testScenarioDuplicateKeys",
            "Dictionary(uniqueKeysWithValues:): the cursor has the key \"a\" twice")
        try assertFatalError(
            inScenario: "RippleTests.CursorAlgorithmsTests/testScenarioNegativeDropFirst",
            "Can't drop a negative number of elements from a cursor")
        try assertFatalError(
            inScenario: "RippleTests.CursorAlgorithmsTests/testScenarioNegativeDropLast",
            "Can't drop a negative number of elements from a cursor")
        try assertFatalError(
            inScenario: "RippleTests.CursorAlgorithmsTests/testScenarioNegativeSuffix",
            "Can't take a suffix of negative length from a cursor")
    }

    // Run in a child process by the test above; they return at once otherwise.

    func testScenarioDuplicateKeys() throws {
        guard isFatalScenario else { return }
        _ = try Dictionary(uniqueKeysWithValues: AnyCursor([("a", 1), ("b", 2), ("a", 3)]))
    }

    func testScenarioNegativeDropFirst() throws {
        guard isFatalScenario else { return }
        _ = AnyCursor([1]).dropFirst(-1)
    }

    func testScenarioNegativeDropLast() throws {
        guard isFatalScenario else { return }
        _ = try AnyCursor([1]).dropLast(-1)
    }

    func testScenarioNegativeSuffix() throws {
        guard isFatalScenario else { return }
        _ = try AnyCursor([1]).suffix(-1)
    }
}
