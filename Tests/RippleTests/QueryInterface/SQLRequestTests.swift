import XCTest

@testable import Ripple

final class SQLRequestTests: XCTestCase {
    func testInterpolationBindsValuesNeverPastesThem() throws {
        let name = "O'Brien\"; DROP TABLE player; --"
        let request = SQLRequest<Row>("SELECT * FROM player WHERE name = \(name) AND score > \(10)")
        XCTAssertEqual(request.sql, "SELECT * FROM player WHERE name = ? AND score > ?")
        XCTAssertEqual(request.arguments, [name, 10])
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, 20)", arguments: [name])
            XCTAssertEqual(try request.fetchAll(db).count, 1)
            XCTAssertTrue(try db.tableExists("player"))
        }
    }

    func testInterpolationOfColumnsTablesSequencesAndRawSQL() throws {
        let ids: [Int64] = [1, 3]
        let request = SQLRequest<Player>("SELECT * FROM \(Player.self) WHERE \(Column("id")) IN \(ids) \(sql: "ORDER BY id")")
        XCTAssertEqual(request.sql, #"SELECT * FROM "player" WHERE "id" IN (?,?) ORDER BY id"#)
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('A'), ('B'), ('C')")
            XCTAssertEqual(try request.fetchAll(db).map(\.name), ["A", "C"])
            let none: String? = nil
            XCTAssertEqual(try SQLRequest<Row>("SELECT \(none) IS NULL").asRequest(of: Bool.self).fetchOne(db), true)
        }
    }

    func testSeedSamplesCompileAndRun() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 10), ('Barbara', 30)")
            // From the RxGRDB documentation:
            let maxScore = try SQLRequest<Row>("SELECT MAX(score) FROM player").asRequest(of: Int.self).fetchOne(db)
            XCTAssertEqual(maxScore, 30)
            let emails = try SQLRequest<Row>("SELECT name FROM player ORDER BY name").asRequest(of: Optional<String>.self).fetchAll(db)
            XCTAssertEqual(emails, ["Arthur", "Barbara"])
            let rows = try SQLRequest<Row>("SELECT * FROM player").fetchAll(db)
            XCTAssertEqual(rows.count, 2)
            XCTAssertEqual(try SQLRequest<Row>("SELECT * FROM player").fetchCount(db), 2)
            XCTAssertEqual(try SQLRequest<Player>(sql: "SELECT * FROM player WHERE score > ?", arguments: [20]).fetchAll(db).map(\.name), ["Barbara"])
        }
    }
}
