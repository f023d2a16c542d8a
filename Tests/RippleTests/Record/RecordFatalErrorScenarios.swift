import Foundation
import XCTest

@testable import Ripple

/// Scenarios run in a child process by the tests above: each one ends in a fatal error.
final class RecordFatalErrorScenarios: XCTestCase {
    final class Escaped: @unchecked Sendable {
        var container: KeyedDecodingContainer<Thief.CodingKeys>?
    }

    struct Thief: Decodable, FetchableRecord {
        nonisolated(unsafe) static var escaped = Escaped()
        var id: Int
        enum CodingKeys: String, CodingKey { case id }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            Self.escaped.container = container
        }
    }

    func testKeepDecodingContainer() throws {
        guard isFatalScenario else { return }
        let dbQueue = try DatabaseQueue()
        _ = try dbQueue.read { try Thief.fetchAll($0, sql: "SELECT 1 AS id") }
        // fatal error: A decoder or decoding container of a Ripple row was used after its row was gone.
        _ = try Thief.escaped.container?.decode(Int.self, forKey: .id)
    }

    struct PrefetchedThief: Decodable, FetchableRecord {
        nonisolated(unsafe) static var escaped: KeyedDecodingContainer<CodingKeys>?
        var id: Int
        enum CodingKeys: String, CodingKey { case id }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            Self.escaped = container
        }
    }

    struct Parent: Decodable, FetchableRecord, TableRecord {
        static let databaseTableName = "parent"
        static let children = hasMany(PrefetchedThiefTable.self, key: "children")
        var id: Int
        var children: [PrefetchedThief]
    }

    struct PrefetchedThiefTable: TableRecord {
        static let databaseTableName = "child"
    }

    /// The records of prefetched rows share a decoder: one kept beyond the fetch fails.
    func testKeepDecodingContainerOfPrefetchedRecord() throws {
        guard isFatalScenario else { return }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE parent(id INTEGER PRIMARY KEY);
                    CREATE TABLE child(id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES parent(id));
                    INSERT INTO parent VALUES (1);
                    INSERT INTO child VALUES (1, 1), (2, 1);
                    """)
        }
        let parents = try dbQueue.read { try Parent.including(all: Parent.children).fetchAll($0) }
        precondition(parents.first?.children.map(\.id) == [1, 2])
        // fatal error: A decoder or decoding container of a Ripple row was used after its row was gone.
        _ = try PrefetchedThief.escaped?.decode(Int.self, forKey: .id)
    }
}
