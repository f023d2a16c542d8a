import Foundation
import XCTest

@testable import Ripple

final class LifetimeFatalErrorScenarios: XCTestCase {
    func testCursorRowReadOutsideOfItsAccess() throws {
        guard isFatalScenario else { return }
        let dbQueue = try DatabaseQueue()
        let row = try dbQueue.read { db in try Row.fetchCursor(db, sql: "SELECT 1 AS a").next()! }
        _ = try row.decode(Int.self, atIndex: 0)
    }

    func testCursorRowOfANestedAccessReadAfterItEnded() throws {
        guard isFatalScenario else { return }
        let outer = try DatabaseQueue()
        let inner = try DatabaseQueue()
        try outer.read { _ in
            let row = try inner.read { db in try Row.fetchCursor(db, sql: "SELECT 1 AS a").next()! }
            _ = try row.decode(Int.self, forColumn: "a")
        }
    }

    func testCursorRowReadInsideAnotherConnectionsAccess() throws {
        guard isFatalScenario else { return }
        let owner = try DatabaseQueue()
        let other = try DatabaseQueue()
        let row = try owner.read { db in try Row.fetchCursor(db, sql: "SELECT 1 AS a").next()! }
        try other.read { _ in _ = try row.decodeIfPresent(Int.self, atIndex: 0) }
    }

    func testStatementRowIndexAtCount() throws {
        guard isFatalScenario else { return }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try Row.fetchCursor(db, sql: "SELECT 1 AS a, 2 AS b").next()!
            _ = try row.decode(Int.self, atIndex: 2)
        }
    }

    func testStatementRowNegativeIndex() throws {
        guard isFatalScenario else { return }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try Row.fetchCursor(db, sql: "SELECT 1 AS a, 2 AS b").next()!
            _ = try row.decodeIfPresent(Int.self, atIndex: -1)
        }
    }

    func testCopiedRowIndexAtCount() throws {
        guard isFatalScenario else { return }
        let row: Row = ["a": 1, "b": 2]
        _ = try row.decodeIfPresent(Int.self, atIndex: 2)
    }

    func testCopiedRowNegativeIndex() throws {
        guard isFatalScenario else { return }
        let row: Row = ["a": 1, "b": 2]
        _ = try row.decode(Int.self, atIndex: -1)
    }
}
