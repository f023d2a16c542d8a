import Foundation
import Ripple
import XCTest

private struct Captain: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "captain"
    var id: String
    var name: String
}

private struct CaptainKey: DatabaseSchemaSource {
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        view.name == "captain" ? ["id"] : nil
    }
}

/// Records on a view whose `INSTEAD OF` triggers change a table: SQLite does not count
/// those changes in `sqlite3_changes()`, and the updates and deletes of the records tell
/// what the triggers changed, as GRDB's do.
final class RecordOnViewTests: XCTestCase {
    private func makeDatabase() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.schemaSource = CaptainKey()
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player(id TEXT PRIMARY KEY, name TEXT NOT NULL, isCaptain BOOLEAN NOT NULL);
                    CREATE VIEW captain AS SELECT id, name FROM player WHERE isCaptain;
                    CREATE TRIGGER captain_insert INSTEAD OF INSERT ON captain BEGIN
                        INSERT INTO player(id, name, isCaptain) VALUES (NEW.id, NEW.name, 1);
                    END;
                    CREATE TRIGGER captain_update INSTEAD OF UPDATE ON captain BEGIN
                        UPDATE player SET id = NEW.id, name = NEW.name WHERE id = OLD.id;
                    END;
                    CREATE TRIGGER captain_delete INSTEAD OF DELETE ON captain BEGIN
                        UPDATE player SET isCaptain = 0 WHERE id = OLD.id;
                    END;
                    INSERT INTO player VALUES ('arthur', 'Arthur', 0);
                    """)
        }
        return dbQueue
    }

    func testUpdateAndDeleteOfRecordsOnAView() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            var bob = Captain(id: "bob", name: "Bob")
            try bob.insert(db)
            let modified = try bob.updateChanges(db) { $0.name = "Bobby" }
            XCTAssertTrue(modified)
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 'bob'"), "Bobby")
            XCTAssertTrue(try bob.delete(db))
            XCTAssertEqual(try Bool.fetchOne(db, sql: "SELECT isCaptain FROM player WHERE id = 'bob'"), false)
            // Nothing to update or delete any more.
            XCTAssertThrowsError(try bob.update(db))
            XCTAssertFalse(try bob.delete(db))
            try Captain(id: "carol", name: "Carol").insert(db)
            XCTAssertEqual(try Captain.filter(Column("name") == "Carol").updateAll(db, Column("name").set(to: "Caroline")), 1)
            XCTAssertEqual(try Captain.deleteAll(db), 1)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player WHERE isCaptain"), 0)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player"), 3)
        }
    }
}
