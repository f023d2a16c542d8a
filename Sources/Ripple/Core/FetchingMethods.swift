// Fetching rows and values from SQL and from prepared statements.
//
// Every type has the same four methods: `fetchCursor` (lazy), `fetchAll`, `fetchSet` and
// `fetchOne`. SQL strings go through the connection's statement cache.

extension Row {
    /// A cursor over the rows of `statement`. Each row is only valid until the next step.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> RowCursor
    {
        try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All rows of `statement`.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Row] {
        let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        var rows: [Row] = []
        if adapter != nil {
            while let row = try cursor.next() { rows.append(row.copy()) }
            return rows
        }
        while try cursor.next() != nil {
            rows.append(Row(copying: statement))
        }
        return rows
    }

    /// The distinct rows of `statement`.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Row> {
        try Set(fetchAll(statement, arguments: arguments, adapter: adapter))
    }

    /// The first row of `statement`, or nil.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Row? {
        let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        return try cursor.next()?.copy()
    }

    /// A cursor over the rows of `sql`.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> RowCursor {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All rows of `sql`.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> [Row]
    {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The distinct rows of `sql`.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> Set<Row>
    {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The first row of `sql`, or nil.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> Row?
    {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

/// The first element of a cursor of optionals, flattened: nil for no row and for NULL.
@inlinable
func firstFlattened<C: Cursor<T?>, T>(_ cursor: C) throws -> T? {
    guard let first = try cursor.next() else { return nil }
    return first
}

extension DatabaseValueConvertible {
    /// A cursor over the values of the first column of `statement`.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> DatabaseValueCursor<Self>
    {
        try DatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All values of the first column of `statement`.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The first value of `statement`: nil when there is no row or the value is NULL. When
    /// `Self` is optional (`String?.fetchOne`, a `SQLRequest<Name?>`), as in GRDB: nil when
    /// there is no row, `.some(nil)` when the value is NULL.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Self? {
        if let optional = Self.self as? any OptionalValueFetching.Type {
            let (found, value) = try optional.fetchFirst(statement, arguments: arguments, adapter: adapter)
            return found ? (value as! Self) : nil
        }
        // As GRDB: what the type makes of the first value, NULL included (`DatabaseValue`
        // gives `.null`, `Int` gives nil); nil when there is no row.
        let cursor = try DatabaseValueCursor<DatabaseValue>(statement: statement, arguments: arguments, adapter: adapter)
        guard let dbValue = try cursor.next() else { return nil }
        if let value = Self.fromDatabaseValue(dbValue) { return value }
        if dbValue.isNull { return nil }
        throw decodingError(dbValue, Self.self, statement: statement, index: cursor.column)
    }

    /// A cursor over the values of the first column of `sql`.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> DatabaseValueCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All values of the first column of `sql`.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> [Self]
    {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The first value of `sql`: nil when there is no row or the value is NULL.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> Self?
    {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The distinct values of the first column of `statement`.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The distinct values of the first column of `sql`.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> Set<Self>
    {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor over the values of the first column of `statement`, read in place.
    @inlinable
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> FastDatabaseValueCursor<Self>
    {
        try FastDatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All values of the first column of `statement`.
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The first value of `statement`: nil when there is no row or the value is NULL.
    @inlinable
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Self? {
        try firstFlattened(FastOptionalValueCursor<Self>(statement: statement, arguments: arguments, adapter: adapter))
    }

    /// A cursor over the values of the first column of `sql`, read in place.
    @inlinable
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> FastDatabaseValueCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All values of the first column of `sql`.
    @inlinable
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> [Self]
    {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The first value of `sql`: nil when there is no row or the value is NULL.
    @inlinable
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> Self?
    {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    /// The distinct values of the first column of `statement`.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The distinct values of the first column of `sql`.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> Set<Self>
    {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension Optional where Wrapped: DatabaseValueConvertible & StatementColumnConvertible {
    /// A cursor over the values of the first column of `statement`, nil for NULL.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> FastOptionalValueCursor<Wrapped>
    {
        try FastOptionalValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All values of the first column of `statement`, nil for NULL.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Wrapped?] {
        try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// A cursor over the values of the first column of `sql`, nil for NULL.
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> FastOptionalValueCursor<Wrapped> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All values of the first column of `sql`, nil for NULL.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> [Wrapped?]
    {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

extension Optional where Wrapped: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// The distinct values of the first column of `statement`, nil for NULL, read in place.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> Set<Wrapped?>
    {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The distinct values of the first column of `sql`, nil for NULL, read in place.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> Set<Wrapped?>
    {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

/// An optional value type, fetched with its NULLs kept (see `DatabaseValueConvertible.fetchOne`).
protocol OptionalValueFetching {
    /// Whether `statement` has a row, and the value of its first column (boxed, an optional
    /// that is nil for NULL).
    static func fetchFirst(_ statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)?) throws -> (found: Bool, value: Any)
}

extension Optional: OptionalValueFetching where Wrapped: DatabaseValueConvertible {
    static func fetchFirst(_ statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)?) throws -> (found: Bool, value: Any) {
        let cursor = try DatabaseValueCursor<Wrapped?>(statement: statement, arguments: arguments, adapter: adapter)
        guard let first = try cursor.next() else { return (false, ()) }
        return (true, first as Any)
    }
}
