import Foundation
import Ripple
import XCTest

/// The persistence callbacks, in GRDB's order, and the record that GRDB's documentation
/// timestamps with them.
final class PersistenceCallbackTests: XCTestCase {
    /// Records each callback's name in `events` (a class, so that non-mutating callbacks
    /// can record too).
    final class Events: @unchecked Sendable {  // used on one thread at a time
        var names: [String] = []
    }

    struct Player: Codable, MutablePersistableRecord {
        var id: Int64?
        var name: String
        var events: Events? = nil
        enum CodingKeys: String, CodingKey { case id, name }

        func willSave(_ db: Database) throws { events?.names.append("willSave") }
        func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
            events?.names.append("aroundSave >")
            _ = try save()
            events?.names.append("aroundSave <")
        }
        func didSave(_ saved: PersistenceSuccess) { events?.names.append("didSave") }
        mutating func willInsert(_ db: Database) throws { events?.names.append("willInsert") }
        func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
            events?.names.append("aroundInsert >")
            let inserted = try insert()
            events?.names.append("aroundInsert < \(inserted.rowID)")
        }
        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
            events?.names.append("didInsert")
        }
        func willUpdate(_ db: Database, columns: Set<String>) throws { events?.names.append("willUpdate \(columns.sorted())") }
        func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
            events?.names.append("aroundUpdate >")
            _ = try update()
            events?.names.append("aroundUpdate <")
        }
        func didUpdate(_ updated: PersistenceSuccess) { events?.names.append("didUpdate") }
        func willDelete(_ db: Database) throws { events?.names.append("willDelete") }
        func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
            events?.names.append("aroundDelete >")
            _ = try delete()
            events?.names.append("aroundDelete <")
        }
        func didDelete(deleted: Bool) { events?.names.append("didDelete \(deleted)") }
    }

    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)") }
        return dbQueue
    }

    func testTheOrderOfTheCallbacks() throws {
        let dbQueue = try makeQueue()
        let events = Events()
        var player = Player(id: nil, name: "Arthur", events: events)
        try dbQueue.write { db in
            try player.insert(db)
            XCTAssertEqual(
                events.names,
                [
                    "willSave", "aroundSave >", "willInsert", "aroundInsert >", "aroundInsert < 1", "didInsert",
                    "aroundSave <", "didSave",
                ])
            XCTAssertEqual(player.id, 1)
            events.names = []
            player.name = "Barbara"
            try player.update(db)
            XCTAssertEqual(
                events.names,
                [
                    "willSave", "aroundSave >", "willUpdate [\"id\", \"name\"]", "aroundUpdate >", "aroundUpdate <", "didUpdate",
                    "aroundSave <", "didSave",
                ])
            events.names = []
            try player.update(db, columns: ["name"])
            XCTAssertEqual(events.names[2], "willUpdate [\"name\"]")
            events.names = []
            try player.save(db)
            XCTAssertEqual(
                events.names,
                [
                    "willSave", "aroundSave >", "willUpdate [\"id\", \"name\"]", "aroundUpdate >", "aroundUpdate <", "didUpdate",
                    "aroundSave <", "didSave",
                ], "a save that updates")
            events.names = []
            XCTAssertTrue(try player.delete(db))
            XCTAssertEqual(events.names, ["willDelete", "aroundDelete >", "aroundDelete <", "didDelete true"])
            events.names = []
            try player.save(db)
            XCTAssertEqual(
                events.names,
                [
                    "willSave", "aroundSave >", "willUpdate [\"id\", \"name\"]", "aroundUpdate >",
                    "willInsert", "aroundInsert >", "aroundInsert < 1", "didInsert",
                    "aroundSave <", "didSave",
                ], "a save that inserts, as GRDB: the update found no row, and the insert follows")
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM player"), ["Barbara"])
        }
    }

    /// A callback that throws stops the statement.
    func testAThrowingCallbackPreventsTheStatement() throws {
        struct Refused: Error {}
        struct Guarded: Codable, PersistableRecord {
            static let databaseTableName = "player"
            var id: Int64
            var name: String
            func willInsert(_ db: Database) throws { if name.isEmpty { throw Refused() } }
        }
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            XCTAssertThrowsError(try Guarded(id: 1, name: "").insert(db)) { XCTAssertTrue($0 is Refused) }
            try Guarded(id: 2, name: "Craig").insert(db)
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT id FROM player"), [2])
        }
    }

    /// An `around` callback that does not call its function is an error (GRDB stops the
    /// process).
    func testAnAroundCallbackThatDoesNotCallItsFunctionThrows() throws {
        struct Lazy: Codable, PersistableRecord {
            static let databaseTableName = "player"
            var id: Int64
            var name: String
            func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {}
        }
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            let error = try XCTUnwrap(assertDatabaseError(.SQLITE_MISUSE) { try Lazy(id: 1, name: "Arthur").insert(db) })
            XCTAssertTrue(error.message?.contains("aroundSave") == true, error.message ?? "")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM player"), 0)
        }
    }
}

// MARK: - GRDB's timestamped record

/// As GRDB's documentation writes it ("Record Timestamps and Transaction Date").
protocol TimestampedRecord: MutablePersistableRecord {
    var creationDate: Date? { get set }
    var modificationDate: Date? { get set }
}

extension TimestampedRecord {
    mutating func willInsert(_ db: Database) throws {
        if creationDate == nil {
            creationDate = try db.transactionDate
        }
        modificationDate = try db.transactionDate
    }

    mutating func updateWithTimestamp(_ db: Database) throws {
        modificationDate = try db.transactionDate
        try update(db)
    }
}

struct TimestampedPlayer: Codable, FetchableRecord, MutablePersistableRecord, TimestampedRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String
    var creationDate: Date?
    var modificationDate: Date?
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

final class LockedDate: @unchecked Sendable {  // `_date` behind `lock`
    private let lock = NSLock()
    private var _date: Date
    init(_ date: Date) { _date = date }
    var date: Date {
        get { lock.withLock { _date } }
        set { lock.withLock { _date = newValue } }
    }
}
