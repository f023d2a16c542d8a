// Compiled in Swift 6 and Swift 5 language modes (GRDBSpellingSwift5Tests links here):
// the query interface and SQL literals, spelled as GRDB's documentation and tests write them.
import Foundation
import Ripple
import XCTest

private struct Reader: TableRecord, FetchableRecord, Decodable {
    static let databaseTableName = "readers"
    var id: Int64
    var name: String
    var age: Int?

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let age = Column("age")
    }
}

final class GRDBSpellingQueryInterfaceTests: XCTestCase {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE readers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INT);
                    INSERT INTO readers (name, age) VALUES ('Arthur', 42), ('Barbara', 36);
                    """)
        }
        return dbQueue
    }

    func testSelectionSpellings() throws {
        try makeQueue().read { db in
            // Type inference picks the fetched type from the context.
            let names: QueryInterfaceRequest<String> = Reader.select(Reader.Columns.name)
            XCTAssertEqual(try names.order(Reader.Columns.id).fetchAll(db), ["Arthur", "Barbara"])
            _ = Reader.select { $0.name } as QueryInterfaceRequest<String>
            _ = Reader.select([Reader.Columns.name]) as QueryInterfaceRequest<String>
            _ = Reader.select(sql: "name") as QueryInterfaceRequest<String>
            _ = Reader.select(literal: SQL(sql: "name")) as QueryInterfaceRequest<String>
            _ = Reader.all().select(sql: "name") as QueryInterfaceRequest<String>
            _ = Reader.all().select(literal: SQL(sql: "name")) as QueryInterfaceRequest<String>
            // Without context, a request of records.
            let request = Reader.select(sql: "name")
            _ = request as QueryInterfaceRequest<Reader>

            let rows = try Row.fetchAll(db, Reader.all().select(literal: SQL(sql: ":name, id - :value", arguments: ["name": "O'Brien", "value": 1])))
            XCTAssertEqual(rows.map { $0[1] as Int64 }, [0, 1])
            XCTAssertEqual(try Reader.select(sql: "MAX(age)", as: Int.self).fetchOne(db), 42)
            XCTAssertEqual(try Reader.annotated { $0.id - 1 }.fetchCount(db), 2)
            XCTAssertEqual(try Row.fetchOne(db, Reader.annotated(with: Reader.Columns.id - 1, Reader.Columns.id + 1).filter(key: 1))?[4] as Int64?, 2)
        }
    }

    func testFilteringGroupingSpellings() throws {
        try makeQueue().read { db in
            XCTAssertEqual(try Reader.filter(sql: "age > :age", arguments: ["age": 40]).fetchCount(db), 1)
            XCTAssertEqual(try Reader.filter(literal: "age > \(40)").fetchCount(db), 1)
            XCTAssertEqual(try Reader.all().filter(literal: "name = \("Barbara")").fetchOne(db)?.age, 36)
            XCTAssertEqual(try Reader.none().fetchCount(db), 0)
            let grouped = Reader.all()
                .group { $0.name }
                .having { min($0.age) > 18 }
                .having(sql: "max(age) < ?", arguments: [50])
            XCTAssertEqual(try grouped.fetchCount(db), 2)
            XCTAssertEqual(try Reader.all().group(sql: "age + :n", arguments: ["n": 1]).fetchCount(db), 2)
            XCTAssertEqual(try Reader.order(literal: "age \(sql: "DESC")").fetchOne(db)?.name, "Arthur")
            XCTAssertEqual(try Reader.all().order([Reader.Columns.age]).unordered().fetchCount(db), 2)
            XCTAssertFalse(try Reader.all().isEmpty(db))
            XCTAssertEqual(try Table("readers").none().fetchCount(db), 0)
        }
    }

    func testSQLLiteralSpellings() throws {
        try makeQueue().read { db in
            var query: SQL = "SELECT \(.allColumns) "
            query += "FROM \(Reader.self) "
            query.append(literal: "WHERE id IN \([1, 2]) ")
            query.append(sql: "AND name <> :name", arguments: ["name": "Zoe"])
            let (sql, arguments) = try query.build(db)
            XCTAssertEqual(sql, #"SELECT * FROM "readers" WHERE id IN (?,?) AND name <> :name"#)
            XCTAssertEqual(arguments, StatementArguments([1, 2]) + ["name": "Zoe"])
            XCTAssertEqual(try Row.fetchAll(db, SQLRequest(literal: query)).count, 2)

            let literal = [SQL(Column("name")), "\("!")"].joined(separator: " || ")
            XCTAssertEqual(try String.fetchAll(db, Reader.select(literal).order(Column("id"))), ["Arthur!", "Barbara!"])
            let subquery: SQLRequest<Int> = "SELECT MAX(age) - \(1) FROM readers"
            let older: SQL = "SELECT name FROM readers WHERE age > (\(subquery)) ORDER BY \(Column("name").desc)"
            XCTAssertEqual(try String.fetchAll(db, SQLRequest(literal: older)), ["Arthur"])
            let data = Data("SQLite".utf8)
            XCTAssertEqual(try Data.fetchOne(db, SQLRequest<Data>("SELECT \(data)")), data)
            XCTAssertEqual(
                try SQL("SELECT \(identifier: "name") FROM \(tableOf: Reader(id: 1, name: "", age: nil))").build(db).sql,
                #"SELECT "name" FROM "readers""#)
            XCTAssertEqual(try SQL("SELECT \(columnsOf: Reader.self) FROM readers").build(db).sql, #"SELECT "readers".* FROM readers"#)
            XCTAssertEqual(try SQL("ORDER BY email COLLATE \(.nocase)").build(db).sql, "ORDER BY email COLLATE NOCASE")
        }
    }

    func testDerivedRequestSpellings() throws {
        try makeQueue().read { db in
            let request = Reader.filter(keys: [1, 2, 3])
            let derived = AnyFetchRequest(request)
            XCTAssertEqual(try derived.databaseRegion(db).description, "readers(age,id,name)[1,2,3]")
            let adapted: AdaptedFetchRequest = request.adapted { db in SuffixRowAdapter(fromIndex: 1) }
            XCTAssertEqual(try adapted.databaseRegion(db).description, "readers(age,id,name)[1,2,3]")
            let rows: AnyFetchRequest<Row> = derived.asRequest(of: Row.self)
            XCTAssertEqual(try rows.fetchAll(db).count, 2)
        }
    }

    func testOperatorSpellings() throws {
        try makeQueue().read { db in
            let both = Reader.filter([Reader.Columns.id == 1, Reader.Columns.name != nil].joined(operator: .and))
            XCTAssertEqual(try both.fetchCount(db), 1)
            let sums = Reader.select([Reader.Columns.age, 2.databaseValue, Reader.Columns.age].joined(operator: .add), as: Int.self)
            XCTAssertEqual(try sums.order(Reader.Columns.id).fetchAll(db), [86, 74])
            XCTAssertEqual(try Reader.filter { [$0.id == 1].joined(operator: .and) || false }.fetchCount(db), 1)
            XCTAssertEqual(try Reader.filter(Reader.Columns.age & 2).fetchCount(db), 1)
            XCTAssertEqual(try Reader.filter(~Reader.Columns.age < 0).fetchCount(db), 2)
            XCTAssertEqual(try Reader.select(average(Reader.Columns.age, filter: Reader.Columns.age > 40), as: Double.self).fetchOne(db), 42)
            XCTAssertEqual(try Reader.filter(Reader.Columns.name.like("A%", escape: "\\")).fetchCount(db), 1)
        }
    }

    func testSubquerySpellings() throws {
        try makeQueue().read { db in
            let tableRequest = Reader.all()
            // Requests as values, with trailing-closure filters (QueryInterfaceExpressionsTests).
            let subquery1 = tableRequest.select { max($0.age) }
            let subquery2 = tableRequest.filter { $0.age == subquery1 }
            XCTAssertEqual(try tableRequest.filter { subquery2.select($0.id).contains($0.id) }.fetchCount(db), 1)
            // Correlated EXISTS, with a named alias and with a typed one.
            let alias = TableAlias(name: "r")
            let subquery = tableRequest.filter(Reader.Columns.age > alias[Reader.Columns.age])
            XCTAssertEqual(try tableRequest.aliased(alias).filter(!subquery.exists()).fetchOne(db)?.name, "Arthur")
            // (Named: an unnamed alias of the outer table would be the subquery's table,
            // as in GRDB.)
            let typedAlias = TableAlias<Reader>(name: "outer")
            let younger = Reader.filter { $0.age < typedAlias.age }
            XCTAssertEqual(try Reader.aliased(typedAlias).filter(younger.exists()).fetchOne(db)?.name, "Arthur")
            // A raw SQL request is a subquery too.
            let older = SQLRequest<Row>("SELECT * FROM readers WHERE age > \(alias[Reader.Columns.age])")
            XCTAssertEqual(try tableRequest.aliased(alias).filter(older.exists()).fetchCount(db), 1)
            let condition: SQLExpression = Reader.select(Reader.Columns.age, as: Int.self).contains(42)
            XCTAssertEqual(try Reader.filter(condition).fetchCount(db), 2)
        }
    }

    func testFunctionSpellings() throws {
        try makeQueue().read { db in
            XCTAssertEqual(
                try Reader.select { $0.name.capitalized }.order(Reader.Columns.id).asRequest(of: String.self).fetchAll(db), ["Arthur", "Barbara"])
            XCTAssertEqual(
                try Reader.select(Reader.Columns.name.localizedUppercased, as: String.self).order(Reader.Columns.id).fetchOne(db), "ARTHUR")
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.lowercase.name)('A')"), "a")
            XCTAssertEqual(try Reader.select(max(Reader.Columns.age, 40), as: Int.self).order(Reader.Columns.id).fetchAll(db), [42, 40])
            let ids: [Int64] = try Reader.selectPrimaryKey().fetchAll(db)
            XCTAssertEqual(ids, [1, 2])
            XCTAssertEqual(try Reader.all().selectPrimaryKey(as: Row.self).fetchCount(db), 2)
            let columns = Reader.all().selectWhenConnected { _ in [Reader.Columns.id] }.annotatedWhenConnected { _ in [Reader.Columns.age] }
            XCTAssertEqual(try columns.asRequest(of: Row.self).fetchOne(db)?.count, 2)
            XCTAssertEqual(try Reader.all().group(Reader.Columns.age).havingWhenConnected { _ in Reader.Columns.age > 40 }.fetchCount(db), 1)
            let request = Reader.annotated(with: Reader.Columns.name.forKey("alt")).filter(Column("alt").detached != "Arthur")
            XCTAssertEqual(try request.fetchCount(db), 1)
        }
    }
}
