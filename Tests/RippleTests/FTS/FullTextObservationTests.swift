import Dispatch
import Ripple
import XCTest

/// Observations of full-text tables, whose shadow tables SQLite writes: a write to the
/// table, or to the content table it is synchronized with, notifies the observers.
final class FullTextObservationTests: XCTestCase {
    private let queue = DispatchQueue(label: "FullTextObservationTests")

    private func assertObservationOfMatches(_ writer: some DatabaseWriter, module: String) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT)")
            if module == "fts4" {
                try db.create(virtualTable: "ft", using: FTS4()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                }
            } else {
                try db.create(virtualTable: "ft", using: FTS5()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                }
            }
            try db.create(virtualTable: "note", using: FTS5()) { t in t.column("body") }
        }
        let observation = ValueObservation.tracking { db in
            [
                try Table("ft").matching(FTS5Pattern(matchingAllTokensIn: "moby")).fetchCount(db),
                try Table("note").matching(FTS5Pattern(matchingAllTokensIn: "moby")).fetchCount(db),
            ]
        }
        let collector = ValueCollector<[Int]>()
        let cancellable = observation.start(in: writer, scheduling: .async(onQueue: queue)) { error in
            collector.append(error: error)
        } onChange: { value in
            collector.append(value)
        }
        collector.wait { $0.last == [0, 0] }
        try writer.write { db in try db.execute(sql: "INSERT INTO book(title) VALUES ('Moby Dick')") }
        collector.wait { $0.last == [1, 0] }
        try writer.write { db in try db.execute(sql: "INSERT INTO note(body) VALUES ('moby')") }
        collector.wait { $0.last == [1, 1] }
        try writer.write { db in try db.execute(sql: "DELETE FROM note") }
        collector.wait { $0.last == [1, 0] }
        try writer.write { db in try db.execute(sql: "DELETE FROM book") }
        collector.wait { $0.last == [0, 0] }
        XCTAssertTrue(collector.errors.isEmpty)
        withExtendedLifetime(cancellable) {}
    }

    func testFTS5ObservationInQueue() throws {
        try assertObservationOfMatches(try DatabaseQueue(), module: "fts5")
    }

    func testFTS4ObservationInQueue() throws {
        try assertObservationOfMatches(try DatabaseQueue(), module: "fts4")
    }

    func testFTS5ObservationInPool() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try assertObservationOfMatches(try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path), module: "fts5")
    }
}
