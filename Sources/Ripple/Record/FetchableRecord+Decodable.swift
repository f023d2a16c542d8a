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
        try self.init(from: row.reusableRecordDecoder)
    }
}

extension Row {
    /// One decoder for all the records built from this row: a cursor's row serves every
    /// record it reads, and the decoder keeps its keyed container from one record to the
    /// next, so decoding a record allocates nothing.
    @usableFromInline
    var reusableRecordDecoder: any Decoder {
        // A copied row may be decoded from several threads at once: it keeps no decoder.
        guard statementRow != nil else { return DatabaseRowDecoder(row: self, ownsRow: true) }
        checkAccess()
        if let decoder = recordDecoder { return decoder }
        let decoder = DatabaseRowDecoder(row: self, ownsRow: false)
        recordDecoder = decoder
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
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The keyed container handed out last. Debug builds keep the runtime's exclusivity
    /// checks; release builds skip them (Shortcuts table, Benchmarks/README.md).
    #if DEBUG
    private var last = LastContainer()
    #else
    @exclusivity(unchecked) private var last = LastContainer()
    #endif

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
    init(row: Row, ownsRow: Bool) {
        state = RecordDecodingState.acquire(for: row)
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
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "a row decodes as a keyed container only"))
    }
}

/// What the decoder and the keyed containers of a row read: the row, and the predicted
/// column indexes, in storage that is never freed (see ``_ImmortalDecodingStorage``).
/// Never deallocated: states not in use wait in a pool.
final class RecordDecodingState {  // used by one decoder at a time; the free ones wait behind a lock
    /// The state's storage, read by keyed containers without reference counting.
    let storage = _ImmortalDecodingStorage()

    /// Incremented each time the state is given back, so that containers of a previous
    /// row are recognized.
    var generation: UInt64 { storage.pointer.pointee.generation }

    // States not in use. They stay allocated, and so does their storage: that is what
    // makes the containers' uncounted references to it safe. There are never more than the
    // decoders that were alive at once.
    private static let free = LockedState<[RecordDecodingState]>([])

    static func acquire(for row: Row) -> RecordDecodingState {
        let state = free.withLock { $0.popLast() } ?? RecordDecodingState()
        state.storage.pointer.pointee.attach(row)
        return state
    }

    /// Gives the state back, once for a generation (the row and its decoder may both ask):
    /// containers kept beyond this point fail their check.
    func release(generation expected: UInt64) {
        Self.free.withLock { free in
            guard storage.pointer.pointee.detach(generation: expected) else { return }
            free.append(self)
        }
    }

    func check(_ expected: UInt64) { storage.pointer.pointee.check(expected) }

    /// Rewinds the predictions, for a new record.
    func rewind() {
        storage.pointer.pointee.predictions.byName.rewind()
        storage.pointer.pointee.predictions.byKey.rewind()
        storage.pointer.pointee.decodedRootKey = false
    }
}

/// The address of a `RecordDecodingStorage` that is never freed.
///
/// Keyed containers keep this address, not a counted reference to their state: the
/// standard library copies a container through its value witnesses for each decoded value,
/// and a counted reference costs two atomic operations at each copy (measured: Benchmarks/README.md, "Shortcuts").
///
/// Invariant: the storage is allocated when its `RecordDecodingState` is made, and never
/// deallocated; states are never deallocated either (they wait in a pool), so the address
/// stays valid for the life of the process. Debug builds check a marker at each use.
struct _ImmortalDecodingStorage {
    let pointer: UnsafeMutablePointer<RecordDecodingStorage>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: RecordDecodingStorage())
    }

    /// A container's pointer, checked in debug builds.
    @inline(__always)
    static func checked(_ pointer: UnsafeMutablePointer<RecordDecodingStorage>) -> UnsafeMutablePointer<RecordDecodingStorage> {
        assert(pointer.pointee.marker == RecordDecodingStorage.liveMarker, "decoding storage is allocated and never freed")
        return pointer
    }
}

/// The state of the decoder and keyed containers of one row, in `_ImmortalDecodingStorage`.
struct RecordDecodingStorage {
    static let liveMarker: UInt64 = 0x5249_5050_4C45_4453
    /// Checked in debug builds: see ``_ImmortalDecodingStorage``.
    let marker = RecordDecodingStorage.liveMarker
    /// Incremented each time the state is given back, so that containers of a previous
    /// row are recognized.
    private(set) var generation: UInt64 = 0
    /// The row, while the state is acquired. Unretained (a counted reference costs two
    /// atomic operations for each decoded value) and valid: the row lives as long as the
    /// state is acquired, since the state is given back when the row ends (a statement
    /// row) or when its decoder, which retains the row, ends (a copied row).
    private var row: Unmanaged<Row>?
    /// What the fast path reads for a statement row, without touching the row: its
    /// statement handle and connection (nil for copied rows), its number of columns.
    private var statementRow: StatementRowHandle?
    private var columnCount = 0
    /// Column indexes in the order properties are decoded, by name and by coding key
    /// value (see `CodingKeyPrediction`), resolved on the first record and predicted for
    /// the next ones.
    var predictions = RecordColumnPredictions()
    /// Whether a property of the record being decoded, with neither a column nor a scope,
    /// was decoded from the whole row (see `decodeWithoutColumn`); once a record.
    var decodedRootKey = false
    /// For a statement row, the lookups of its statement, where the predictions come from
    /// and go back to when the row is done: the next cursor of the statement (an
    /// observation's request, fetched again) starts with them. (Predictions hold for the
    /// columns of one statement; a statement that SQLite compiles with other columns gets
    /// a new cache, see `Statement.refreshColumns()`.) The cache belongs to the
    /// connection's queue: it is read and written only by a thread that holds the
    /// connection's access (a row kept beyond it may end anywhere).
    private var columnIndexCache: ColumnIndexCache?

    mutating func attach(_ row: Row) {
        self.row = .passUnretained(row)
        statementRow = row.statementRow
        columnCount = row.count
        if let cache = row.columnIndexCache, let statementRow, Row.holdsAccess(statementRow.connectionIdentity) {
            columnIndexCache = cache
            predictions = cache.state.recordPredictions
        }
    }

    /// Forgets the row, once for a generation; false when it was done already.
    mutating func detach(generation expected: UInt64) -> Bool {
        guard generation == expected else { return false }
        generation &+= 1
        row = nil
        if let cache = columnIndexCache {
            if let statementRow, Row.holdsAccess(statementRow.connectionIdentity) {
                cache.state.recordPredictions = predictions
            }
            columnIndexCache = nil
        }
        statementRow = nil
        predictions = RecordColumnPredictions()
        return true
    }

    @inline(__always)
    func check(_ expected: UInt64) {
        if generation != expected {
            fatalError(
                "A decoder or decoding container of a Ripple row was used after its row was gone. Use them only inside init(from:), and copy what you need to keep."
            )
        }
    }

    /// Runs `body` with the row; only after `check`. (The slow paths: the row is retained.)
    @inline(__always)
    func withRow<R>(_ body: (Row) throws -> R) rethrows -> R {
        assert(row != nil, "a decoding state was used while not acquired")
        return try body(row.unsafelyUnwrapped.takeUnretainedValue())
    }

    @inline(__always)
    mutating func index(_ name: String) -> Int? {
        let row = self.row
        return predictions.byName.index(of: name) {
            assert(row != nil, "a decoding state was used while not acquired")
            return row.unsafelyUnwrapped.takeUnretainedValue().uncachedIndex(forColumn: name)
        }
    }

    /// The column index of `key`: predicted from the key's value for the coding keys of
    /// synthesized `Codable` conformances, without asking for the key's name.
    @inline(__always)
    mutating func index<Key: CodingKey>(_ key: Key) -> Int? {
        let row = self.row
        // (Through a pointer: the two predictions are distinct parts of the storage.)
        return withUnsafeMutablePointer(to: &predictions.byName) { prediction in
            predictions.byKey.index(of: key) { name in
                prediction.pointee.index(of: name) {
                    assert(row != nil, "a decoding state was used while not acquired")
                    return row.unsafelyUnwrapped.takeUnretainedValue().uncachedIndex(forColumn: name)
                }
            }
        }
    }

    /// The statement handle of a statement row and the column index SQLite takes, once
    /// checked that the thread holds the row's connection and that `index` is a column;
    /// nil for a copied row.
    @inline(__always)
    private func statementHandle(forColumn index: Int) -> (OpaquePointer, CInt)? {
        guard let statementRow else { return nil }
        statementRow.checkAccess()
        return (statementRow.sqliteStatement, StatementRowHandle.columnIndex(index, count: columnCount))
    }

    func hasNull(_ index: Int) -> Bool {
        if let (sqliteStatement, column) = statementHandle(forColumn: index) {
            return sqlite3_column_type(sqliteStatement, column) == SQLITE_NULL
        }
        return withRow { $0.hasNull(atIndex: index) }
    }

    @inline(never)
    func missingColumn<Key: CodingKey>(_ key: Key) -> DatabaseError {
        withRow { $0.missingColumn(key.stringValue) }
    }

    @inline(never)
    func decodingError(_ type: Any.Type, atIndex index: Int) -> DatabaseError {
        withRow { $0.statementDecodingError(type, index: CInt(index)) }
    }

    @inline(__always)
    mutating func decode<T: DatabaseValueConvertible & StatementColumnConvertible, Key: CodingKey>(_ type: T.Type, _ key: Key) throws -> T {
        guard let index = index(key) else { throw missingColumn(key) }
        if let (sqliteStatement, column) = statementHandle(forColumn: index) {
            if let value = T(sqliteStatement: sqliteStatement, index: column) { return value }
            throw decodingError(T.self, atIndex: index)
        }
        return try withRow { try $0.decode(T.self, atIndex: index) }
    }

    @inline(__always)
    mutating func decodeIfPresent<T: DatabaseValueConvertible & StatementColumnConvertible, Key: CodingKey>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let index = index(key) else { return nil }
        if let (sqliteStatement, column) = statementHandle(forColumn: index) {
            if let value = T(sqliteStatement: sqliteStatement, index: column) { return value }
            if sqlite3_column_type(sqliteStatement, column) == SQLITE_NULL { return nil }
            throw decodingError(T.self, atIndex: index)
        }
        return try withRow { try $0.decodeIfPresent(T.self, atIndex: index) }
    }

    mutating func decode<T: Decodable, Key: CodingKey>(_ type: T.Type, _ key: Key) throws -> T {
        guard let index = index(key) else { return try decodeWithoutColumn(T.self, key) }
        return try withRow {
            try Self.decodeValue(T.self, $0.databaseValue(atIndex: index), column: key.stringValue, index: index, statement: $0.statement)
        }
    }

    mutating func decodeIfPresent<T: Decodable, Key: CodingKey>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let index = index(key) else {
            if let scopedRow = withRow({ $0.scopesTree[key.stringValue] }) {
                // A scope of all NULLs is a missing optional association.
                return scopedRow.containsNonNullValue ? try Self.decodeRecord(T.self, from: scopedRow) : nil
            }
            if let rows = withRow({ $0.prefetchedRowsStorage[key.stringValue] }) {
                return try T(from: PrefetchedRowsDecoder(rows: rows))
            }
            return nil
        }
        return try withRow { row in
            let dbValue = row.databaseValue(atIndex: index)
            if dbValue.isNull { return nil }
            return try Self.decodeValue(T.self, dbValue, column: key.stringValue, index: index, statement: row.statement)
        }
    }

    /// A property without a column: a record included by an association (the scope of
    /// its key), or, for one property of the record, the record that the request's own
    /// columns make (`var book: Book` in a `BookInfo` fetched by
    /// `Book.including(required: Book.author)`).
    @inline(never)
    mutating func decodeWithoutColumn<T: Decodable, Key: CodingKey>(_ type: T.Type, _ key: Key) throws -> T {
        if let scopedRow = withRow({ $0.scopesTree[key.stringValue] }) {
            return try Self.decodeRecord(T.self, from: scopedRow)
        }
        if let rows = withRow({ $0.prefetchedRowsStorage[key.stringValue] }) {
            return try T(from: PrefetchedRowsDecoder(rows: rows))
        }
        guard !decodedRootKey, !(T.self is any DatabaseValueConvertible.Type) else { throw missingColumn(key) }
        decodedRootKey = true
        let row = withRow { $0 }
        // A statement row shares its decoder, in use for the record around: a decoder of
        // its own. Other rows (the rows of associations are adapted) make new decoders.
        if row.statementRow != nil { return try T(from: DatabaseRowDecoder(row: row, ownsRow: true)) }
        return try Self.decodeRecord(T.self, from: row)
    }

    /// A record decoded from a scope of the row, or from a prefetched row.
    static func decodeRecord<T: Decodable>(_ type: T.Type, from scopedRow: Row) throws -> T {
        if let recordType = T.self as? any FetchableRecord.Type {
            return try recordType.init(row: scopedRow) as! T
        }
        return try T(from: DatabaseRowDecoder(row: scopedRow, ownsRow: true))
    }

    private static func decodeValue<T: Decodable>(_ type: T.Type, _ dbValue: DatabaseValue, column: String, index: Int, statement: Statement?) throws
        -> T
    {
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            guard let value = convertible.fromDatabaseValue(dbValue) else {
                throw Ripple.decodingError(dbValue, T.self, column: column, index: index, statement: statement)
            }
            return value as! T
        }
        return try decodeColumnValue(T.self, dbValue, column: column, index: index, statement: statement)
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

    var allKeys: [Key] { withState { $0.withRow { $0.columnNames.compactMap { Key(stringValue: $0) } } } }

    func contains(_ key: Key) -> Bool { withState { $0.index(key) != nil } }

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
    usingConversion: Bool = true
) throws -> T {
    do {
        // (Not through `fromDatabaseValue` at the top for the default conversion of
        // Decodable types, which would call this again.)
        return try T(from: ColumnValueDecoder(dbValue: dbValue, typeWithoutConversion: usingConversion ? nil : T.self))
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
    /// The type whose default conversion runs this decoder: it does not decode through
    /// that conversion again. Other `DatabaseValueConvertible` types do.
    var typeWithoutConversion: Any.Type?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw NeedsJSON() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NeedsJSON() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { dbValue.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self != typeWithoutConversion, let convertible = T.self as? any DatabaseValueConvertible.Type {
            guard let value = convertible.fromDatabaseValue(dbValue) else {
                throw DecodingError.typeMismatch(T.self, .init(codingPath: [], debugDescription: "\(dbValue)"))
            }
            return value as! T
        }
        return try T(from: self)
    }
}
