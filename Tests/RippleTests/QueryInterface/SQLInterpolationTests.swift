import Ripple
import XCTest

/// What each kind of interpolated value becomes in an `SQL` literal, and the statements of
/// counts and emptiness tests.
final class SQLInterpolationTests: XCTestCase {
    private struct Scored: TableRecord {
        static let databaseTableName = "player"
        static var databaseSelection: [any SQLSelectable] { [.allColumns] }
    }

    func testInterpolatedValuesExpressionsAndLists() throws {
        let a = Column("a")
        let nothing: Int? = nil
        let expressions: [any SQLExpressible] = [Column("b"), Column("c") + 2]
        let query: SQL = "\(a), \(a + 1), \(2 * (a + 1)), \(nothing), \(a == nothing), \([1, 2]), \(expressions), \([Int]())"
        XCTAssertEqual(query.sql, #""a", "a" + ?, ? * ("a" + ?), NULL, "a" IS NULL, (?,?), ("b","c" + ?), (SELECT NULL WHERE NULL)"#)
        XCTAssertEqual(query.arguments, [1, 2, 1, 1, 2, 2])
        // Data is a value, not a list of bytes; strings are values too.
        let data = Data([0, 1, 2])
        let values: SQL = "\(data) \("it's"[...])"
        XCTAssertEqual(values.sql, "? ?")
        XCTAssertEqual(values.arguments, [data, "it's"])
    }

    func testInterpolatedSelectionsOrderingsAndNames() throws {
        let query: SQL = """
            SELECT \(.allColumns), \(Column("name").forKey("n")), \(nil as (any SQLSelectable)?) \
            FROM \(Scored.self) ORDER BY \(Column("score").desc), \(Column("id")) COLLATE \(.nocase)
            """
        XCTAssertEqual(query.sql, #"SELECT *, "name" AS "n", NULL FROM "player" ORDER BY "score" DESC, "id" COLLATE NOCASE"#)
        XCTAssertEqual(SQL("\(columnsOf: Scored.self, tableAlias: "p")").sql, #""p".*"#)
        struct Partial: TableRecord {
            static let databaseTableName = "player"
            static let databaseSelection: [any SQLSelectable] = [Column("id"), Column("name").forKey("n")]
        }
        // Each column qualified, as GRDB writes them (a join of tables that share names).
        XCTAssertEqual(SQL("\(columnsOf: Partial.self)").sql, #""player"."id", "player"."name" AS "n""#)
        XCTAssertEqual(SQL("\(columnsOf: Partial.self, tableAlias: "p")").sql, #""p"."id", "p"."name" AS "n""#)
        let named: SQL = "\(sql: "name = :name", arguments: ["name": "Arthur"]) AND \(literal: "score > \(10)")"
        XCTAssertEqual(named.sql, "name = :name AND score > ?")
        XCTAssertEqual(named.arguments, StatementArguments([10]) + ["name": "Arthur"])
    }

    func testColumnsOfASelectionMadeWithTheConnectionFailsClearly() throws {
        struct Restricted: TableRecord {
            static let databaseTableName = "player"
            static let databaseSelection: [any SQLSelectable] = [.allColumns(excluding: ["name"])]
        }
        let dbQueue = try makePlayerDatabase()
        try dbQueue.read { db in
            let request: SQLRequest<Row> = "SELECT \(columnsOf: Restricted.self) FROM player"
            XCTAssertThrowsError(try request.fetchAll(db)) { error in
                XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_ERROR)
                let message = (error as? DatabaseError)?.message ?? ""
                XCTAssertTrue(message.contains("can not write the selection of Restricted, made with the connection"), message)
            }
            // The request interface lists the columns.
            XCTAssertEqual(try Restricted.all().makePreparedRequest(db).statement.columnNames, ["id", "score", "teamId"])
        }
    }

    func testCountAndEmptinessStatements() throws {
        let dbQueue = try makePlayerDatabase()
        var statements: [String] = []
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 10), ('Arthur', 20), ('Barbara', 30)")
            db.trace { event in
                if case .statement(let statement) = event { statements.append(statement.expandedSQL) }
            }
            XCTAssertEqual(try Player.order(Column("name")).fetchCount(db), 3)
            XCTAssertEqual(try Player.select(Column("name")).distinct().fetchCount(db), 2)
            XCTAssertEqual(try Player.select(Column("name"), Column("score")).distinct().fetchCount(db), 3)
            XCTAssertEqual(try Player.limit(2).fetchCount(db), 2)
            XCTAssertFalse(try Player.filter(Column("score") > 20).isEmpty(db))
            XCTAssertTrue(try Player.filter(Column("score") > 30).isEmpty(db))
            db.trace(nil)
        }
        XCTAssertEqual(
            statements,
            [
                #"SELECT COUNT(*) FROM "player""#,
                #"SELECT COUNT(DISTINCT "name") FROM "player""#,
                #"SELECT COUNT(*) FROM (SELECT DISTINCT "name", "score" FROM "player")"#,
                #"SELECT COUNT(*) FROM (SELECT * FROM "player" LIMIT 2)"#,
                #"SELECT EXISTS (SELECT * FROM "player" WHERE "score" > 20)"#,
                #"SELECT EXISTS (SELECT * FROM "player" WHERE "score" > 30)"#,
            ])
    }

    func testPreparedStatementsCarryTheirArguments() throws {
        try makePlayerDatabase().write { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 10), ('Barbara', 30)")
            let statement = try Player.filter(Column("score") > 20).makePreparedRequest(db, forSingleResult: false).statement
            XCTAssertEqual(try statement.makeCursorOfNames(), ["Barbara"])
            let sqlStatement = try SQLRequest<Row>(literal: "SELECT name FROM player WHERE score < \(20)")
                .makePreparedRequest(db, forSingleResult: false).statement
            XCTAssertEqual(try String.fetchAll(sqlStatement), ["Arthur"])
        }
    }
}

private extension Statement {
    /// The statement, fetched with the arguments it carries.
    func makeCursorOfNames() throws -> [String] {
        try Row.fetchAll(self).map { $0["name"] }
    }
}
