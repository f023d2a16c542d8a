import Ripple
import XCTest

/// The plain SQL functions of the query interface, and fetching from a `Table` whatever
/// it decodes.
final class SQLFunctionsAndTableFetchingTests: XCTestCase {
    private struct Scored: TableRecord, Identifiable {
        static let databaseTableName = "player"
        var id: Int64
        enum Columns {
            static let score = Column("score")
        }
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(
                sql:
                    "INSERT INTO team (id, name) VALUES (1, 'Red'); INSERT INTO player (id, name, score, teamId) VALUES (1, 'Arthur', -10, NULL), (2, 'Barbara', 30, 1)"
            )
        }
        return dbQueue
    }

    func testFunctions() throws {
        try makeDatabase().read { db in
            let score = Column("score")
            XCTAssertEqual(try Player.select(abs(score), as: Int.self).order(abs(score).desc).fetchAll(db), [30, 10])
            XCTAssertEqual(try Player.select(total(score), as: Double.self).fetchOne(db), 20)
            XCTAssertEqual(try Player.select(coalesce([Column("teamId"), score]), as: Int.self).order(Column("id")).fetchAll(db), [-10, 1])
            XCTAssertEqual(try Player.select(Column("teamId") ?? 0, as: Int.self).order(Column("id")).fetchAll(db), [0, 1])
            XCTAssertEqual(try Player.select(coalesce([score]), as: Int.self).order(Column("id")).fetchAll(db), [-10, 30])
            XCTAssertEqual(try Player.select(coalesce([any SQLSpecificExpressible]()), as: Int?.self).fetchAll(db), [nil, nil])
            let date = "2024-02-28 10:00:00".databaseValue.sqlExpression
            XCTAssertEqual(try String.fetchOne(db, Player.select(dateTime(date, .startOfDay, .day(2), .hour(3)))), "2024-03-01 03:00:00")
            XCTAssertEqual(try Double.fetchOne(db, Player.select(julianDay(date, .startOfYear))), 2460310.5)
        }
    }

    func testTableFetchesValuesAndRecords() throws {
        try makeDatabase().write { db in
            XCTAssertEqual(try Table<Int64>("player").select(Column("id")).fetchAll(db), [1, 2])
            XCTAssertEqual(try Table<Int64>("player").fetchSet(db), [1, 2])
            XCTAssertEqual(try Table<String>("player").select(Column("name")).fetchCursor(db).next(), "Arthur")
            XCTAssertEqual(try Table<Player>("player").fetchSet(db).count, 2)
            XCTAssertTrue(try Table<Scored>("player").exists(db, id: 2))
            XCTAssertFalse(try Scored.exists(db, key: ["id": 3]))
            XCTAssertEqual(try Table<Scored>("player").updateAll(db) { $0.score.set(to: 0) }, 2)
            XCTAssertEqual(try Table("player").updateAll(db, [Column("score").set(to: 5)]), 2)
            XCTAssertEqual(try Table("player").updateAll(db, onConflict: .ignore, Column("score").set(to: 6)), 2)
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT score FROM player"), [6, 6])
            XCTAssertEqual(try Table("player").deleteAll(db, keys: [["id": 1], ["id": 3]]), 1)
            XCTAssertEqual(try Table("player").fetchCount(db), 1)
        }
    }
}
