import Foundation
import XCTest

@testable import Ripple

private struct Document: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
    static let databaseTableName = "document"
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
    var id: UUID
    var title: String
}

private struct Event: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
    static let databaseTableName = "event"
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSince1970 }
    var id: Date
    var name: String
}

private struct Blob: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
    static let databaseTableName = "blob"
    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { .text }
    var id: Data
    var size: Int
}

/// Dates, data and UUIDs given as primary keys are encoded with the record's strategies,
/// as `insert` stores them: each method that takes ids finds the rows the table holds.
final class EncodedPrimaryKeyTests: XCTestCase {
    private let uuids = [UUID(uuidString: "61626364-6566-6768-696A-6B6C6D6E6F70")!, UUID(uuidString: "56E7D8D3-E9E4-48B6-968E-8D102833AF00")!]

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "document") { t in
                t.primaryKey("id", .text)
                t.column("title", .text)
            }
            try db.create(table: "event") { t in
                t.primaryKey("id", .double)
                t.column("name", .text)
            }
            try db.create(table: "blob") { t in
                t.primaryKey("id", .text)
                t.column("size", .integer)
            }
            for (index, uuid) in uuids.enumerated() { try Document(id: uuid, title: "doc \(index)").insert(db) }
            try Event(id: Date(timeIntervalSince1970: 100), name: "a").insert(db)
            try Event(id: Date(timeIntervalSince1970: 200), name: "b").insert(db)
            try Blob(id: Data("foo".utf8), size: 3).insert(db)
        }
        return dbQueue
    }

    func testUUIDKeys() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            // Stored as uppercase text, as the strategy says.
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT id FROM document ORDER BY title"), uuids.map(\.uuidString))
            XCTAssertEqual(try Document.fetchOne(db, id: uuids[0])?.title, "doc 0")
            XCTAssertEqual(try Document.filter(id: uuids[1]).fetchOne(db)?.title, "doc 1")
            XCTAssertEqual(try Document.fetchAll(db, ids: uuids).count, 2)
            XCTAssertTrue(try Document.exists(db, id: uuids[0]))
            XCTAssertEqual(try Table<Document>("document").fetchOne(db, id: uuids[1])?.title, "doc 1")
            XCTAssertTrue(try Document.deleteOne(db, id: uuids[0]))
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT id FROM document"), [uuids[1].uuidString])
            XCTAssertEqual(try Table<Document>("document").deleteAll(db, ids: uuids), 1)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document"), 0)
        }
    }

    func testDateKeys() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            XCTAssertEqual(try Double.fetchAll(db, sql: "SELECT id FROM event ORDER BY id"), [100, 200])
            XCTAssertEqual(try Event.fetchOne(db, id: Date(timeIntervalSince1970: 200))?.name, "b")
            XCTAssertTrue(try Event.deleteOne(db, id: Date(timeIntervalSince1970: 100)))
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT name FROM event"), ["b"])
        }
    }

    func testDataKeys() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT id FROM blob"), "foo")
            XCTAssertEqual(try Blob.fetchOne(db, id: Data("foo".utf8))?.size, 3)
            XCTAssertTrue(try Blob.deleteOne(db, id: Data("foo".utf8)))
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blob"), 0)
        }
    }

    /// A type that is not an encodable record stores its keys as they are.
    func testKeysOfOtherTypesAreNotEncoded() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let sql = try Table("document").filter(key: uuids[0]).makeSQL(db, forSingleResult: false)
            XCTAssertEqual(sql.sql, #"SELECT * FROM "document" WHERE "id" = ?"#)
            XCTAssertEqual(sql.arguments, [uuids[0].databaseValue])
            // The record's request, for comparison: uppercase text.
            let recordSQL = try Document.filter(id: uuids[0]).makeSQL(db, forSingleResult: false)
            XCTAssertEqual(recordSQL.arguments, [uuids[0].uuidString])
            XCTAssertNil(try Row.fetchOne(db, Table("document").filter(key: uuids[0])))
        }
    }

    /// No key, or only NULLs: batch changes run no statement.
    func testNoKeyRunsNoStatement() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let recorder = SQLRecorder()
            db.record(into: recorder)
            XCTAssertEqual(try Document.deleteAll(db, ids: []), 0)
            XCTAssertEqual(try Table<Document>("document").deleteAll(db, ids: []), 0)
            XCTAssertEqual(try Table("document").filter(keys: [UUID?.none]).updateAll(db, Column("title").set(to: "x")), 0)
            XCTAssertEqual(recorder.statements, [])
            XCTAssertNil(try Document.filter(keys: [UUID?.none]).fetchOne(db))
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document WHERE title LIKE 'doc%'"), 2)
        }
    }

    /// An empty blob is bound as a blob, shown as `x''` in traces.
    func testEmptyDataIsAnEmptyBlob() throws {
        try DatabaseQueue().read { db in
            var expandedSQL: [String] = []
            db.trace { event in
                if case .statement(let statement) = event { expandedSQL.append(statement.expandedSQL) }
            }
            let row = try XCTUnwrap(Row.fetchOne(db, sql: "SELECT typeof(?1) AS type, length(?1) AS length", arguments: [Data()]))
            XCTAssertEqual(row["type"] as String?, "blob")
            XCTAssertEqual(row["length"] as Int?, 0)
            XCTAssertEqual(expandedSQL.last, "SELECT typeof(x'') AS type, length(x'') AS length")
        }
    }

    /// Keys may come from a sequence that can be read once only.
    func testKeysAreReadOnce() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            XCTAssertEqual(try Document.filter(keys: ReadOnce([uuids[1]])).fetchOne(db)?.title, "doc 1")
            XCTAssertEqual(try Table("document").filter(keys: ReadOnce([uuids[0].uuidString])).fetchCount(db), 1)
            XCTAssertEqual(try Table("document").filter(keys: ReadOnce([String?.none])).fetchCount(db), 0)
        }
    }
}

/// A sequence that fails the test when it is read twice.
private final class ReadOnce<Element>: Sequence, @unchecked Sendable {  // used on one thread
    private var elements: [Element]?
    init(_ elements: [Element]) { self.elements = elements }
    func makeIterator() -> IndexingIterator<[Element]> {
        guard let elements else {
            XCTFail("the sequence was read twice")
            return [].makeIterator()
        }
        self.elements = nil
        return elements.makeIterator()
    }
}
