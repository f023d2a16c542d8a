import Foundation
import Ripple
import XCTest

/// The README's quick start, as written there (a temporary file for its path, and the
/// first value of its observation instead of an endless loop): the front door stays true.
final class ReadmeQuickStartTests: XCTestCase {
    private struct Player: Codable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var name: String
        var score: Int
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    func testQuickStart() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ripple-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dbQueue = try DatabaseQueue(path: directory.appendingPathComponent("database.sqlite").path)

        let insertedID = try await dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            return player.id
        }
        XCTAssertEqual(insertedID, 1)

        let best = try await dbQueue.read { db in
            try Player.order(Column("score").desc).limit(10).fetchAll(db)
        }
        XCTAssertEqual(best.map(\.name), ["Arthur"])

        let observation = ValueObservation.tracking { db in
            try Player.order(Column("score").desc).limit(10).fetchAll(db)
        }
        var names: [[String]] = []
        for try await players in observation.values(in: dbQueue) {
            names.append(players.map(\.name))
            if names.count == 1 {
                try await dbQueue.write { db in
                    var player = Player(id: nil, name: "Barbara", score: 200)
                    try player.insert(db)
                }
            } else {
                break
            }
        }
        XCTAssertEqual(names, [["Arthur"], ["Barbara", "Arthur"]])
    }
}
