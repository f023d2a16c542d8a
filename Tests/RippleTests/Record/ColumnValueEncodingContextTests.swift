import XCTest

@testable import Ripple

/// A single value that a record encodes for a column sees the column's key as its coding
/// path, and the record's `databaseEncodingUserInfo`, as with Foundation's encoders.
final class ColumnValueEncodingContextTests: XCTestCase {
    private static let contextKey = CodingUserInfoKey(rawValue: "context")!

    private struct Described: Encodable {
        var name: String
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            let key = encoder.codingPath.last?.stringValue ?? "nil"
            let context = encoder.userInfo[ColumnValueEncodingContextTests.contextKey] as? String ?? "nil"
            try container.encode("\(name),key:\(key),context:\(context)")
        }
    }

    private struct Record: Encodable, PersistableRecord {
        static let databaseTableName = "record"
        static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [ColumnValueEncodingContextTests.contextKey: "record"] }
        var described: Described
    }

    func testASingleValueSeesItsKeyAndTheRecordsUserInfo() throws {
        let record = Record(described: Described(name: "bar"))
        XCTAssertEqual(try record.databaseDictionary["described"], "bar,key:described,context:record".databaseValue)
        // Outside of a record: no key, no user info.
        XCTAssertEqual(try Described(name: "bar").databaseValueOfEncodable(), "bar,key:nil,context:nil".databaseValue)
    }
}

extension Encodable {
    fileprivate func databaseValueOfEncodable() throws -> DatabaseValue { try encodeColumnValue(self) }
}
