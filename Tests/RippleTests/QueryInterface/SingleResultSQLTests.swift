import XCTest

@testable import Ripple

/// `fetchOne` adds `LIMIT 1` unless the request yields one row at most already, as GRDB's
/// SQL does: a filter on a unique key, or an aggregate without grouping.
final class SingleResultSQLTests: XCTestCase {
    private func fetchOneSQL(_ makeRequest: (Database) throws -> QueryInterfaceRequest<Row>) throws -> String {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player(id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT, teamId INTEGER);
                    CREATE TABLE team(id INTEGER PRIMARY KEY);
                    CREATE TABLE membership(a INTEGER, b INTEGER, PRIMARY KEY (a, b));
                    CREATE VIEW playerView AS SELECT * FROM player;
                    INSERT INTO player VALUES (1, 'a@example.com', 'Arthur', NULL);
                    """)
            let recorder = SQLRecorder()
            db.trace { recorder.record($0.expandedDescription) }
            _ = try makeRequest(db).fetchOne(db)
            return recorder.statements.last ?? ""
        }
    }

    func testAUniqueKeyFilterNeedsNoLimit() throws {
        XCTAssertEqual(try fetchOneSQL { _ in Table("player").filter(key: 1) }, #"SELECT * FROM "player" WHERE "id" = 1"#)
        XCTAssertEqual(try fetchOneSQL { _ in Table("player").filter(Column("id") == 1) }, #"SELECT * FROM "player" WHERE "id" = 1"#)
        XCTAssertEqual(
            try fetchOneSQL { _ in Table("player").filter(Column("email") == "a@example.com") },
            #"SELECT * FROM "player" WHERE "email" = 'a@example.com'"#)
        XCTAssertEqual(
            try fetchOneSQL { _ in Table("player").filter(Column("email") == "a@example.com" && Column("name") == "Arthur") },
            #"SELECT * FROM "player" WHERE ("email" = 'a@example.com') AND ("name" = 'Arthur')"#)
        XCTAssertEqual(
            try fetchOneSQL { _ in Table("membership").filter(Column("a") == 1).filter(Column("b") == 2) },
            #"SELECT * FROM "membership" WHERE ("a" = 1) AND ("b" = 2)"#)
        XCTAssertEqual(try fetchOneSQL { _ in Table("player").filter(Column.rowID == 1) }, #"SELECT * FROM "player" WHERE "rowid" = 1"#)
    }

    func testOtherFiltersKeepTheLimit() throws {
        XCTAssertEqual(
            try fetchOneSQL { _ in Table("player").filter(Column("name") == "Arthur") }, #"SELECT * FROM "player" WHERE "name" = 'Arthur' LIMIT 1"#)
        XCTAssertEqual(
            try fetchOneSQL { _ in Table("player").filter(Column("id") == 1 || Column("id") == 2) },
            #"SELECT * FROM "player" WHERE ("id" = 1) OR ("id" = 2) LIMIT 1"#)
        XCTAssertEqual(try fetchOneSQL { _ in Table("player").filter(Column("id") > 1) }, #"SELECT * FROM "player" WHERE "id" > 1 LIMIT 1"#)
        XCTAssertEqual(try fetchOneSQL { _ in Table("membership").filter(Column("a") == 1) }, #"SELECT * FROM "membership" WHERE "a" = 1 LIMIT 1"#)
        // A view has no unique key.
        XCTAssertEqual(try fetchOneSQL { _ in Table("playerView").filter(Column("id") == 1) }, #"SELECT * FROM "playerView" WHERE "id" = 1 LIMIT 1"#)
        XCTAssertEqual(try fetchOneSQL { _ in Table("player").all() }, #"SELECT * FROM "player" LIMIT 1"#)
    }

    func testAnAggregateWithoutGroupingNeedsNoLimit() throws {
        XCTAssertEqual(try fetchOneSQL { _ in Table("player").select(max(Column("id"))) }, #"SELECT MAX("id") FROM "player""#)
        XCTAssertEqual(try fetchOneSQL { _ in Table("player").select(count(Column("id"))) }, #"SELECT COUNT("id") FROM "player""#)
        // An aggregate inside an expression, or beside other columns: still one row.
        XCTAssertEqual(try fetchOneSQL { _ in Table("player").select(max(Column("id")) + 1) }, #"SELECT MAX("id") + 1 FROM "player""#)
        XCTAssertEqual(try fetchOneSQL { _ in Table("player").select(abs(min(Column("id")))) }, #"SELECT ABS(MIN("id")) FROM "player""#)
        XCTAssertEqual(
            try fetchOneSQL { _ in Table("player").select(Column("name"), max(Column("id")) > 2) }, #"SELECT "name", MAX("id") > 2 FROM "player""#)
        // MAX of two arguments is a scalar function: a row per row.
        XCTAssertEqual(
            try fetchOneSQL { _ in Table("player").select(max(Column("id"), Column("id"))) }, #"SELECT MAX("id", "id") FROM "player" LIMIT 1"#)
        XCTAssertEqual(
            try fetchOneSQL { _ in Table("player").select(max(Column("id"))).group(Column("name")) },
            #"SELECT MAX("id") FROM "player" GROUP BY "name" LIMIT 1"#)
    }

    func testTheRequestsOwnLimitAndOffsetStay() throws {
        XCTAssertEqual(try fetchOneSQL { _ in Table("player").limit(5) }, #"SELECT * FROM "player" LIMIT 5"#)
        XCTAssertEqual(try fetchOneSQL { _ in Table("player").limit(5, offset: 2) }, #"SELECT * FROM "player" LIMIT 5 OFFSET 2"#)
        XCTAssertEqual(
            try fetchOneSQL { _ in Table("player").filter(key: 1).limit(3) }, #"SELECT * FROM "player" WHERE "id" = 1 LIMIT 3"#)
    }

    func testAJoinKeepsTheLimit() throws {
        XCTAssertEqual(
            try fetchOneSQL { _ in
                Table("player").filter(Column("id") == 1).joining(optional: Table("player").belongsTo(Table("team"), using: ForeignKey(["teamId"])))
            },
            #"SELECT "player".* FROM "player" LEFT JOIN "team" ON "team"."id" = "player"."teamId" WHERE "player"."id" = 1 LIMIT 1"#)
    }
}
