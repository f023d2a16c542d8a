import Foundation

/// The columns and values a record stores, in order.
public struct PersistenceContainer: Sendable {
    /// The column names, in order.
    public private(set) var columns: [String] = []
    /// The values, in column order.
    public private(set) var values: [DatabaseValue] = []

    /// An empty container.
    public init() {}

    /// The value of a column (case-insensitive); setting nil stores NULL.
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get { index(of: column).map { values[$0].storageValue } ?? nil }
        set {
            let value = newValue?.databaseValue ?? .null
            if let index = index(of: column) {
                values[index] = value
            } else {
                columns.append(column)
                values.append(value)
            }
        }
    }

    /// The stored value of a column, or nil when the container has no such column.
    public func databaseValue(forColumn column: String) -> DatabaseValue? {
        index(of: column).map { values[$0] }
    }

    func index(of column: String) -> Int? {
        if let index = columns.firstIndex(of: column) { return index }
        let lowercased = column.lowercased()
        return columns.firstIndex { $0.lowercased() == lowercased }
    }
}

/// A type that can tell the columns and values it stores.
///
/// `Encodable` types adopt it with no code. The encoding strategy, the mirror of the
/// decoding of `Decodable` records:
/// - `DatabaseValueConvertible` properties (numbers, `String`, `Bool`, `Data`, `Date` as
///   UTC text `"yyyy-MM-dd HH:mm:ss.SSS"`, `UUID` as a 16-byte blob) store their database
///   value; nil stores NULL;
/// - single-value types (enums with raw values) store that value;
/// - other `Encodable` types (nested structs, arrays, dictionaries) store JSON text, keys
///   sorted.
public protocol EncodableRecord: GRDBSendableMetatype {
    /// Stores the record's values in `container`.
    func encode(to container: inout PersistenceContainer) throws

    /// The `userInfo` of the encoder of an `Encodable` record. The default is empty.
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The encoder of the JSON stored in `column`, for the properties of an `Encodable`
    /// record that are neither ``DatabaseValueConvertible`` nor single values. The default
    /// encodes data as base64, dates as milliseconds since 1970, sorts keys, and throws on
    /// non-conforming floats.
    static func databaseJSONEncoder(for column: String) -> JSONEncoder

    /// How an `Encodable` record stores the `Data` of `column`. The default is
    /// ``DatabaseDataEncodingStrategy/deferredToData``.
    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy

    /// How an `Encodable` record stores the `Date` of `column`. The default is
    /// ``DatabaseDateEncodingStrategy/deferredToDate``.
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy

    /// How an `Encodable` record stores the `UUID` of `column`. The default is
    /// ``DatabaseUUIDEncodingStrategy/deferredToUUID``.
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy

    /// How an `Encodable` record names the column of each of its coding keys. The default
    /// is ``DatabaseColumnEncodingStrategy/useDefaultKeys``.
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { get }
}

extension EncodableRecord {
    /// The columns and values of the record.
    public func persistenceContainer() throws -> PersistenceContainer {
        var container = PersistenceContainer()
        try encode(to: &container)
        return container
    }
}

extension EncodableRecord {
    // MARK: - Record Comparison

    /// The columns and values of the record, as a dictionary.
    public var databaseDictionary: [String: DatabaseValue] {
        get throws {
            let container = try persistenceContainer()
            return Dictionary(zip(container.columns, container.values)) { first, _ in first }
        }
    }

    /// Whether the two records store the same values (false when one cannot be encoded).
    public func databaseEquals(_ record: Self) -> Bool {
        guard let changes = try? databaseChanges(from: record) else { return false }
        return changes.isEmpty
    }

    /// The columns of this record whose values differ in `record`, with `record`'s values
    /// (NULL for a column it does not store). Only this record's columns are compared.
    ///
    /// ```swift
    /// let changes = try newPlayer.databaseChanges(from: oldPlayer)
    /// changes["score"]  // the old score, when it changed
    /// ```
    public func databaseChanges(from record: some EncodableRecord) throws -> [String: DatabaseValue] {
        try persistenceContainer().changes(from: record.persistenceContainer())
    }

    /// Applies `modify`, and returns the columns it changed, with their former values.
    ///
    /// ```swift
    /// let changes = try player.databaseChanges { $0.score = 1000 }
    /// changes["score"]  // the former score, unless it was 1000 already
    /// ```
    public mutating func databaseChanges(modify: (inout Self) throws -> Void) throws -> [String: DatabaseValue] {
        let before = try persistenceContainer()
        try modify(&self)
        return try persistenceContainer().changes(from: before)
    }
}

extension PersistenceContainer {
    /// The columns of this container whose values differ in `other`, with `other`'s values.
    func changes(from other: PersistenceContainer) -> [String: DatabaseValue] {
        var changes: [String: DatabaseValue] = [:]
        for (column, value) in zip(columns, values) {
            let former = other.databaseValue(forColumn: column) ?? .null
            if former != value { changes[column] = former }
        }
        return changes
    }
}

extension EncodableRecord where Self: Encodable {
    public func encode(to container: inout PersistenceContainer) throws {
        let encoder = RecordEncoder(Self.self)
        try encode(to: encoder)
        container = encoder.container
    }
}

final class RecordEncoder: Encoder {
    var container = PersistenceContainer()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { recordType.databaseEncodingUserInfo }
    let recordType: any EncodableRecord.Type
    /// Nil for the default strategy: keys are column names.
    let columnStrategy: DatabaseColumnEncodingStrategy?

    init(_ recordType: any EncodableRecord.Type) {
        self.recordType = recordType
        let strategy = recordType.databaseColumnEncodingStrategy
        if case .useDefaultKeys = strategy { columnStrategy = nil } else { columnStrategy = strategy }
    }

    func column(forKey key: some CodingKey) -> String { columnStrategy?.column(forKey: key) ?? key.stringValue }

    /// The database value of an `Encodable` property, with the record's strategies. A
    /// single value sees `key` as its coding path, and the record's user info.
    func databaseValue<T: Encodable>(of value: T, column: String, key: (any CodingKey)? = nil) throws -> DatabaseValue {
        if T.self == Date.self, let date = value as? Date {
            return recordType.databaseDateEncodingStrategy(for: column).databaseValue(of: date)
        }
        if T.self == Data.self, let data = value as? Data {
            return try recordType.databaseDataEncodingStrategy(for: column).databaseValue(of: data)
        }
        if T.self == UUID.self, let uuid = value as? UUID {
            return recordType.databaseUUIDEncodingStrategy(for: column).databaseValue(of: uuid)
        }
        return try encodeColumnValue(
            value, codingKey: key, userInfo: userInfo, jsonEncoder: { self.recordType.databaseJSONEncoder(for: column) })
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RecordKeyedEncodingContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        fatalError("A record encodes as a keyed container: implement EncodableRecord.encode(to:) for \(type(of: self))")
    }

    /// A value encoded here (a record's `encode(to:)` that encodes a nested model as a
    /// single value) encodes its keys into the record's columns, as GRDB's does.
    func singleValueContainer() -> any SingleValueEncodingContainer {
        RecordSingleValueEncodingContainer(encoder: self)
    }
}

/// The single value container of a record: it takes values that encode keys, which become
/// the record's columns; a lone value has no column to go to, and throws.
struct RecordSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: RecordEncoder
    var codingPath: [any CodingKey] { [] }

    func encode<T: Encodable>(_ value: T) throws {
        // A record's own columns come first, as GRDB's: its `encode(to container:)`, which
        // may differ from its `Encodable` keys.
        if let record = value as? any EncodableRecord {
            let container = try record.persistenceContainer()
            for (column, value) in zip(container.columns, container.values) {
                encoder.container[column] = value
            }
            return
        }
        try value.encode(to: encoder)
    }

    private func refuse(_ value: Any) throws -> Never {
        throw EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: [],
                debugDescription: "A record can not encode a single value (\(value)): encode it for a key of a keyed container"))
    }

    func encodeNil() throws { try refuse(Optional<Int>.none as Any) }
    func encode(_ value: Bool) throws { try refuse(value) }
    func encode(_ value: String) throws { try refuse(value) }
    func encode(_ value: Double) throws { try refuse(value) }
    func encode(_ value: Float) throws { try refuse(value) }
    func encode(_ value: Int) throws { try refuse(value) }
    func encode(_ value: Int8) throws { try refuse(value) }
    func encode(_ value: Int16) throws { try refuse(value) }
    func encode(_ value: Int32) throws { try refuse(value) }
    func encode(_ value: Int64) throws { try refuse(value) }
    func encode(_ value: UInt) throws { try refuse(value) }
    func encode(_ value: UInt8) throws { try refuse(value) }
    func encode(_ value: UInt16) throws { try refuse(value) }
    func encode(_ value: UInt32) throws { try refuse(value) }
    func encode(_ value: UInt64) throws { try refuse(value) }
}

struct RecordKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: RecordEncoder
    var codingPath: [any CodingKey] { [] }

    private func store(_ value: DatabaseValue, _ key: Key) {
        encoder.container[encoder.column(forKey: key)] = value
    }

    func encodeNil(forKey key: Key) throws { store(.null, key) }
    func encode(_ value: Bool, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: String, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: Double, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: Float, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: Int, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: Int8, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: Int16, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: Int32, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: Int64, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: UInt, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: UInt8, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: UInt16, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: UInt32, forKey key: Key) throws { store(value.databaseValue, key) }
    func encode(_ value: UInt64, forKey key: Key) throws { store(value.databaseValue, key) }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let column = encoder.column(forKey: key)
        encoder.container[column] = try encoder.databaseValue(of: value, column: column, key: key)
    }

    // nil optionals store NULL (the default implementations would omit the column, and an
    // update would then keep the old value).
    func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: String?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: Double?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: Float?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: Int?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { store(value.databaseValue, key) }
    func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return store(.null, key) }
        try encode(value, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        fatalError("Nested containers are not supported: encode a nested Encodable value instead (it is stored as JSON)")
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        fatalError("Nested containers are not supported: encode an array value instead (it is stored as JSON)")
    }

    func superEncoder() -> any Encoder { encoder }
    func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

/// The database value of an `Encodable` property: its own for `DatabaseValueConvertible`
/// types and single values, JSON text otherwise.
func encodeColumnValue<T: Encodable>(
    _ value: T, usingConversion: Bool = true, codingKey: (any CodingKey)? = nil,
    userInfo: @autoclosure () -> [CodingUserInfoKey: Any] = [:],
    jsonEncoder: () -> JSONEncoder = { .databaseDefault() }
) throws -> DatabaseValue {
    // (Not for the default `databaseValue` of Encodable types, which this would call again.)
    if usingConversion, let convertible = value as? any DatabaseValueConvertible { return convertible.databaseValue }
    let encoder = ColumnValueEncoder(codingPath: codingKey.map { [$0] } ?? [], userInfo: userInfo())
    do {
        try value.encode(to: encoder)
    } catch is ColumnValueEncoder.NeedsJSON {
        // The value wants containers: JSON it is.
    }
    guard encoder.needsJSON else { return encoder.value ?? .null }
    return String(decoding: try jsonEncoder().encode(value), as: UTF8.self).databaseValue
}

/// Encodes a single value into a database value; asks for JSON when a type wants a
/// container.
final class ColumnValueEncoder: Encoder, SingleValueEncodingContainer {
    struct NeedsJSON: Error {}
    var value: DatabaseValue?
    var needsJSON = false
    /// The key of the record's column, when a record encodes the value.
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]

    init(codingPath: [any CodingKey] = [], userInfo: [CodingUserInfoKey: Any] = [:]) {
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        needsJSON = true
        return KeyedEncodingContainer(JSONSignalContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        needsJSON = true
        return JSONSignalUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value = .null }
    func encode<T: Encodable>(_ value: T) throws {
        if needsJSON { throw NeedsJSON() }
        if let convertible = value as? any DatabaseValueConvertible {
            self.value = convertible.databaseValue
        } else {
            try value.encode(to: self)
        }
    }
}

/// Containers that only tell their encoder that JSON is needed.
struct JSONSignalContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ColumnValueEncoder
    var codingPath: [any CodingKey] { [] }
    func encodeNil(forKey key: Key) throws { throw ColumnValueEncoder.NeedsJSON() }
    func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw ColumnValueEncoder.NeedsJSON() }
    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(JSONSignalContainer<NestedKey>(encoder: encoder))
    }
    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { JSONSignalUnkeyedContainer(encoder: encoder) }
    func superEncoder() -> any Encoder { encoder }
    func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

struct JSONSignalUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: ColumnValueEncoder
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws { throw ColumnValueEncoder.NeedsJSON() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw ColumnValueEncoder.NeedsJSON() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(JSONSignalContainer<NestedKey>(encoder: encoder))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { encoder }
}
