import Foundation
import XCTest

@testable import Ripple

final class RecordTests: XCTestCase {
    func testInsertSetsIdUpdateSaveDeleteExists() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var arthur = Player(name: "Arthur", score: 100)
            try arthur.insert(db)
            XCTAssertEqual(arthur.id, 1)
            arthur.score = 200
            try arthur.update(db)
            XCTAssertEqual(try Player.fetchOne(db, key: 1), arthur)
            XCTAssertTrue(try arthur.exists(db))

            var barbara = Player(name: "Barbara")
            try barbara.save(db)  // inserts
            XCTAssertEqual(barbara.id, 2)
            barbara.name = "Babs"
            try barbara.save(db)  // updates
            XCTAssertEqual(try Player.fetchCount(db), 2)
            XCTAssertEqual(try Player.fetchOne(db, key: 2)?.name, "Babs")

            XCTAssertTrue(try arthur.delete(db))
            XCTAssertFalse(try arthur.delete(db))
            XCTAssertFalse(try arthur.exists(db))
            XCTAssertThrowsError(try arthur.update(db)) { error in
                guard case RecordError.recordNotFound(let table, let key) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(table, "player")
                XCTAssertEqual(key, ["id": 1.databaseValue])
            }
            let inserted = try Player(name: "Craig").inserted(db)
            XCTAssertEqual(inserted.id, 3)
        }
    }

    func testUpdateWritesNilAsNull() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try Team(id: 1, name: "Blue").insert(db)
            var player = Player(name: "Arthur", teamId: 1)
            try player.insert(db)
            player.teamId = nil
            try player.update(db)
            XCTAssertNil(try Int64?.fetchAll(db, sql: "SELECT teamId FROM player")[0])
        }
    }

    func testUpsert() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            var player = Player(id: 7, name: "Arthur", score: 1)
            try player.upsert(db)
            player.score = 2
            try player.upsert(db)
            XCTAssertEqual(player.id, 7)
            XCTAssertEqual(try Player.fetchAll(db).map(\.score), [2])
            try Team(id: 1, name: "Blue").upsert(db)
            try Team(id: 1, name: "Red").upsert(db)
            XCTAssertEqual(try Team.fetchAll(db).map(\.name), ["Red"])
        }
    }

    func testSeedStyleSamples() throws {
        struct Credit: Codable, PersistableRecord, FetchableRecord {
            var account: String
            var amount: Int
            init(_ account: String, _ amount: Int) {
                self.account = account
                self.amount = amount
            }
        }
        struct Debit: Codable, PersistableRecord, FetchableRecord {
            var account: String
            var amount: Int
            init(_ account: String, _ amount: Int) {
                self.account = account
                self.amount = amount
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE credit (account TEXT, amount INT); CREATE TABLE debit (account TEXT, amount INT)")
        }
        let (destinationAccount, sourceAccount, amount) = ("A", "B", 10)
        try dbQueue.write { db in
            try Credit(destinationAccount, amount).insert(db)
            try Debit(sourceAccount, amount).insert(db)
        }
        let (credits, debits) = try dbQueue.read { db in
            let credits = try Credit.fetchAll(db)
            let debits = try Debit.fetchAll(db)
            return (credits, debits)
        }
        XCTAssertEqual(credits.map(\.account), ["A"])
        XCTAssertEqual(debits.map(\.amount), [10])
    }

    func testCodableStrategy() throws {
        enum Color: String, Codable { case red, blue }
        struct Address: Codable, Equatable {
            var city: String
            var zip: String
        }
        struct Profile: Codable, Equatable, FetchableRecord, PersistableRecord {
            var id: UUID
            var createdAt: Date
            var avatar: Data
            var color: Color
            var address: Address
            var tags: [String]
            var nickname: String?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(
                sql: "CREATE TABLE profile (id BLOB PRIMARY KEY, createdAt TEXT, avatar BLOB, color TEXT, address TEXT, tags TEXT, nickname TEXT)")
            let profile = Profile(
                id: UUID(), createdAt: Date(timeIntervalSince1970: 1_700_000_000.5), avatar: Data([1, 2]),
                color: .blue, address: Address(city: "Paris", zip: "75001"), tags: ["a", "b"], nickname: nil)
            try profile.insert(db)
            let row = try Row.fetchOne(db, sql: "SELECT typeof(id), createdAt, color, address, tags, nickname FROM profile")!
            XCTAssertEqual(row["typeof(id)"] as? String, "blob")
            XCTAssertEqual(row["createdAt"] as? String, "2023-11-14 22:13:20.500")
            XCTAssertEqual(row["color"] as? String, "blue")
            XCTAssertEqual(row["address"] as? String, #"{"city":"Paris","zip":"75001"}"#)
            XCTAssertEqual(row["tags"] as? String, #"["a","b"]"#)
            XCTAssertNil(row["nickname"])
            XCTAssertEqual(try Profile.fetchOne(db), profile)
        }
    }

    func testDecodingErrorsNameTheColumn() throws {
        struct Item: Decodable, FetchableRecord {
            var id: Int
            var name: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let mismatch = assertDatabaseError(.SQLITE_MISMATCH) { try Item.fetchAll(db, sql: "SELECT 'x' AS id, 'a' AS name") }
            XCTAssertEqual(mismatch?.message, "could not decode Int from database value \"x\" in column \"id\" (index 0)")
            let missing = assertDatabaseError(.SQLITE_MISMATCH) { try Item.fetchAll(db, sql: "SELECT 1 AS id") }
            XCTAssertEqual(missing?.message, "no such column: \"name\" (columns: id)")
            let null = assertDatabaseError(.SQLITE_MISMATCH) { try Item.fetchOne(db, sql: "SELECT 1 AS id, NULL AS name") }
            XCTAssertEqual(null?.message, "unexpected NULL: could not decode String in column \"name\" (index 1)")
        }
    }

    func testRecordWhoseColumnsDoNotMatchTheTable() throws {
        struct Ghost: Codable, PersistableRecord {
            var id: Int64
            var nope: String
        }
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE ghost (id INTEGER PRIMARY KEY, name TEXT)")
            let error = assertDatabaseError(.SQLITE_ERROR) { try Ghost(id: 1, nope: "x").insert(db) }
            XCTAssertEqual(error?.message, "table ghost has no column named nope")
        }
    }

    func testDecodingKeysInAnyOrderAcrossRows() throws {
        // The column lookup cache must not assume one decoding order for every row.
        struct Flexible: FetchableRecord, Decodable {
            var a: Int
            var b: Int
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                let first = try container.decode(Int.self, forKey: .a)
                if first == 1 {
                    b = try container.decode(Int.self, forKey: .b)
                    a = first
                } else {
                    a = first
                    b = try container.decode(Int.self, forKey: .b)
                }
                _ = try container.decodeIfPresent(Int.self, forKey: .missing)
            }
            enum CodingKeys: String, CodingKey { case a, b, missing }
        }
        let dbQueue = try DatabaseQueue()
        let items = try dbQueue.read { try Flexible.fetchAll($0, sql: "SELECT 1 AS a, 2 AS b UNION ALL SELECT 3, 4") }
        XCTAssertEqual(items.map(\.a), [1, 3])
        XCTAssertEqual(items.map(\.b), [2, 4])
    }

    func testDecodableRecordsOfSeveralTypesFromOneCursor() throws {
        // One row serves each record of a cursor; its decoder keeps one keyed container,
        // and must hand out the right one when the coding keys change.
        struct Small: Decodable, FetchableRecord { var a: Int }
        struct Large: Decodable, FetchableRecord {
            var b: String
            var a: Int
            var c: Double?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT 1 AS a, 'x' AS b, NULL AS c UNION ALL SELECT 2, 'y', 2.5 UNION ALL SELECT 3, 'z', NULL")
            var decoded: [String] = []
            while let row = try rows.next() {
                let small = try Small(row: row)
                let large = try Large(row: row)
                let again = try Small(row: row)
                let largeAgain = try Large(row: row)
                decoded.append("\(small.a) \(large.b) \(large.a) \(large.c.map { "\($0)" } ?? "nil") \(again.a) \(largeAgain.b)")
            }
            XCTAssertEqual(decoded, ["1 x 1 nil 1 x", "2 y 2 2.5 2 y", "3 z 3 nil 3 z"])
        }
    }

    func testCodingKeysOfEveryKindFindTheirColumns() throws {
        // Keys are identified by value when they are plain bytes of at most 8 bytes (enums,
        // small structs), by name otherwise; one record may use several key types.
        struct IndexKey: CodingKey {  // plain, 8 bytes: by value
            let index: Int
            var stringValue: String { "c\(index)" }
            var intValue: Int? { nil }
            init(_ index: Int) { self.index = index }
            init?(stringValue: String) { nil }
            init?(intValue: Int) { nil }
        }
        struct NameKey: CodingKey {  // holds a String: by name
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        struct WideKey: CodingKey {  // plain, 16 bytes: by name
            let low: Int
            let high: Int
            var stringValue: String { "c\(low + high)" }
            var intValue: Int? { nil }
            init(_ low: Int, _ high: Int) {
                self.low = low
                self.high = high
            }
            init?(stringValue: String) { nil }
            init?(intValue: Int) { nil }
        }
        enum ShortKey: String, CodingKey { case c2, c0, c1 }  // 1 byte: by value; .c0 has the bytes of IndexKey(1)
        struct Mixed: Decodable, FetchableRecord {
            var values: [Int] = []
            init(from decoder: any Decoder) throws {
                let byIndex = try decoder.container(keyedBy: IndexKey.self)
                values.append(try byIndex.decode(Int.self, forKey: IndexKey(2)))
                values.append(try byIndex.decode(Int.self, forKey: IndexKey(0)))
                let byName = try decoder.container(keyedBy: NameKey.self)
                values.append(try byName.decode(Int.self, forKey: NameKey(stringValue: "c1")))
                let wide = try decoder.container(keyedBy: WideKey.self)
                values.append(try wide.decode(Int.self, forKey: WideKey(1, 1)))
                let short = try decoder.container(keyedBy: ShortKey.self)
                values.append(try short.decode(Int.self, forKey: .c1))
                values.append(try short.decode(Int.self, forKey: .c0))
                XCTAssertNil(try byIndex.decodeIfPresent(Int.self, forKey: IndexKey(7)))
                XCTAssertFalse(byIndex.contains(IndexKey(3)))
                values.append(try byIndex.decode(Int.self, forKey: IndexKey(1)))
            }
        }
        let dbQueue = try DatabaseQueue()
        let records = try dbQueue.read { try Mixed.fetchAll($0, sql: "SELECT 1 AS c0, 2 AS c1, 3 AS c2 UNION ALL SELECT 4, 5, 6") }
        XCTAssertEqual(records.map(\.values), [[3, 1, 2, 3, 2, 1, 2], [6, 4, 5, 6, 5, 4, 5]])
    }

    func testDecodableRecordFromCopiedRow() throws {
        struct Item: Decodable, FetchableRecord, Equatable {
            var id: Int
            var name: String
            var score: Int?
        }
        let row: Row = ["ID": 1, "name": "Arthur", "score": nil]
        XCTAssertEqual(try Item(row: row), Item(id: 1, name: "Arthur", score: nil))
        XCTAssertEqual(try Item(row: row), Item(id: 1, name: "Arthur", score: nil))
        let missing: Row = ["id": 1]
        let error = assertDatabaseError(.SQLITE_MISMATCH) { try Item(row: missing) }
        XCTAssertEqual(error?.message, "no such column: \"name\" (columns: id)")
    }

    func testDecodableClassHierarchyUsesSuperDecoder() throws {
        class Base: Decodable {
            var id: Int
            enum CodingKeys: String, CodingKey { case id }
        }
        final class Derived: Base, FetchableRecord {
            var name: String
            enum DerivedKeys: String, CodingKey { case name }
            required init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: DerivedKeys.self)
                name = try container.decode(String.self, forKey: .name)
                try super.init(from: container.superDecoder())
            }
        }
        let dbQueue = try DatabaseQueue()
        let items = try dbQueue.read { try Derived.fetchAll($0, sql: "SELECT 1 AS id, 'a' AS name UNION ALL SELECT 2, 'b'") }
        XCTAssertEqual(items.map(\.id), [1, 2])
        XCTAssertEqual(items.map(\.name), ["a", "b"])
    }

    func testDecodingContainerKeptBeyondItsRowIsFatal() throws {
        try assertFatalError(inScenario: "RippleTests.RecordFatalErrorScenarios/testKeepDecodingContainer", "was used after its row was gone")
    }

    func testDecodingContainerOfAPrefetchedRecordKeptBeyondItsRowIsFatal() throws {
        try assertFatalError(
            inScenario: "RippleTests.RecordFatalErrorScenarios/testKeepDecodingContainerOfPrefetchedRecord", "was used after its row was gone")
    }

    func testFetchableRecordByHand() throws {
        struct Pair: FetchableRecord {
            var x: Int
            var y: String?
            init(row: Row) throws {
                x = row["x"]
                y = row["y"]
            }
        }
        let dbQueue = try DatabaseQueue()
        let pairs = try dbQueue.read { try Pair.fetchAll($0, sql: "SELECT 1 AS x, 'a' AS y UNION ALL SELECT 2, NULL") }
        XCTAssertEqual(pairs.map(\.x), [1, 2])
        XCTAssertEqual(pairs.map(\.y), ["a", nil])
    }
}
