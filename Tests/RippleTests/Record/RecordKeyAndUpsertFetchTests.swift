import Foundation
import Ripple
import XCTest

/// Keys given as columns and values, stable orders, upsertAndFetch, updateChangesAndFetch,
/// and Decimal values.
final class RecordKeyAndUpsertFetchTests: XCTestCase {
    struct Player: Codable, FetchableRecord, PersistableRecord, Hashable {
        var id: Int64
        var email: String
        var score: Int
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("id", .integer).primaryKey()
                t.column("email", .text).notNull().unique()
                t.column("score", .integer).notNull()
            }
            try Player(id: 1, email: "a@x", score: 10).insert(db)
            try Player(id: 2, email: "b@x", score: 20).insert(db)
            try Player(id: 3, email: "c@x", score: 30).insert(db)
        }
        return dbQueue
    }

    func testFetchByKeyDictionaries() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            XCTAssertEqual(try Player.fetchAll(db, keys: [["id": 1], ["email": "c@x"]]).map(\.id).sorted(), [1, 3])
            XCTAssertEqual(try Player.fetchSet(db, keys: [["id": 2], ["id": nil]]).map(\.id), [2])
            XCTAssertEqual(try Player.fetchCursor(db, keys: [["email": "b@x"]]).map(\.id).next(), 2)
            XCTAssertEqual(try Player.fetchAll(db, keys: [[String: (any DatabaseValueConvertible)?]]()), [])
            XCTAssertNil(try Player.fetchOne(db, key: nil as [String: (any DatabaseValueConvertible)?]?))
            XCTAssertTrue(try Player.exists(db, key: ["email": "a@x"]))
            XCTAssertFalse(try Player.exists(db, key: ["email": "z@x"]))
            XCTAssertEqual(try Player.fetchSet(db, keys: [1, 3]).map(\.id).sorted(), [1, 3])
            XCTAssertEqual(try Player.fetchCursor(db, keys: [2]).map(\.email).next(), "b@x")
        }
    }

    func testDeleteByKeyDictionaries() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            XCTAssertEqual(try Player.deleteAll(db, keys: [[String: (any DatabaseValueConvertible)?]]()), 0)
            XCTAssertEqual(try Player.deleteAll(db, keys: [["id": 1], ["email": "b@x"]]), 2)
            XCTAssertFalse(try Player.deleteOne(db, key: ["email": "b@x"]))
            XCTAssertTrue(try Player.deleteOne(db, key: ["id": 3]))
            XCTAssertTrue(try Player.isEmpty(db))
        }
    }

    func testUnknownKeyColumnThrows() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            XCTAssertThrowsError(try Player.deleteOne(db, key: ["score": 10]))
        }
    }

    func testStableOrder() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET score = 0")
            XCTAssertEqual(try Player.all().withStableOrder().fetchAll(db).map(\.id), [1, 2, 3])
            XCTAssertEqual(try Player.order(Column("score")).withStableOrder().reversed().fetchAll(db).map(\.id), [3, 2, 1])
            let sql = try Player.order(Column("score").desc).withStableOrder().makeSQL(db).sql
            XCTAssertTrue(sql.hasSuffix(#"ORDER BY "score" DESC, "id""#), sql)
            // A view, without a primary key, is ordered by the positions of its columns.
            try db.execute(sql: "CREATE VIEW playerView AS SELECT email, score FROM player")
            let view = Table("playerView").all().withStableOrder()
            XCTAssertEqual(try view.makeSQL(db).sql, #"SELECT * FROM "playerView" ORDER BY 1, 2"#)
            XCTAssertEqual(try String.fetchAll(db, view.select(Column("email"))), ["a@x", "b@x", "c@x"])
            XCTAssertEqual(try String.fetchAll(db, view.select(Column("email")).reversed()), ["c@x", "b@x", "a@x"])
            // A common table expression has no primary key either.
            let cte = CommonTableExpression(named: "scores", sql: "SELECT score FROM player")
            XCTAssertEqual(try Int.fetchAll(db, cte.all().with(cte).withStableOrder().reversed()), [0, 0, 0])
        }
    }

    func testUpsertAndFetch() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let inserted = try Player(id: 4, email: "d@x", score: 40).upsertAndFetch(db)
            XCTAssertEqual(inserted, Player(id: 4, email: "d@x", score: 40))
            let updated = try Player(id: 1, email: "a@x", score: 99).upsertAndFetch(db)
            XCTAssertEqual(updated, Player(id: 1, email: "a@x", score: 99))
            // Conflict on the unique email, with nothing overwritten: the existing row.
            let kept = try Player(id: 9, email: "b@x", score: 0)
                .upsertAndFetch(db, onConflict: ["email"], updating: .noColumnUnlessSpecified)
            XCTAssertEqual(kept, Player(id: 2, email: "b@x", score: 20))
            XCTAssertEqual(try Player.fetchCount(db), 4)
        }
    }

    func testUpsertAndFetchCallsDidInsertWithRowID() throws {
        struct Item: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
            var id: Int64?
            var name: String
            mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
            try db.execute(sql: "INSERT INTO item VALUES (7, 'x')")
            var item = Item(id: nil, name: "x")
            let fetched = try item.upsertAndFetch(db, onConflict: ["name"])
            XCTAssertEqual(item.id, 7)
            XCTAssertEqual(fetched, Item(id: 7, name: "x"))
        }
    }

    func testInsertAndFetchSelectionFromConstant() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let player = Player(id: 5, email: "e@x", score: 50)
            let score = try player.insertAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0) }
            XCTAssertEqual(score, 50)
        }
    }

    func testSaveAndUpdateAndFetchWithSelection() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var player = Player(id: 1, email: "a@x", score: 15)
            let updated = try player.saveAndFetch(db, selection: [.allColumns]) { try Row.fetchOne($0) }
            XCTAssertEqual(updated, ["id": 1, "email": "a@x", "score": 15])
            player = Player(id: 8, email: "h@x", score: 80)
            let inserted = try player.saveAndFetch(db, selection: [Column("email")]) { try String.fetchOne($0) }
            XCTAssertEqual(inserted, "h@x")
            // Only the named column is written.
            player = Player(id: 2, email: "other@x", score: 21)
            let row = try player.updateAndFetch(db, columns: ["score"], selection: [.allColumns]) { try Row.fetchOne($0) }
            XCTAssertEqual(row, ["id": 2, "email": "b@x", "score": 21])
            let score = try player.updateAndFetch(db, columns: [Column("score")], selection: [Column("score")]) { try Int.fetchOne($0) }
            XCTAssertEqual(score, 21)
        }
    }

    func testUpdateAndFetchOfAMissingRowThrowsRecordNotFound() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let missing = Player(id: 9, email: "z@x", score: 0)
            // Whatever the fetch makes of a statement that returns no row.
            for update in [
                { _ = try missing.updateAndFetch(db, selection: [.allColumns]) { try Row.fetchOne($0) } },
                { _ = try missing.updateAndFetch(db, as: Player.self) },
                { _ = try missing.updateAndFetch(db) },
            ] {
                XCTAssertThrowsError(try update()) { error in
                    guard case let RecordError.recordNotFound(table, key) = error else { return XCTFail("\(error)") }
                    XCTAssertEqual(table, "player")
                    XCTAssertEqual(key, ["id": 9.databaseValue])
                }
            }
            var changed = missing
            XCTAssertThrowsError(try changed.updateChangesAndFetch(db, as: Player.self) { $0.score = 1 }) { error in
                XCTAssertEqual("\(error)", "Key not found in table player: [id:9]")
            }
            XCTAssertEqual(
                RecordError.recordNotFound(databaseTableName: "user", key: ["a": "x".databaseValue, "b": .null]).description,
                #"Key not found in table user: [a:"x" b:NULL]"#)
        }
    }

    func testUpdatesWriteTheTablesColumnsInItsOrderAndSpelling() throws {
        struct Spelled: PersistableRecord {
            static let databaseTableName = "player"
            var id: Int64
            func encode(to container: inout PersistenceContainer) {
                container["SCORE"] = 5
                container["Email"] = "q@x"
                container["ID"] = id
            }
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var statements: [String] = []
            db.trace { statements.append("\($0)") }
            try Spelled(id: 1).update(db)
            XCTAssertEqual(statements.last, #"UPDATE "player" SET "email"=?, "score"=? WHERE "id"=?"#)
            try Spelled(id: 2).update(db, columns: ["SCORE"])
            XCTAssertEqual(statements.last, #"UPDATE "player" SET "score"=? WHERE "id"=?"#)
            db.trace(options: [])
            XCTAssertEqual(try Player.fetchAll(db, keys: [1, 2]), [Player(id: 1, email: "q@x", score: 5), Player(id: 2, email: "b@x", score: 5)])
        }
    }

    func testSaveAndFetchTriesTheUpdateThenInserts() throws {
        // As GRDB: an UPDATE ... RETURNING, then an INSERT ... RETURNING when it found no
        // row, with the callbacks of both; no query of the row's existence.
        final class Calls: @unchecked Sendable {  // used on the database's queue only
            var names: [String] = []
        }
        struct Logged: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "player"
            nonisolated(unsafe) static var calls: Calls?
            var id: Int64
            var email: String
            var score: Int
            func willUpdate(_ db: Database, columns: Set<String>) throws { Self.calls?.names.append("willUpdate") }
            func didUpdate(_ updated: PersistenceSuccess) { Self.calls?.names.append("didUpdate") }
            func willInsert(_ db: Database) throws { Self.calls?.names.append("willInsert") }
            func didInsert(_ inserted: InsertionSuccess) { Self.calls?.names.append("didInsert") }
            func willSave(_ db: Database) throws { Self.calls?.names.append("willSave") }
            func didSave(_ saved: PersistenceSuccess) { Self.calls?.names.append("didSave") }
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let calls = Calls()
            Logged.calls = calls
            defer { Logged.calls = nil }
            var statements: [String] = []
            db.trace { if !"\($0)".hasPrefix("PRAGMA") { statements.append("\($0)") } }  // not the schema's
            let inserted = try Logged(id: 9, email: "i@x", score: 90).saveAndFetch(db)
            XCTAssertEqual(inserted.score, 90)
            XCTAssertEqual(
                statements,
                [
                    #"UPDATE "player" SET "email"=?, "score"=? WHERE "id"=? RETURNING *"#,
                    #"INSERT INTO "player" ("id", "email", "score") VALUES (?,?,?) RETURNING *"#,
                ])
            XCTAssertEqual(calls.names, ["willSave", "willUpdate", "willInsert", "didInsert", "didSave"])
            statements = []
            calls.names = []
            let score = try Logged(id: 9, email: "i@x", score: 91).saveAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0) }
            XCTAssertEqual(score, 91)
            XCTAssertEqual(statements, [#"UPDATE "player" SET "email"=?, "score"=? WHERE "id"=? RETURNING "score""#])
            XCTAssertEqual(calls.names, ["willSave", "willUpdate", "didUpdate", "didSave"])
            db.trace(options: [])
        }
    }

    func testSaveInsertsOnlyWhenItsOwnRowIsNotFound() throws {
        // A callback's "not found" for another record is its error, not a reason to insert.
        struct Guarded: Codable, PersistableRecord, FetchableRecord {
            static let databaseTableName = "player"
            var id: Int64
            var email: String
            var score: Int
            func willUpdate(_ db: Database, columns: Set<String>) throws {
                throw RecordError.recordNotFound(databaseTableName: "team", key: ["id": 1.databaseValue])
            }
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            for save in [
                { try Guarded(id: 9, email: "g@x", score: 0).save(db) }, { _ = try Guarded(id: 9, email: "g@x", score: 0).saveAndFetch(db) },
            ] {
                XCTAssertThrowsError(try save()) { error in
                    guard case RecordError.recordNotFound(databaseTableName: "team", key: _) = error else { return XCTFail("\(error)") }
                }
            }
            XCTAssertEqual(try Player.fetchCount(db), 3)
        }
    }

    func testARecordThatStoresNoKeyMatchesNoRow() throws {
        // As GRDB: its key is NULL. Update throws recordNotFound, delete deletes nothing,
        // save inserts.
        struct Note: Codable, PersistableRecord {
            var text: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE note(text)")
            let note = Note(text: "a")
            try note.insert(db)
            XCTAssertThrowsError(try note.update(db)) { error in
                guard case RecordError.recordNotFound(databaseTableName: "note", key: let key) = error else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(key, ["rowid": .null])
            }
            XCTAssertFalse(try note.delete(db))
            XCTAssertFalse(try note.exists(db))
            try note.save(db)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note"), 2)
        }
    }

    func testUpsertAndFetchWithAssignments() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var statements: [String] = []
            db.trace { if !"\($0)".hasPrefix("PRAGMA") { statements.append("\($0)") } }  // not the schema's
            // Every column but 'score'.
            let kept = try Player(id: 1, email: "new@x", score: 99).upsertAndFetch(db) { _ in [Column("score").noOverwrite] }
            XCTAssertEqual(kept, Player(id: 1, email: "new@x", score: 10))
            XCTAssertEqual(
                statements.last,
                #"INSERT INTO "player" ("id", "email", "score") VALUES (?,?,?) ON CONFLICT DO UPDATE SET "email" = "excluded"."email" RETURNING *, "rowid""#
            )
            // Only what is assigned, with bound values and the excluded row.
            let bumped = try Player(id: 5, email: "b@x", score: 7).upsertAndFetch(
                db, onConflict: ["email"], updating: .noColumnUnlessSpecified
            ) { excluded in
                [Column("score") += excluded[Column("score")], Column("id").noOverwrite]
            }
            XCTAssertEqual(bumped, Player(id: 2, email: "b@x", score: 27))
            XCTAssertEqual(
                statements.last,
                #"INSERT INTO "player" ("id", "email", "score") VALUES (?,?,?) ON CONFLICT("email") DO UPDATE SET "score" = "score" + "excluded"."score" RETURNING *, "rowid""#
            )
            let set = try Player(id: 3, email: "c@x", score: 0).upsertAndFetch(db, as: Player.self, updating: .noColumnUnlessSpecified) { _ in
                [Column("score").set(to: 300)]
            }
            XCTAssertEqual(set, Player(id: 3, email: "c@x", score: 300))
            // Nothing assigned: the row comes back as it is.
            let same = try Player(id: 3, email: "c@x", score: 0).upsertAndFetch(db, updating: .noColumnUnlessSpecified)
            XCTAssertEqual(same, Player(id: 3, email: "c@x", score: 300))
            db.trace(options: [])
            // An assignment that leaves its column is left out of updateAll, as in GRDB.
            XCTAssertEqual(try Player.updateAll(db, [Column("score").noOverwrite]), 0)
            XCTAssertEqual(try Player.updateAll(db, [Column("score").noOverwrite, Column("score").set(to: 1)]), 3)
        }
    }

    func testUpdateChangesAndFetch() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var player = try Player.find(db, key: 1)
            XCTAssertNil(try player.updateChangesAndFetch(db) { $0.score = 10 })
            let updated = try player.updateChangesAndFetch(db) { $0.score = 11 }
            XCTAssertEqual(updated, Player(id: 1, email: "a@x", score: 11))
            XCTAssertEqual(player.score, 11)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT score FROM player WHERE id = 1"), 11)
        }
    }

    func testDecimal() throws {
        XCTAssertEqual(Decimal(string: "0.5")!.databaseValue, "0.5".databaseValue)
        XCTAssertEqual(Decimal(string: "-9223372036854775808")!.databaseValue, "-9223372036854775808".databaseValue)
        XCTAssertEqual(Decimal.fromDatabaseValue(3.databaseValue), 3)
        XCTAssertEqual(Decimal.fromDatabaseValue(0.25.databaseValue), Decimal(string: "0.25"))
        XCTAssertNil(Decimal.fromDatabaseValue("foo".databaseValue))
        XCTAssertNil(Decimal.fromDatabaseValue(.null))
        let dbQueue = try DatabaseQueue()
        let value = Decimal(string: "12345678901234567890.123")!
        XCTAssertEqual(try dbQueue.read { try Decimal.fetchOne($0, sql: "SELECT ?", arguments: [value]) }, value)
    }
}
