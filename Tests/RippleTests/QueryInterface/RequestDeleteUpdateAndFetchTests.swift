import Foundation
import Ripple
import XCTest

/// `deleteAndFetch...` and `updateAndFetch...` of requests: the rows they return, and the
/// changes they make.
final class RequestDeleteUpdateAndFetchTests: XCTestCase {
    struct Player: Codable, FetchableRecord, PersistableRecord, Hashable, Identifiable {
        var id: Int64
        var name: String
        var score: Int
        enum Columns {
            static let name = Column(CodingKeys.name)
            static let score = Column(CodingKeys.score)
        }
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("id", .integer).primaryKey()
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            for (id, name, score) in [(1, "Arthur", 10), (2, "Barbara", 20), (3, "Craig", 30)] {
                try Player(id: Int64(id), name: name, score: score).insert(db)
            }
        }
        return dbQueue
    }

    func testReturningAllColumnsExcluding() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            // A selection made with the connection is resolved before the RETURNING clause.
            let record = Player(id: 4, name: "Diane", score: 40)
            let row = try record.insertAndFetch(db, selection: [.allColumns(excluding: ["score"])]) { try Row.fetchOne($0)! }
            XCTAssertEqual(row, ["id": 4, "name": "Diane"])
            let statement = try Player.filter(id: 1).deleteAndFetchStatement(db, selection: [.allColumns(excluding: ["name"])])
            XCTAssertEqual(try Row.fetchAll(statement), [["id": 1, "score": 10]])
            XCTAssertEqual(try Player.fetchCount(db), 3)
        }
    }

    func testDeleteAndFetch() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let deleted = try Player.filter(Player.Columns.score > 15).deleteAndFetchAll(db)
            XCTAssertEqual(Set(deleted.map(\.name)), ["Barbara", "Craig"])
            XCTAssertEqual(try Player.fetchCount(db), 1)
            XCTAssertEqual(try Player.all().deleteAndFetchIds(db), [1])
            XCTAssertTrue(try Player.isEmpty(db))
        }
    }

    func testDeleteAndFetchStatementBindsFilterAndSelectionValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let statement = try Player.filter(key: 2).deleteAndFetchStatement(db, selection: [Player.Columns.score + 1])
            XCTAssertEqual(try Int.fetchAll(statement), [21])
            XCTAssertEqual(try Player.fetchCount(db), 2)
            let names = try String.fetchSet(Player.filter(key: 3).deleteAndFetchStatement(db) { _ in [Column("name")] })
            XCTAssertEqual(names, ["Craig"])
        }
    }

    func testUpdateAndFetch() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let updated = try Player.filter(Player.Columns.score < 25).updateAndFetchSet(db, [Player.Columns.score += 100])
            XCTAssertEqual(Set(updated.map(\.score)), [110, 120])
            let all = try Player.filter(key: 3).updateAndFetchAll(db) { [$0.score.set(to: 0)] }
            XCTAssertEqual(all, [Player(id: 3, name: "Craig", score: 0)])
            let statement = try Player.filter(key: 1).updateAndFetchStatement(db) {
                [$0.name.set(to: "Arthur II")]
            } select: {
                [$0.name]
            }
            XCTAssertEqual(try String.fetchOne(statement), "Arthur II")
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id"), [110, 120, 0])
        }
    }
}
