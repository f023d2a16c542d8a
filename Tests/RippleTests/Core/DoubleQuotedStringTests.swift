import XCTest

@testable import Ripple

/// `Configuration.acceptsDoubleQuotedStringLiterals`: off by default, so that a misspelt
/// column is an error, not a string.
final class DoubleQuotedStringTests: XCTestCase {
    private func makeQueue(accepting: Bool?) throws -> DatabaseQueue {
        var configuration = Configuration()
        if let accepting { configuration.acceptsDoubleQuotedStringLiterals = accepting }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE player(name TEXT); INSERT INTO player VALUES ('Arthur')") }
        return dbQueue
    }

    func testMissingColumnIsAnErrorByDefault() throws {
        for dbQueue in [try makeQueue(accepting: nil), try makeQueue(accepting: false)] {
            try dbQueue.read { db in
                XCTAssertThrowsError(try String.fetchOne(db, sql: #"SELECT "missingColumn" FROM player"#)) { error in
                    XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_ERROR)
                    XCTAssertEqual((error as? DatabaseError)?.message, "no such column: missingColumn")
                }
            }
            // DDL too: a CHECK or index on a missing column.
            try dbQueue.write { db in
                XCTAssertThrowsError(try db.execute(sql: #"CREATE INDEX i ON player("missingColumn")"#))
            }
        }
    }

    func testMissingColumnIsAStringWhenAccepted() throws {
        let dbQueue = try makeQueue(accepting: true)
        try dbQueue.read { db in
            XCTAssertEqual(try String.fetchOne(db, sql: #"SELECT "missingColumn" FROM player"#), "missingColumn")
            XCTAssertEqual(try String.fetchOne(db, sql: #"SELECT "name" FROM player"#), "Arthur")
        }
    }

    func testPoolReadersFollowTheConfiguration() throws {
        var configuration = Configuration()
        configuration.acceptsDoubleQuotedStringLiterals = true
        let dbPool = try DatabasePool(path: makeTemporaryDatabasePath(self), configuration: configuration)
        try dbPool.write { try $0.execute(sql: "CREATE TABLE player(name TEXT)") }
        XCTAssertEqual(try dbPool.read { try String.fetchOne($0, sql: #"SELECT "missingColumn""#) }, "missingColumn")
        let strictPool = try DatabasePool(path: makeTemporaryDatabasePath(self, name: "strict.sqlite"))
        XCTAssertThrowsError(try strictPool.read { try String.fetchOne($0, sql: #"SELECT "missingColumn""#) })
    }
}
