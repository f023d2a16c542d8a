import Ripple
import XCTest

/// The coding path of the decoders of nested values, as GRDB's: the key of the property.
final class NestedDecodingCodingPathTests: XCTestCase {
    private struct Keyed: Decodable {
        var name: String
        var key: String?

        enum CodingKeys: String, CodingKey { case name }

        init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
            key = decoder.codingPath.last?.stringValue
        }
    }

    private struct Single: Decodable {
        var name: String
        var key: String?

        init(from decoder: any Decoder) throws {
            name = try decoder.singleValueContainer().decode(String.self)
            key = decoder.codingPath.last?.stringValue
        }
    }

    private struct Record: Decodable, FetchableRecord {
        var keyed: Keyed
        var single: Single
    }

    func testNestedValuesKnowTheirKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let request = SQLRequest<Record>(
                sql: "SELECT 'foo' AS name, 'bar' AS single",
                adapter: ScopeAdapter(["keyed": RangeRowAdapter(0..<1)]))
            let record = try XCTUnwrap(request.fetchOne(db))
            XCTAssertEqual(record.keyed.name, "foo")
            XCTAssertEqual(record.keyed.key, "keyed")
            XCTAssertEqual(record.single.name, "bar")
            XCTAssertEqual(record.single.key, "single")
            let copied = try Record(row: XCTUnwrap(Row.fetchOne(db, request.asRequest(of: Row.self))))
            XCTAssertEqual(copied.keyed.key, "keyed")
            XCTAssertEqual(copied.single.key, "single")
        }
    }
}
