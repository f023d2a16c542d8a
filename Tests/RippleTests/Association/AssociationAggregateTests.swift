import Ripple
import XCTest

private struct AggregatedTeam: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "team"
    static let players = hasMany(TeamPlayer.self)
    var id: Int64
    var name: String
}

private struct TeamPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    enum Columns {
        static let score = Column(CodingKeys.score)
    }
    var id: Int64
    var teamId: Int64?
    var score: Int
}

private struct TeamInfo: Decodable, FetchableRecord, Equatable {
    var name: String
    var playerCount: Int
    var maxPlayerScore: Int?
    var hasNoPlayer: Bool
}

/// Aggregates of to-many associations: `annotated(with:)` and `having(_:)`.
final class AssociationAggregateTests: XCTestCase {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("team")
                t.column("score", .integer).notNull()
            }
            try AggregatedTeam(id: 1, name: "Reds").insert(db)
            try AggregatedTeam(id: 2, name: "Blues").insert(db)
            try AggregatedTeam(id: 3, name: "Greens").insert(db)
            try TeamPlayer(id: 1, teamId: 1, score: 100).insert(db)
            try TeamPlayer(id: 2, teamId: 1, score: 1000).insert(db)
            try TeamPlayer(id: 3, teamId: 2, score: 500).insert(db)
        }
        return dbQueue
    }

    func testAnnotatedWithAggregates() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let request =
                AggregatedTeam
                .annotated(with: AggregatedTeam.players.count, AggregatedTeam.players.max(Column("score")), AggregatedTeam.players.isEmpty)
                .orderByPrimaryKey()
            XCTAssertEqual(
                try request.makeSQL(db).sql,
                """
                SELECT "team".*, COUNT(DISTINCT "player"."id") AS "playerCount", MAX("player"."score") AS "maxPlayerScore", \
                COUNT(DISTINCT "player"."id") = ? AS "hasNoPlayer" \
                FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" \
                GROUP BY "team"."id" ORDER BY "team"."id"
                """)
            let infos = try request.asRequest(of: TeamInfo.self).fetchAll(db)
            XCTAssertEqual(
                infos,
                [
                    TeamInfo(name: "Reds", playerCount: 2, maxPlayerScore: 1000, hasNoPlayer: false),
                    TeamInfo(name: "Blues", playerCount: 1, maxPlayerScore: 500, hasNoPlayer: false),
                    TeamInfo(name: "Greens", playerCount: 0, maxPlayerScore: nil, hasNoPlayer: true),
                ])
        }
    }

    func testAggregatesOfComponents() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let rows = try Row.fetchAll(db, AggregatedTeam.annotated(with: AggregatedTeam.players.sum { $0.score }).orderByPrimaryKey())
            XCTAssertEqual(rows.map { $0["playerScoreSum"] as Int? }, [1100, 500, nil])
        }
    }

    func testHavingAggregates() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            XCTAssertEqual(
                try AggregatedTeam.having(AggregatedTeam.players.count >= 1).orderByPrimaryKey().fetchAll(db).map(\.name), ["Reds", "Blues"])
            XCTAssertEqual(try AggregatedTeam.having(AggregatedTeam.players.isEmpty).fetchAll(db).map(\.name), ["Greens"])
            XCTAssertEqual(try AggregatedTeam.having(AggregatedTeam.players.sum(Column("score")) > 600).fetchAll(db).map(\.name), ["Reds"])
            XCTAssertEqual(try AggregatedTeam.having(AggregatedTeam.players.count >= 1).fetchCount(db), 2)
        }
    }

    func testNegatedEmptinessIsACountAboveZero() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let notEmpty = "HAVING COUNT(DISTINCT \"player\".\"id\") > ?"
            XCTAssertTrue(try AggregatedTeam.having(!AggregatedTeam.players.isEmpty).makeSQL(db).sql.hasSuffix(notEmpty))
            XCTAssertTrue(try AggregatedTeam.having(AggregatedTeam.players.isEmpty == false).makeSQL(db).sql.hasSuffix(notEmpty))
            XCTAssertTrue(
                try AggregatedTeam.having(AggregatedTeam.players.isEmpty == true).makeSQL(db).sql
                    .hasSuffix("HAVING COUNT(DISTINCT \"player\".\"id\") = ?"))
            XCTAssertEqual(try AggregatedTeam.having(!AggregatedTeam.players.isEmpty).fetchCount(db), 2)
        }
    }

    func testAggregateOfAFilteredAssociationAndCustomKey() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let good = AggregatedTeam.players.filter(Column("score") > 200)
            let rows = try Row.fetchAll(db, AggregatedTeam.annotated(with: good.count.forKey("goodCount")).orderByPrimaryKey())
            XCTAssertEqual(rows.map { $0["goodCount"] as Int }, [1, 1, 0])
        }
    }

    /// `??` and `cast` keep the aggregate's name; other functions make an unnamed column.
    func testFunctionsOfAggregates() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let minScore = AggregatedTeam.players.min(Column("score"))
            let request =
                AggregatedTeam
                .annotated(with: minScore ?? 0, cast(AggregatedTeam.players.count, as: .real), abs(minScore), length(minScore))
                .orderByPrimaryKey()
            XCTAssertEqual(
                try request.makeSQL(db).sql,
                """
                SELECT "team".*, IFNULL(MIN("player"."score"), ?) AS "minPlayerScore", \
                CAST(COUNT(DISTINCT "player"."id") AS REAL) AS "playerCount", \
                ABS(MIN("player"."score")), LENGTH(MIN("player"."score")) \
                FROM "team" LEFT JOIN "player" ON "player"."teamId" = "team"."id" \
                GROUP BY "team"."id" ORDER BY "team"."id"
                """)
            let rows = try Row.fetchAll(db, request)
            XCTAssertEqual(rows.map { $0["minPlayerScore"] as Int }, [100, 500, 0])
            XCTAssertEqual(rows.map { $0["playerCount"] as DatabaseValue }, [(2.0).databaseValue, (1.0).databaseValue, (0.0).databaseValue])
            XCTAssertEqual(try Double.fetchOne(db, AggregatedTeam.select(cast(Column("id"), as: .real)).filter(key: 2)), 2.0)
        }
    }

    /// A view declares no foreign key: a given one refers to the table's primary key.
    func testViewBelongsToTableThroughGivenForeignKey() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE VIEW bestPlayer AS SELECT * FROM player WHERE score >= 500")
            let association = Table("bestPlayer").belongsTo(Table("team"), using: ForeignKey(["teamId"]))
            let request = Table("bestPlayer").joining(required: association.filter(Column("name") == "Reds"))
            XCTAssertEqual(
                try request.makeSQL(db).sql,
                """
                SELECT "bestPlayer".* FROM "bestPlayer" JOIN "team" ON ("team"."id" = "bestPlayer"."teamId") AND ("team"."name" = ?)
                """)
            XCTAssertEqual(try Row.fetchAll(db, request).map { $0["id"] as Int64 }, [2])
        }
    }
}
