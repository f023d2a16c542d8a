import Ripple
import XCTest

/// `deleteAll` and `updateAll` of limited, ordered and grouped requests: the rows they
/// change (checked against the table's content), and the SQL they run.
final class BatchChangeTests: XCTestCase {
    private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var name: String
        var score: Int
    }

    private struct IgnoringPlayer: PersistableRecord {
        static let databaseTableName = "player"
        static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .abort, update: .ignore)
        func encode(to container: inout PersistenceContainer) {}
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull().unique()
                t.column("score", .integer).notNull()
            }
            for (id, name, score) in [(1, "Arthur", 10), (2, "Barbara", 30), (3, "Craig", 20), (4, "Diane", 40)] {
                try Player(id: Int64(id), name: name, score: score).insert(db)
            }
        }
        return dbQueue
    }

    /// The statements that `body` runs.
    private func statements(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
        var statements: [String] = []
        db.trace { statements.append("\($0)") }
        defer { db.trace(options: []) }
        try body()
        return statements
    }

    func testLimitedChangesChangeOnlyTheirRows() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var count = 0
            let updates = try statements(db) {
                count = try Player.order(Column("score").desc).limit(2).updateAll(db, Column("score").set(to: 0))
            }
            XCTAssertEqual(count, 2)
            XCTAssertEqual(updates.last, #"UPDATE "player" SET "score" = ? ORDER BY "score" DESC LIMIT 2"#)
            XCTAssertEqual(try Player.order(Column("id")).fetchAll(db).map(\.score), [10, 0, 20, 0])

            let deletes = try statements(db) {
                count = try Player.order(Column("name")).limit(1, offset: 1).reversed().deleteAll(db)
            }
            XCTAssertEqual(count, 1)
            XCTAssertEqual(deletes.last, #"DELETE FROM "player" ORDER BY "name" DESC LIMIT 1 OFFSET 1"#)
            XCTAssertEqual(try String.fetchAll(db, Player.select(Column("name")).order(Column("id"))), ["Arthur", "Barbara", "Diane"])
            // Without a limit, the order changes nothing and is not written.
            _ = try statements(db) { count = try Player.order(Column("name")).deleteAll(db) }
            XCTAssertEqual(count, 3)
            XCTAssertEqual(try Player.fetchCount(db), 0)
        }
    }

    func testLimitedChangesThatReturnRowsGoByKey() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var deleted: [Player] = []
            // RETURNING must come before ORDER BY and LIMIT: the rows go by key instead.
            let statements = try self.statements(db) {
                deleted = try Player.order(Column("score")).limit(2).deleteAndFetchAll(db)
            }
            XCTAssertEqual(
                statements.last,
                #"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" ORDER BY "score" LIMIT 2) RETURNING *"#)
            XCTAssertEqual(Set(deleted.map(\.name)), ["Arthur", "Craig"])
            XCTAssertEqual(try String.fetchAll(db, Player.select(Column("name")).order(Column("id"))), ["Barbara", "Diane"])
            let updated = try Player.order(Column("score").desc).limit(1).updateAndFetchAll(db, [Column("score").set(to: 1)])
            XCTAssertEqual(updated, [Player(id: 4, name: "Diane", score: 1)])
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id"), [30, 1])
        }
    }

    func testRequestsGroupedByAUniqueKeyChangeTheirRowsByKey() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.create(table: "passport") { t in
                t.column("countryCode", .text).notNull()
                t.column("citizenId", .integer).notNull()
                t.column("active", .boolean)
                t.primaryKey(["countryCode", "citizenId"])
            }
            try db.execute(sql: "INSERT INTO passport VALUES ('FR', 1, 0), ('US', 1, 0)")
            var count = 0
            var statements = try self.statements(db) {
                count = try Table("player").all().groupByPrimaryKey().having(max(Column("score")) > 15).updateAll(db, Column("score").set(to: 0))
            }
            XCTAssertEqual(count, 3)
            XCTAssertEqual(
                statements.last,
                #"UPDATE "player" SET "score" = ? WHERE "id" IN (SELECT "id" FROM "player" GROUP BY "id" HAVING MAX("score") > ?)"#)
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id"), [10, 0, 0, 0])
            // A table whose primary key is not its rowid is grouped by rowid.
            statements = try self.statements(db) {
                count = try Table("passport").all().groupByPrimaryKey().updateAll(db, Column("active").set(to: true))
            }
            XCTAssertEqual(count, 2)
            XCTAssertEqual(
                statements.last,
                #"UPDATE "passport" SET "active" = ? WHERE "rowid" IN (SELECT "rowid" FROM "passport" GROUP BY "rowid")"#)
            // A bijection of a unique column groups rows too.
            statements = try self.statements(db) {
                count = try Table("player").filter(Column("id") > 3).group(-Column("id")).deleteAll(db)
            }
            XCTAssertEqual(count, 1)
            XCTAssertEqual(statements.last, #"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" WHERE "id" > ? GROUP BY -"id")"#)
            count = try Table("player").all().group(Column("name")).deleteAll(db)
            XCTAssertEqual(count, 3)
            // Groups of other columns are not rows.
            let grouped = assertDatabaseError(.SQLITE_ERROR) {
                try Table("passport").all().group(Column("countryCode")).deleteAll(db)
            }
            XCTAssertEqual(
                grouped?.message,
                "a request grouped by other columns than a unique key of table passport can not be deleted or updated: its groups are not rows")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM passport"), 2)
            // Joins or not.
            try db.execute(sql: "INSERT INTO player VALUES (5, 'Eve', 1), (6, 'Fay', 1)")
            let joined = assertDatabaseError(.SQLITE_ERROR) {
                try Table("player").joining(required: Table("player").hasOne(Table("passport"), using: ForeignKey(["citizenId"])))
                    .group(Column("score")).deleteAll(db)
            }
            XCTAssertEqual(joined?.message?.hasSuffix("its groups are not rows"), true, "\(String(describing: joined))")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player"), 2)
        }
    }

    func testUpdatesFollowTheConflictPolicyOfTheRecordType() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var count = 0
            var statements = try self.statements(db) { count = try IgnoringPlayer.updateAll(db, Column("name").set(to: "Zoe")) }
            // One row takes the unique name; the others are ignored.
            XCTAssertEqual(count, 1)
            XCTAssertEqual(statements.last, #"UPDATE OR IGNORE "player" SET "name" = ?"#)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player WHERE name = 'Zoe'"), 1)
            statements = try self.statements(db) { _ = try IgnoringPlayer.all().updateAll(db, onConflict: .abort, Column("score").set(to: 2)) }
            XCTAssertEqual(statements.last, #"UPDATE "player" SET "score" = ?"#)
            statements = try self.statements(db) { _ = try Player.updateAll(db, onConflict: .replace, Column("score").set(to: 3)) }
            XCTAssertEqual(statements.last, #"UPDATE OR REPLACE "player" SET "score" = ?"#)
        }
    }
}
