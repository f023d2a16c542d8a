import Dispatch
import Foundation
import OpenCombineShim
import Ripple
import RippleCombine
import XCTest

final class RippleCombineSeedSampleTests: XCTestCase {
    private let scheduler = DispatchQueue(label: "RippleCombineSeedSampleTests")

    func testURLsAndOptionalValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE links (url TEXT); INSERT INTO links VALUES ('https://example.com/a');
                    CREATE TABLE players (email TEXT); INSERT INTO players VALUES ('a@example.com'), (NULL);
                    """)
        }
        let urls = Box<[URL]>()
        let emails = Box<[String?]>()
        let request = SQLRequest<Row>("SELECT url FROM links").asRequest(of: URL.self)
        let c1 = request.combine.fetchAll(in: dbQueue, scheduler: scheduler)
            .sink(receiveCompletion: { _ in }, receiveValue: { urls.append($0) })
        let emailRequest = SQLRequest<Row>("SELECT email FROM players").asRequest(of: Optional<String>.self)
        let c2 = emailRequest.combine.fetchAll(in: dbQueue, scheduler: scheduler)
            .sink(receiveCompletion: { _ in }, receiveValue: { emails.append($0) })
        urls.wait { $0 == [[URL(string: "https://example.com/a")!]] }
        emails.wait { $0 == [["a@example.com", nil]] }
        withExtendedLifetime([c1, c2]) {}
    }

    func testPrimaryKeyDiffScannerFeedsCombineScan() throws {
        struct Place: Codable, FetchableRecord, MutablePersistableRecord {
            var id: Int64
            var name: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE place (id INTEGER PRIMARY KEY, name TEXT)") }
        let request = Place.order(Column("id"))
        let scanner = try dbQueue.inDatabase { db in
            try PrimaryKeyDiffScanner(database: db, request: request, initialRecords: [])
        }
        let rowRequest = request.asRequest(of: Row.self)
        let inserted = Box<Int>()
        // The scanner is designed to feed the built-in `scan` operator:
        let cancellable = rowRequest.combine
            .fetchAll(in: dbQueue, scheduler: scheduler)
            .scan(scanner) { (scanner, rows) in scanner.diffed(from: rows) }
            .sink(
                receiveCompletion: { _ in },
                receiveValue: { scanner in
                    inserted.append(scanner.diff.inserted.count)
                })
        inserted.wait { $0 == [0] }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO place VALUES (1, 'a'), (2, 'b')") }
        inserted.wait { $0 == [0, 2] }
        withExtendedLifetime(cancellable) {}
    }

    func testChangesObservableBlocksWriters() throws {
        // A changes observable runs on the writer's queue: the next write waits for it.
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        let events = Box<String>()
        let cancellable = SQLRequest<Row>("SELECT * FROM player").combine.changes(in: dbQueue, startImmediately: false)
            .sink(
                receiveCompletion: { _ in },
                receiveValue: { _ in
                    events.append("change start")
                    usleep(100_000)
                    events.append("change end")
                })
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            try! dbQueue.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        }
        events.wait { $0.contains("change start") }
        try dbQueue.write { _ in events.append("other write") }
        group.wait()
        XCTAssertEqual(events.values, ["change start", "change end", "other write"])
        withExtendedLifetime(cancellable) {}
    }
}
