import Foundation
import XCTest

@testable import Ripple

/// The record and request API as GRDB 7 apps write it.
final class AppRecordAPITests: XCTestCase {
    struct Player: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
        var id: Int64?
        var name: String
        var score: Int
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

        enum Columns {
            static let name = Column(CodingKeys.name)
            static let score = Column(CodingKeys.score)
        }
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }
        return dbQueue
    }

    func testColumnsFromCodingKeys() {
        XCTAssertEqual(Player.Columns.name.name, "name")
        XCTAssertEqual(Player.Columns.score.name, "score")
    }

    func testInsertedSavedAndKeys() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            XCTAssertTrue(try Player.isEmpty(db))
            let arthur = try Player(id: nil, name: "Arthur", score: 100).inserted(db)
            XCTAssertEqual(arthur.id, 1)
            var barbara = try Player(id: nil, name: "Barbara", score: 50).saved(db)
            XCTAssertEqual(barbara.id, 2)
            barbara.score = 75
            let saved = try barbara.saved(db)
            XCTAssertEqual(saved, barbara)
            XCTAssertEqual(try Player.fetchCount(db), 2)
            XCTAssertFalse(try Player.isEmpty(db))
            XCTAssertTrue(try Player.filter(Player.Columns.score > 1000).isEmpty(db))
            XCTAssertTrue(try Player.exists(db, key: 1))
            XCTAssertEqual(try Player.deleteAll(db, keys: [1, 3]), 1)
            XCTAssertFalse(try Player.exists(db, key: 1))
            XCTAssertTrue(try Player.deleteOne(db, key: 2))
            XCTAssertTrue(try Player.isEmpty(db))
        }
    }

    func testSQLFiltersAndOrders() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            for (name, score) in [("Arthur", 100), ("Barbara", 300), ("Craig", 200)] {
                _ = try Player(id: nil, name: name, score: score).inserted(db)
            }
            let names = try Player.filter(sql: "score >= ?", arguments: [200]).order(sql: "score DESC").fetchAll(db).map(\.name)
            XCTAssertEqual(names, ["Barbara", "Craig"])
            XCTAssertEqual(try Player.order(sql: "name").fetchAll(db).map(\.name), ["Arthur", "Barbara", "Craig"])
            XCTAssertEqual(try Player.order(Player.Columns.score.desc).fetchOne(db)?.name, "Barbara")
        }
    }

    func testCollating() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            for name in ["arthur", "Barbara", "Craig"] { _ = try Player(id: nil, name: name, score: 0).inserted(db) }
            XCTAssertEqual(try Player.filter(Player.Columns.name.collating(.nocase) == "ARTHUR").fetchCount(db), 1)
            XCTAssertEqual(try Player.filter(Player.Columns.name == "ARTHUR").fetchCount(db), 0)
            XCTAssertEqual(try Player.order(Player.Columns.name.collating(.nocase)).fetchAll(db).map(\.name), ["arthur", "Barbara", "Craig"])
            XCTAssertEqual(try Player.order(Player.Columns.name).fetchAll(db).map(\.name), ["Barbara", "Craig", "arthur"])
            XCTAssertEqual(try Player.filter(Player.Columns.name.collating(.rtrim) == "Craig  ").fetchCount(db), 1)
        }
    }

    func testUpdateChangesWritesOnlyWhatChanged() throws {
        let dbQueue = try makeDatabase()
        let recorder = SQLRecorder()
        try dbQueue.write { db in
            var player = try Player(id: nil, name: "Arthur", score: 100).inserted(db)
            db.record(into: recorder)
            XCTAssertFalse(try player.updateChanges(db) { $0.score = 100 })
            XCTAssertTrue(try player.updateChanges(db) { $0.score = 150 })
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT score FROM player"), 150)
            XCTAssertEqual(player.score, 150)
        }
        let updates = recorder.statements.filter { $0.hasPrefix("UPDATE") }
        XCTAssertEqual(updates.count, 1, "\(recorder.statements)")
        XCTAssertTrue(updates.first?.contains("score") ?? false)
        XCTAssertFalse(updates.first?.contains("name") ?? true, "\(updates)")
    }

    struct Tag: Codable, PersistableRecord, FetchableRecord, Equatable {
        static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace)
        var id: Int64
        var label: String
    }

    func testConflictPolicyAndOnConflict() throws {
        let dbQueue = try DatabaseQueue()
        let recorder = SQLRecorder()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE)")
            try Tag(id: 1, label: "a").insert(db)
            try Tag(id: 1, label: "b").insert(db)  // the type's policy: replace
            XCTAssertEqual(try Tag.fetchAll(db), [Tag(id: 1, label: "b")])
            XCTAssertThrowsError(try Tag(id: 1, label: "c").insert(db, onConflict: .abort)) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_CONSTRAINT)
            }
            try Tag(id: 1, label: "d").insert(db, onConflict: .ignore)
            XCTAssertEqual(try Tag.fetchAll(db), [Tag(id: 1, label: "b")])
            try Tag(id: 2, label: "x").insert(db)
            db.record(into: recorder)
            // Taking the label of row 1 replaces that row.
            try Tag(id: 2, label: "b").update(db, onConflict: .replace)
            XCTAssertEqual(try Tag.fetchAll(db), [Tag(id: 2, label: "b")])
            let saved = Tag(id: 3, label: "b")
            try saved.save(db, onConflict: .replace)
            XCTAssertEqual(try Tag.fetchAll(db), [Tag(id: 3, label: "b")])
        }
        XCTAssertTrue(recorder.statements.contains { $0.hasPrefix("UPDATE OR REPLACE") }, "\(recorder.statements)")
        XCTAssertTrue(recorder.statements.contains { $0.hasPrefix("INSERT OR REPLACE") }, "\(recorder.statements)")
    }

    struct PartialPlayer: Codable, MutablePersistableRecord {
        static let databaseTableName = "player"
        var id: Int64?
        var name: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct FullPlayer: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "player"
        var id: Int64
        var name: String
        var score: Int
    }

    /// RETURNING: what the database stored, defaults included.
    func testInsertAndFetchAndFriends() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT NOT NULL DEFAULT 42)")
            var partial = PartialPlayer(id: nil, name: "Arthur")
            let full = try partial.insertAndFetch(db, as: FullPlayer.self)
            XCTAssertEqual(full, FullPlayer(id: 1, name: "Arthur", score: 42))
            XCTAssertEqual(partial.id, 1, "didInsert was called")
            var other = PartialPlayer(id: nil, name: "Barbara")
            let score = try other.insertAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0)! }
            XCTAssertEqual(score, 42)
            XCTAssertEqual(other.id, 2)

            let inserted = try FullPlayer(id: 3, name: "Craig", score: 1).insertAndFetch(db)
            XCTAssertEqual(inserted, FullPlayer(id: 3, name: "Craig", score: 1))
            let updated = try FullPlayer(id: 3, name: "Craig", score: 2).updateAndFetch(db)
            XCTAssertEqual(updated.score, 2)
            XCTAssertThrowsError(try FullPlayer(id: 9, name: "Nobody", score: 0).updateAndFetch(db)) { error in
                guard case RecordError.recordNotFound? = error as? RecordError else { return XCTFail("\(error)") }
            }
            XCTAssertEqual(try FullPlayer(id: 3, name: "Craig", score: 5).saveAndFetch(db).score, 5, "an update")
            XCTAssertEqual(try FullPlayer(id: 4, name: "Dan", score: 6).saveAndFetch(db).name, "Dan", "an insert")
            XCTAssertEqual(try FullPlayer.fetchCount(db), 4)
            XCTAssertEqual(try DatabaseValue.fetchOne(db, sql: "SELECT 'x'")?.storage.value as? String, "x")
            XCTAssertNil(DatabaseValue.null.storage.value)
        }
    }

    struct OnlyID: Codable, PersistableRecord {
        static let databaseTableName = "onlyID"
        var id: Int64
    }

    /// A record with nothing but its key still runs an UPDATE (`SET id = id`), as in GRDB:
    /// observers hear of it, and a missing row throws.
    func testUpdateOfARecordMadeOfItsKey() throws {
        let dbQueue = try DatabaseQueue()
        let recorder = SQLRecorder()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE onlyID (id INTEGER PRIMARY KEY)")
            try OnlyID(id: 1).insert(db)
            db.record(into: recorder)
            try OnlyID(id: 1).update(db)
            XCTAssertEqual(db.changesCount, 1)
            XCTAssertThrowsError(try OnlyID(id: 2).update(db)) { error in
                guard case RecordError.recordNotFound? = error as? RecordError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertTrue(recorder.statements.contains { $0.hasPrefix(#"UPDATE "onlyID" SET "id"="#) }, "\(recorder.statements)")
    }

    func testRecordComparison() throws {
        var player = Player(id: 1, name: "Arthur", score: 100)
        let old = player
        XCTAssertTrue(player.databaseEquals(old))
        XCTAssertEqual(try player.databaseDictionary, ["id": 1.databaseValue, "name": "Arthur".databaseValue, "score": 100.databaseValue])
        let changes = try player.databaseChanges {
            $0.score = 150
            $0.name = "Arthur"
        }
        XCTAssertEqual(changes, ["score": 100.databaseValue], "former values of the changed columns only")
        XCTAssertEqual(try player.databaseChanges(from: old), ["score": 100.databaseValue])
        XCTAssertFalse(player.databaseEquals(old))

        struct NameOnly: EncodableRecord {
            func encode(to container: inout PersistenceContainer) { container["name"] = "Barbara" }
        }
        XCTAssertEqual(
            try player.databaseChanges(from: NameOnly()),
            ["id": .null, "name": "Barbara".databaseValue, "score": .null],
            "columns the other record does not store compare with NULL")

        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var stored = try Player(id: nil, name: "Craig", score: 10).inserted(db)
            let before = stored
            XCTAssertFalse(try stored.updateChanges(db, from: before))
            stored.score = 20
            XCTAssertTrue(try stored.updateChanges(db, from: before))
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT score FROM player"), 20)
        }
    }

    func testFetchingMethodsPassedAsFunctions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in _ = try Player(id: nil, name: "Arthur", score: 100).inserted(db) }
        let one: Player? = try dbQueue.read(Player.fetchOne)
        let all: [Player] = try dbQueue.read(Player.fetchAll)
        let count: Int = try dbQueue.read(Player.fetchCount)
        XCTAssertEqual(one?.name, "Arthur")
        XCTAssertEqual(all.count, 1)
        XCTAssertEqual(count, 1)
    }

    func testClosuresOfTheColumnsEnum() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            for (name, score) in [("Arthur", 100), ("Barbara", 300), ("Craig", 300)] {
                _ = try Player(id: nil, name: name, score: score).inserted(db)
            }
            let name = "Barbara"
            XCTAssertEqual(try Player.filter { $0.name == name }.fetchOne(db)?.score, 300)
            XCTAssertEqual(try Player.filter { $0.score > 150 }.order { $0.name.desc }.fetchAll(db).map(\.name), ["Craig", "Barbara"])
            XCTAssertEqual(try Player.order { [$0.score.desc, $0.name] }.fetchAll(db).map(\.name), ["Barbara", "Craig", "Arthur"])
            XCTAssertEqual(try String.fetchAll(db, Player.select { [$0.name] }.order { $0.score }.asRequest(of: String.self)).first, "Arthur")
        }
    }

    func testReversingAnSQLOrderingIsFatal() throws {
        try assertFatalError(inScenario: "RippleTests.AppRecordAPIFatalErrorScenarios/testReverseSQLOrdering", "can not be reversed")
    }
}
