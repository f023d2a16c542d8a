import CSQLite
import Foundation

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

    /// A state for `row`; `sharingPredictions`: whether it starts with the predictions of
    /// the row's statement, and gives its own back (the row's own decoder does; a nested
    /// one, which decodes another type, does not).
    static func acquire(for row: Row, sharingPredictions: Bool = true) -> RecordDecodingState {
        let state = free.withLock { $0.popLast() } ?? RecordDecodingState()
        state.storage.pointer.pointee.attach(row, sharingPredictions: sharingPredictions)
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
    private var row: _UnretainedReference<Row>?
    /// The row whose column names keys are looked up in: `row`, or, for a record type
    /// with a column strategy, `keyRow`, whose columns are named after the keys, in the
    /// order of `row`'s columns (so that both have the same indexes). Unretained, as `row`.
    private var lookupRow: _UnretainedReference<Row>?
    private var keyRow: Row?
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
    /// The types of the properties without a column decoded so far, and what they are:
    /// the dynamic casts that tell it cost more than this lookup, for each record.
    private var nestedTypes: [(type: ObjectIdentifier, kind: NestedKind)] = []
    /// The record type being decoded (nil for other `Decodable` types: the default
    /// strategies), its column of each key when keys are not column names, and its other
    /// strategies, asked when a value needs them.
    private(set) var recordType: (any FetchableRecord.Type)?
    /// The identity of `recordType`, compared for each record (of this type when unset).
    private var recordTypeID = ObjectIdentifier(RecordDecodingStorage.self)
    /// The last record type of a previous row, when it has no column strategy.
    private var rememberedTypeID = ObjectIdentifier(RecordDecodingStorage.self)
    private var strategies: RecordDecodingStrategies?
    /// For a statement row, the lookups of its statement, where the predictions come from
    /// and go back to when the row is done: the next cursor of the statement (an
    /// observation's request, fetched again) starts with them. (Predictions hold for the
    /// columns of one statement; a statement that SQLite compiles with other columns gets
    /// a new cache, see `Statement.refreshColumns()`.) The cache belongs to the
    /// connection's queue: it is read and written only by a thread that holds the
    /// connection's access (a row kept beyond it may end anywhere).
    private var columnIndexCache: ColumnIndexCache?

    mutating func attach(_ row: Row, sharingPredictions: Bool) {
        self.row = _UnretainedReference(row)
        lookupRow = self.row
        statementRow = row.statementRow
        columnCount = row.count
        if sharingPredictions, let cache = row.columnIndexCache, let statementRow, Row.holdsAccess(statementRow.connectionIdentity) {
            columnIndexCache = cache
            predictions = cache.value.recordPredictions
        }
    }

    /// Moves to `row`, a copied row with the same columns as the current one (the next of
    /// prefetched rows): the predictions, the record type and its strategies still hold.
    mutating func move(to row: Row) {
        assert(self.row != nil && statementRow == nil && columnIndexCache == nil, "only the state of a copied row moves")
        let lookupIsRow = keyRow == nil
        self.row = _UnretainedReference(row)
        if lookupIsRow { lookupRow = self.row }
        columnCount = row.count
    }

    /// Whether the state reads `row`.
    func isAttached(to row: Row) -> Bool {
        self.row?.refers(to: row) == true
    }

    /// Forgets the row, once for a generation; false when it was done already.
    mutating func detach(generation expected: UInt64) -> Bool {
        guard generation == expected else { return false }
        generation &+= 1
        row = nil
        if let cache = columnIndexCache {
            // Predictions made through a column strategy stay with their decoder.
            if keyRow == nil, let statementRow, Row.holdsAccess(statementRow.connectionIdentity) {
                cache.value.recordPredictions = predictions
            }
            columnIndexCache = nil
        }
        statementRow = nil
        predictions = RecordColumnPredictions()
        // A record type without a column strategy is remembered for the next row (the
        // next record of an association, say): what depends on columns is forgotten.
        rememberedTypeID = keyRow == nil ? recordTypeID : ObjectIdentifier(RecordDecodingStorage.self)
        recordType = nil
        recordTypeID = ObjectIdentifier(RecordDecodingStorage.self)
        lookupRow = nil
        keyRow = nil
        strategies = nil
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
        return try body(row.unsafelyUnwrapped.object)
    }

    /// Decodes the next record as `type`, with its strategies.
    @inline(__always)
    mutating func use(_ type: any FetchableRecord.Type) {
        if recordTypeID == ObjectIdentifier(type) { return }
        useNewType(type)
    }

    @inline(never)
    private mutating func useNewType(_ type: any FetchableRecord.Type) {
        recordType = type
        recordTypeID = ObjectIdentifier(type)
        strategies = nil
        if rememberedTypeID == recordTypeID && keyRow == nil { return }
        let hadKeyRow = keyRow != nil
        keyRow = withRow { row in
            RecordDecodingStrategies.keyNames(type, columnNames: row.columnNames).map { names in
                Row(names.map { ($0, DatabaseValue.null) })
            }
        }
        lookupRow = keyRow.map { _UnretainedReference($0) } ?? row
        // Predictions hold for the names they were resolved with.
        if hadKeyRow || keyRow != nil { predictions = RecordColumnPredictions() }
    }

    /// The coding key names of the columns, for a record type with a column strategy.
    var keyNames: [String]? { keyRow?.columnNames }

    /// The date and data strategies of the record type, for a value of `type`.
    @inline(__always)
    private mutating func strategies(for type: Any.Type) -> RecordDecodingStrategies? {
        guard let recordType, type == Date.self || type == Data.self else { return nil }
        if let strategies { return strategies }
        let strategies = withRow { RecordDecodingStrategies(recordType, columnNames: $0.columnNames) }
        self.strategies = strategies
        return strategies
    }

    @inline(__always)
    mutating func index(_ name: String) -> Int? {
        let row = lookupRow
        return predictions.byName.index(of: name) {
            assert(row != nil, "a decoding state was used while not acquired")
            return row.unsafelyUnwrapped.object.uncachedIndex(forColumn: name)
        }
    }

    /// The column index of `key`: predicted from the key's value for the coding keys of
    /// synthesized `Codable` conformances, without asking for the key's name.
    @inline(__always)
    mutating func index<Key: CodingKey>(_ key: Key) -> Int? {
        let row = lookupRow
        // (Through a pointer: the two predictions are distinct parts of the storage.)
        return withUnsafeMutablePointer(to: &predictions.byName) { prediction in
            predictions.byKey.index(of: key) { name in
                prediction.pointee.index(of: name) {
                    assert(row != nil, "a decoding state was used while not acquired")
                    return row.unsafelyUnwrapped.object.uncachedIndex(forColumn: name)
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
            if let value = T._columnValue(sqliteStatement: sqliteStatement, index: column) { return value }
            throw decodingError(T.self, atIndex: index)
        }
        return try withRow { try $0.decode(T.self, atIndex: index) }
    }

    @inline(__always)
    mutating func decodeIfPresent<T: DatabaseValueConvertible & StatementColumnConvertible, Key: CodingKey>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let index = index(key) else { return nil }
        if let (sqliteStatement, column) = statementHandle(forColumn: index) {
            if let value = T._columnValue(sqliteStatement: sqliteStatement, index: column) { return value }
            if sqlite3_column_type(sqliteStatement, column) == SQLITE_NULL { return nil }
            throw decodingError(T.self, atIndex: index)
        }
        return try withRow { try $0.decodeIfPresent(T.self, atIndex: index) }
    }

    mutating func decode<T: Decodable, Key: CodingKey>(_ type: T.Type, _ key: Key) throws -> T {
        guard let index = index(key) else { return try decodeWithoutColumn(T.self, key) }
        let strategies = strategies(for: T.self)
        return try withRow { [recordType] row in
            try Self.decodeValue(
                T.self, row.databaseValue(atIndex: index), index: index, row: row, recordType: recordType, strategies: strategies)
        }
    }

    mutating func decodeIfPresent<T: Decodable, Key: CodingKey>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let index = index(key) else {
            if let scopedRow = withRow({ $0.scopesTree[key.stringValue] }) {
                // A scope of all NULLs is a missing optional association.
                return scopedRow.containsNonNullValue
                    ? try Self.decodeRecord(T.self, from: scopedRow, as: nestedKind(T.self), key: key, outerRecordType: recordType) : nil
            }
            if let rows = withRow({ $0.prefetchedRowsStorage[key.stringValue] }) {
                return try T(from: PrefetchedRowsDecoder(rows: rows))
            }
            return nil
        }
        let strategies = strategies(for: T.self)
        return try withRow { [recordType] row in
            let dbValue = row.databaseValue(atIndex: index)
            if dbValue.isNull { return nil }
            return try Self.decodeValue(T.self, dbValue, index: index, row: row, recordType: recordType, strategies: strategies)
        }
    }

    /// A property without a column: a record included by an association (the scope of
    /// its key), or, for one property of the record, the record that the request's own
    /// columns make (`var book: Book` in a `BookInfo` fetched by
    /// `Book.including(required: Book.author)`).
    @inline(never)
    mutating func decodeWithoutColumn<T: Decodable, Key: CodingKey>(_ type: T.Type, _ key: Key) throws -> T {
        if let scopedRow = withRow({ $0.scopesTree[key.stringValue] }) {
            return try Self.decodeRecord(T.self, from: scopedRow, as: nestedKind(T.self), key: key, outerRecordType: recordType)
        }
        if let rows = withRow({ $0.prefetchedRowsStorage[key.stringValue] }) {
            return try T(from: PrefetchedRowsDecoder(rows: rows))
        }
        let kind = nestedKind(T.self)
        guard !decodedRootKey, !kind.isValue else { throw missingColumn(key) }
        decodedRootKey = true
        let row = withRow { $0 }
        // A cursor's row keeps its decoder, in use for the record around: the nested
        // record gets another one, which the row keeps too. Copied rows make new decoders.
        return try row.withNestedRecordDecoder { [recordType] in
            try Self.decodeRecord(T.self, from: row, as: kind, key: key, outerRecordType: recordType)
        }
    }

    /// What a type decoded from a row (a scope, the whole row, a prefetched row) is.
    struct NestedKind {
        /// The type as a record, which decodes with `init(row:)`; nil for other types.
        let recordType: (any FetchableRecord.Type)?
        /// Whether the type is a database value, which decodes from a column only.
        let isValue: Bool

        init(_ type: Any.Type) {
            recordType = type as? any FetchableRecord.Type
            isValue = type is any DatabaseValueConvertible.Type
        }
    }

    /// What `type` is, found once for each type.
    @inline(__always)
    private mutating func nestedKind<T>(_ type: T.Type) -> NestedKind {
        let identifier = ObjectIdentifier(T.self)
        for entry in nestedTypes where entry.type == identifier { return entry.kind }
        let kind = NestedKind(T.self)
        // (A few types per record: the list stays short.)
        if nestedTypes.count < 16 { nestedTypes.append((identifier, kind)) }
        return kind
    }

    /// A record decoded from a scope of the row, or from a prefetched row.
    /// A value that is not a record gets a decoder whose coding path is `key`.
    /// (`outerRecordType`: the record whose property it is, for its `userInfo`.)
    static func decodeRecord<T: Decodable>(
        _ type: T.Type, from scopedRow: Row, as kind: NestedKind, key: (any CodingKey)? = nil,
        outerRecordType: (any FetchableRecord.Type)? = nil
    ) throws -> T {
        if let recordType = kind.recordType {
            return try recordType.init(row: scopedRow) as! T
        }
        return try T(from: DatabaseRowDecoder(row: scopedRow, ownsRow: true, codingPath: key.map { [$0] } ?? [], outerRecordType: outerRecordType))
    }

    private static func decodeValue<T: Decodable>(
        _ type: T.Type, _ dbValue: DatabaseValue, index: Int, row: Row,
        recordType: (any FetchableRecord.Type)?, strategies: RecordDecodingStrategies?
    ) throws -> T {
        let statement = row.statement
        let column = index < row.columnNames.count ? row.columnNames[index] : ""
        if let strategies, !dbValue.isNull, let value = try strategies.dateOrData(T.self, dbValue, index: index, statement: statement) {
            return value
        }
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            guard let value = convertible.fromDatabaseValue(dbValue) else {
                throw Ripple.decodingError(dbValue, T.self, column: column, index: index, statement: statement)
            }
            return value as! T
        }
        return try decodeColumnValue(
            T.self, dbValue, column: column, index: index, statement: statement, key: column, recordType: recordType,
            jsonDecoder: { recordType?.databaseJSONDecoder(for: column) ?? .databaseDefault() }
        )
    }
}
