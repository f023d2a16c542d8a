import CSQLite
import Ripple
import XCTest

/// A `StatementColumnConvertible` type written for GRDB reads columns without checking
/// for NULL: Ripple checks first, so that NULL is nil, never a value made of nothing.
final class StatementColumnConvertibleNullTests: XCTestCase {
    private struct Fetched: DatabaseValueConvertible, StatementColumnConvertible, Hashable {
        var int: Int
        var fast: Bool

        init(int: Int, fast: Bool) {
            self.int = int
            self.fast = fast
        }

        // As GRDB's documentation writes it: no NULL check (SQLite reads NULL as 0).
        init(sqliteStatement: OpaquePointer, index: CInt) {
            self.init(int: Int(sqlite3_column_int64(sqliteStatement, index)), fast: true)
        }

        var databaseValue: DatabaseValue { int.databaseValue }

        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Fetched? {
            Int.fromDatabaseValue(dbValue).map { Fetched(int: $0, fast: false) }
        }
    }

    private struct Record: FetchableRecord {
        var value: Fetched?
        init(row: Row) { value = row["value"] }
    }

    func testNullIsNilForEveryFastRead() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let sql = "SELECT NULL AS value UNION ALL SELECT 2"
            XCTAssertEqual(try Fetched?.fetchAll(db, sql: sql), [nil, Fetched(int: 2, fast: true)])
            XCTAssertEqual(try Fetched?.fetchOne(db, sql: "SELECT NULL"), .some(nil))
            XCTAssertEqual(try Fetched?.fetchCursor(db, sql: sql).next(), .some(nil))
            XCTAssertEqual(try Fetched?.fetchSet(db, sql: sql), [nil, Fetched(int: 2, fast: true)])
            XCTAssertEqual(try Fetched?.fetchSet(db, SQLRequest<Row>(sql: sql)), [nil, Fetched(int: 2, fast: true)])
            let rows = try Row.fetchCursor(db, sql: sql)
            var values: [Fetched?] = []
            while let row = try rows.next() {
                values.append(row[0])
                XCTAssertEqual(row["value"] as Fetched?, values.last!)
                XCTAssertEqual(try row.decodeIfPresent(Fetched.self, atIndex: 0), values.last!)
            }
            XCTAssertEqual(values, [nil, Fetched(int: 2, fast: true)])
            XCTAssertEqual(try Record.fetchAll(db, sql: sql).map(\.value), [nil, Fetched(int: 2, fast: true)])
        }
    }

    func testRequestsOfOptionalsReadInPlace() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let request = SQLRequest<Fetched?>(sql: "SELECT 1 UNION ALL SELECT NULL")
            XCTAssertEqual(try request.fetchAll(db), [Fetched(int: 1, fast: true), nil])
            XCTAssertEqual(try request.fetchSet(db), [Fetched(int: 1, fast: true), nil])
            XCTAssertEqual(try request.fetchCursor(db).next(), .some(Fetched(int: 1, fast: true)))
            // As GRDB's: nil for no row, `.some(nil)` for NULL.
            let first: Fetched?? = try request.fetchOne(db)
            XCTAssertEqual(first, .some(Fetched(int: 1, fast: true)))
            XCTAssertEqual(try SQLRequest<Fetched?>(sql: "SELECT NULL").fetchOne(db), .some(nil))
            XCTAssertEqual(try SQLRequest<Fetched?>(sql: "SELECT 1 WHERE 0").fetchOne(db), Fetched??.none)
            XCTAssertEqual(try SQLRequest<Int?>(sql: "SELECT 2").fetchOne(db), 2)
        }
    }

    func testNullReadAsANonOptionalThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let error = assertDatabaseError(.SQLITE_MISMATCH) { try Fetched.fetchAll(db, sql: "SELECT NULL") }
            XCTAssertTrue(error?.message?.contains("unexpected NULL") ?? false, "\(String(describing: error))")
            XCTAssertNil(try Fetched.fetchOne(db, sql: "SELECT NULL"))
            XCTAssertEqual(try Fetched.fetchOne(db, sql: "SELECT 3"), Fetched(int: 3, fast: true))
        }
    }
}
