import Foundation
import Ripple
import XCTest

/// Requests as expressions: scalar subqueries, `contains` (IN), `exists()` (EXISTS),
/// correlated with the aliases of the outer request; the SQL GRDB writes, the rows SQLite
/// gives, and the region observations track.
final class SubqueryTests: XCTestCase {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO team (id, name) VALUES (1, 'Red'), (2, 'Blue'), (3, 'Empty');
                    INSERT INTO player (id, name, score, teamId)
                    VALUES (1, 'Arthur', 6, NULL), (2, 'Barbara', 12, 1), (3, 'Craig', 12, 2), (4, 'Diane', 3, 1);
                    """)
        }
        return dbQueue
    }

    private func names(_ db: Database, _ request: QueryInterfaceRequest<Player>) throws -> [String] {
        try request.order(Column("id")).fetchAll(db).map(\.name)
    }

    func testScalarSubquery() throws {
        try makeDatabase().read { db in
            let best = Player.select(max(Column("score")))
            let request = Player.filter(Column("score") == best)
            XCTAssertEqual(
                try request.makeSQL(db).sql, #"SELECT * FROM "player" WHERE "score" = (SELECT MAX("score") FROM "player")"#)
            XCTAssertEqual(try names(db, request), ["Barbara", "Craig"])
            // Nested, with arguments bound in order.
            let teamScores = Player.select(Column("score")).filter(Column("teamId") == 1 && Column("score") > 5)
            let above = Player.filter(Column("score") >= teamScores && Column("id") != 2)
            XCTAssertEqual(
                try above.makeSQL(db).sql,
                #"SELECT * FROM "player" WHERE ("score" >= (SELECT "score" FROM "player" WHERE ("teamId" = ?) AND ("score" > ?))) AND ("id" <> ?)"#
            )
            XCTAssertEqual(try above.makeSQL(db).arguments, [1, 5, 2])
            XCTAssertEqual(try names(db, above), ["Craig"])
        }
    }

    func testContains() throws {
        try makeDatabase().read { db in
            let redPlayerIds = Player.select(Column("id")).filter(Column("teamId") == 1)
            let request = Player.filter(redPlayerIds.contains(Column("id")))
            XCTAssertEqual(
                try request.makeSQL(db).sql,
                #"SELECT * FROM "player" WHERE "id" IN (SELECT "id" FROM "player" WHERE "teamId" = ?)"#)
            XCTAssertEqual(try names(db, request), ["Barbara", "Diane"])
            let others = Player.filter(!redPlayerIds.contains(Column("id")))
            XCTAssertEqual(
                try others.makeSQL(db).sql,
                #"SELECT * FROM "player" WHERE "id" NOT IN (SELECT "id" FROM "player" WHERE "teamId" = ?)"#)
            XCTAssertEqual(try names(db, others), ["Arthur", "Craig"])
            // A raw SQL request is a subquery too.
            let sqlRequest = SQLRequest<Int64>(sql: "SELECT teamId FROM player WHERE score > ?", arguments: [10])
            XCTAssertEqual(
                try Team.filter(sqlRequest.contains(Column("id"))).order(Column("id")).fetchAll(db).map(\.name), ["Red", "Blue"])
        }
    }

    func testCorrelatedExists() throws {
        try makeDatabase().read { db in
            // An unnamed alias: the outer table's name.
            let team = TableAlias()
            let players = Player.filter(Column("teamId") == team[Column("id")])
            let teams = Team.aliased(team).filter(players.exists())
            XCTAssertEqual(
                try teams.makeSQL(db).sql,
                #"SELECT * FROM "team" WHERE EXISTS (SELECT * FROM "player" WHERE "teamId" = "team"."id")"#)
            XCTAssertEqual(try teams.order(Column("id")).fetchAll(db).map(\.name), ["Red", "Blue"])
            let emptyTeams = Team.aliased(team).filter(!players.exists())
            XCTAssertEqual(
                try emptyTeams.makeSQL(db).sql,
                #"SELECT * FROM "team" WHERE NOT EXISTS (SELECT * FROM "player" WHERE "teamId" = "team"."id")"#)
            XCTAssertEqual(try emptyTeams.fetchAll(db).map(\.name), ["Empty"])

            // A named alias, on the same table as the subquery's.
            let outer = TableAlias(name: "p")
            let better = Player.filter(Column("score") > outer[Column("score")])
            let best = Player.aliased(outer).filter(!better.exists())
            XCTAssertEqual(
                try best.makeSQL(db).sql,
                #"SELECT "p".* FROM "player" "p" WHERE NOT EXISTS (SELECT * FROM "player" WHERE "score" > "p"."score")"#)
            XCTAssertEqual(try best.fetchAll(db).map(\.name).sorted(), ["Barbara", "Craig"])
        }
    }

    func testSubqueryReadsTheAliasNamesOfTheOuterJoins() throws {
        try makeDatabase().read { db in
            // Two teams in the outer request: the subquery reads the joined one by its SQL name.
            struct Member: TableRecord {
                static let databaseTableName = "player"
                static let team = belongsTo(Team.self)
            }
            let teamAlias = TableAlias()
            let teammates = Player.select(count(Column("id"))).filter(Column("teamId") == teamAlias[Column("id")])
            let request = Member.joining(required: Member.team.aliased(teamAlias)).filter(teammates > 1).asRequest(of: Row.self)
            XCTAssertEqual(
                try request.makeSQL(db).sql,
                """
                SELECT "player".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" \
                WHERE (SELECT COUNT("id") FROM "player" WHERE "teamId" = "team"."id") > ?
                """)
            XCTAssertEqual(try request.fetchAll(db).map { $0["name"] as String }.sorted(), ["Barbara", "Diane"])
        }
    }

    func testBatchChangesWithSubqueries() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let red = Team.select(Column("id")).filter(Column("name") == "Red")
            XCTAssertEqual(try Player.filter(red.contains(Column("teamId"))).updateAll(db, Column("score").set(to: 0)), 2)
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id"), [6, 0, 12, 0])
            XCTAssertEqual(try Player.filter(Column("score") < Player.select(max(Column("score")))).deleteAll(db), 3)
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM player"), ["Craig"])
        }
    }

    func testASubqueryThatFailsFailsItsRequest() throws {
        try makeDatabase().write { db in
            // The subquery needs the primary key of a view, which has none.
            try db.execute(sql: "CREATE TEMP VIEW teamView AS SELECT * FROM team")
            let keys = Table("teamView").filter(key: 1).select(Column("id"))
            let request = Player.filter(keys.contains(Column("teamId")))
            XCTAssertThrowsError(try request.fetchAll(db)) { error in
                XCTAssertTrue("\(error)".contains("view teamView has no primary key"), "\(error)")
            }
        }
    }

    func testRequestsInSQLLiterals() throws {
        try makeDatabase().read { db in
            // Written without parentheses, as GRDB does.
            let best = Player.select(max(Column("score")))
            let request: SQLRequest<String> = "SELECT name FROM player WHERE score = (\(best)) ORDER BY id"
            XCTAssertEqual(request.sql, #"SELECT name FROM player WHERE score = (SELECT MAX("score") FROM "player") ORDER BY id"#)
            XCTAssertEqual(try request.fetchAll(db), ["Barbara", "Craig"])
            let ids = SQLRequest<Int64>(sql: "SELECT id FROM team WHERE name = ?", arguments: ["Red"])
            XCTAssertEqual(
                try String.fetchAll(db, SQLRequest<String>("SELECT name FROM player WHERE teamId IN (\(ids)) ORDER BY id")), ["Barbara", "Diane"])
            let redIds = Team.select(Column("id")).filter(Column("name") == "Red")
            let arguments = SQLRequest<String>("SELECT name FROM player WHERE teamId IN (\(redIds)) AND score > \(5)")
            XCTAssertEqual(arguments.arguments, ["Red", 5])
            XCTAssertEqual(try arguments.fetchAll(db), ["Barbara"])
            // SQL literals are written without a connection: a request that needs the schema
            // fails to compile, saying why.
            let keyed = Team.filter(key: 1).select(Column("id"))
            XCTAssertThrowsError(try String.fetchAll(db, SQLRequest<String>("SELECT name FROM player WHERE teamId IN (\(keyed))"))) { error in
                XCTAssertTrue("\(error)".contains("the SQL of this request needs the schema"), "\(error)")
            }
        }
    }

    func testObservationTracksTheTablesOfSubqueries() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE other (id INTEGER PRIMARY KEY)") }
        // Players of teams named Red: the team table is read by the subquery only.
        let red = Team.select(Column("id")).filter(Column("name") == "Red")
        let request = Player.filter(red.contains(Column("teamId"))).order(Column("id"))
        let region = try dbQueue.read { try request.databaseRegion($0) }
        XCTAssertTrue(region.description.contains("team("), region.description)

        let values = ValueCollector<[String]>()
        let cancellable = ValueObservation.tracking { try request.fetchAll($0).map(\.name) }
            .start(in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "values")), onError: { XCTFail("\($0)") }) {
                values.append($0)
            }
        defer { cancellable.cancel() }
        values.wait { $0.count == 1 }
        // Ground truth after each commit: what a plain SQL query reads.
        func truth() throws -> [String] {
            try dbQueue.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM player WHERE teamId IN (SELECT id FROM team WHERE name = 'Red') ORDER BY id")
            }
        }
        XCTAssertEqual(values.values, [try truth()])
        // A change to the subquery's table only.
        try dbQueue.write { try $0.execute(sql: "UPDATE team SET name = 'Red' WHERE id = 2") }
        let expected = try truth()
        XCTAssertEqual(expected, ["Barbara", "Craig", "Diane"])
        values.wait { $0.last == expected }
        // A change to a table that no query of the request reads: no fetch.
        let count = values.values.count
        try dbQueue.write { try $0.execute(sql: "INSERT INTO other DEFAULT VALUES") }
        // A change to the subquery's table that changes no row of the result: a fetch.
        try dbQueue.write { try $0.execute(sql: "UPDATE team SET name = 'Red' WHERE id = 1") }
        // The last one: notified after all the others.
        try dbQueue.write { try $0.execute(sql: "UPDATE team SET name = 'Blue' WHERE id = 2") }
        values.wait { $0.last == ["Barbara", "Diane"] }
        XCTAssertEqual(try truth(), ["Barbara", "Diane"])
        XCTAssertEqual(values.values.count, count + 2, "the insert into other was not told")
    }
}
