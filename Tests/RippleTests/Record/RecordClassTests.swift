import Foundation
import XCTest

@testable import Ripple

/// The `Record` base class, as GRDB apps subclass it.
final class RecordClassTests: XCTestCase {
    final class Person: Record {
        var id: Int64?
        var name: String
        var age: Int?
        var events: [String] = []

        init(id: Int64? = nil, name: String, age: Int? = nil) {
            self.id = id
            self.name = name
            self.age = age
            super.init()
        }

        override class var databaseTableName: String { "person" }

        required init(row: Row) throws {
            id = row["id"]
            name = row["name"]
            age = row["age"]
            try super.init(row: row)
        }

        override func encode(to container: inout PersistenceContainer) throws {
            container["id"] = id
            container["name"] = name
            container["age"] = age
        }

        override func willInsert(_ db: Database) throws {
            try super.willInsert(db)
            events.append("willInsert")
        }

        override func didInsert(_ inserted: InsertionSuccess) {
            super.didInsert(inserted)
            id = inserted.rowID
            events.append("didInsert")
        }

        override func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
            events.append("aroundUpdate \(columns.sorted())")
            try super.aroundUpdate(db, columns: columns, update: update)
        }
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INT)")
        }
        return dbQueue
    }

    func testInsertFetchAndCallbacks() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let person = Person(name: "Arthur", age: 41)
            XCTAssertTrue(person.hasDatabaseChanges, "never saved")
            try person.insert(db)
            XCTAssertEqual(person.id, 1)
            XCTAssertEqual(person.events, ["willInsert", "didInsert"])
            XCTAssertFalse(person.hasDatabaseChanges, "just inserted")

            let fetched = try XCTUnwrap(Person.fetchOne(db, key: 1))
            XCTAssertEqual(fetched.name, "Arthur")
            XCTAssertFalse(fetched.hasDatabaseChanges, "just fetched")
            XCTAssertEqual(try Person.fetchAll(db).map(\.name), ["Arthur"])
            XCTAssertEqual(try Person.fetchAll(db, sql: "SELECT * FROM person").map(\.age), [41])
        }
    }

    func testChangesAndUpdateChanges() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in try Person(name: "Arthur", age: 41).insert(db) }
        let recorder = SQLRecorder()
        try dbQueue.write { db in
            let person = try XCTUnwrap(Person.fetchOne(db, key: 1))
            XCTAssertFalse(try person.updateChanges(db), "no change, no statement")
            person.age = 42
            XCTAssertTrue(person.hasDatabaseChanges)
            XCTAssertEqual(try person.databaseChanges, ["age": 41.databaseValue])
            db.record(into: recorder)
            XCTAssertTrue(try person.updateChanges(db))
            XCTAssertFalse(person.hasDatabaseChanges, "saved")
            XCTAssertEqual(person.events, ["aroundUpdate [\"age\"]"])
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT age FROM person"), 42)
        }
        let updates = recorder.statements.filter { $0.hasPrefix("UPDATE") }
        XCTAssertEqual(updates.count, 1)
        XCTAssertFalse(updates.first?.contains("name") ?? true, "only the changed column: \(updates)")
    }

    func testSaveDeleteAndUnknownValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let person = Person(name: "Barbara")
            try person.save(db)  // inserts
            XCTAssertEqual(person.id, 1)
            person.name = "Barbie"
            try person.save(db)  // updates
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM person"), ["Barbie"])
            XCTAssertTrue(try person.delete(db))
            XCTAssertTrue(person.hasDatabaseChanges, "deleted: every value is a change")
            XCTAssertEqual(try person.databaseChanges["name"], .some(nil), "former value unknown")

            // A record built from a row the app made knows no stored values.
            let made = try Person(row: ["id": 7, "name": "Craig", "age": nil])
            XCTAssertTrue(made.hasDatabaseChanges)
            // One from a fetched row, copied or not, does.
            let row = try XCTUnwrap(Row.fetchOne(db, sql: "SELECT 7 AS id, 'Craig' AS name, NULL AS age"))
            XCTAssertFalse(try Person(row: row).hasDatabaseChanges)
        }
    }
}
