import XCTest

@testable import Ripple

/// The storage that keyed containers of `Decodable` records read without reference
/// counting (`_ImmortalDecodingStorage`): its address outlives every row, and a state is
/// recognized as given back by its generation.
final class DecodingStorageTests: XCTestCase {
    func testAStateGivenBackKeepsItsStorageAndMovesToANewGeneration() throws {
        let row = Row([("a", 1)])
        let state = RecordDecodingState.acquire(for: row)
        let pointer = state.storage.pointer
        let generation = state.generation
        XCTAssertEqual(pointer.pointee.marker, RecordDecodingStorage.liveMarker)
        state.release(generation: generation)
        XCTAssertEqual(state.generation, generation &+ 1)
        // A second release of the same generation (the row and its decoder may both ask)
        // changes nothing.
        state.release(generation: generation)
        XCTAssertEqual(state.generation, generation &+ 1)
        // The storage is still there, with its marker: containers kept beyond their row
        // fail their generation check instead of reading freed memory.
        XCTAssertEqual(pointer.pointee.marker, RecordDecodingStorage.liveMarker)
    }

    func testDecodingReadsStatementRowsAndCopiedRowsAlike() throws {
        struct Item: Decodable, FetchableRecord, Equatable {
            var id: Int64
            var name: String?
            var score: Double
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, score REAL NOT NULL);
                    INSERT INTO item VALUES (1, 'a', 1.5), (2, NULL, 2.5);
                    """)
        }
        let expected = [Item(id: 1, name: "a", score: 1.5), Item(id: 2, name: nil, score: 2.5)]
        // From the statement (a cursor's rows), and from copied rows.
        XCTAssertEqual(try dbQueue.read { db in try Item.fetchAll(db, sql: "SELECT * FROM item ORDER BY id") }, expected)
        let rows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM item ORDER BY id") }
        XCTAssertEqual(try rows.map(Item.init(row:)), expected)
        // A wrong type names the column, from either kind of row.
        struct Wrong: Decodable, FetchableRecord { var name: Int }
        XCTAssertThrowsError(try dbQueue.read { db in try Wrong.fetchAll(db, sql: "SELECT 'x' AS name") }) { error in
            XCTAssertTrue(String(describing: error).contains("name"), "\(error)")
        }
        XCTAssertThrowsError(try Wrong(row: Row([("name", "x")]))) { error in
            XCTAssertTrue(String(describing: error).contains("name"), "\(error)")
        }
    }

    func testCodingKeysAreIdentifiedByValueOnlyWhenTheyHoldNoReference() {
        enum Synthesized: CodingKey { case a, b }
        final class ClassKey: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
        struct NameKey: CodingKey {
            var stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
        XCTAssertNotNil(CodingKeyPrediction.bits(of: Synthesized.a))
        XCTAssertNotEqual(CodingKeyPrediction.bits(of: Synthesized.a), CodingKeyPrediction.bits(of: Synthesized.b))
        // A reference's bits are an address, which a later key may reuse with another name.
        XCTAssertNil(CodingKeyPrediction.bits(of: ClassKey(stringValue: "a")))
        XCTAssertNil(CodingKeyPrediction.bits(of: NameKey(stringValue: "a")))
    }
}
