import Foundation
import XCTest

@testable import Ripple

/// Row adapters, as GRDB apps use them: renamed columns, column ranges, and scopes.
final class RowAdapterTests: XCTestCase {
    private let sql = "SELECT 1 AS id, 'Arthur' AS name, 10 AS teamId, 'Reds' AS teamName"

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        try DatabaseQueue().read(body)
    }

    func testColumnMappingRenamesInFetchedOrder() throws {
        try read { db in
            let row = try XCTUnwrap(Row.fetchOne(db, sql: sql, adapter: ColumnMapping(["name": "teamName", "id": "teamId"])))
            XCTAssertEqual(row.columnNames, ["id", "name"], "in the order of the fetched columns")
            XCTAssertEqual(row["id"] as Int, 10)
            XCTAssertEqual(row["name"] as String, "Reds")
            XCTAssertEqual(row["NAME"] as String, "Reds", "case-insensitive")
            XCTAssertNil(row["teamName"] as String?, "not an adapted column")
            XCTAssertEqual(row.unadapted.columnNames, ["id", "name", "teamId", "teamName"])
            XCTAssertThrowsError(try Row.fetchAll(db, sql: sql, adapter: ColumnMapping(["x": "missing"]))) { error in
                XCTAssertTrue((error as? DatabaseError)?.message?.contains("missing column missing") ?? false, "\(error)")
            }
        }
    }

    func testSuffixRangeEmptyRenameAndSplitting() throws {
        try read { db in
            XCTAssertEqual(try Row.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2))?.columnNames, ["teamId", "teamName"])
            XCTAssertEqual(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(1..<3))?.columnNames, ["name", "teamId"])
            XCTAssertEqual(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(1...1))?.databaseValues, ["Arthur".databaseValue])
            XCTAssertEqual(try Row.fetchOne(db, sql: sql, adapter: EmptyRowAdapter())?.count, 0)
            XCTAssertEqual(
                try Row.fetchOne(db, sql: sql, adapter: RenameColumnAdapter { "p_" + $0 })?.columnNames,
                ["p_id", "p_name", "p_teamId", "p_teamName"])
            let adapters = splittingRowAdapters(columnCounts: [1, 1])
            XCTAssertEqual(adapters.count, 3)
            XCTAssertEqual(
                try adapters.map { try Row.fetchOne(db, sql: sql, adapter: $0)!.columnNames },
                [["id"], ["name"], ["teamId", "teamName"]])
        }
    }

    func testScopes() throws {
        try read { db in
            let adapter = ScopeAdapter(
                base: RangeRowAdapter(0..<2),
                scopes: [
                    "team": ScopeAdapter(
                        base: ColumnMapping(["id": "teamId", "name": "teamName"]),
                        scopes: ["captain": RangeRowAdapter(1..<2)])
                ])
            let rows = try Row.fetchAll(db, sql: sql, adapter: adapter)
            let row = try XCTUnwrap(rows.first)
            XCTAssertEqual(row.columnNames, ["id", "name"])
            XCTAssertEqual(row.scopes.names, ["team"])
            XCTAssertEqual(row.scopes.count, 1)
            let team = try XCTUnwrap(row.scopes["team"])
            XCTAssertEqual(team["name"] as String, "Reds")
            XCTAssertNil(row.scopes["captain"], "not a direct scope")
            XCTAssertEqual(row.scopesTree["captain"]?["name"] as String?, "Arthur", "found in depth")
            XCTAssertEqual(row.scopesTree.names, ["team", "captain"])
            XCTAssertTrue(row.unscoped.scopes.isEmpty)
            XCTAssertEqual(row.unscoped.columnNames, ["id", "name"])
            XCTAssertEqual(Array(row.scopes).map(\.name), ["team"])
            XCTAssertTrue(try Row.fetchOne(db, sql: sql)!.scopes.isEmpty)
        }
    }

    func testValuesAndRecordsThroughAdapters() throws {
        struct Team: FetchableRecord {
            var id: Int64
            var name: String
            init(row: Row) {
                id = row["id"]
                name = row["name"]
            }
        }
        struct DecodedTeam: Decodable, FetchableRecord, Equatable {
            var id: Int64
            var name: String
        }
        try read { db in
            let mapping = ColumnMapping(["id": "teamId", "name": "teamName"])
            XCTAssertEqual(try Int.fetchAll(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2)), [10])
            XCTAssertEqual(try String.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 3)), "Reds")
            XCTAssertEqual(try Int?.fetchAll(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2)), [10])
            XCTAssertEqual(try Int.fetchSet(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2)), [10])
            XCTAssertEqual(try DatabaseValue.fetchAll(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 1)), ["Arthur".databaseValue])
            XCTAssertThrowsError(try Int.fetchAll(db, sql: sql, adapter: EmptyRowAdapter()))
            XCTAssertEqual(try Team.fetchAll(db, sql: sql, adapter: mapping).map(\.name), ["Reds"])
            XCTAssertEqual(try Team.fetchCursor(db, sql: sql, adapter: mapping).next()?.id, 10)
            XCTAssertEqual(try DecodedTeam.fetchOne(db, sql: sql, adapter: mapping), DecodedTeam(id: 10, name: "Reds"))
            XCTAssertEqual(try SQLRequest<Team>(sql: sql, adapter: mapping).fetchAll(db).map(\.name), ["Reds"])
            XCTAssertEqual(try SQLRequest<Row>(sql: sql, adapter: mapping).fetchOne(db)?.columnNames, ["id", "name"])
            // A bad value in an adapted row makes the record fetch throw.
            let bad = ColumnMapping(["id": "teamName", "name": "name"])
            XCTAssertThrowsError(try Team.fetchAll(db, sql: sql, adapter: bad)) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_MISMATCH)
            }
        }
    }

    func testSQLRequestFromStringLiterals() throws {
        try read { db in
            let request: SQLRequest<Int> = "SELECT 42"
            XCTAssertEqual(try request.fetchOne(db), 42)
            let id = 7
            let interpolated: SQLRequest<Int> = "SELECT \(id) + 1"
            XCTAssertEqual(interpolated.arguments.values, [7.databaseValue], "bound, not inlined")
            XCTAssertEqual(try interpolated.fetchOne(db), 8)
        }
    }

    func testCopiedAdaptedRowsKeepTheirAdaptation() throws {
        let rows = try read { db in
            try Row.fetchAll(db, sql: sql, adapter: ScopeAdapter(base: RangeRowAdapter(0..<1), scopes: ["team": SuffixRowAdapter(fromIndex: 2)]))
        }
        // Read after the access: the rows are copies.
        XCTAssertEqual(rows.first?.columnNames, ["id"])
        XCTAssertEqual(rows.first?.scopes["team"]?["teamName"] as String?, "Reds")
        let cursorCopy = try read { db in
            let cursor = try Row.fetchCursor(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 3))
            return try withExtendedLifetime(cursor) { try cursor.next()!.copy() }
        }
        XCTAssertEqual(cursorCopy.databaseValues, ["Reds".databaseValue])
    }

    func testAdaptedRequests() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, teamId INTEGER)")
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 10), (2, 'Barbara', 20)")
            let base = SQLRequest<Row>("SELECT id, name, teamId FROM player ORDER BY id")
            let adapted: AdaptedFetchRequest = base.adapted { _ in ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 2)]) }
            let rows = try adapted.fetchAll(db)
            XCTAssertEqual(rows.map { $0.scopes["team"]?["teamId"] as Int? }, [10, 20])
            XCTAssertEqual(try adapted.fetchCount(db), 2)
            XCTAssertEqual(try adapted.databaseRegion(db), try base.databaseRegion(db))

            // A second adapter adapts the rows the first one made, without its scopes.
            let chained = adapted.adapted { _ in ColumnMapping(["label": "name"]) }
            let row = try XCTUnwrap(chained.fetchOne(db))
            XCTAssertEqual(row.columnNames, ["label"])
            XCTAssertEqual(row["label"] as String?, "Arthur")
            XCTAssertTrue(row.scopes.isEmpty)
            let nested =
                base
                .adapted { _ in SuffixRowAdapter(fromIndex: 1) }
                .adapted { _ in ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 1)]) }
            XCTAssertEqual(try nested.fetchAll(db).map { $0.scopes["team"]?["teamId"] as Int? }, [10, 20])
            XCTAssertEqual(try nested.fetchAll(db).map { $0["name"] as String? }, ["Arthur", "Barbara"])

            // As GRDB's, `asRequest(of:)` of a request makes an `AnyFetchRequest`.
            let names: AnyFetchRequest<String> = SQLRequest<Row>("SELECT name FROM player ORDER BY id").asRequest(of: String.self)
            XCTAssertEqual(try names.fetchAll(db), ["Arthur", "Barbara"])

            // An adapter that does not fit the rows is an error of the fetch.
            XCTAssertThrowsError(try base.adapted { _ in ColumnMapping(["x": "missing"]) }.fetchAll(db))
            // Keys of a record request stay in its region.
            struct Player: TableRecord {}
            let byKeys = Player.filter(keys: [1, 2, 3])
            XCTAssertEqual(try byKeys.adapted { _ in SuffixRowAdapter(fromIndex: 1) }.databaseRegion(db).description, "player(id,name,teamId)[1,2,3]")
        }
    }
}
