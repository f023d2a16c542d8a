import XCTest

@testable import Ripple

final class DatabaseRegionTests: XCTestCase {
    private func region(_ dbQueue: DatabaseQueue, _ request: some DatabaseRegionConvertible) throws -> String {
        try dbQueue.read { try request.databaseRegion($0).description }
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE VIEW playerName AS SELECT name FROM player;
                    CREATE TABLE item (code TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID;
                    """)
        }
        return dbQueue
    }

    func testTableAndColumnRegions() throws {
        let dbQueue = try makeDatabase()
        XCTAssertEqual(try region(dbQueue, Player.all()), "player(id,name,score,teamId)")
        XCTAssertEqual(try region(dbQueue, Player.select(\.score)), "player(score)")
        XCTAssertEqual(try region(dbQueue, SQLRequest<Row>("SELECT score FROM player")), "player(score)")
        XCTAssertEqual(try region(dbQueue, Table("player")), "player(*)")
        XCTAssertEqual(try region(dbQueue, DatabaseRegion.fullDatabase), "full database")
    }

    func testAggregateRegions() throws {
        let dbQueue = try makeDatabase()
        // Counting reads the table's rows but none of its columns.
        XCTAssertEqual(try region(dbQueue, SQLRequest<Row>("SELECT COUNT(*) FROM player")), "player()")
        XCTAssertEqual(try region(dbQueue, Player.select(max(Player.score))), "player(score)")
    }

    func testJoinViewAndSubqueryRegions() throws {
        let dbQueue = try makeDatabase()
        XCTAssertEqual(
            try region(dbQueue, SQLRequest<Row>("SELECT player.name, team.name FROM player JOIN team ON team.id = player.teamId")),
            "player(name,teamId),team(id,name)")
        XCTAssertEqual(try region(dbQueue, SQLRequest<Row>("SELECT * FROM playerName")), "player(name),playerName(name)")
        XCTAssertEqual(
            try region(dbQueue, SQLRequest<Row>("SELECT name FROM player WHERE teamId IN (SELECT id FROM team WHERE name = 'Blue')")),
            "player(name,teamId),team(id,name)")
    }

    func testNamesAreCaseInsensitiveAndDescribedAsFirstSpelled() throws {
        let dbQueue = try makeDatabase()
        // The schema's spelling, whatever the statement's.
        XCTAssertEqual(try region(dbQueue, SQLRequest<Row>("SELECT TEAMID FROM PLAYER")), "player(teamId)")
        let spelled = DatabaseRegion(table: "Player", columns: ["teamId", "Name"])
        let lowercase = DatabaseRegion(table: "player", columns: ["teamid", "name"])
        XCTAssertEqual(spelled, lowercase)
        XCTAssertEqual(spelled.hashValue, lowercase.hashValue)
        XCTAssertEqual(spelled.description, "Player(Name,teamId)")
        XCTAssertEqual(lowercase.description, "player(name,teamid)")
        // A union keeps the first spelling of each name, and adds the new ones.
        XCTAssertEqual(lowercase.union(spelled).description, "player(name,teamid)")
        XCTAssertEqual(spelled.union(DatabaseRegion(table: "PLAYER", columns: ["SCORE"])).description, "Player(Name,SCORE,teamId)")
        XCTAssertEqual(spelled.intersection(DatabaseRegion(table: "player", columns: ["teamid"])).description, "Player(teamId)")
        XCTAssertEqual(spelled.ignoringRowIDs().description, "Player(Name,teamId)")
        // Sorted by their spelling, as GRDB sorts them.
        XCTAssertEqual(
            DatabaseRegion(table: "author", columns: ["authorId", "author_name"]).union(DatabaseRegion(table: "Player")).description,
            "Player(*),author(authorId,author_name)")
        XCTAssertTrue(spelled.isModified(byChangeOf: "PLAYER", kind: .update(["TEAMID"])))
        XCTAssertFalse(spelled.isModified(byChangeOf: "PLAYER", kind: .update(["score"])))
    }

    func testRowIDRegions() throws {
        let dbQueue = try makeDatabase()
        XCTAssertEqual(try region(dbQueue, Player.filter(key: 1)), "player(id,name,score,teamId)[1]")
        XCTAssertEqual(try region(dbQueue, Player.filter(keys: [1, 2])), "player(id,name,score,teamId)[1,2]")
        XCTAssertEqual(try region(dbQueue, Player.filter(Column("id") == 3 && Player.score > 0)), "player(id,name,score,teamId)[3]")
        XCTAssertEqual(try region(dbQueue, Player.filter(Column("id") == 3 || Player.score > 0)), "player(id,name,score,teamId)")
        XCTAssertEqual(try region(dbQueue, Player.filter(Column("id") === 3)), "player(id,name,score,teamId)[3]")
        XCTAssertEqual(try region(dbQueue, Player.filter(Column("id") == 1 || Column.rowID == 2)), "player(id,name,score,teamId)[1,2]")
        XCTAssertEqual(
            try region(dbQueue, Player.filter([1, 2].contains(Column("id")) || [2, 3].contains(Column.rowID))), "player(id,name,score,teamId)[1,2,3]")
        XCTAssertEqual(
            try region(dbQueue, Player.filter((Column("id") == 1 && Player.score > 0) || Column("id") == 2)), "player(id,name,score,teamId)[1,2]")
        // Not a rowid table: no rowids.
        XCTAssertEqual(try region(dbQueue, Table("item").filter(key: "x")), "item(code,label)")
    }

    func testRequestsThatMatchNoRowHaveAnEmptyRegion() throws {
        let dbQueue = try makeDatabase()
        XCTAssertEqual(try region(dbQueue, Player.none()), "empty")
        XCTAssertEqual(try region(dbQueue, Player.filter(keys: [Int]())), "empty")
        XCTAssertEqual(try region(dbQueue, Player.filter([Int]().contains(Column("id")))), "empty")
        XCTAssertEqual(try region(dbQueue, Player.filter([String]().contains(Column("name")))), "empty")
        XCTAssertEqual(try region(dbQueue, Player.filter(Column("id") == 1 && Column("id") == 2)), "empty")
        // A rowid is never NULL.
        XCTAssertEqual(try region(dbQueue, Player.filter(Column("id") == nil)), "empty")
        XCTAssertEqual(try region(dbQueue, Player.filter(nil === Column("id"))), "empty")
        XCTAssertEqual(try region(dbQueue, Player.filter(key: 1).filter(key: 2)), "empty")
        XCTAssertEqual(try region(dbQueue, Player.filter(Player.score > 0 && [Int]().contains(Player.score))), "empty")
        // Only a term that is false for every row empties the region.
        XCTAssertEqual(try region(dbQueue, Player.filter(Player.score > 0 || [Int]().contains(Player.score))), "player(id,name,score,teamId)")
        XCTAssertEqual(try region(dbQueue, Player.filter(![Int]().contains(Player.score))), "player(id,name,score,teamId)")
        try dbQueue.read { db in
            XCTAssertEqual(try Player.filter([Int]().contains(Player.score)).fetchCount(db), 0)
        }
    }

    func testRegionAlgebraAndModificationChecks() {
        let scores = DatabaseRegion(table: "player", columns: ["score"])
        let names = DatabaseRegion(table: "player", columns: ["name"])
        let team = DatabaseRegion(table: "team")
        XCTAssertEqual(scores.union(names).description, "player(name,score)")
        XCTAssertEqual(scores.union(team).description, "player(score),team(*)")
        XCTAssertEqual(scores.intersection(names).description, "player()")
        XCTAssertTrue(scores.intersection(team).isEmpty)
        XCTAssertTrue(DatabaseRegion().isEmpty)
        XCTAssertEqual(DatabaseRegion.fullDatabase.union(team), .fullDatabase)
        XCTAssertEqual(DatabaseRegion.fullDatabase.intersection(team), team)
        XCTAssertTrue(scores.isModified(byChangeOf: "PLAYER", kind: .update(["Score"])))
        XCTAssertFalse(scores.isModified(byChangeOf: "player", kind: .update(["name"])))
        XCTAssertTrue(scores.isModified(byChangeOf: "player", kind: .insert))
        XCTAssertFalse(scores.isModified(byChangeOf: "team", kind: .delete))
        let row1 = DatabaseRegion(table: "player", rowIDs: [1])
        XCTAssertTrue(row1.isModified(byChangeOf: "player", kind: .delete, rowID: 1))
        XCTAssertFalse(row1.isModified(byChangeOf: "player", kind: .delete, rowID: 2))
        XCTAssertTrue(row1.isModified(byChangeOf: "player", kind: .delete))
        XCTAssertEqual(row1.union(DatabaseRegion(table: "player", rowIDs: [2])).description, "player(*)[1,2]")
        XCTAssertEqual(row1.union(DatabaseRegion(table: "player")).description, "player(*)")
        XCTAssertEqual(row1.ignoringRowIDs().description, "player(*)")
    }

    /// As `isModified(byChangeOf:kind:)`: an update of columns the region does not hold
    /// does not touch it (GRDB's `SelectStatementTests.testRegion`, where a
    /// `TransactionObserver` filters events with it).
    func testIsModifiedByEventsOfKind() {
        let selection = DatabaseRegion(table: "table1", columns: ["a", "id", "id3"])
        XCTAssertFalse(selection.isModified(byEventsOfKind: .update(tableName: "table1", columnNames: ["b"])))
        XCTAssertTrue(selection.isModified(byEventsOfKind: .update(tableName: "TABLE1", columnNames: ["b", "A"])))
        XCTAssertTrue(selection.isModified(byEventsOfKind: .insert(tableName: "table1")))
        XCTAssertTrue(selection.isModified(byEventsOfKind: .delete(tableName: "table1")))
        XCTAssertFalse(selection.isModified(byEventsOfKind: .insert(tableName: "table2")))
        // Rows only (`COUNT(*)`): inserts and deletes, no update.
        let count = DatabaseRegion(table: "table1", columns: [])
        XCTAssertFalse(count.isModified(byEventsOfKind: .update(tableName: "table1", columnNames: ["a"])))
        XCTAssertTrue(count.isModified(byEventsOfKind: .delete(tableName: "table1")))
        // All columns, some rows, the full database.
        XCTAssertTrue(DatabaseRegion(table: "table1").isModified(byEventsOfKind: .update(tableName: "table1", columnNames: ["b"])))
        XCTAssertTrue(DatabaseRegion(table: "table1", rowIDs: [1]).isModified(byEventsOfKind: .update(tableName: "table1", columnNames: ["b"])))
        XCTAssertTrue(DatabaseRegion.fullDatabase.isModified(byEventsOfKind: .update(tableName: "t", columnNames: ["b"])))
        XCTAssertFalse(DatabaseRegion().isModified(byEventsOfKind: .insert(tableName: "t")))
    }
}
