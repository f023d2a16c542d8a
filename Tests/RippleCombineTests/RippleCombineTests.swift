import Dispatch
import Foundation
import OpenCombineShim
import Ripple
import RippleCombine
import XCTest

private struct Player: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64?
    var name: String
    var score = 0
    init(id: Int64? = nil, name: String, score: Int = 0) {
        self.id = id
        self.name = name
        self.score = score
    }
}

private struct Team: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
}

final class RippleCombineTests: XCTestCase {
    private let scheduler = DispatchQueue(label: "RippleCombineTests")

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT NOT NULL DEFAULT 0);
                    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    """)
        }
        return dbQueue
    }

    func testRequestChanges() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { try Player(name: "Craig").insert($0) }
        let printed = Box<String>()
        let request = Player.all()
        let cancellable = request.combine.changes(in: dbQueue)
            .sink(
                receiveCompletion: { _ in },
                receiveValue: { (db: Database) in
                    printed.append("Players table has changed.")
                })
        XCTAssertEqual(printed.values.count, 1, "startImmediately: emitted right upon subscription")
        try dbQueue.inDatabase { db in
            _ = try Player.deleteAll(db)
            // Prints "Players table has changed."
        }
        try dbQueue.inTransaction { db in
            try Player(name: "Arthur").insert(db)
            try Player(name: "Barbara").insert(db)
            return .commit
            // Prints "Players table has changed."
        }
        XCTAssertEqual(printed.values.count, 3)
        try dbQueue.inDatabase { db in try db.execute(sql: "INSERT INTO team (id, name) VALUES (1, 'Blue')") }
        XCTAssertEqual(printed.values.count, 3, "unrelated table")
        cancellable.cancel()
    }

    func testSQLRequestChanges() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { try Player(name: "Craig").insert($0) }
        let printed = Box<Int>()
        let cancellable = SQLRequest<Row>("SELECT * FROM player").combine.changes(in: dbQueue, startImmediately: false)
            .sink(receiveCompletion: { _ in }, receiveValue: { _ in printed.append(1) })
        try dbQueue.inDatabase { db in try db.execute(sql: "DELETE FROM player") }
        XCTAssertEqual(printed.values.count, 1)
        cancellable.cancel()
    }

    func testFetchCount() throws {
        let dbQueue = try makeDatabase()
        let counts = Box<Int>()
        let cancellable = Player.all().combine.fetchCount(in: dbQueue, scheduler: scheduler)
            .sink(receiveCompletion: { _ in }, receiveValue: { count in counts.append(count) })
        counts.wait { $0 == [0] }
        try dbQueue.inTransaction { db in
            _ = try Player.deleteAll(db)
            try Player(name: "Arthur").insert(db)
            return .commit
            // Eventually prints "Number of players: 1"
        }
        counts.wait { $0 == [0, 1] }
        cancellable.cancel()
    }

    func testFetchOne() throws {
        let dbQueue = try makeDatabase()
        let playerId: Int64 = 42
        try dbQueue.write { try Player(id: playerId, name: "Arthur").insert($0) }
        let players = Box<Player?>()
        let cancellable = Player.filter(key: playerId).combine.fetchOne(in: dbQueue, scheduler: scheduler)
            .sink(receiveCompletion: { _ in }, receiveValue: { player in players.append(player) })
        players.wait { $0.count == 1 }
        try dbQueue.inDatabase { db in
            guard var player = try Player.fetchOne(db, key: playerId) else { return }
            player.score += 100
            try player.update(db)
            // Eventually prints "Player has changed"
            try player.delete(db)
            // Eventually prints "Player has changed"
        }
        // Both commits happened in one access: the observation may deliver the
        // intermediate state, and ends with the final one.
        players.wait { $0.last == .some(nil) }
        XCTAssertEqual(players.values.first??.score, 0)
        XCTAssertTrue([[0, nil], [0, 100, nil]].contains(players.values.map { $0?.score }), "\(players.values)")
        cancellable.cancel()
    }

    func testFetchOneValueAndFetchAllWithDistinctUntilChanged() throws {
        let dbQueue = try makeDatabase()
        let maxScores = Box<Int?>()
        let names = Box<[String]>()
        let c1 = SQLRequest<Row>("SELECT MAX(score) FROM player").asRequest(of: Int.self).combine.fetchOne(in: dbQueue, scheduler: scheduler)
            .sink(receiveCompletion: { _ in }, receiveValue: { maxScores.append($0) })
        let c2 = Player.select(Column("name")).order(Column("name")).asRequest(of: String.self).combine
            .fetchAll(in: dbQueue, scheduler: scheduler, distinctUntilChanged: true)
            .sink(receiveCompletion: { _ in }, receiveValue: { names.append($0) })
        maxScores.wait { $0.count == 1 }
        names.wait { $0.count == 1 }
        try dbQueue.write { try Player(name: "Arthur", score: 3).insert($0) }
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET name = name, score = score") }  // same values
        try dbQueue.write { try Player(name: "Barbara", score: 5).insert($0) }
        maxScores.wait { $0.count == 4 }
        XCTAssertEqual(maxScores.values, [nil, 3, 3, 5], "potential changes: identical consecutive values")
        names.wait { $0.count == 3 }
        XCTAssertEqual(names.values, [[], ["Arthur"], ["Arthur", "Barbara"]])
        withExtendedLifetime([c1, c2]) {}
    }

    func testWriterChangesInSeveralRequestsAndChangeTokens() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { try Player(name: "Craig").insert($0) }
        let changes = Box<Int>()
        let players = Player.all()
        let teams = Team.all()
        let c1 = dbQueue.combine.changes(in: [players, teams], startImmediately: false)
            .sink(receiveCompletion: { _ in }, receiveValue: { _ in changes.append(1) })
        try dbQueue.inDatabase { db in _ = try Player.deleteAll(db) }
        try dbQueue.inTransaction { db in
            let team = Team(id: 1, name: "Blue")
            try team.insert(db)
            try Player(name: "Arthur").insert(db)
            return .commit
            // Prints "Changes in players or teams table" once
        }
        XCTAssertEqual(changes.values.count, 2)

        let best = Box<String>()
        let c2 = dbQueue.combine
            .changeTokens(in: [Player.all()], scheduler: scheduler)
            .mapFetch { (db: Database) -> ([Player], Int) in
                let players = try Player.order(Column("score").desc).limit(10).fetchAll(db)
                let count = try Player.fetchCount(db)
                return (players, count)
            }
            .sink(
                receiveCompletion: { _ in },
                receiveValue: { players, count in
                    best.append("Best ten players out of \(count): \(players.map(\.name))")
                })
        best.wait { $0 == [#"Best ten players out of 1: ["Arthur"]"#] }
        // (Craig was deleted by deleteAll.)
        try dbQueue.write { try Player(name: "Barbara", score: 10).insert($0) }
        best.wait { $0.last == #"Best ten players out of 2: ["Barbara", "Arthur"]"# }
        withExtendedLifetime([c1, c2]) {}
    }

    func testDatabaseRegionObservationPublisher() throws {
        let dbQueue = try makeDatabase()
        let observation = DatabaseRegionObservation(tracking: Player.all())
        let changes = Box<Int>()
        let cancellable = observation.publisher(in: dbQueue).sink { completion in
            // Handle completion
        } receiveValue: { (db: Database) in
            XCTAssertFalse(db.isInsideTransaction)
            changes.append(1)  // "Players were changed"
        }
        try dbQueue.write { db in try Player(name: "Arthur").insert(db) }
        XCTAssertEqual(changes.values.count, 1)
        cancellable.cancel()
        try dbQueue.write { db in try Player(name: "Barbara").insert(db) }
        XCTAssertEqual(changes.values.count, 1, "nothing after cancel")
    }

    func testValueObservationPublisherAndErrors() throws {
        let dbQueue = try makeDatabase()
        let values = Box<Int>()
        let completions = Box<String>()
        let cancellable = ValueObservation.tracking { try Player.fetchCount($0) }
            .publisher(in: dbQueue, scheduling: .async(onQueue: scheduler))
            .sink(receiveCompletion: { _ in completions.append("done") }, receiveValue: { values.append($0) })
        values.wait { $0 == [0] }
        try dbQueue.write { try Player(name: "A").insert($0) }
        values.wait { $0 == [0, 1] }
        cancellable.cancel()

        let failing = ValueObservation.tracking { try Int.fetchOne($0, sql: "SELECT * FROM missing") }
            .publisher(in: dbQueue, scheduling: .async(onQueue: scheduler))
            .sink(
                receiveCompletion: { completion in
                    if case .failure = completion { completions.append("failure") }
                }, receiveValue: { _ in })
        completions.wait { $0 == ["failure"] }
        withExtendedLifetime(failing) {}
    }

    func testDemandIsHonored() throws {
        final class OneValue: Subscriber, @unchecked Sendable {
            typealias Input = Int
            typealias Failure = any Error
            let box = Box<Int>()
            var subscription: (any Subscription)?
            func receive(subscription: any Subscription) {
                self.subscription = subscription
                subscription.request(.max(1))
            }
            func receive(_ input: Int) -> Subscribers.Demand {
                box.append(input)
                return .none
            }
            func receive(completion: Subscribers.Completion<any Error>) {}
        }
        let dbQueue = try makeDatabase()
        let subscriber = OneValue()
        ValueObservation.tracking { try Player.fetchCount($0) }
            .publisher(in: dbQueue, scheduling: .async(onQueue: scheduler))
            .subscribe(subscriber)
        subscriber.box.wait { $0 == [0] }
        try dbQueue.write { try Player(name: "A").insert($0) }
        try dbQueue.write { try Player(name: "B").insert($0) }
        scheduler.sync {}
        usleep(50_000)
        XCTAssertEqual(subscriber.box.values, [0], "no demand, no value")
        subscriber.subscription?.request(.max(1))
        subscriber.box.wait { $0 == [0, 2] }  // the latest state
        subscriber.subscription?.cancel()
    }
}
