/// A database table, for requests that do not need a record type:
///
/// ```swift
/// let count = try Table("player").fetchCount(db)
/// let rows = try Table("player").filter(Column("score") > 1000).fetchAll(db)   // [Row]
/// try Table("player").deleteAll(db)
/// ```
///
/// `Table<Player>("player")` fetches `Player` records.
public struct Table<RowDecoder>: DatabaseRegionConvertible, Sendable {
    /// The table name.
    public let tableName: String

    /// The table named `tableName`, fetching `RowDecoder`.
    public init(_ tableName: String, as type: RowDecoder.Type = RowDecoder.self) {
        self.tableName = tableName
    }

    /// A request of all rows.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(tableName: tableName)
    }

    /// The whole table.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        DatabaseRegion(table: tableName)
    }

    /// See `QueryInterfaceRequest.select(_:)`.
    public func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> { all().select(selection) }
    /// See `QueryInterfaceRequest.select(_:as:)`.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }
    /// See `QueryInterfaceRequest.filter(_:)`.
    public func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<RowDecoder> { all().filter(predicate) }
    /// See `QueryInterfaceRequest.filter(key:)`.
    public func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: key) }
    /// See `QueryInterfaceRequest.filter(keys:)`.
    public func filter<S: Sequence>(keys: S) -> QueryInterfaceRequest<RowDecoder> where S.Element: DatabaseValueConvertible {
        all().filter(keys: keys)
    }
    /// See `QueryInterfaceRequest.filter(key:)`.
    public func filter(key: [String: (any DatabaseValueConvertible)?]) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: key) }
    /// See `QueryInterfaceRequest.order(_:)`.
    public func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<RowDecoder> {
        var request = all()
        request.orderings = orderings.map(\.sqlOrdering)
        return request
    }
    /// See ``QueryInterfaceRequest/filter(sql:arguments:)``.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(sql: sql, arguments: arguments)
    }
    /// See ``QueryInterfaceRequest/order(sql:arguments:)``.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().order(sql: sql, arguments: arguments)
    }
    /// See ``QueryInterfaceRequest/isEmpty(_:)``.
    public func isEmpty(_ db: Database) throws -> Bool { try all().isEmpty(db) }
    /// See ``QueryInterfaceRequest/limit(_:offset:)``.
    public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> { all().limit(limit, offset: offset) }

    /// The number of rows.
    public func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }

    /// Deletes all rows and returns how many were deleted.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }

    /// Updates all rows and returns how many were updated.
    @discardableResult
    public func updateAll(_ db: Database, _ assignments: ColumnAssignment...) throws -> Int {
        try all().updateAll(db, assignments)
    }
}

extension Table where RowDecoder == Row {
    /// The table named `tableName`, fetching rows: `Table("player")`.
    public init(_ tableName: String) {
        self.tableName = tableName
    }

    /// All rows.
    public func fetchAll(_ db: Database) throws -> [Row] { try all().fetchAll(db) }
    /// The first row.
    public func fetchOne(_ db: Database) throws -> Row? { try all().fetchOne(db) }
    /// A cursor over the rows.
    public func fetchCursor(_ db: Database) throws -> RowCursor { try all().fetchCursor(db) }
}

extension Table where RowDecoder: FetchableRecord {
    /// All records.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    /// The first record.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
    /// A cursor over the records.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try all().fetchCursor(db) }
}

extension Table {
    /// Rows sorted by primary key.
    public func orderByPrimaryKey() -> QueryInterfaceRequest<RowDecoder> { all().orderByPrimaryKey() }

    /// Rows with these unique keys (column-value dictionaries).
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<RowDecoder> { all().filter(keys: keys) }

    /// Rows that satisfy a predicate made with the connection (see `filterWhenConnected`).
    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> QueryInterfaceRequest<RowDecoder> {
        all().filterWhenConnected(predicate)
    }

    /// Groups rows: `GROUP BY`.
    public func group(_ expressions: any SQLExpressible...) -> QueryInterfaceRequest<RowDecoder> {
        var request = all()
        request.groupings = expressions.map(\.sqlExpression)
        return request
    }

    /// Removes duplicate rows: `SELECT DISTINCT`.
    public func distinct() -> QueryInterfaceRequest<RowDecoder> { all().distinct() }

    /// Whether the row with this primary key exists.
    public func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    /// Whether the row with this unique key exists.
    public func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    /// Deletes the row with this primary key; returns whether there was one.
    @discardableResult
    public func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the row with this unique key; returns whether there was one.
    @discardableResult
    public func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the rows with these primary keys; returns how many were deleted.
    @discardableResult
    public func deleteAll<S: Sequence>(_ db: Database, keys: S) throws -> Int where S.Element: DatabaseValueConvertible {
        try filter(keys: keys).deleteAll(db)
    }

    /// Updates all rows and returns how many were updated.
    @discardableResult
    public func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?, _ assignments: [ColumnAssignment]) throws
        -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }
}

extension Table where RowDecoder == Row {
    /// The row with this primary key.
    public func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Row? { try filter(key: key).fetchOne(db) }
    /// The distinct rows.
    public func fetchSet(_ db: Database) throws -> Set<Row> { try all().fetchSet(db) }
}

extension Table where RowDecoder: FetchableRecord {
    /// The record with this primary key.
    public func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> RowDecoder? { try filter(key: key).fetchOne(db) }
    /// The records with these primary keys.
    public func fetchAll<S: Sequence>(_ db: Database, keys: S) throws -> [RowDecoder] where S.Element: DatabaseValueConvertible {
        try filter(keys: keys).fetchAll(db)
    }
}
