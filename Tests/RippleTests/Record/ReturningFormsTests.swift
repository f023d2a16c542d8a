import XCTest

@testable import Ripple

/// `insertAndFetch(_:fetch:select:)` and `saveAndFetch(_:as:)`, as GRDB spells them.
final class ReturningFormsTests: XCTestCase {
    /// A record that writes some columns of the player table.
    private struct PartialPlayer: Encodable, MutablePersistableRecord {
        static let databaseTableName = "player"
        enum Columns {
            static let score = Column("score")
        }
        var id: Int64?
        var name: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    /// The same, not mutating.
    private struct FixedPlayer: Encodable, PersistableRecord {
        static let databaseTableName = "player"
        enum Columns {
            static let score = Column("score")
        }
        var id: Int64
        var name: String
    }

    func testInsertAndFetchSelectsFromTheComponents() throws {
        let dbQueue = try makePlayerDatabase()
        let statements = LockedState<[String]>([])
        try dbQueue.write { db in
            db.trace { event in statements.withLock { $0.append("\(event)") } }
            var partial = PartialPlayer(name: "Arthur")
            let score = try partial.insertAndFetch(db) { statement in
                try Int.fetchOne(statement)!
            } select: {
                [$0.score]
            }
            XCTAssertEqual(score, 0)
            XCTAssertEqual(partial.id, 1)
            let fixed = FixedPlayer(id: 2, name: "Barbara")
            let name = try fixed.insertAndFetch(db, onConflict: .ignore) { statement in
                try String.fetchOne(statement)
            } select: { _ in
                [Column("name")]
            }
            XCTAssertEqual(name, "Barbara")
        }
        XCTAssertTrue(
            statements.withLock { $0 }.contains(#"INSERT INTO "player" ("id", "name") VALUES (?,?) RETURNING "score""#),
            statements.withLock { $0 }.joined(separator: "\n"))
    }

    func testSaveAndFetchAsAnotherType() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            // No row yet: inserted.
            var partial = PartialPlayer(name: "Arthur")
            let inserted = try partial.saveAndFetch(db, as: Player.self)
            XCTAssertEqual(inserted, Player(id: 1, name: "Arthur", score: 0))
            XCTAssertEqual(partial.id, 1)
            // A row: updated.
            try db.execute(sql: "UPDATE player SET score = 10")
            partial.name = "Arthur II"
            XCTAssertEqual(try partial.saveAndFetch(db, as: Player.self), Player(id: 1, name: "Arthur II", score: 10))
            let fixed = FixedPlayer(id: 5, name: "Barbara")
            XCTAssertEqual(try fixed.saveAndFetch(db, as: Player.self), Player(id: 5, name: "Barbara", score: 0))
            XCTAssertEqual(try Player.fetchCount(db), 2)
        }
    }
}
