import Foundation
import Ripple
import Testing
@testable import Players

@Suite("PlayerListModel")
@MainActor
struct PlayerListModelTests {
    /// Lets the main actor run until `condition` holds: later values come on the main
    /// actor, after the transaction that changed them.
    private func waitUntil(_ condition: () -> Bool) async {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline {
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    @Test func thePlayersAreThereAsSoonAsTheModelIs() throws {
        let appDatabase = try AppDatabase.empty()
        try appDatabase.createRandomPlayers(count: 3)
        let model = PlayerListModel(database: appDatabase)
        // .immediate scheduling: no wait.
        #expect(model.players.count == 3)
        #expect(model.error == nil)
    }

    @Test func theModelFollowsTheDatabase() async throws {
        let appDatabase = try AppDatabase.empty()
        let model = PlayerListModel(database: appDatabase)
        #expect(model.players.isEmpty)
        var player = Player(name: "Arthur", score: 10)
        try appDatabase.savePlayer(&player)
        await waitUntil { model.players.count == 1 }
        #expect(model.players == [player])
        try appDatabase.setScore(20, ofPlayer: player.id!)
        await waitUntil { model.players.first?.score == 20 }
        #expect(model.players.map(\.score) == [20])
        try appDatabase.deleteAllPlayers()
        await waitUntil { model.players.isEmpty }
        #expect(model.players.isEmpty)
    }

    @Test func changingTheOrderingRefetchesAtOnce() throws {
        let appDatabase = try AppDatabase.empty()
        for (name, score) in [("Barbara", 10), ("Arthur", 5)] {
            var player = Player(name: name, score: score)
            try appDatabase.savePlayer(&player)
        }
        let model = PlayerListModel(database: appDatabase)
        #expect(model.players.map(\.name) == ["Barbara", "Arthur"])
        model.ordering = .byName
        #expect(model.players.map(\.name) == ["Arthur", "Barbara"])
    }
}
