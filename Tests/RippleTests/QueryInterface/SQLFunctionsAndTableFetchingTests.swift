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

    func testSwiftStringFunctionsOnEveryConnection() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let name = Column("name")
            let request = Player.filter(Column("id") == 1)
            XCTAssertEqual(
                try request.select(name.uppercased, as: String.self).makeSQL(db).sql,
                #"SELECT swiftUppercaseString("name") FROM "player" WHERE "id" = ?"#)
            XCTAssertEqual(try request.select(name.uppercased, as: String.self).fetchOne(db), "ARTHUR")
            XCTAssertEqual(try request.select(name.lowercased, as: String.self).fetchOne(db), "arthur")
            XCTAssertEqual(try request.select(name.localizedUppercased, as: String.self).fetchOne(db), "ARTHUR")
            XCTAssertEqual(try request.select(name.localizedLowercased, as: String.self).fetchOne(db), "arthur")
            // All of Unicode, where SQLite's LOWER and UPPER know ASCII only.
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT swiftLowercaseString('ÉCOLE')"), "école")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT swiftCapitalizedString('hello wORLD')"), "Hello World")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT swiftLocalizedCapitalizedString('hello')"), "Hello")
            // Not a string: NULL.
            XCTAssertNil(try DatabaseValue.fetchOne(db, sql: "SELECT swiftUppercaseString(12)")?.storage.value)
            XCTAssertEqual(try Player.filter(name.capitalized == "Barbara").fetchCount(db), 1)
        }
        // Every connection of a pool has them.
        let pool = try DatabasePool(path: makeTemporaryDatabasePath(self, name: "functions.sqlite"))
        XCTAssertEqual(try pool.read { try String.fetchOne($0, sql: "SELECT swiftUppercaseString('a')") }, "A")
    }

    func testScalarMinAndMax() throws {
        try makeDatabase().read { db in
            let score = Column("score")
            let request = Player.select(max(score, 0, Column("id")), as: Int.self).order(Column("id"))
            XCTAssertEqual(try request.makeSQL(db).sql, #"SELECT MAX("score", ?, "id") FROM "player" ORDER BY "id""#)
            XCTAssertEqual(try request.fetchAll(db), [1, 30])
            XCTAssertEqual(try Player.select(min(score, 0), as: Int.self).order(Column("id")).fetchAll(db), [-10, 0])
        }
    }

    func testDetachedColumnIsNeverQualified() throws {
        try makeDatabase().read { db in
            struct Member: TableRecord {
                static let databaseTableName = "player"
                static let team = belongsTo(Team.self)
            }
            let request = Member.annotated(with: (Column("score") * 2).forKey("double"))
                .including(required: Member.team)
                .order(Column("double").detached.desc)
                .asRequest(of: Row.self)
            XCTAssertEqual(
                try request.makeSQL(db).sql,
                #"SELECT "player".*, "player"."score" * ? AS "double", "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" ORDER BY "double" DESC"#
            )
            XCTAssertEqual(try request.fetchAll(db).map { $0["double"] as Int }, [60])
            // A filter on the annotation: counted with the selection that names it.
            let filtered = Player.annotated(with: Column("name").forKey("alt")).filter(Column("alt").detached != "Arthur")
            XCTAssertEqual(try filtered.fetchCount(db), 1)
            XCTAssertEqual(try filtered.fetchAll(db).map(\.name), ["Barbara"])
        }
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
