import Foundation
import XCTest

@testable import Ripple

final class FetchableRecordFormTests: XCTestCase {
    func testBothFormsOfInitRowReadTheSameRecordsAndThrowTheSameErrors() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
            XCTAssertEqual(
                try MemberwisePlayer.fetchAll(db, sql: "SELECT * FROM player ORDER BY id"),
                [MemberwisePlayer(id: 1, name: "Arthur"), MemberwisePlayer(id: 2, name: "Barbara")])
            XCTAssertEqual(try AssignedPlayer.fetchAll(db, sql: "SELECT * FROM player ORDER BY id").map(\.name), ["Arthur", "Barbara"])
            // A value that does not fit, in the second column read: both throw the same error.
            let sql = "SELECT id, NULL AS name FROM player"
            var messages: [String] = []
            for fetch in [{ _ = try MemberwisePlayer.fetchAll(db, sql: sql) }, { _ = try AssignedPlayer.fetchAll(db, sql: sql) }] {
                XCTAssertThrowsError(try fetch()) { error in
                    messages.append((error as? DatabaseError)?.message ?? "\(error)")
                }
            }
            XCTAssertEqual(messages.count, 2)
            XCTAssertEqual(messages.first, messages.last)
            XCTAssertTrue(messages.first?.contains("name") ?? false, messages.first ?? "")
        }
    }
}

/// `FetchableRecord`'s documented form: the columns read into the memberwise initializer.
private struct MemberwisePlayer: Equatable {
    var id: Int64
    var name: String
}

extension MemberwisePlayer: FetchableRecord {
    init(row: Row) throws {
        self.init(id: row["id"], name: row["name"])
    }
}

/// The same record, its fields assigned one by one.
private struct AssignedPlayer: Equatable, FetchableRecord {
    var id: Int64
    var name: String
    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
    }
}
