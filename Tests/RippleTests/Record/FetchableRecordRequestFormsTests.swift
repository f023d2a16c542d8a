import XCTest

@testable import Ripple

/// The fetching methods of `FetchableRecord` that take any request or a statement, as
/// GRDB's: cursors and sets as well as arrays and single records.
final class FetchableRecordRequestFormsTests: XCTestCase {
    private struct Name: FetchableRecord, Hashable {
        var first: String
        init(row: Row) throws { first = row["firstName"] }
    }

    private let sql = "SELECT 'Arthur' AS firstName UNION ALL SELECT 'Barbara' UNION ALL SELECT 'Arthur'"

    func testCursorOfAnyRequest() throws {
        try DatabaseQueue().read { db in
            // The request's own type (Row here) does not matter: the records are built from its rows.
            let cursor = try Name.fetchCursor(db, SQLRequest<Row>(sql: sql))
            XCTAssertEqual(try Array(cursor).map(\.first), ["Arthur", "Barbara", "Arthur"])
            XCTAssertEqual(try Array(Name.fetchCursor(db, SQLRequest(sql: sql))).count, 3)
        }
    }

    func testSetsOfAStatementAndOfAnyRequest() throws {
        try DatabaseQueue().read { db in
            let expected: Set<String> = ["Arthur", "Barbara"]
            XCTAssertEqual(Set(try Name.fetchSet(db.makeStatement(sql: sql)).map(\.first)), expected)
            XCTAssertEqual(Set(try Name.fetchSet(db, SQLRequest(sql: sql)).map(\.first)), expected)
            XCTAssertEqual(Set(try Name.fetchSet(db, sql: sql).map(\.first)), expected)
        }
    }

    func testMakePreparedRequestDefaultsToAllRows() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.read { db in
            let request = Player.order(Column("name"))
            XCTAssertEqual(
                try request.makePreparedRequest(db).statement.sql,
                try request.makePreparedRequest(db, forSingleResult: false).statement.sql)
            XCTAssertEqual(try request.makePreparedRequest(db).statement.sql, #"SELECT * FROM "player" ORDER BY "name""#)
        }
    }
}
