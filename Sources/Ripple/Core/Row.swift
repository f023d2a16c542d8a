import CRippleSupport
import CSQLite

/// A database row: column names and their values.
///
/// Read values by index or by column name (case-insensitive, leftmost match), as the type
/// you need:
///
/// ```swift
/// let row = try Row.fetchOne(db, sql: "SELECT id, name, score FROM player")!
/// let id: Int64 = row[0]
/// let name: String = row["name"]
/// let score: Int? = row["score"]       // nil for NULL
/// let value = row["name"]              // untyped: (any DatabaseValueConvertible)?
/// let checked: String = try row.decode(forColumn: "name")
/// ```
///
/// A value that cannot be converted, such as NULL into a non-optional, or the text `"abc"`
/// into an `Int`, is a ``DatabaseError`` (`SQLITE_MISMATCH`). `decode(_:forColumn:)` and
/// `decode(_:atIndex:)` throw it. The subscripts, which do not throw, hand it to the fetch
/// when they run inside `init(row:)` of a fetched record: `Player.fetchAll(db)` throws it.
/// Anywhere else they stop the process, as GRDB's subscripts do.
///
/// The row a cursor hands out is a view on the statement's current row, valid until the
/// next step: use ``copy()`` to keep it. Rows from `fetchAll`, `fetchOne` and `fetchSet`
/// are already copies.
///
/// A copied row is immutable, and can cross threads. A cursor's row can be read only inside
/// the database access that runs the cursor: reading it elsewhere (after the access
/// returned, or from another thread) is a fatal error that says to copy it.
// Unchecked Sendable: a copied row is immutable (its decoders are not cached), and every
// read of a statement row checks that the current thread runs an access to its connection,
// which one thread at a time does (`checkAccess()`).
public final class Row: @unchecked Sendable {
    @usableFromInline
    enum Storage {
        /// The current row of a statement, read in place.
        case statement(Statement)
        /// Copied values.
        case values(columns: [String], values: [DatabaseValue])
        /// Columns of another row, renamed or not, and scopes (see ``RowAdapter``).
        case adapted(base: Row, layout: RowAdapterLayout)
    }

    @usableFromInline
    let storage: Storage

    /// The statement handle and connection of a statement row (nil for copied values),
    /// read without the reference counting of the enum payload: this is the hot path of
    /// fetching.
    @usableFromInline
    let statementRow: StatementRowHandle?

    /// The number of columns.
    public let count: Int

    /// Whether the row was read from the database (a statement row, or a copy of one):
    /// a ``Record`` built from it knows its stored values.
    let isFetched: Bool

    /// Name lookups of a statement row (see ``ColumnIndexCache``).
    @usableFromInline
    let columnIndexCache: ColumnIndexCache?

    /// The decoder of `Decodable` records built from this statement row, reused from row
    /// to row of a cursor (see ``FetchableRecord`` decoding). Only read and written after
    /// `checkAccess()`; copied rows do not keep one. (Its accesses call nothing: the
    /// optimizer proves them exclusive, and release builds check nothing at run time.)
    var recordDecoder: DatabaseRowDecoder?

    /// The rows of the associations a request prefetched for this row (`including(all:)`),
    /// by key; set by the fetch before the row is handed out, never after.
    var prefetchedRowsStorage = PrefetchedRowsTree()

    /// The connection of the cursor this row is read in place from (a statement row, or a
    /// row adapted from one), never dereferenced; nil for copied rows. Such a row is read
    /// by one thread at a time, the one that runs the connection's access: it keeps what
    /// serves from one record to the next (`recordDecoder`, `reuse`).
    let cursorConnection: UnsafeRawPointer?

    /// What a cursor's row keeps from one record to the next besides its decoder: the
    /// decoders of records decoded from the whole row inside another one, and its scopes.
    /// Made at first use, and only for rows with a `cursorConnection`.
    var reuse: CursorRowReuse?

    deinit {
        // Containers of `Decodable` records kept beyond the row fail their check.
        if let recordDecoder { recordDecoder.state.release(generation: recordDecoder.generation) }
        reuse?.releaseDecoders()
    }

    @usableFromInline
    init(statement: Statement) {
        storage = .statement(statement)
        statementRow = StatementRowHandle(
            sqliteStatement: statement.sqliteStatement,
            connectionIdentity: AccessChain.identity(of: statement.database))
        count = statement.columnCount
        columnIndexCache = statement.columnIndexCache
        isFetched = true
        cursorConnection = statementRow?.connectionIdentity
    }

    init(columns: [String], values: [DatabaseValue], isFetched: Bool = false) {
        storage = .values(columns: columns, values: values)
        statementRow = nil
        count = values.count
        columnIndexCache = nil
        self.isFetched = isFetched
        cursorConnection = nil
    }

    /// A row that presents `base` as `layout` says.
    init(base: Row, layout: RowAdapterLayout) {
        storage = .adapted(base: base, layout: layout)
        statementRow = nil
        count = layout.names.count
        columnIndexCache = nil
        isFetched = base.isFetched
        cursorConnection = base.cursorConnection
    }

    /// Stops the process when a statement row is read outside of an access to its
    /// connection: the statement may be stepping on another thread, or be gone.
    @inlinable @inline(__always)
    func checkAccess() {
        statementRow?.checkAccess()
    }

    /// Whether the current thread holds the access of the connection of a statement row.
    @inlinable @inline(__always)
    static func holdsAccess(_ connectionIdentity: UnsafeRawPointer) -> Bool {
        ripple_access_holds(connectionIdentity) != 0
    }

    @usableFromInline @inline(never)
    static func rowUsedOutsideOfAccess() -> Never {
        fatalError(
            """
            A row of a cursor was read outside of the database access that runs the cursor. \
            Read it inside the closure of dbQueue.read/write (or dbPool's), or keep a copy: \
            row.copy(), or Row.fetchAll, which returns copies.
            """)
    }

    /// An empty row.
    public convenience init() {
        self.init(columns: [], values: [])
    }

    /// A row built from column names and values, in the order given.
    public convenience init(_ pairs: [(String, (any DatabaseValueConvertible)?)]) {
        self.init(columns: pairs.map(\.0), values: pairs.map { $0.1?.databaseValue ?? .null })
    }

    /// A row with the current values of `statement`, copied.
    convenience init(copying statement: Statement) {
        self.init(columns: statement.columnNames, values: Row.currentValues(of: statement), isFetched: true)
    }

    /// The values of the current row of `statement`.
    private static func currentValues(of statement: Statement) -> [DatabaseValue] {
        let sqliteStatement = statement.sqliteStatement
        return (0..<CInt(statement.columnCount)).map { DatabaseValue(sqliteStatement: sqliteStatement, index: $0) }
    }

    /// A row that owns its values (self when it already does).
    public func copy() -> Row {
        switch storage {
        case .values: return self
        case .statement(let statement):
            checkAccess()
            return Row(copying: statement)
        case .adapted(let base, let layout):
            let row = Row(base: base.copy(), layout: layout)
            row.prefetchedRowsStorage = prefetchedRowsStorage
            return row
        }
    }

    /// The column names, in order.
    public var columnNames: [String] {
        switch storage {
        case .statement(let statement):
            checkAccess()
            return statement.columnNames
        case .values(let columns, _): return columns
        case .adapted(_, let layout): return layout.names
        }
    }

    /// The values, in column order.
    public var databaseValues: [DatabaseValue] {
        switch storage {
        case .statement(let statement):
            checkAccess()
            return Row.currentValues(of: statement)
        case .values(_, let values):
            return values
        case .adapted(let base, let layout):
            return layout.baseIndexes.map(base.databaseValue(atIndex:))
        }
    }

    /// The index of the leftmost column named `name`, case-insensitively.
    @inlinable @inline(__always)
    public func index(forColumn name: String) -> Int? {
        // Checked before any local is bound: a call between a binding and its use makes
        // Swift retain the binding.
        checkAccess()
        return indexInAccess(forColumn: name)
    }

    /// `index(forColumn:)`, once `checkAccess()` passed.
    @inlinable @inline(__always)
    func indexInAccess(forColumn name: String) -> Int? {
        if let columnIndexCache { return columnIndexCache.value.prediction.index(of: name) { uncachedIndex(forColumn: name) } }
        return uncachedIndex(forColumn: name)
    }

    @usableFromInline
    func uncachedIndex(forColumn name: String) -> Int? {
        switch storage {
        case .statement(let statement):
            checkAccess()
            return statement.index(ofColumn: name)
        case .values(let columns, _):
            return Row.index(of: name, in: columns)
        case .adapted(_, let layout):
            return Row.index(of: name, in: layout.names)
        }
    }

    /// The leftmost column named `name` in `columns`: the exact name first, then
    /// case-insensitively.
    static func index(of name: String, in columns: [String]) -> Int? {
        if let index = columns.firstIndex(of: name) { return index }
        let lowercased = name.lowercased()
        return columns.firstIndex { $0.lowercased() == lowercased }
    }

    /// Whether this statement row still describes the columns of `statement`: SQLite
    /// compiles a statement again after a schema change, at its first step, and its
    /// columns may then differ, in number or only in names (`SELECT *` after a column was
    /// renamed); the statement's column lookups are replaced then, and the row keeps the
    /// former ones. A cursor makes a new row when this is false.
    @inlinable @inline(__always)
    func describesColumns(of statement: Statement) -> Bool {
        columnIndexCache === statement._columnIndexCache
    }

    /// Tells the column lookups that a new row starts being read.
    @usableFromInline
    func rewindColumnLookups() {
        columnIndexCache?.value.prediction.rewind()
    }

    /// Whether the row has a column named `name` (case-insensitive).
    public func hasColumn(_ name: String) -> Bool {
        index(forColumn: name) != nil
    }

    /// Whether the value at `index` is NULL.
    public func hasNull(atIndex index: Int) -> Bool {
        // A statement row asks for the type only, without copying text or blob values.
        if let statementRow {
            let column = StatementRowHandle.columnIndex(index, count: count)
            statementRow.checkAccess()
            return sqlite3_column_type(statementRow.sqliteStatement, column) == SQLITE_NULL
        }
        return databaseValue(atIndex: index).isNull
    }

    /// The value at `index`. Out of range is a programmer error.
    public func databaseValue(atIndex index: Int) -> DatabaseValue {
        checkIndex(index)
        switch storage {
        case .statement(let statement):
            checkAccess()
            return DatabaseValue(sqliteStatement: statement.sqliteStatement, index: CInt(index))
        case .values(_, let values):
            return values[index]
        case .adapted(let base, let layout):
            return base.databaseValue(atIndex: layout.baseIndexes[index])
        }
    }

    /// The value of the column `name`, or nil when there is no such column.
    public func databaseValue(forColumn name: String) -> DatabaseValue? {
        index(forColumn: name).map(databaseValue(atIndex:))
    }

    // MARK: - Untyped subscripts

    /// The value at `index` as stored: nil, `Int64`, `Double`, `String` or `Data`.
    public subscript(_ index: Int) -> (any DatabaseValueConvertible)? {
        databaseValue(atIndex: index).storageValue
    }

    /// The value of column `name` as stored, or nil when NULL or when there is no such column.
    public subscript(_ name: String) -> (any DatabaseValueConvertible)? {
        databaseValue(forColumn: name)?.storageValue
    }

    // MARK: - Typed subscripts
    //
    // They do not throw, as GRDB's do not. A value they cannot convert inside a fetch that
    // builds records is thrown by the fetch; elsewhere it stops the process, with a message
    // that names `decode(_:atIndex:)` and `decode(_:forColumn:)`, which throw
    // (see `RowDecodingScope`).

    /// The value at `index`, converted to `Value`.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        do { return try decode(Value.self, atIndex: index) } catch { return RowDecodingScope.valueAfterFailure(error, Value.self) }
    }

    // The statement fast paths below carry no error: the conversion's failure goes straight
    // to an out-of-line call, which keeps the inlined reads as short as `decode`'s.

    /// The value at `index`, converted to `Value` straight from the statement when possible.
    @inlinable @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ index: Int) -> Value {
        guard let statementRow else { return valueFromStorage(Value.self, atIndex: index) }
        statementRow.checkAccess()
        let column = StatementRowHandle.columnIndex(index, count: count)
        if let value = Value._columnValue(sqliteStatement: statementRow.sqliteStatement, index: column) { return value }
        return statementValueAfterFailure(Value.self, index: column)
    }

    /// The value at `index`, nil when NULL.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ index: Int) -> Value? {
        guard let statementRow else { return valueFromStorage(Value?.self, atIndex: index) }
        statementRow.checkAccess()
        let column = StatementRowHandle.columnIndex(index, count: count)
        let sqliteStatement = statementRow.sqliteStatement
        if let value = Value._columnValue(sqliteStatement: sqliteStatement, index: column) { return value }
        if sqlite3_column_type(sqliteStatement, column) == SQLITE_NULL { return nil }
        return statementValueAfterFailure(Value?.self, index: column)
    }

    /// The value of column `name`, converted to `Value`.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        do { return try decode(Value.self, forColumn: name) } catch { return RowDecodingScope.valueAfterFailure(error, Value.self) }
    }

    /// The value of column `name`, converted straight from the statement when possible.
    @inlinable @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ name: String) -> Value {
        if let statementRow {
            statementRow.checkAccess()
            guard let index = indexInAccess(forColumn: name) else { return missingColumnValue(Value.self, name) }
            let column = StatementRowHandle.columnIndex(index, count: count)
            if let value = Value._columnValue(sqliteStatement: statementRow.sqliteStatement, index: column) { return value }
            return statementValueAfterFailure(Value.self, index: column)
        }
        guard let index = uncachedIndex(forColumn: name) else { return missingColumnValue(Value.self, name) }
        return valueFromStorage(Value.self, atIndex: index)
    }

    /// The value of column `name`, nil when NULL or when there is no such column.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ name: String) -> Value? {
        do { return try decodeIfPresent(Value.self, forColumn: name) } catch { return RowDecodingScope.valueAfterFailure(error, Value?.self) }
    }

    /// A subscript's value from copied values, or of a type a statement cannot give straight.
    @usableFromInline
    func valueFromStorage<Value: DatabaseValueConvertible>(_ type: Value.Type, atIndex index: Int) -> Value {
        do { return try decodeFromStorage(Value.self, atIndex: index) } catch { return RowDecodingScope.valueAfterFailure(error, Value.self) }
    }

    /// A subscript's value when the statement's value at `index` cannot be `Value`.
    @usableFromInline @inline(never)
    func statementValueAfterFailure<Value: DatabaseValueConvertible>(_ type: Value.Type, index: CInt) -> Value {
        RowDecodingScope.valueAfterFailure(statementDecodingError(Value.self, index: index), Value.self)
    }

    /// A subscript's value when there is no column `name`.
    @usableFromInline @inline(never)
    func missingColumnValue<Value: DatabaseValueConvertible>(_ type: Value.Type, _ name: String) -> Value {
        RowDecodingScope.valueAfterFailure(missingColumn(name), Value.self)
    }

    /// The value of `column`, converted to `Value`: `row[Column("name")]`, `row[Columns.name]`.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value {
        self[column.name]
    }

    /// The value of `column`, converted straight from the statement when possible.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ column: some ColumnExpression) -> Value {
        self[column.name]
    }

    /// The value of `column`, nil when NULL or when there is no such column.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ column: some ColumnExpression) -> Value? {
        self[column.name]
    }

    /// The value of `column` as stored, or nil when NULL or when there is no such column.
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        self[column.name]
    }

    /// The value of `column`, converted to `type`; throws when there is no such column or the
    /// value cannot be converted.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, forKey column: some ColumnExpression) throws -> Value {
        try decode(Value.self, forColumn: column.name)
    }

    // MARK: - Decoding

    /// The value at `index`, converted to `type`; throws when it cannot be.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, atIndex index: Int) throws -> Value {
        try decodeFromStorage(Value.self, atIndex: index)
    }

    /// The value at `index`, converted to `type`; the fast path.
    @inlinable @inline(__always)
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, atIndex index: Int
    ) throws -> Value {
        if let statementRow {
            statementRow.checkAccess()
            return try decode(Value.self, atIndex: index, in: statementRow)
        }
        return try decodeFromStorage(Value.self, atIndex: index)
    }

    /// `decode(_:atIndex:)` for a statement row, once its access is checked.
    @inlinable @inline(__always)
    func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, atIndex index: Int, in statementRow: StatementRowHandle
    ) throws -> Value {
        let column = StatementRowHandle.columnIndex(index, count: count)
        if let value = Value._columnValue(sqliteStatement: statementRow.sqliteStatement, index: column) { return value }
        throw statementDecodingError(Value.self, index: column)
    }

    /// The value at `index`, nil when NULL; the fast path.
    @inlinable @inline(__always)
    public func decodeIfPresent<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, atIndex index: Int
    ) throws -> Value? {
        if let statementRow {
            statementRow.checkAccess()
            return try decodeIfPresent(Value.self, atIndex: index, in: statementRow)
        }
        return try decodeFromStorage(Value?.self, atIndex: index)
    }

    /// `decodeIfPresent(_:atIndex:)` for a statement row, once its access is checked.
    @inlinable @inline(__always)
    func decodeIfPresent<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, atIndex index: Int, in statementRow: StatementRowHandle
    ) throws -> Value? {
        let column = StatementRowHandle.columnIndex(index, count: count)
        let sqliteStatement = statementRow.sqliteStatement
        if let value = Value._columnValue(sqliteStatement: sqliteStatement, index: column) { return value }
        if sqlite3_column_type(sqliteStatement, column) == SQLITE_NULL { return nil }
        throw statementDecodingError(Value.self, index: column)
    }

    /// The value at `index`, converted to `type`, from either storage: copied values, and
    /// the types a statement cannot give straight (kept out of line).
    @usableFromInline
    func decodeFromStorage<Value: DatabaseValueConvertible>(_ type: Value.Type, atIndex index: Int) throws -> Value {
        checkIndex(index)
        switch storage {
        case .statement(let statement):
            checkAccess()
            return try Value.decode(statement: statement, index: CInt(index))
        case .values(let columns, let values):
            return try Value.decode(from: values[index], column: columns[index], index: index)
        case .adapted(let base, let layout):
            return try base.decodeFromStorage(Value.self, atIndex: layout.baseIndexes[index])
        }
    }

    /// The error for a statement value that cannot be read as `type`.
    @usableFromInline
    func statementDecodingError(_ type: Any.Type, index: CInt) -> DatabaseError {
        guard let statement else { fatalError("not a statement row") }
        return decodingError(type, statement: statement, index: index)
    }

    /// The statement of a statement row, nil for copied values.
    var statement: Statement? {
        switch storage {
        case .statement(let statement): return statement
        case .values: return nil
        case .adapted(let base, _): return base.statement
        }
    }

    /// The value of column `name`, converted to `type`; throws when there is no such column or
    /// the value cannot be converted (a missing column reads as NULL for optional types).
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, forColumn name: String) throws -> Value {
        guard let index = index(forColumn: name) else {
            if let value = Value.fromDatabaseValue(.null) { return value }
            throw missingColumn(name)
        }
        return try decode(Value.self, atIndex: index)
    }

    /// The value of column `name`, converted to `type`; the fast path.
    @inlinable @inline(__always)
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, forColumn name: String
    ) throws -> Value {
        if let statementRow {
            statementRow.checkAccess()
            guard let index = indexInAccess(forColumn: name) else { throw missingColumn(name) }
            return try decode(Value.self, atIndex: index, in: statementRow)
        }
        guard let index = uncachedIndex(forColumn: name) else { throw missingColumn(name) }
        return try decodeFromStorage(Value.self, atIndex: index)
    }

    /// The value of column `name`, nil when NULL or when there is no such column.
    @inlinable
    public func decodeIfPresent<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, forColumn name: String
    ) throws -> Value? {
        if let statementRow {
            statementRow.checkAccess()
            guard let index = indexInAccess(forColumn: name) else { return nil }
            return try decodeIfPresent(Value.self, atIndex: index, in: statementRow)
        }
        guard let index = uncachedIndex(forColumn: name) else { return nil }
        return try decodeFromStorage(Value?.self, atIndex: index)
    }

    @inlinable
    func checkIndex(_ index: Int) {
        Row.checkIndex(index, count: count)
    }

    /// `checkIndex(_:)`, for a row of `count` columns.
    @inlinable @inline(__always)
    static func checkIndex(_ index: Int, count: Int) {
        // One unsigned comparison checks both bounds (a negative index is a huge UInt).
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "Row index \(index) out of range 0..<\(count)")
    }

    @usableFromInline
    func missingColumn(_ name: String) -> DatabaseError {
        .mismatch(
            "no such column: \"\(name)\" (columns: \(columnNames.joined(separator: ", ")))",
            sql: statement?.sql, arguments: statement?.arguments)
    }
}

extension DatabaseValue {
    /// The stored value as a Swift value: nil, Int64, Double, String or Data.
    var storageValue: (any DatabaseValueConvertible)? {
        switch storage {
        case .null: return nil
        case .int64(let int): return int
        case .double(let double): return double
        case .string(let string): return string
        case .blob(let data): return data
        }
    }
}
