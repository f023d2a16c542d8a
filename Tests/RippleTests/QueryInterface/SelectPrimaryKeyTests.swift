import XCTest

@testable import Ripple

/// `selectPrimaryKey(as:)` and `selectID()`: the key columns of the table, read when the
/// request runs.
final class SelectPrimaryKeyTests: XCTestCase {
    private struct Citizenship: TableRecord, Identifiable {
        var id: String { "\(citizenId)-\(countryCode)" }
        var citizenId: Int64
        var countryCode: String
    }

    private struct Note: TableRecord, Identifiable {
        var id: Int64
    }

    func testSelectPrimaryKey() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 10), (2, 'Barbara', 20);
                    CREATE TABLE citizenship (citizenId INTEGER NOT NULL, countryCode TEXT NOT NULL, PRIMARY KEY (citizenId, countryCode));
                    INSERT INTO citizenship VALUES (1, 'FR'), (1, 'US');
                    CREATE TABLE note (content TEXT);
                    INSERT INTO note VALUES ('a'), ('b');
                    """)
            let ids: [Int64] = try Player.filter(Column("score") > 15).selectPrimaryKey().fetchAll(db)
            XCTAssertEqual(ids, [2])
            XCTAssertEqual(try Player.selectPrimaryKey(as: Int64.self).makeSQL(db).sql, #"SELECT "id" FROM "player""#)
            // A table without a primary key: its rowid.
            XCTAssertEqual(try Note.selectPrimaryKey(as: Int64.self).makeSQL(db).sql, #"SELECT "rowid" FROM "note""#)
            XCTAssertEqual(try Note.selectPrimaryKey(as: Int64.self).fetchAll(db), [1, 2])
            XCTAssertEqual(try Note.selectID().fetchAll(db), [1, 2])
            // A composite key: rows.
            let keys = try Citizenship.all().selectPrimaryKey(as: Row.self).fetchAll(db)
            XCTAssertEqual(keys, [["citizenId": 1, "countryCode": "FR"], ["citizenId": 1, "countryCode": "US"]])
            XCTAssertThrowsError(try Citizenship.all().selectID().fetchAll(db)) { error in
                XCTAssertTrue("\(error)".contains("selectID needs a primary key of one column"), "\(error)")
            }
            // The same from a `Table`.
            XCTAssertEqual(try Table("citizenship").selectPrimaryKey(as: Row.self).fetchAll(db), keys)
            XCTAssertEqual(try Table<Note>("note").selectID().fetchAll(db), [1, 2])
            XCTAssertEqual(try Table("player").selectPrimaryKey(as: Int64.self).makeSQL(db).sql, #"SELECT "id" FROM "player""#)
        }
    }
}
