// Compiled twice, in Swift 6 and Swift 5 (through a link) language modes: a record's
// selection with the rowid, as GRDB's tests write it.
import Foundation
import Ripple
import XCTest

private struct HiddenRowIDPlayer: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "player"
    static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }
    var rowid: Int64
    var score: Int
}

final class GRDBSpellingSelectionTests: XCTestCase {
    func testSelectionsAsGRDBWritesThem() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (score INTEGER NOT NULL); INSERT INTO player VALUES (5)")
            let player = try XCTUnwrap(HiddenRowIDPlayer.fetchOne(db))
            XCTAssertEqual(player.rowid, 1)
            XCTAssertEqual(player.score, 5)
        }
    }
}
