import Ripple
import XCTest

/// A row's keyed container contains its columns, its scopes and its prefetched rows.
final class KeyedContainerContainsTests: XCTestCase {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct Witness: Decodable, FetchableRecord {
        var found: [String: Bool] = [:]
        var nilForKey: [String: Bool] = [:]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for name in ["a", "nested", "missing"] {
                found[name] = container.contains(AnyKey(name))
                nilForKey[name] = try container.decodeNil(forKey: AnyKey(name))
            }
        }
    }

    func testContainsColumnsAndScopes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let request = SQLRequest<Witness>(sql: "SELECT 1 AS a, 2 AS b", adapter: ScopeAdapter(["nested": RangeRowAdapter(1..<2)]))
            let witness = try XCTUnwrap(request.fetchOne(db))
            XCTAssertEqual(witness.found, ["a": true, "nested": true, "missing": false])
            XCTAssertEqual(witness.nilForKey, ["a": false, "nested": false, "missing": true])
        }
    }
}
