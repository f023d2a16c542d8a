import XCTest

@testable import Ripple

/// `Table`'s `id:` spellings, for `Identifiable` row types, against the table's content.
final class TableIdentifiableTests: XCTestCase {
    struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
        var id: Int64
        var name: String
    }

    func testTheIdSpellingsOfTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player VALUES (1, 'a'), (2, 'b'), (3, 'c')")
            let table = Table<Player>("player")
            XCTAssertEqual(try table.fetchOne(db, id: 2), Player(id: 2, name: "b"))
            XCTAssertNil(try table.fetchOne(db, id: 9))
            XCTAssertEqual(try table.filter(id: 1).fetchAll(db), [Player(id: 1, name: "a")])
            XCTAssertEqual(try table.fetchAll(db, ids: [1, 3]).map(\.id).sorted(), [1, 3])
            XCTAssertEqual(try table.filter(ids: [2, 3]).fetchCount(db), 2)
            XCTAssertTrue(try table.deleteOne(db, id: 1))
            XCTAssertFalse(try table.deleteOne(db, id: 1))
            XCTAssertEqual(try table.deleteAll(db, ids: [2, 9]), 1)
            XCTAssertEqual(try Int64.fetchAll(db, sql: "SELECT id FROM player"), [3])
        }
    }

    func testStoragesAreEqualWhenIdentical() {
        XCTAssertEqual(1.databaseValue.storage, .int64(1))
        XCTAssertNotEqual(1.databaseValue.storage, .double(1))
        XCTAssertEqual("a".databaseValue.storage, .string("a"))
        XCTAssertEqual(DatabaseValue.null.storage, .null)
        XCTAssertNotEqual(DatabaseValue.null.storage, .string(""))
    }
}
