// Compiled twice, in Swift 6 and Swift 5 (through a link) language modes: associations as
// GRDB's documentation and tests write them.
import Foundation
import Ripple
import XCTest

private struct Team: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "teams"
    static let players = hasMany(Player.self)
    static let awards = hasMany(Award.self)
    var id: Int64
    var name: String
    enum Columns {
        static let name = Column(CodingKeys.name)
    }
}

private struct Player: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "players"
    static let team = belongsTo(Team.self)
    static let awards = hasMany(Award.self, through: team, using: Team.awards)
    var id: Int64
    var teamId: Int64?
    var name: String
    enum Columns {
        static let name = Column(CodingKeys.name)
    }
}

private struct Award: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "awards"
    var id: Int64
    var teamId: Int64?
    var name: String
}

private struct PlayerInfo: Decodable, FetchableRecord {
    var player: Player
    var team: Team?
}

private struct TeamInfo: Decodable, FetchableRecord {
    var team: Team
    var players: [Player]
    var playerCount: Int
}

private struct PlayerWithTeam: FetchableRecord {
    var player: Player
    var team: Team
    init(row: Row) throws {
        player = try Player(row: row)
        team = row["team"]
    }
}

final class GRDBSpellingAssociationTests: XCTestCase {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "teams") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
            }
            try db.create(table: "players") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("team")
                t.column("name", .text)
            }
            try db.create(table: "awards") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("team")
                t.column("name", .text)
            }
            try Team(id: 1, name: "Reds").insert(db)
            try Player(id: 1, teamId: 1, name: "Arthur").insert(db)
            try Player(id: 2, teamId: nil, name: "Barbara").insert(db)
            try Award(id: 1, teamId: 1, name: "Cup").insert(db)
        }
        return dbQueue
    }

    func testIncludingJoiningAndDecoding() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let infos =
                try Player
                .including(optional: Player.team)
                .order(Player.Columns.name)
                .asRequest(of: PlayerInfo.self)
                .fetchAll(db)
            XCTAssertEqual(infos.map(\.team?.name), ["Reds", nil])
            let withTeam = try Player.including(required: Player.team).asRequest(of: PlayerWithTeam.self).fetchAll(db)
            XCTAssertEqual(withTeam.map(\.team.name), ["Reds"])
            let teamAlias = TableAlias()
            let reds =
                try Player
                .joining(required: Player.team.aliased(teamAlias))
                .filter(teamAlias[Team.Columns.name] == "Reds")
                .fetchAll(db)
            XCTAssertEqual(reds.map(\.name), ["Arthur"])
            let named = try Player.including(required: Player.team.select { [$0.name] }.filter { $0.name != nil }).fetchCount(db)
            XCTAssertEqual(named, 1)
        }
    }

    func testPrefetchThroughAndAggregates() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let teams =
                try Team
                .including(all: Team.players.orderByPrimaryKey())
                .annotated(with: Team.players.count)
                .asRequest(of: TeamInfo.self)
                .fetchAll(db)
            XCTAssertEqual(teams.map(\.playerCount), [1])
            XCTAssertEqual(teams.first?.players.map(\.name), ["Arthur"])
            let player = try XCTUnwrap(Player.fetchOne(db, key: 1))
            XCTAssertEqual(try player.request(for: Player.awards).fetchAll(db).map(\.name), ["Cup"])
            XCTAssertEqual(try Team.having(Team.players.count > 0 && Team.awards.isEmpty == false).fetchCount(db), 1)
            let row = try XCTUnwrap(Row.fetchOne(db, Team.including(all: Team.players)))
            let players: [Player] = row["players"]
            XCTAssertEqual(players.count, 1)
            let region = try Team.including(all: Team.players).makePreparedRequest(db, forSingleResult: false).statement.databaseRegion
            // As GRDB's: the statement of a prefetching request tells the prefetched tables.
            XCTAssertEqual(region.tableNames, ["players", "teams"])
        }
    }

    func testFunctionsOfAggregatesAndCast() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let request = Team.annotated(with: Team.players.min { $0.name } ?? "none", cast(Team.players.count, as: .real))
            let row = try XCTUnwrap(Row.fetchOne(db, request))
            XCTAssertEqual(row["minPlayerName"] as String, "Arthur")
            XCTAssertEqual(row["playerCount"] as Double, 1.0)
            XCTAssertEqual(try Double.fetchOne(db, Team.select(cast(Team.Columns.name, as: Database.StorageClass.integer))), 0)
            XCTAssertEqual(try Row.fetchOne(db, Team.select(Team.Columns.name, 1.databaseValue))?.count, 2)
            let teamAlias = TableAlias()
            XCTAssertEqual(
                try Player.joining(optional: Player.team.aliased(teamAlias)).filter(!teamAlias.exists).fetchAll(db).map(\.name), ["Barbara"])
        }
    }
}
