/// The single value container of a row's decoder, as GRDB has it: a database value
/// decodes from the row's first column, any other type from the whole row.
///
/// ```swift
/// init(from decoder: any Decoder) throws {
///     // `Model` is decoded from the same row as the record around it.
///     model = try decoder.singleValueContainer().decode(Model.self)
/// }
/// ```
struct RowSingleValueDecodingContainer: SingleValueDecodingContainer {
    let row: Row
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { row.count == 0 || row.hasNull(atIndex: 0) }

    func decode(_ type: Bool.Type) throws -> Bool { try firstColumn(type) }
    func decode(_ type: String.Type) throws -> String { try firstColumn(type) }
    func decode(_ type: Double.Type) throws -> Double { try firstColumn(type) }
    func decode(_ type: Float.Type) throws -> Float { try firstColumn(type) }
    func decode(_ type: Int.Type) throws -> Int { try firstColumn(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try firstColumn(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try firstColumn(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try firstColumn(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try firstColumn(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try firstColumn(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try firstColumn(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try firstColumn(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try firstColumn(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try firstColumn(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let kind = RecordDecodingStorage.NestedKind(T.self)
        if kind.isValue, let valueType = T.self as? any DatabaseValueConvertible.Type {
            return try firstColumn(valueType) as! T
        }
        return try row.withNestedRecordDecoder { try RecordDecodingStorage.decodeRecord(T.self, from: row, as: kind) }
    }

    private func firstColumn<T: DatabaseValueConvertible>(_ type: T.Type) throws -> T {
        guard row.count > 0 else { throw row.missingColumn("0") }
        return try row.decode(T.self, atIndex: 0)
    }
}
