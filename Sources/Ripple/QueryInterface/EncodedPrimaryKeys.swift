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
        let element = Keys.Element.self
        if element == UUID.self || element == UUID?.self {
            guard let record = RecordType(recordType) else { return nil }
            let uuids = keys.compactMap { $0 as? UUID }
            encode = { column in uuids.map { record.type.databaseUUIDEncodingStrategy(for: column).databaseValue(of: $0) } }
        } else if element == Date.self || element == Date?.self {
            guard let record = RecordType(recordType) else { return nil }
            let dates = keys.compactMap { $0 as? Date }
            encode = { column in dates.map { record.type.databaseDateEncodingStrategy(for: column).databaseValue(of: $0) } }
        } else if element == Data.self || element == Data?.self {
            guard let record = RecordType(recordType) else { return nil }
            let datas = keys.compactMap { $0 as? Data }
            encode = { column in try datas.map { try record.type.databaseDataEncodingStrategy(for: column).databaseValue(of: $0) } }
        } else {
            return nil
        }
    }

    /// The keys' values for the primary key column `column`.
    func databaseValues(_ column: String) throws -> [DatabaseValue] {
        try encode(column)
    }
}

/// The record type, for the closures that encode the keys, which may run on another
/// thread than the one that made the request.
private struct RecordType: @unchecked Sendable {  // a metatype, used for its static strategy functions only
    let type: any EncodableRecord.Type

    init?(_ type: Any.Type) {
        guard let type = type as? any EncodableRecord.Type else { return nil }
        self.type = type
    }
}
