import Foundation
import Ripple
import Testing
@testable import Players

@Suite("AppDatabase")
struct AppDatabaseTests {
    @Test func theMigrationsCreateThePlayerTable() throws {
        let appDatabase = try AppDatabase.empty()
        try appDatabase.reader.read { (db: Database) throws in
            #expect(try db.tableExists("player"))
            let columns = try db.columns(in: "player").map(\.name)
            #expect(columns == ["id", "name", "score"])
            #expect(try db.indexes(on: "player").map(\.name) == ["player_on_score"])
        }
    }

    @Test func savingAPlayerSetsItsID() throws {
        let appDatabase = try AppDatabase.empty()
        var player = Player(name: "Arthur", score: 100)
        try appDatabase.savePlayer(&player)
        #expect(player.id != nil)
        player.score = 200
        try appDatabase.savePlayer(&player)
        let players = try appDatabase.reader.read { db in try Player.fetchAll(db) }
        #expect(players == [player])
    }

    @Test func aPlayerWithoutANameIsRefused() throws {
        let appDatabase = try AppDatabase.empty()
        var player = Player(name: "  ", score: 0)
        #expect(throws: AppDatabase.ValidationError.missingName) {
            try appDatabase.savePlayer(&player)
        }
        #expect(try appDatabase.reader.read { db in try Player.fetchCount(db) } == 0)
    }

    @Test func deletions() throws {
        let appDatabase = try AppDatabase.empty()
        try appDatabase.createRandomPlayers(count: 5)
        let ids = try appDatabase.reader.read { db in try Player.fetchAll(db).compactMap(\.id) }
        try appDatabase.deletePlayers(ids: Array(ids.prefix(2)))
        #expect(try appDatabase.reader.read { db in try Player.fetchCount(db) } == 3)
        try appDatabase.deleteAllPlayers()
        #expect(try appDatabase.reader.read { db in try Player.isEmpty(db) })
    }

    @Test func settingAScore() throws {
        let appDatabase = try AppDatabase.empty()
        var player = Player(name: "Barbara", score: 10)
        try appDatabase.savePlayer(&player)
        try appDatabase.setScore(42, ofPlayer: player.id!)
        #expect(try appDatabase.reader.read { db in try Player.fetchOne(db, key: player.id!)?.score } == 42)
        // An unknown player: nothing happens.
        try appDatabase.setScore(1, ofPlayer: 999)
    }

    @Test func requestsOrderPlayers() throws {
        let appDatabase = try AppDatabase.empty()
        for (name, score) in [("craig", 20), ("Arthur", 30), ("barbara", 30)] {
            var player = Player(name: name, score: score)
            try appDatabase.savePlayer(&player)
        }
        try appDatabase.reader.read { (db: Database) throws in
            #expect(try Player.orderedByName().fetchAll(db).map(\.name) == ["Arthur", "barbara", "craig"])
            #expect(try Player.orderedByScore().fetchAll(db).map(\.name) == ["Arthur", "barbara", "craig"])
            #expect(try Player.filter { $0.score > 25 }.fetchCount(db) == 2)
        }
    }

    @Test func aDatabaseFileGoesOnMigratingWhenReopened() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("Players-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        do {
            let appDatabase = try AppDatabase.open(path: path)
            var player = Player(name: "Arthur", score: 1)
            try appDatabase.savePlayer(&player)
        }
        let reopened = try AppDatabase.open(path: path)
        try reopened.reader.read { (db: Database) throws in
            #expect(try Player.fetchCount(db) == 1)
            let applied = try AppDatabase.migrator.appliedMigrations(db)
            #expect(applied == ["v1", "v2"])
        }
    }
}
