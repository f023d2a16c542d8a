import Dispatch
import XCTest

@testable import Ripple

final class RequestObservationTests: XCTestCase {
    private let queue = DispatchQueue(label: "RequestObservationTests")

    private func start<V: Sendable>(_ observation: ValueObservation<V>, in writer: some DatabaseWriter) -> (ValueCollector<V>, AnyDatabaseCancellable)
    {
        let collector = ValueCollector<V>()
        let cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: queue), onError: { collector.append(error: $0) }, onChange: { collector.append($0) })
        return (collector, cancellable)
    }

    func testFetchCountOneAll() throws {
        let dbQueue = try makePlayerDatabase()
        let (counts, c1) = start(Player.all().observationForCount(), in: dbQueue)
        let (names, c2) = start(Player.order(Column("name")).observationForAll(), in: dbQueue)
        let (first, c3) = start(Player.filter(key: 1).observationForFirst(), in: dbQueue)
        let (maxScore, c4) = start(SQLRequest<Row>("SELECT MAX(score) FROM player").asRequest(of: Int.self).observationForFirst(), in: dbQueue)
        counts.wait { $0 == [0] }
        try dbQueue.inTransaction { db in
            try Player.deleteAll(db)
            var player = Player(name: "Arthur", score: 10)
            try player.insert(db)
            return .commit
        }
        counts.wait { $0 == [0, 1] }
        XCTAssertEqual(names.wait { $0.count == 2 }.last?.map(\.name), ["Arthur"])
        XCTAssertEqual(first.wait { $0.count == 2 }.last??.name, "Arthur")
        XCTAssertEqual(maxScore.wait { $0.count == 2 }, [nil, 10])
        withExtendedLifetime([c1, c2, c3, c4]) {}
    }

    func testDistinctUntilChangedComparesRawValues() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'A', 1)") }
        let (plain, c1) = start(Player.select(Column("name")).asRequest(of: String.self).observationForAll(), in: dbQueue)
        let (distinct, c2) = start(
            Player.select(Column("name")).asRequest(of: String.self).observationForAll(distinctUntilChanged: true), in: dbQueue)
        plain.wait { $0.count == 1 }
        distinct.wait { $0.count == 1 }
        // An update of the name column to the same value: a potential change, not an actual one.
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET name = 'A'") }
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET name = 'B'") }
        XCTAssertEqual(plain.wait { $0.count == 3 }, [["A"], ["A"], ["B"]])
        XCTAssertEqual(distinct.wait { $0.count == 2 }, [["A"], ["B"]])
        withExtendedLifetime([c1, c2]) {}
    }

    func testChangeTokensAndMapFetchConsistency() throws {
        // RxGRDB's changeTokens(in:) + mapFetch: observe one region, fetch from anything,
        // in one consistent snapshot.
        let dbQueue = try makePlayerDatabase()
        let observation = ValueObservation.tracking(region: Player.all()) { db in
            (try Player.order(Column("score").desc).limit(10).fetchAll(db), try Player.fetchCount(db))
        }
        let collector = ValueCollector<Int>()
        let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in }) { players, count in
            XCTAssertEqual(players.count, min(count, 10))
            collector.append(count)
        }
        collector.wait { $0 == [0] }
        try dbQueue.write { db in
            for i in 0..<12 {
                var player = Player(name: "P\(i)", score: i)
                try player.insert(db)
            }
        }
        collector.wait { $0 == [0, 12] }
        withExtendedLifetime(cancellable) {}
    }

    func testPrimaryKeyDiffScanner() throws {
        struct Place: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
            var id: Int64
            var name: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE place (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO place VALUES (1, 'a'), (2, 'b'), (3, 'c')")
        }
        let request = Place.order(Column("id"))
        let scanner = try dbQueue.read { db in
            try PrimaryKeyDiffScanner(database: db, request: request, initialRecords: [])
        }
        let rowRequest = request.asRequest(of: Row.self)
        let rows1 = try dbQueue.read { try rowRequest.fetchAll($0) }
        let scanner1 = scanner.diffed(from: rows1)
        XCTAssertEqual(scanner1.diff.inserted.map(\.id), [1, 2, 3])
        XCTAssertTrue(scanner1.diff.updated.isEmpty && scanner1.diff.deleted.isEmpty)
        try dbQueue.write { db in
            try db.execute(sql: "DELETE FROM place WHERE id = 1; UPDATE place SET name = 'B' WHERE id = 2; INSERT INTO place VALUES (4, 'd')")
        }
        let rows2 = try dbQueue.read { try rowRequest.fetchAll($0) }
        let scanner2 = scanner1.diffed(from: rows2)
        XCTAssertEqual(scanner2.diff.inserted, [Place(id: 4, name: "d")])
        XCTAssertEqual(scanner2.diff.updated, [Place(id: 2, name: "B")])
        XCTAssertEqual(scanner2.diff.deleted, [Place(id: 1, name: "a")])
        XCTAssertTrue(scanner2.diffed(from: rows2).diff.isEmpty)
    }

    func testPrimaryKeyDiffScannerWithObservation() async throws {
        struct Place: Codable, FetchableRecord, MutablePersistableRecord {
            var id: Int64
            var name: String
        }
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { try $0.execute(sql: "CREATE TABLE place (id INTEGER PRIMARY KEY, name TEXT)") }
        let request = Place.order(Column("id"))
        var scanner = try await dbQueue.read { db in try PrimaryKeyDiffScanner(database: db, request: request, initialRecords: []) }
        var iterator = request.asRequest(of: Row.self).observationForAll().values(in: dbQueue).makeAsyncIterator()
        scanner = scanner.diffed(from: try await iterator.next()!)
        XCTAssertTrue(scanner.diff.isEmpty)
        try await dbQueue.write { try $0.execute(sql: "INSERT INTO place VALUES (1, 'a'), (2, 'b')") }
        scanner = scanner.diffed(from: try await iterator.next()!)
        XCTAssertEqual(scanner.diff.inserted.count, 2)
    }

    func testSQLiteOrderOfKeys() {
        XCTAssertEqual(compareSQLite(.null, 1.databaseValue), .orderedAscending)
        XCTAssertEqual(compareSQLite(2.databaseValue, 1.5.databaseValue), .orderedDescending)
        XCTAssertEqual(compareSQLite("B".databaseValue, "a".databaseValue), .orderedAscending, "BINARY collation")
        XCTAssertEqual(compareSQLite("z".databaseValue, Data([0]).databaseValue), .orderedAscending)
    }
}
