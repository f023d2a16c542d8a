import Foundation

/// Dates, data or UUIDs given as primary keys of an ``EncodableRecord`` type
/// (`Player.filter(id: uuid)`, `Player.deleteOne(db, id: uuid)`): encoded with the record's
/// strategies for the primary key column, as `insert` stores them, once the column is
/// known.
struct EncodedPrimaryKeys: Sendable {
    private let encode: @Sendable (_ column: String) throws -> [DatabaseValue]

    /// Whether keys of this type may need a record's strategies: dates, data and UUIDs,
    /// optional or not.
    static func mayEncode(_ type: Any.Type) -> Bool {
        type == UUID.self || type == UUID?.self || type == Date.self || type == Date?.self || type == Data.self || type == Data?.self
    }

    /// Nil unless `recordType` is an ``EncodableRecord`` and the keys are dates, data or
    /// UUIDs (optional or not): other keys are stored as they are.
    init?<Keys: Sequence>(_ recordType: Any.Type, _ keys: Keys) where Keys.Element: DatabaseValueConvertible {
        // The element type is compared first: other keys cost no dynamic cast.
        guard Self.mayEncode(Keys.Element.self), let record = recordType as? any EncodableRecord.Type else { return nil }
        let values = keys.compactMap(Value.init)
        encode = { column in try values.map { try $0.databaseValue(record, column: column) } }
    }

    /// One key (NULLs dropped).
    private enum Value: Sendable {
        case uuid(UUID)
        case date(Date)
        case data(Data)

        init?(_ key: some DatabaseValueConvertible) {
            if let uuid = key as? UUID {
                self = .uuid(uuid)
            } else if let date = key as? Date {
                self = .date(date)
            } else if let data = key as? Data {
                self = .data(data)
            } else {
                return nil
            }
        }

        func databaseValue(_ record: any EncodableRecord.Type, column: String) throws -> DatabaseValue {
            switch self {
            case .uuid(let uuid): return record.databaseUUIDEncodingStrategy(for: column).databaseValue(of: uuid)
            case .date(let date): return record.databaseDateEncodingStrategy(for: column).databaseValue(of: date)
            case .data(let data): return try record.databaseDataEncodingStrategy(for: column).databaseValue(of: data)
            }
        }
    }

    /// The keys' values for the primary key column `column`.
    func databaseValues(_ column: String) throws -> [DatabaseValue] {
        try encode(column)
    }
}
