import XCTest

@testable import Ripple

/// `TableRecord.numberOfSelectedColumns(_:)`, as GRDB documents it.
final class NumberOfSelectedColumnsTests: XCTestCase {
    struct Player: TableRecord {}
    struct PartialPlayer: TableRecord {
        static let databaseTableName = "player"
        static let databaseSelection: [any SQLSelectable] = [Column("id"), Column("name")]
    }
    struct Summary: TableRecord {
        static let databaseTableName = "player"
        static let databaseSelection: [any SQLSelectable] = [AllColumns(), Column("score") * 2, .allColumns(excluding: ["score"])]
    }
    struct Literal: TableRecord {
        static let databaseTableName = "player"
        static let databaseSelection: [any SQLSelectable] = [SQL("id, name")]
    }

    func testColumnsAreCounted() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("score", .integer)
            }
            XCTAssertEqual(try Player.numberOfSelectedColumns(db), 3)
            XCTAssertEqual(try PartialPlayer.numberOfSelectedColumns(db), 2)
            XCTAssertEqual(try Summary.numberOfSelectedColumns(db), 6)
            XCTAssertThrowsError(try Literal.numberOfSelectedColumns(db)) { error in
                XCTAssertTrue((error as? DatabaseError)?.message?.contains("select one or several expressions instead") ?? false)
            }
        }
    }
}
