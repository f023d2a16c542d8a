import CRippleSupport
import CSQLite
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
///
/// The decoder and its keyed containers are valid during `init(from:)` only: records of a
/// cursor share them, so decoding allocates nothing per record. A container kept and used
/// after its row is gone is a fatal error that says so; copy the values you need instead.
extension FetchableRecord where Self: Decodable {
    // Inlinable, so that the record's `init(from:)` is called directly, not through
    // generic code that copies each record through value witnesses.
    @inlinable
    public init(row: Row) throws {
        try self.init(from: row.recordDecoder(for: Self.self))
    }
}

extension Row {
    /// One decoder for all the records built from this row: a cursor's row serves every
    /// record it reads, and the decoder keeps its keyed container from one record to the
    /// next, so decoding a record allocates nothing.
    var reusableRecordDecoder: any Decoder { rowDecoder }

    @inline(__always)
    private var rowDecoder: DatabaseRowDecoder {
        // A copied row may be decoded from several threads at once: it keeps no decoder.
        guard let cursorConnection else { return offeredDecoder() ?? DatabaseRowDecoder(row: self, ownsRow: true) }
        if !Row.holdsAccess(cursorConnection) { Row.rowUsedOutsideOfAccess() }
        if let decoder = recordDecoder { return decoder }
        let decoder = DatabaseRowDecoder(row: self, ownsRow: false)
        recordDecoder = decoder
        return decoder
    }

    /// The decoder that the records of prefetched rows share, when it is offered to this
    /// row (see `PrefetchedRowsDecoder`); taken once.
    @inline(__always)
    private func offeredDecoder() -> DatabaseRowDecoder? {
        guard let offered = ripple_offered_row_decoder() else { return nil }
        return Row.takeOfferedDecoder(offered, for: self)
    }

    @inline(never)
    private static func takeOfferedDecoder(_ offered: UnsafeMutableRawPointer, for row: Row) -> DatabaseRowDecoder? {
        // Offered by `SharedRecordDecoder.decode`, which keeps the decoder alive meanwhile.
        let decoder = _CallbackContext<DatabaseRowDecoder>.object(offered)
        guard decoder.state.storage.pointer.pointee.isAttached(to: row) else { return nil }
        ripple_offer_row_decoder(nil)
        return decoder
    }

    /// Runs `body`, in which records decoded from this row get a decoder other than the
    /// one in use (see `CursorRowReuse`). Copied rows make a decoder for each record.
    func withNestedRecordDecoder<R>(_ body: () throws -> R) rethrows -> R {
        guard let cursorConnection else { return try body() }
        if !Row.holdsAccess(cursorConnection) { Row.rowUsedOutsideOfAccess() }
        let reuse = self.reuse ?? CursorRowReuse()
        self.reuse = reuse
        return try reuse.withNestedDecoder(of: self, body)
    }

    /// The decoder of a record of `type`, which decodes with the type's strategies.
    @usableFromInline
    func recordDecoder(for type: any FetchableRecord.Type) -> any Decoder {
        let decoder = rowDecoder
        decoder.state.storage.pointer.pointee.use(type)
        return decoder
    }
}

// How decoding stays fast. The standard library calls a decoder and its keyed container
// through unspecialized generic code: for each property, it copies the container through
// value witnesses, and asks for generic metadata whenever a container is created or
// returned. So:
// - the row keeps one decoder (above), and the decoder keeps the keyed container it handed
//   out last: records of one type get the same container on every row;
// - the container is a struct of plain values (the address of its state's storage, which
//   is never freed, and a generation number: `_ImmortalDecodingStorage`), so copying it
//   counts no references;
// - column indexes are predicted from one record to the next, by the value of the coding
//   key (`CodingKeyPrediction`), so that keys are not asked for their names;
// - values of a statement row are read straight from the statement, with the checks of
//   `Row`'s fast path (the access to the connection, the column index).
//
// The address stays memory-safe: the storage it points to is never deallocated (a state
// whose row is gone goes back to a pool, with a new generation), and every use checks the
// generation, so a container kept after its row is gone is a clear fatal error, not a read
// of freed memory.

/// The decoder of `Decodable` records; owned by its row, never created otherwise.
final class DatabaseRowDecoder: Decoder {
    let state: RecordDecodingState
    let generation: UInt64
    /// Empty for a row's own decoder; the key of the property for the decoder of a value
    /// that is not a record, decoded from a scope or from the whole row.
    let codingPath: [any CodingKey]
    /// The record whose property a value decoded from a scope is: its
    /// `databaseDecodingUserInfo` is the value's, as in GRDB.
    private let outerRecordType: (any FetchableRecord.Type)?
    var userInfo: [CodingUserInfoKey: Any] {
        state.check(generation)
        return (state.storage.pointer.pointee.recordType ?? outerRecordType)?.databaseDecodingUserInfo ?? [:]
    }

    /// The keyed container handed out last. (Its accesses call nothing: the optimizer
    /// proves them exclusive, and release builds check nothing at run time.)
    private var last = LastContainer()

    /// The keyed container handed out last, and the type of its keys. It is kept in raw
    /// memory, typed by `keyType`, because a dynamic cast back from `Any` would cost as
    /// much as building a new one.
    private struct LastContainer {
        var container: UnsafeMutableRawPointer?
        var destroy: ((UnsafeMutableRawPointer) -> Void)?
        var keyType: ObjectIdentifier?
    }

    /// The row of a decoder made for a copied row, kept alive by the decoder (a statement
    /// row keeps its decoder: it releases the decoder's state when it ends).
    private let ownedRow: Row?

    /// A decoder for `row`: a statement row keeps it in `recordDecoder`; a copied row makes
    /// one for each record (`ownsRow`), which keeps the row alive.
    init(
        row: Row, ownsRow: Bool, sharingPredictions: Bool = true, codingPath: [any CodingKey] = [],
        outerRecordType: (any FetchableRecord.Type)? = nil
    ) {
        self.codingPath = codingPath
        self.outerRecordType = outerRecordType
        state = RecordDecodingState.acquire(for: row, sharingPredictions: sharingPredictions)
        generation = state.generation
        ownedRow = ownsRow ? row : nil
    }

    deinit {
        if let container = last.container { last.destroy?(container) }
        // Containers kept beyond the decoder fail their check.
        state.release(generation: generation)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        state.check(generation)
        state.rewind()
        // The memory of `last.container` was initialized as a `KeyedDecodingContainer<Key>`
        // when `last.keyType` was set to `Key`.
        if last.keyType == ObjectIdentifier(Key.self), let container = last.container {
            return container.assumingMemoryBound(to: KeyedDecodingContainer<Key>.self).pointee
        }
        return makeContainer(keyedBy: Key.self)
    }

    /// A new container, kept for the next records.
    @inline(never)
    private func makeContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        if let container = last.container { last.destroy?(container) }
        let container = KeyedDecodingContainer(RowKeyedDecodingContainer<Key>(state: state, generation: generation))
        let slot = UnsafeMutablePointer<KeyedDecodingContainer<Key>>.allocate(capacity: 1)
        slot.initialize(to: container)
        last = LastContainer(
            container: UnsafeMutableRawPointer(slot),
            destroy: { raw in
                let slot = raw.assumingMemoryBound(to: KeyedDecodingContainer<Key>.self)
                slot.deinitialize(count: 1)
                slot.deallocate()
            },
            keyType: ObjectIdentifier(Key.self))
        return container
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "a row decodes as a keyed container only"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        state.check(generation)
        return RowSingleValueDecodingContainer(row: state.storage.pointer.pointee.withRow { $0 })
    }
}

/// The keyed container of a row: plain values, copied by the standard library without
/// reference counting (see `_ImmortalDecodingStorage`).
struct RowKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let storage: UnsafeMutablePointer<RecordDecodingStorage>
    private let generation: UInt64
    var codingPath: [any CodingKey] { [] }

    init(state: RecordDecodingState, generation: UInt64) {
        self.storage = state.storage.pointer
        self.generation = generation
    }

    /// Runs `body` with the state, once checked to belong to this container's row.
    @inline(__always)
    private func withState<R>(_ body: (inout RecordDecodingStorage) throws -> R) rethrows -> R {
        let storage = _ImmortalDecodingStorage.checked(self.storage)
        storage.pointee.check(generation)
        return try body(&storage.pointee)
    }

    var allKeys: [Key] {
        withState { state in
            if let keys = state.keyNames { return keys.compactMap { Key(stringValue: $0) } }
            return state.withRow { $0.columnNames.compactMap { Key(stringValue: $0) } }
        }
    }

    /// Whether `key` is a column, a scope (an included association) or prefetched rows.
    func contains(_ key: Key) -> Bool {
        withState { state in
            if state.index(key) != nil { return true }
            return state.withRow { row in
                row.scopesTree[key.stringValue] != nil || row.prefetchedRowsStorage[key.stringValue] != nil
            }
        }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        withState { state in
            guard let index = state.index(key) else {
                // Not a column: an included association is nil when its scope has only
                // NULLs; prefetched rows are never nil.
                return state.withRow { row in
                    if let scope = row.scopesTree[key.stringValue] { return !scope.containsNonNullValue }
                    return row.prefetchedRowsStorage[key.stringValue] == nil
                }
            }
            return state.hasNull(index)
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try withState { try $0.decode(type, key) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try withState { try $0.decode(type, key) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try withState { try $0.decode(type, key) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try withState { try $0.decode(type, key) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try withState { try $0.decode(type, key) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try withState { try $0.decode(type, key) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try withState { try $0.decode(type, key) } }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try withState { try $0.decode(type, key) } }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try withState { try $0.decode(type, key) } }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try withState { try $0.decode(type, key) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try withState { try $0.decode(type, key) } }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try withState { try $0.decode(type, key) } }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try withState { try $0.decode(type, key) } }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try withState { try $0.decode(type, key) } }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try withState { try $0.decodeIfPresent(type, key) } }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try withState { try $0.decodeIfPresent(type, key) } }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try withState { try $0.decode(T.self, key) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try withState { try $0.decodeIfPresent(T.self, key) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch(
            type, .init(codingPath: codingPath + [key], debugDescription: "nested containers are decoded from JSON columns"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: codingPath + [key], debugDescription: "nested containers are decoded from JSON columns"))
    }

    // The row's decoder: a superclass decodes from the same columns.
    func superDecoder() throws -> any Decoder { withState { $0.withRow(\.reusableRecordDecoder) } }
    func superDecoder(forKey key: Key) throws -> any Decoder { withState { $0.withRow(\.reusableRecordDecoder) } }
}

/// Decodes a `Decodable` type that is not `DatabaseValueConvertible` from one column: from
/// the value itself for single-value types (enums with raw values), from JSON otherwise.
func decodeColumnValue<T: Decodable>(
    _ type: T.Type, _ dbValue: DatabaseValue, column: String, index: Int, statement: Statement?,
    usingConversion: Bool = true, key: String? = nil, recordType: (any FetchableRecord.Type)? = nil,
    jsonDecoder: () -> JSONDecoder = { .databaseDefault() }
) throws -> T {
    do {
        // (Not through `fromDatabaseValue` at the top for the default conversion of
        // Decodable types, which would call this again.)
        let decoder = ColumnValueDecoder(
            dbValue: dbValue, typeWithoutConversion: usingConversion ? nil : T.self, key: key,
            recordType: recordType, column: column, index: index, statement: statement)
        return try T(from: decoder)
    } catch is ColumnValueDecoder.NeedsJSON {
        let data: Data
        switch dbValue.storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        default: throw decodingError(dbValue, T.self, column: column, index: index, statement: statement)
        }
        do {
            return try jsonDecoder().decode(T.self, from: data)
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
    /// The type whose default conversion runs this decoder: it does not decode through
    /// that conversion again. Other `DatabaseValueConvertible` types do.
    var typeWithoutConversion: Any.Type?
    /// The key of the property decoded from the column, if any (the coding path is made
    /// only when asked for).
    var key: String?
    /// The record whose property this is: a value that decodes a `Date` or `Data` (a
    /// wrapper) reads it with the record's strategy for the column, and gets the record's
    /// `databaseDecodingUserInfo`, as in GRDB.
    var recordType: (any FetchableRecord.Type)?
    var column = ""
    var index = 0
    var statement: Statement?
    var codingPath: [any CodingKey] { key.map { [ColumnCodingKey(stringValue: $0)] } ?? [] }
    var userInfo: [CodingUserInfoKey: Any] { recordType?.databaseDecodingUserInfo ?? [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw NeedsJSON() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NeedsJSON() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { dbValue.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let recordType, !dbValue.isNull,
            let value = try RecordDecodingStrategies.dateOrData(
                T.self, dbValue, column: column, index: index, statement: statement,
                dateStrategy: { recordType.databaseDateDecodingStrategy(for: column) },
                dataStrategy: { recordType.databaseDataDecodingStrategy(for: column) })
        {
            return value
        }
        if T.self != typeWithoutConversion, let convertible = T.self as? any DatabaseValueConvertible.Type {
            guard let value = convertible.fromDatabaseValue(dbValue) else {
                throw DecodingError.typeMismatch(T.self, .init(codingPath: [], debugDescription: "\(dbValue)"))
            }
            return value as! T
        }
        return try T(from: self)
    }
}

/// The coding key of a column, for the coding path of a value decoded from it.
struct ColumnCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
