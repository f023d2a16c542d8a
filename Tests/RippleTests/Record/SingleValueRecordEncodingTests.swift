import XCTest

@testable import Ripple

/// A record whose `encode(to:)` encodes a nested model as a single value: the model's keys
/// become the record's columns, as GRDB's records encode it.
final class SingleValueRecordEncodingTests: XCTestCase {
    private struct Model: Encodable {
        let value: String
    }

    private struct Wrapper<M: Encodable>: MutablePersistableRecord, Encodable {
        static var databaseTableName: String { "t1" }
        var model: M
        var otherValue: String

        enum CodingKeys: String, CodingKey {
            case otherValue
        }

        func encode(to encoder: any Encoder) throws {
            var modelContainer = encoder.singleValueContainer()
            try modelContainer.encode(model)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(otherValue, forKey: .otherValue)
        }
    }

    func testANestedModelEncodesIntoTheRecordsColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "t1") { t in
                t.column("value", .text)
                t.column("otherValue", .text)
            }
            var record = Wrapper(model: Model(value: "foo"), otherValue: "bar")
            XCTAssertEqual(try record.databaseDictionary, ["value": "foo".databaseValue, "otherValue": "bar".databaseValue])
            try record.insert(db)
            XCTAssertEqual(try Row.fetchOne(db, sql: "SELECT value, otherValue FROM t1"), ["value": "foo", "otherValue": "bar"])
        }
    }

    /// A model that is a record itself encodes its record's columns, not its keys.
    private struct RecordModel: Encodable, EncodableRecord {
        let value: String
        func encode(to container: inout PersistenceContainer) throws {
            container["column1"] = "test"
            container["column2"] = 12
        }
    }

    func testANestedRecordEncodesItsOwnColumns() throws {
        let record = Wrapper(model: RecordModel(value: "foo"), otherValue: "bar")
        XCTAssertEqual(
            try record.databaseDictionary, ["column1": "test".databaseValue, "column2": 12.databaseValue, "otherValue": "bar".databaseValue])
    }

    func testALoneValueThrows() throws {
        let record = Wrapper(model: "lone", otherValue: "bar")
        XCTAssertThrowsError(try record.databaseDictionary) { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(context.debugDescription.contains("can not encode a single value"), context.debugDescription)
        }
    }
}
