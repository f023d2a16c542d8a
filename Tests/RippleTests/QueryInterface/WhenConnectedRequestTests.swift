import XCTest

@testable import Ripple

/// The `...WhenConnected` forms: parts of a request made with the connection when the
/// request runs.
final class WhenConnectedRequestTests: XCTestCase {
    func testSelectAnnotateAndHavingWhenConnected() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO team (id, name) VALUES (1, 'Red'), (2, 'Blue');
                    INSERT INTO player (id, name, score, teamId) VALUES (1, 'Arthur', 10, 1), (2, 'Barbara', 20, 1), (3, 'Craig', 5, 2);
                    """)
            // The columns the table has when the request runs.
            let request = Player.all().selectWhenConnected { db in
                try db.columns(in: "player").filter { $0.name != "teamId" }.map { Column($0.name) }
            }
            XCTAssertEqual(try request.asRequest(of: Row.self).makeSQL(db).sql, #"SELECT "id", "name", "score" FROM "player""#)
            try db.execute(sql: "ALTER TABLE player ADD COLUMN bonus INTEGER NOT NULL DEFAULT 0")
            XCTAssertEqual(try request.asRequest(of: Row.self).fetchOne(db)?.columnNames, ["id", "name", "score", "bonus"])
            // Annotations, and a HAVING clause made with the connection.
            let annotated = Player.all().annotatedWhenConnected { _ in [(Column("score") * 2).forKey("double")] }.order(Column("id"))
            XCTAssertEqual(try annotated.asRequest(of: Row.self).fetchAll(db).map { $0["double"] as Int }, [20, 40, 10])
            let teams = Player.select(Column("teamId"), as: Int64.self).group(Column("teamId"))
                .havingWhenConnected { _ in count(Column("id")) > 1 }
            XCTAssertEqual(try teams.fetchAll(db), [1])
            XCTAssertEqual(try teams.fetchCount(db), 1)
        }
    }
}
