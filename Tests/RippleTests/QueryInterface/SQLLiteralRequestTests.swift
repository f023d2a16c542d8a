import Ripple
import XCTest

/// SQL literals (`SQL`) and raw SQL in the request builders: the SQL they generate, and
/// the values they fetch.
/// A record of the player table with columns, for the closure builders.
private struct Scored: TableRecord {
    static let databaseTableName = "player"
    enum Columns {
        static let name = Column("name")
        static let score = Column("score")
    }
}

final class SQLLiteralRequestTests: XCTestCase {
    /// The SQL of a request, with its arguments written in place.
    private func sql(_ db: Database, _ request: QueryInterfaceRequest<some Any>) throws -> String {
        let sql = try request.makeSQL(db)
        var result = ""
        var arguments = sql.arguments.values.makeIterator()
        for character in sql.sql {
            if character == "?", let value = arguments.next() { result += value.description } else { result.append(character) }
        }
        XCTAssertNil(arguments.next(), "every argument has its parameter")
        return result
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100), (2, 'Barbara', 200), (3, 'Arthur', 50)
                    """)
        }
        return dbQueue
    }

    func testSelectionInSQL() throws {
        try makeDatabase().read { db in
            XCTAssertEqual(try sql(db, Player.select(sql: "name, id - 1")), #"SELECT name, id - 1 FROM "player""#)
            XCTAssertEqual(try sql(db, Player.select(sql: "name, id - ?", arguments: [1])), #"SELECT name, id - 1 FROM "player""#)
            XCTAssertEqual(try sql(db, Player.select(sql: "name, id - :n", arguments: ["n": 1])), #"SELECT name, id - 1 FROM "player""#)
            XCTAssertEqual(try sql(db, Player.select(literal: "\("Jane"), id - \(1)")), #"SELECT "Jane", id - 1 FROM "player""#)
            let rows = try Row.fetchAll(db, Player.select(sql: ":name, id - :value", arguments: ["name": "O'Brien", "value": 1]).order(Column("id")))
            XCTAssertEqual(rows.map { $0[0] as String }, ["O'Brien", "O'Brien", "O'Brien"])
            XCTAssertEqual(rows.map { $0[1] as Int }, [0, 1, 2])
            XCTAssertEqual(try Player.select(sql: "MAX(score)", as: Int.self).fetchOne(db), 200)
            XCTAssertEqual(try Player.select(literal: "MIN(score) + \(1)", as: Int.self).fetchOne(db), 51)
            XCTAssertEqual(try Player.select([Column("name")], as: String.self).order(Column("id")).fetchAll(db), ["Arthur", "Barbara", "Arthur"])
        }
    }

    func testNamedParametersInsideStringsAreNotArguments() throws {
        try makeDatabase().read { db in
            let request = Player.filter(sql: "name <> ':name' AND score > :score", arguments: ["score": 60])
            XCTAssertEqual(try sql(db, request), #"SELECT * FROM "player" WHERE name <> ':name' AND score > 60"#)
            XCTAssertEqual(try request.fetchCount(db), 2)
            // A named parameter used twice gets its value twice.
            XCTAssertEqual(try Int.fetchOne(db, Player.select(sql: ":n + :n", arguments: ["n": 2])), 4)
        }
    }

    func testLiteralsParenthesizedAsOperandsOnly() throws {
        try makeDatabase().read { db in
            XCTAssertEqual(try sql(db, Player.filter(sql: "id <> 1")), #"SELECT * FROM "player" WHERE id <> 1"#)
            let condition: SQL = "id <> \(1)"
            XCTAssertEqual(
                try sql(db, Player.filter(condition && Column("score") > 0)),
                #"SELECT * FROM "player" WHERE (id <> 1) AND ("score" > 0)"#)
            let literal: SQL = "score + \(1)"
            XCTAssertEqual(try sql(db, Player.filter(literal * 2 > 100)), #"SELECT * FROM "player" WHERE ((score + 1) * 2) > 100"#)
            XCTAssertEqual(try Player.filter(literal * 2 > 200).fetchCount(db), 2)
        }
    }

    func testOrderingGroupingAndHavingInSQL() throws {
        try makeDatabase().read { db in
            XCTAssertEqual(
                try sql(db, Player.order(literal: "score DESC, \(Column("name"))")), #"SELECT * FROM "player" ORDER BY score DESC, "name""#)
            XCTAssertEqual(try sql(db, Player.order([Column("name"), Column("id").desc])), #"SELECT * FROM "player" ORDER BY "name", "id" DESC"#)
            XCTAssertEqual(try sql(db, Player.order(Column("name")).unordered()), #"SELECT * FROM "player""#)
            XCTAssertEqual(try sql(db, Player.all().reversed().unordered()), #"SELECT * FROM "player""#)
            let grouped = Player.select(sql: "name, COUNT(*)").group(sql: "lower(name)").having(sql: "COUNT(*) > :n", arguments: ["n": 1])
            XCTAssertEqual(try sql(db, grouped), #"SELECT name, COUNT(*) FROM "player" GROUP BY lower(name) HAVING COUNT(*) > 1"#)
            XCTAssertEqual(try Row.fetchAll(db, grouped).map { $0[0] as String }, ["Arthur"])
            XCTAssertEqual(
                try sql(db, Player.all().group(literal: "\(Column("name"))").having(literal: "MIN(score) > \(10)")),
                #"SELECT * FROM "player" GROUP BY "name" HAVING MIN(score) > 10"#)
            XCTAssertEqual(
                try sql(db, Scored.all().group { [$0.name] }.having { max($0.score) > 10 }),
                #"SELECT * FROM "player" GROUP BY "name" HAVING MAX("score") > 10"#)
        }
    }

    func testAnnotationsAndNone() throws {
        try makeDatabase().read { db in
            XCTAssertEqual(try sql(db, Player.annotated(with: Column("score") * 2)), #"SELECT *, "score" * 2 FROM "player""#)
            XCTAssertEqual(
                try sql(db, Player.select(Column("name")).annotated(with: [Column("id") - 1, Column("id") + 1])),
                #"SELECT "name", "id" - 1, "id" + 1 FROM "player""#)
            XCTAssertEqual(try sql(db, Scored.annotated { ($0.score * 2).forKey("double") }), #"SELECT *, "score" * 2 AS "double" FROM "player""#)
            let row = try Row.fetchOne(db, Player.annotated(with: (Column("score") + 1).forKey("next")).filter(key: 2))
            XCTAssertEqual(row?["next"] as Int?, 201)
            XCTAssertEqual(row?["name"] as String?, "Barbara")
            XCTAssertEqual(try Player.none().fetchCount(db), 0)
            XCTAssertEqual(try Table("player").none().fetchAll(db), [])
            XCTAssertEqual(try Table("player").annotated(with: Column("id")).select([Column("name")], as: String.self).fetchCount(db), 3)
        }
    }

    func testSQLComposition() throws {
        try makeDatabase().read { db in
            var query: SQL = "SELECT \(Column("name")) FROM player"
            query += " WHERE score > \(60)"
            query.append(literal: " AND id <> \(3)")
            query.append(sql: " AND name <> ?", arguments: ["Zoe"])
            let (sql, arguments) = try query.build(db)
            XCTAssertEqual(sql, #"SELECT "name" FROM player WHERE score > ? AND id <> ? AND name <> ?"#)
            XCTAssertEqual(arguments, [60, 3, "Zoe"])
            XCTAssertEqual(try String.fetchAll(db, SQLRequest(query + " ORDER BY id")), ["Arthur", "Barbara"])
            XCTAssertTrue(SQL(sql: "").isEmpty)
            XCTAssertFalse(SQL(Column("a")).isEmpty)
            let joined = [SQL(Column("name")), "\("O'Brien")", "\(1)"].joined(separator: " || ")
            XCTAssertEqual(try joined.build(db).sql, #""name" || ? || ?"#)
            XCTAssertEqual(try joined.build(db).arguments, ["O'Brien", 1])
            XCTAssertEqual(try [SQL]().joined().build(db).sql, "")
        }
    }

    /// The region of a request written with SQL literals is what SQLite reads when it
    /// compiles the statement: the columns of the literal selection and condition.
    func testRegionsOfLiteralRequests() throws {
        try makeDatabase().read { db in
            let request = Player.select(literal: "name").filter(literal: "score > \(10)")
            XCTAssertEqual(try request.databaseRegion(db).description, "player(name,score)")
            let annotated = Player.select(Column("id")).annotated(with: SQL("teamId * \(2)"))
            XCTAssertEqual(try annotated.databaseRegion(db).description, "player(id,teamId)")
        }
    }
}
