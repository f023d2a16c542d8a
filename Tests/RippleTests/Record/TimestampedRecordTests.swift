import Foundation
import Ripple
import XCTest

final class TimestampedRecordTests: XCTestCase {
    func testTheInsertIsTimestamped() throws {
        var config = Configuration()
        let clock = LockedDate(Date(timeIntervalSince1970: 1_000_000))
        config.transactionClock = .custom { _ in clock.date }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, creationDate DATETIME NOT NULL, modificationDate DATETIME NOT NULL)"
            )
        }
        var player = TimestampedPlayer(id: nil, name: "Arthur")
        try dbQueue.write { try player.insert($0) }
        XCTAssertEqual(player.creationDate, Date(timeIntervalSince1970: 1_000_000))
        XCTAssertEqual(player.modificationDate, Date(timeIntervalSince1970: 1_000_000))
        clock.date = Date(timeIntervalSince1970: 2_000_000)
        try dbQueue.write { try player.updateWithTimestamp($0) }
        let fetched = try dbQueue.read { try TimestampedPlayer.fetchOne($0, sql: "SELECT * FROM player") }
        XCTAssertEqual(fetched?.creationDate, Date(timeIntervalSince1970: 1_000_000))
        XCTAssertEqual(fetched?.modificationDate, Date(timeIntervalSince1970: 2_000_000))
    }
}
