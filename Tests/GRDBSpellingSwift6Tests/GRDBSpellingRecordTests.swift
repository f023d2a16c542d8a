// Compiled twice, in Swift 6 and Swift 5 (through a link) language modes: record keys,
// upserts and changes as GRDB's tests write them.
import Foundation
import Ripple
import XCTest

private struct Pet: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let databaseTableName = "pets"
    var UUID: String?
    var name: String
}

private struct Counter: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
    var id: Int64?
    var name: String
    var value: Decimal
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

final class GRDBSpellingRecordTests: XCTestCase {
    func testKeysAsGRDBWritesThem() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "pets") { t in
                t.column("UUID", .text).primaryKey()
                t.column("name", .text)
            }
            let record1 = try Pet(UUID: "a", name: "Bobby").inserted(db)
            let record2 = try Pet(UUID: "b", name: "Rex").inserted(db)
            let cursor = try Pet.fetchCursor(db, keys: [["UUID": record1.UUID], ["UUID": nil]])
            XCTAssertEqual(try cursor.next()!.name, "Bobby")
            XCTAssertNil(try cursor.next())
            XCTAssertEqual(try Pet.fetchAll(db, keys: []), [])
            XCTAssertEqual(try Pet.fetchSet(db, keys: [["UUID": record1.UUID], ["UUID": record2.UUID]]).count, 2)
            let UUIDs = [record1.UUID!]
            XCTAssertEqual(try Pet.fetchSet(db, keys: UUIDs), [record1])
            let request = Pet.all().withStableOrder()
            XCTAssertEqual(try request.fetchAll(db), [record1, record2])
            XCTAssertTrue(try Pet.deleteOne(db, key: ["UUID": record1.UUID]))
            XCTAssertEqual(try Pet.deleteAll(db, keys: [["UUID": record2.UUID]]), 1)
        }
    }

    /// Record types cross isolation domains as GRDB's do (its record protocols refine
    /// `GRDBSendableMetatype`): a generic function sends `T.self` to another task.
    func testRecordMetatypesAreSendable() async throws {
        func tableName<T: TableRecord>(of type: T.Type) async -> String {
            await Task.detached { type.databaseTableName }.value
        }
        func columns<T: EncodableRecord>(of record: T) async throws -> [String] {
            let type = T.self
            return await Task.detached { type.databaseEncodingUserInfo.isEmpty ? ["ok"] : [] }.value
        }
        let name = await tableName(of: Pet.self)
        XCTAssertEqual(name, "pets")
        let checked = try await columns(of: Pet(UUID: "a", name: "Bobby"))
        XCTAssertEqual(checked, ["ok"])
        let sendable: any Sendable = Pet.self as any TableRecord.Type
        XCTAssertTrue(sendable is any TableRecord.Type)
    }

    func testUpsertAndChangesAsGRDBWritesThem() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "counter") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("value", .text).notNull()
            }
            var counter = Counter(id: nil, name: "a", value: Decimal(string: "1.5")!)
            let upserted = try counter.upsertAndFetch(db)
            XCTAssertEqual(upserted.id, 1)
            var other = Counter(id: nil, name: "a", value: 2)
            other = try other.upsertAndFetch(db, onConflict: ["name"], updating: .noColumnUnlessSpecified)
            XCTAssertEqual(other.value, Decimal(string: "1.5"))
            var third = Counter(id: nil, name: "a", value: 4)
            let kept = try third.upsertAndFetch(db, onConflict: ["name"]) { _ in
                [Column("value").noOverwrite]
            }
            XCTAssertEqual(kept.value, Decimal(string: "1.5"))
            var fourth = Counter(id: nil, name: "a", value: 5)
            let renamed = try fourth.upsertAndFetch(db, onConflict: ["name"], updating: .noColumnUnlessSpecified) {
                excluded in [Column("value").set(to: excluded[Column("value")])]
            }
            XCTAssertEqual(renamed.value, 5)
            try db.execute(sql: "CREATE TABLE note(text)")
            XCTAssertNil(try db.primaryKey("note").rowIDColumn)
            XCTAssertTrue(try db.primaryKey("note").isRowID)
            let changed = try counter.updateChangesAndFetch(db) { $0.value = 3 }
            XCTAssertEqual(changed?.value, 3)
        }
    }
}
