import Ripple
import XCTest

/// Joined expressions, bitwise operators, aggregates with a filter and LIKE ... ESCAPE:
/// the SQL GRDB writes, and the values SQLite gives.
final class SQLOperatorTests: XCTestCase {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO team (id, name) VALUES (1, 'Red');
                    INSERT INTO player (id, name, score, teamId)
                    VALUES (1, 'Arthur', 6, NULL), (2, 'Bar_bara', 12, 1), (3, 'Craig', 0, 1);
                    """)
        }
        return dbQueue
    }

    private func sql(_ db: Database, _ request: QueryInterfaceRequest<some Any>) throws -> String {
        try request.makeSQL(db).sql
    }

    func testJoinedOperators() throws {
        try makeDatabase().read { db in
            let id = Column("id")
            let score = Column("score")
            let name = Column("name")
            XCTAssertEqual(
                try sql(db, Player.filter([id == 1, name != nil, score > 0].joined(operator: .and))),
                #"SELECT * FROM "player" WHERE ("id" = ?) AND ("name" IS NOT NULL) AND ("score" > ?)"#)
            XCTAssertEqual(
                try sql(db, Player.filter([id == 1, name != nil].joined(operator: .or) || score > 0)),
                #"SELECT * FROM "player" WHERE ("id" = ?) OR ("name" IS NOT NULL) OR ("score" > ?)"#)
            XCTAssertEqual(
                try sql(db, Player.select([score, 2.databaseValue, id].joined(operator: .add))),
                #"SELECT "score" + ? + "id" FROM "player""#)
            XCTAssertEqual(
                try sql(db, Player.select([score + 1, id * 2].joined(operator: .add))),
                #"SELECT ("score" + ?) + ("id" * ?) FROM "player""#)
            XCTAssertEqual(
                try sql(db, Player.select([name, "!".databaseValue].joined(operator: .concat))),
                #"SELECT "name" || ? FROM "player""#)
            // No expression: the operator's neutral value.
            XCTAssertEqual(try Player.filter([SQLExpression]().joined(operator: .and)).fetchCount(db), 3)
            XCTAssertEqual(try Player.filter([SQLExpression]().joined(operator: .or)).fetchCount(db), 0)
            XCTAssertEqual(try Int.fetchOne(db, Player.select([Column]().joined(operator: .multiply)).limit(1)), 1)
            XCTAssertEqual(try Int.fetchOne(db, Player.select([Column]().joined(operator: .bitwiseAnd)).limit(1)), -1)
            // One expression: itself.
            XCTAssertEqual(try sql(db, Player.filter([id == 1].joined(operator: .and))), #"SELECT * FROM "player" WHERE "id" = ?"#)
            // Values.
            let sums = try Int.fetchAll(db, Player.select([score, id, 1.databaseValue].joined(operator: .add)).order(id))
            XCTAssertEqual(sums, [8, 15, 4])
            let products = try Int.fetchAll(db, Player.select([score, id].joined(operator: .multiply)).order(id))
            XCTAssertEqual(products, [6, 24, 0])
            XCTAssertEqual(
                try String.fetchAll(db, Player.select([name, "!".databaseValue].joined(operator: .concat)).order(id)),
                ["Arthur!", "Bar_bara!", "Craig!"])
            // A rowid test among AND-ed terms still restricts the region.
            XCTAssertEqual(
                try Player.filter([id == 2, score > 0].joined(operator: .and)).databaseRegion(db).description, "player(id,name,score,teamId)[2]")
        }
    }

    func testBitwiseOperators() throws {
        try makeDatabase().read { db in
            let score = Column("score")
            XCTAssertEqual(try sql(db, Player.filter(score & 2)), #"SELECT * FROM "player" WHERE "score" & ?"#)
            XCTAssertEqual(try sql(db, Player.filter(2 & (score & score))), #"SELECT * FROM "player" WHERE ? & "score" & "score""#)
            XCTAssertEqual(try sql(db, Player.select(~score)), #"SELECT ~"score" FROM "player""#)
            let values = try Row.fetchAll(db, Player.select(score & 4, score | 1, score << 1, score >> 1, ~score).order(Column("id")))
            XCTAssertEqual(
                values.map { [$0[0], $0[1], $0[2], $0[3], $0[4]] as [Int] }, [[4, 7, 12, 3, -7], [4, 13, 24, 6, -13], [0, 1, 0, 0, -1]])
            XCTAssertEqual(try Player.filter([score, 8.databaseValue].joined(operator: .bitwiseAnd)).fetchCount(db), 1)
            XCTAssertEqual(try Int.fetchOne(db, Player.select([score, 1.databaseValue].joined(operator: .bitwiseOr)).filter(Column("id") == 1)), 7)
        }
    }

    func testAggregatesWithAFilter() throws {
        try makeDatabase().read { db in
            let score = Column("score")
            XCTAssertEqual(
                try sql(db, Player.select(average(score, filter: score > 0))), #"SELECT AVG("score") FILTER (WHERE "score" > ?) FROM "player""#)
            let row = try XCTUnwrap(
                Row.fetchOne(
                    db,
                    Player.select(
                        count(score, filter: score > 0), max(score, filter: score < 10), min(score, filter: score > 0),
                        sum(score, filter: score > 0), total(score, filter: score > 100), average(score, filter: score > 0))))
            XCTAssertEqual(row[0] as Int, 2)
            XCTAssertEqual(row[1] as Int, 6)
            XCTAssertEqual(row[2] as Int, 6)
            XCTAssertEqual(row[3] as Int, 18)
            XCTAssertEqual(row[4] as Double, 0)
            XCTAssertEqual(row[5] as Double, 9)
        }
    }

    func testLikeWithEscape() throws {
        try makeDatabase().read { db in
            let name = Column("name")
            XCTAssertEqual(try sql(db, Player.filter(name.like("%foo", escape: "\\"))), #"SELECT * FROM "player" WHERE "name" LIKE ? ESCAPE ?"#)
            // `_` matches any character, unless escaped.
            XCTAssertEqual(try Player.filter(name.like("Bar_%")).fetchCount(db), 1)
            XCTAssertEqual(try Player.filter(name.like("Ar_%")).fetchCount(db), 1)
            XCTAssertEqual(try String.fetchAll(db, Player.select(name).filter(name.like("%\\_%", escape: "\\"))), ["Bar_bara"])
            XCTAssertEqual(try Player.filter(!name.like("%\\_%", escape: "\\")).fetchCount(db), 2)
        }
    }

    func testNegationNullAndCollationAsGRDBWritesThem() throws {
        try makeDatabase().read { db in
            let id = Column("id")
            let name = Column("name")
            let cases: [(SQLExpression, String)] = [
                (!(id == 1), #""id" <> ?"#),
                (!(id != 1), #""id" = ?"#),
                (!(id === 1), #""id" IS NOT ?"#),
                (!(id !== 1), #""id" IS ?"#),
                (!name.like("A%"), #""name" NOT LIKE ?"#),
                (![1, 2].contains(id), #""id" NOT IN (?, ?)"#),
                (!(id < 1), #"NOT ("id" < ?)"#),
                (nil == id, #""id" IS NULL"#),
                (nil != id, #""id" IS NOT NULL"#),
                (1 == id, #"? = "id""#),
                (1 != id, #"? <> "id""#),
                (1 === id, #"? IS "id""#),
                (true == id, #""id" = ?"#),
                (false != id, #""id" <> ?"#),
                (nil === id, #""id" IS NULL"#),
                (nil !== id, #""id" IS NOT NULL"#),
                ((1...3).contains(id), #""id" BETWEEN ? AND ?"#),
                (!(1...3).contains(id), #""id" NOT BETWEEN ? AND ?"#),
                (("A"..."M").contains(name.collating(.nocase)), #"("name" COLLATE NOCASE) BETWEEN ? AND ?"#),
                (("A"..."M").contains(name).collating(.nocase), #"("name" COLLATE NOCASE) BETWEEN ? AND ?"#),
                ([1].contains(id), #""id" = ?"#),
                (![1].contains(id), #""id" <> ?"#),
                (![Int]().contains(id), "1"),
                (["arthur"].contains(name).collating(.nocase), #""name" = ? COLLATE NOCASE"#),
                ([Int]().contains(id), "0"),
                (name.collating(.nocase) == "arthur", #""name" = ? COLLATE NOCASE"#),
                ("arthur" < name.collating(.nocase), #"? < "name" COLLATE NOCASE"#),
                (!(name.collating(.nocase) == "arthur"), #""name" <> ? COLLATE NOCASE"#),
                (["a", "b"].contains(name.collating(.nocase)), #"("name" COLLATE NOCASE) IN (?, ?)"#),
                (["a", "b"].contains(name).collating(.nocase), #"("name" COLLATE NOCASE) IN (?, ?)"#),
            ]
            for (expression, expected) in cases {
                XCTAssertEqual(try sql(db, Player.filter(expression)), #"SELECT * FROM "player" WHERE "# + expected)
            }
            // What they select.
            XCTAssertEqual(try String.fetchAll(db, Player.select(name).filter(name.collating(.nocase) == "ARTHUR")), ["Arthur"])
            XCTAssertEqual(
                try String.fetchAll(db, Player.select(name).filter(["ARTHUR", "craig"].contains(name).collating(.nocase)).order(name)),
                ["Arthur", "Craig"])
            XCTAssertEqual(try Player.filter(!(id == 1)).fetchCount(db), 2)
            XCTAssertEqual(try Player.filter(nil == Column("teamId")).fetchCount(db), 1)
            XCTAssertEqual(try Player.filter([Int]().contains(id)).fetchCount(db), 0)
            XCTAssertEqual(try Player.filter(![Int]().contains(id)).fetchCount(db), 3)
            XCTAssertEqual(try Player.filter((2...3).contains(id)).fetchCount(db), 2)
            XCTAssertEqual(try Player.filter(!(2...3).contains(id)).fetchCount(db), 1)
            XCTAssertEqual(try String.fetchAll(db, Player.select(name).filter(("a"..."b").contains(name).collating(.nocase)).order(name)), ["Arthur"])
            // One value: `=`, which no NULL equals, as `IN (NULL)`.
            XCTAssertEqual(try Player.filter([DatabaseValue.null].contains(Column("teamId"))).fetchCount(db), 0)
            XCTAssertEqual(try Player.filter(["ARTHUR"].contains(name).collating(.nocase)).fetchCount(db), 1)
        }
    }
}
