// Compiled twice, in Swift 6 and Swift 5 (through a link) language modes: requests that
// update or delete and fetch, as GRDB's tests write them.
import Foundation
import Ripple
import XCTest

private struct Player: Codable, FetchableRecord, PersistableRecord, Hashable, Identifiable {
    var id: Int64
    var score: Int
    enum Columns {
        static let score = Column(CodingKeys.score)
    }
}

final class GRDBSpellingRequestReturningTests: XCTestCase {
    func testRequestsAsGRDBWritesThem() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("id", .integer).primaryKey()
                t.column("score", .integer).notNull()
            }
            try Player(id: 1, score: 10).insert(db)
            try Player(id: 2, score: 20).insert(db)
            let request = Player.filter(Player.Columns.score > 15)
            let cursor = try request.updateAndFetchCursor(db, [Player.Columns.score += 100])
            XCTAssertEqual(try cursor.next()?.score, 120)
            let statement = try Player.all().updateAndFetchStatement(db) {
                [$0.score.set(to: 0)]
            } select: {
                [$0.score]
            }
            XCTAssertEqual(try Int.fetchAll(statement), [0, 0])
            XCTAssertEqual(try Player.all().deleteAndFetchSet(db).count, 2)
        }
    }
}
