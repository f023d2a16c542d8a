import Dispatch
import Foundation
import XCTest

@testable import Ripple

final class FetchedRecordsControllerTests: XCTestCase {
    struct Item: Codable, FetchableRecord, PersistableRecord, Sendable, Equatable {
        var id: Int64
        var name: String
        var rank: Int
    }

    private let queue = DispatchQueue(label: "FetchedRecordsControllerTests")

    private func makeDatabase(count: Int = 0) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, rank INT NOT NULL, note TEXT)")
            for i in 0..<count {
                try Item(id: Int64(i + 1), name: "item\(i)", rank: i).insert(db)
            }
        }
        return dbQueue
    }

    /// Starts tracking, and returns the log of callbacks.
    private func track(_ controller: FetchedRecordsController<Item>) -> ValueCollector<String> {
        let log = ValueCollector<String>()
        queue.sync {
            controller.trackChanges(
                willChange: { _ in log.append("willChange") },
                onChange: { _, item, change in
                    switch change {
                    case .insertion(let indexPath): log.append("insert \(item.name) at \(indexPath[1])")
                    case .deletion(let indexPath): log.append("delete \(item.name) at \(indexPath[1])")
                    case let .move(indexPath, newIndexPath, changes):
                        log.append("move \(item.name) \(indexPath[1])->\(newIndexPath[1]) \(changes.keys.sorted())")
                    case let .update(indexPath, changes): log.append("update \(item.name) at \(indexPath[1]) \(changes)")
                    }
                },
                didChange: { _ in log.append("didChange") })
        }
        return log
    }

    func testInsertDeleteMoveUpdate() throws {
        let dbQueue = try makeDatabase(count: 3)  // item0 (1), item1 (2), item2 (3), by rank
        let controller = try FetchedRecordsController(dbQueue, request: Item.order(Column("rank")), queue: queue)
        try queue.sync { try controller.performFetch() }
        XCTAssertEqual(queue.sync { controller.fetchedRecords.map(\.name) }, ["item0", "item1", "item2"])
        let log = track(controller)
        try dbQueue.write { db in
            try db.execute(sql: "DELETE FROM item WHERE id = 2")  // delete item1
            try db.execute(sql: "INSERT INTO item VALUES (4, 'item3', 1, NULL)")  // insert between
            try db.execute(sql: "UPDATE item SET rank = 10 WHERE id = 1")  // item0 moves to the end
            try db.execute(sql: "UPDATE item SET name = 'ITEM2' WHERE id = 3")  // update in place
        }
        let values = log.wait { $0.last == "didChange" }
        // item0 and item2 swapped their relative order: one of them moves (one move is the
        // minimum), the other is updated in place.
        XCTAssertEqual(
            values,
            [
                "willChange",
                "delete item1 at 1",
                "insert item3 at 0",
                "move ITEM2 2->1 [\"name\"]",
                "update item0 at 0 [\"rank\": 0]",
                "didChange",
            ])
        XCTAssertEqual(queue.sync { controller.fetchedRecords.map(\.name) }, ["item3", "ITEM2", "item0"])
        XCTAssertEqual(queue.sync { controller.record(at: IndexPath(indexes: [0, 1])).name }, "ITEM2")
        XCTAssertEqual(queue.sync { controller.sections[0].numberOfRecords }, 3)
    }

    func testNoCallbacksWhenRecordsDoNotDiffer() throws {
        let dbQueue = try makeDatabase(count: 2)
        let controller = try FetchedRecordsController(
            dbQueue, request: Item.select(Column("id"), Column("name"), Column("rank")).order(Column("rank")), queue: queue)
        try queue.sync { try controller.performFetch() }
        let log = track(controller)
        try dbQueue.write { try $0.execute(sql: "UPDATE item SET note = 'x'") }  // not fetched
        try dbQueue.write { try $0.execute(sql: "UPDATE item SET name = name") }  // same values
        try dbQueue.write { try $0.execute(sql: "DELETE FROM item WHERE id = 1") }
        let values = log.wait { $0.last == "didChange" }
        XCTAssertEqual(values, ["willChange", "delete item0 at 0", "didChange"])
    }

    func testLargeResultWithAFewChanges() throws {
        let dbQueue = try makeDatabase(count: 10_000)
        let controller = try FetchedRecordsController(dbQueue, request: Item.order(Column("rank")), queue: queue)
        try queue.sync { try controller.performFetch() }
        let log = track(controller)
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE item SET name = 'changed' WHERE id IN (10, 5000)")
            try db.execute(sql: "UPDATE item SET rank = -1 WHERE id = 9000")  // moves to the top
            try db.execute(sql: "DELETE FROM item WHERE id = 7")
        }
        let values = log.wait { $0.last == "didChange" }
        XCTAssertEqual(values.count, 6, "\(values)")
        XCTAssertTrue(values.contains("move item8999 8999->0 [\"rank\"]"), "\(values)")
        XCTAssertTrue(values.contains("delete item6 at 6"))
        XCTAssertEqual(values.filter { $0.hasPrefix("update changed") }.count, 2)
        XCTAssertEqual(queue.sync { controller.fetchedRecords.count }, 9_999)
    }
    func testErrorsReachTrackErrors() throws {
        // The rank column is not NULL in the schema: a view over it lets a NULL through.
        let dbQueue = try makeDatabase(count: 1)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE source (id INTEGER PRIMARY KEY, name TEXT, rank INT)")
            try db.execute(sql: "INSERT INTO source VALUES (1, 'a', 1)")
        }
        let controller = try FetchedRecordsController(dbQueue, request: SQLRequest<Item>(sql: "SELECT * FROM source ORDER BY rank"), queue: queue)
        try queue.sync { try controller.performFetch() }
        let log = track(controller)
        queue.sync {
            controller.trackErrors { controller, error in
                log.append("error \((error as? DatabaseError)?.resultCode == .SQLITE_MISMATCH) \(controller.fetchedRecords.map(\.name))")
            }
        }
        try dbQueue.write { try $0.execute(sql: "UPDATE source SET rank = NULL") }  // cannot decode
        _ = log.wait { $0.last?.hasPrefix("error") == true }
        try dbQueue.write { try $0.execute(sql: "UPDATE source SET rank = 2, name = 'b'") }  // tracking goes on
        let values = log.wait { $0.last == "didChange" }
        XCTAssertEqual(values.count, 4, "\(values)")
        XCTAssertEqual(values.first, "error true [\"a\"]")
        XCTAssertEqual(values[1], "willChange")
        XCTAssertTrue(values[2].hasPrefix("update b at 0"), values[2])
        XCTAssertEqual(values.last, "didChange")
    }
}
