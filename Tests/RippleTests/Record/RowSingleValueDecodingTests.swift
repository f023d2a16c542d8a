import Ripple
import XCTest

/// The single value container of a row's decoder: a value from the first column, another
/// type from the whole row.
final class RowSingleValueDecodingTests: XCTestCase {
    private struct Named: Decodable {
        let name: String
    }

    private struct NamedRecord: Decodable, FetchableRecord {
        var name: String
        var readByInitRow = false

        init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
        }

        init(row: Row) throws {
            name = row["name"]
            readByInitRow = true
        }

        enum CodingKeys: String, CodingKey { case name }
    }

    private struct Wrapper<Model: Decodable>: Decodable, FetchableRecord {
        var model: Model
        var score: Int

        enum CodingKeys: String, CodingKey { case score }

        init(from decoder: any Decoder) throws {
            score = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .score)
            model = try decoder.singleValueContainer().decode(Model.self)
        }
    }

    private struct FirstColumn: Decodable, FetchableRecord {
        var value: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            value = container.decodeNil() ? nil : try container.decode(String.self)
        }
    }

    func testSingleValueContainerOfARow() throws {
        let row = Row([("name", "Arthur"), ("score", 10)])
        let wrapper = try Wrapper<Named>(row: row)
        XCTAssertEqual(wrapper.model.name, "Arthur")
        XCTAssertEqual(wrapper.score, 10)
        XCTAssertEqual(try Wrapper<String>(row: row).model, "Arthur", "a value: the first column")
        XCTAssertEqual(try Wrapper<Int>(row: Row(["score": 3])).model, 3)
        let record = try Wrapper<NamedRecord>(row: row).model
        XCTAssertEqual(record.name, "Arthur")
        XCTAssertTrue(record.readByInitRow, "a record is built by its init(row:)")
    }

    func testSingleValueContainerInAFetch() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let sql = "SELECT 'Arthur' AS name, 10 AS score UNION ALL SELECT 'Barbara', 20 ORDER BY 2"
            let wrappers = try Wrapper<NamedRecord>.fetchAll(db, sql: sql)
            XCTAssertEqual(wrappers.map(\.model.name), ["Arthur", "Barbara"])
            XCTAssertEqual(wrappers.map(\.score), [10, 20])
            XCTAssertTrue(wrappers.allSatisfy(\.model.readByInitRow))
            XCTAssertEqual(try FirstColumn.fetchAll(db, sql: "SELECT 'a' UNION ALL SELECT NULL").map(\.value), ["a", nil])
            // A value that does not convert is an error of the fetch.
            XCTAssertThrowsError(try Wrapper<Int>.fetchAll(db, sql: "SELECT 'abc' AS name, 1 AS score"))
        }
    }
}
