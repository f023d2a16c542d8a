import CSQLite
import Ripple
import XCTest

private struct FastInt: DatabaseValueConvertible, StatementColumnConvertible, Hashable {
    var value: Int
    var isFast: Bool

    init?(sqliteStatement: SQLiteStatement, index: CInt) {
        // (Ripple's fast reading asks the type first: NULL is the type's to refuse.)
        guard sqlite3_column_type(sqliteStatement, index) != SQLITE_NULL else { return nil }
        value = Int(sqlite3_column_int64(sqliteStatement, index))
        isFast = true
    }

    init?(value: Int) {
        self.value = value
        isFast = false
    }

    var databaseValue: DatabaseValue { value.databaseValue }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FastInt? {
        Int.fromDatabaseValue(dbValue).flatMap(FastInt.init(value:))
    }
}

final class FetchingWithAnyRequestTests: XCTestCase {
    private let request = SQLRequest<Void>(sql: "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 1")
    private let requestWithNull = SQLRequest<Void>(sql: "SELECT 1 UNION ALL SELECT NULL UNION ALL SELECT 1")

    func testValuesOfAnyRequestAreReadInPlace() throws {
        try DatabaseQueue().read { db in
            XCTAssertEqual(try FastInt.fetchAll(db, request).map(\.isFast), [true, true, true])
            XCTAssertEqual(try FastInt.fetchOne(db, request)?.isFast, true)
            XCTAssertEqual(try Array(FastInt.fetchCursor(db, request)).map(\.value), [1, 2, 1])
            XCTAssertEqual(try FastInt.fetchSet(db, request).count, 2)
            XCTAssertEqual(try Optional<FastInt>.fetchAll(db, requestWithNull).map { $0?.value }, [1, nil, 1])
            XCTAssertEqual(try Array(Optional<FastInt>.fetchCursor(db, requestWithNull)).map { $0?.isFast }, [true, nil, true])
        }
    }

    func testRowsAndPlainValuesOfAnyRequest() throws {
        try DatabaseQueue().read { db in
            XCTAssertEqual(try Row.fetchSet(db, requestWithNull).count, 2)
            XCTAssertEqual(try Array(DatabaseValue.fetchCursor(db, requestWithNull)), [1.databaseValue, .null, 1.databaseValue])
            XCTAssertEqual(try DatabaseValue.fetchSet(db, requestWithNull), [1.databaseValue, .null])
        }
    }
}
