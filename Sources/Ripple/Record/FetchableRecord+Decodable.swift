import Foundation

/// `Decodable` records decode from rows with no extra code.
///
/// Properties are read from the columns of the same name (case-insensitive). The decoding
/// strategy, the mirror of ``EncodableRecord``'s:
/// - `DatabaseValueConvertible` types (numbers, `String`, `Bool`, `Data`, `Date`, `UUID`,
///   optionals...) read their column directly, with the conversions of
///   ``DatabaseValueConvertible``;
/// - types that decode from a single value (enums with raw values) read it from the column;
/// - other `Decodable` types (nested structs, arrays, dictionaries) read JSON text.
///
/// A missing column, NULL in a non-optional property, or a value of the wrong type throws a
/// ``DatabaseError`` that names the column.
extension FetchableRecord where Self: Decodable {
    public init(row: Row) throws {
        try self.init(from: DatabaseRowDecoder(row: row))
    }
}

// The decoder and its container are final classes: the standard library calls them
// through unspecialized generic code, where copying a struct goes through value witnesses
// and costs far more than retaining one reference.
final class DatabaseRowDecoder: Decoder {
    let row: Row
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(row: Row) {
        self.row = row
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        row.rewindColumnLookups()
        return KeyedDecodingContainer(RowKeyedDecodingContainer<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "a row decodes as a keyed container only"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "a row decodes as a keyed container only"))
    }
}

final class RowKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: Row
    var codingPath: [any CodingKey] { [] }

    init(row: Row) {
        self.row = row
    }

    private var statement: Statement? {
        if case .statement(let statement) = row.storage { return statement }
        return nil
    }

    var allKeys: [Key] { row.columnNames.compactMap { Key(stringValue: $0) } }

    @inline(__always)
    private func index(_ key: Key) -> Int? {
        row.index(forColumn: key.stringValue)
    }

    @inline(__always)
    private func requiredIndex(_ key: Key) throws -> Int {
        if let index = index(key) { return index }
        throw DatabaseError.mismatch(
            "no such column: \"\(key.stringValue)\" (columns: \(row.columnNames.joined(separator: ", ")))",
            sql: statement?.sql, arguments: statement?.arguments)
    }

    func contains(_ key: Key) -> Bool { row.index(forColumn: key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let index = row.index(forColumn: key.stringValue) else { return true }
        return row.hasNull(atIndex: index)
    }

    @inline(__always)
    private func fast<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type, _ key: Key) throws -> T {
        try row.decode(T.self, atIndex: requiredIndex(key))
    }

    @inline(__always)
    private func fastIfPresent<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let index = index(key) else { return nil }
        return try row.decodeIfPresent(T.self, atIndex: index)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try fast(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try fast(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try fast(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try fast(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try fast(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try fast(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try fast(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try fast(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try fast(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try fast(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try fast(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try fast(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try fast(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try fast(type, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try fastIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try fastIfPresent(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let index = try requiredIndex(key)
        return try decodeValue(T.self, row.databaseValue(atIndex: index), column: key.stringValue, index: index)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = index(key) else { return nil }
        let dbValue = row.databaseValue(atIndex: index)
        if dbValue.isNull { return nil }
        return try decodeValue(T.self, dbValue, column: key.stringValue, index: index)
    }

    private func decodeValue<T: Decodable>(_ type: T.Type, _ dbValue: DatabaseValue, column: String, index: Int) throws -> T {
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            guard let value = convertible.fromDatabaseValue(dbValue) else {
                throw decodingError(dbValue, T.self, column: column, index: index, statement: statement)
            }
            return value as! T
        }
        return try decodeColumnValue(T.self, dbValue, column: column, index: index, statement: statement)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch(type, .init(codingPath: codingPath + [key], debugDescription: "nested containers are decoded from JSON columns"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath + [key], debugDescription: "nested containers are decoded from JSON columns"))
    }

    func superDecoder() throws -> any Decoder { DatabaseRowDecoder(row: row) }
    func superDecoder(forKey key: Key) throws -> any Decoder { DatabaseRowDecoder(row: row) }
}

/// Decodes a `Decodable` type that is not `DatabaseValueConvertible` from one column: from
/// the value itself for single-value types (enums with raw values), from JSON otherwise.
func decodeColumnValue<T: Decodable>(_ type: T.Type, _ dbValue: DatabaseValue, column: String, index: Int, statement: Statement?) throws -> T {
    do {
        return try T(from: ColumnValueDecoder(dbValue: dbValue))
    } catch is ColumnValueDecoder.NeedsJSON {
        let data: Data
        switch dbValue.storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        default: throw decodingError(dbValue, T.self, column: column, index: index, statement: statement)
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw DatabaseError.mismatch(
                "could not decode \(T.self) from the JSON in column \"\(column)\": \(error)",
                sql: statement?.sql, arguments: statement?.arguments)
        }
    } catch let error as DecodingError {
        _ = error
        throw decodingError(dbValue, T.self, column: column, index: index, statement: statement)
    }
}

/// Decodes single values from a database value; asks for JSON when a type wants a
/// container.
struct ColumnValueDecoder: Decoder, SingleValueDecodingContainer {
    struct NeedsJSON: Error {}

    let dbValue: DatabaseValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw NeedsJSON() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NeedsJSON() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { dbValue.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            guard let value = convertible.fromDatabaseValue(dbValue) else {
                throw DecodingError.typeMismatch(T.self, .init(codingPath: [], debugDescription: "\(dbValue)"))
            }
            return value as! T
        }
        return try T(from: self)
    }
}

