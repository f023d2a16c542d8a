/// A request that fetches values of type `RowDecoder`: rows, plain values, or records.
///
/// ``QueryInterfaceRequest`` (`Player.all()`) and ``SQLRequest``
/// (`SQLRequest<Row>("SELECT ...")`) are fetch requests. Each one knows the region of the
/// database it reads, which is what observation tracks.
public protocol FetchRequest<RowDecoder>: SQLSubqueryable, DatabaseRegionConvertible {
    /// The type of fetched values.
    associatedtype RowDecoder

    /// Compiles the request. With `forSingleResult`, the request may fetch one row only.
    func makePreparedRequest(_ db: Database, forSingleResult: Bool) throws -> PreparedRequest

    /// The number of rows the request fetches.
    func fetchCount(_ db: Database) throws -> Int
}

/// A compiled request: a statement and its arguments.
public struct PreparedRequest {
    /// The statement.
    public let statement: Statement
    /// The arguments.
    public let arguments: StatementArguments
    /// How fetched rows are presented (see ``RowAdapter``), if at all.
    public var adapter: (any RowAdapter)?
    /// What runs after the rows are fetched: the queries of the associations the request
    /// prefetches (`including(all:)`), whose rows it attaches to the fetched rows.
    @usableFromInline
    var supplementaryFetch: (@Sendable (Database, [Row]) throws -> Void)?

    public init(statement: Statement, arguments: StatementArguments, adapter: (any RowAdapter)? = nil) {
        self.statement = statement
        self.arguments = arguments
        self.adapter = adapter
    }

    /// All rows, with the rows of prefetched associations.
    func fetchAllRows(_ db: Database) throws -> [Row] {
        let rows = try Row.fetchAll(statement, arguments: arguments, adapter: adapter)
        try supplementaryFetch?(db, rows)
        return rows
    }

    /// The first row, with the rows of prefetched associations.
    func fetchOneRow(_ db: Database) throws -> Row? {
        guard let row = try Row.fetchOne(statement, arguments: arguments, adapter: adapter) else { return nil }
        try supplementaryFetch?(db, [row])
        return row
    }

    /// All records, built from rows with the rows of prefetched associations.
    @usableFromInline
    func fetchAllRecords<Record: FetchableRecord>(_ db: Database, _ type: Record.Type) throws -> [Record] {
        try fetchAllRows(db).map { try Record.decoded(from: $0) }
    }

    /// A cursor cannot run the queries of prefetched associations, which need all rows.
    @usableFromInline
    func checkCursorIsPossible() throws {
        if supplementaryFetch != nil {
            throw DatabaseError(
                message: "a request that prefetches associations (including(all:)) has no cursor: use fetchAll or fetchOne", sql: statement.sql)
        }
    }

    /// The region the request reads: the tables and columns SQLite reported while it
    /// compiled the statement.
    public var region: DatabaseRegion { statement.report.readRegion }
}

extension FetchRequest {
    /// The prepared statement of the request, for all its rows (see
    /// ``makePreparedRequest(_:forSingleResult:)``).
    public func makePreparedRequest(_ db: Database) throws -> PreparedRequest {
        try makePreparedRequest(db, forSingleResult: false)
    }

    /// The region the request reads, as SQLite reports it (views, joins and subqueries
    /// included).
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try makePreparedRequest(db, forSingleResult: false).region
    }

    /// The number of rows: `SELECT COUNT(*) FROM (request)`.
    public func fetchCount(_ db: Database) throws -> Int {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        return try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM (\(prepared.statement.sql))", arguments: prepared.arguments) ?? 0
    }

    /// The same request, fetching another type, as GRDB's: an ``AnyFetchRequest``.
    public func asRequest<T>(of type: T.Type) -> AnyFetchRequest<T> {
        AnyFetchRequest<T>(erasing: self)
    }
}

// MARK: - Fetching rows

extension FetchRequest where RowDecoder == Row {
    /// A cursor over the rows.
    public func fetchCursor(_ db: Database) throws -> RowCursor {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        try prepared.checkCursorIsPossible()
        return try Row.fetchCursor(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }

    /// All rows.
    public func fetchAll(_ db: Database) throws -> [Row] {
        try makePreparedRequest(db, forSingleResult: false).fetchAllRows(db)
    }

    /// The distinct rows.
    public func fetchSet(_ db: Database) throws -> Set<Row> {
        try Set(fetchAll(db))
    }

    /// The first row, or nil.
    public func fetchOne(_ db: Database) throws -> Row? {
        try makePreparedRequest(db, forSingleResult: true).fetchOneRow(db)
    }
}

extension Row {
    /// All rows of any request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        try request.asRequest(of: Row.self).fetchAll(db)
    }

    /// The first row of any request.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        try request.asRequest(of: Row.self).fetchOne(db)
    }

    /// A cursor over the rows of any request.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
        try request.asRequest(of: Row.self).fetchCursor(db)
    }
}

// MARK: - Fetching values

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    /// A cursor over the values of the first column.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        return try RowDecoder.fetchCursor(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }

    /// All values of the first column.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try Array(fetchCursor(db))
    }

    /// The first value: nil when there is no row or the value is NULL.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        let prepared = try makePreparedRequest(db, forSingleResult: true)
        return try RowDecoder.fetchOne(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & Hashable {
    /// The distinct values of the first column.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try Set(fetchCursor(db))
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// A cursor over the values of the first column, read in place.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        return try RowDecoder.fetchCursor(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }

    /// All values of the first column.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try Array(fetchCursor(db))
    }

    /// The first value: nil when there is no row or the value is NULL.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        let prepared = try makePreparedRequest(db, forSingleResult: true)
        return try RowDecoder.fetchOne(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// The distinct values of the first column.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try Set(fetchCursor(db))
    }
}

/// An optional of a value type read in place: `Int?`, `String?`. Requests of such
/// optionals (`SQLRequest<Int?>`) read their values in place too, as GRDB's do.
public protocol _OptionalFastValue: DatabaseValueConvertible {
    associatedtype _Wrapped: DatabaseValueConvertible & StatementColumnConvertible
    static func _wrap(_ value: _Wrapped?) -> Self
}

extension Optional: _OptionalFastValue where Wrapped: DatabaseValueConvertible & StatementColumnConvertible {
    public static func _wrap(_ value: Wrapped?) -> Self { value }
}

extension FetchRequest where RowDecoder: _OptionalFastValue {
    /// A cursor over the values of the first column, read in place, nil for NULL.
    public func fetchCursor(_ db: Database) throws -> MapCursor<FastOptionalValueCursor<RowDecoder._Wrapped>, RowDecoder> {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        return try FastOptionalValueCursor<RowDecoder._Wrapped>(
            statement: prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter
        )
        .map(RowDecoder._wrap)
    }

    /// All values of the first column, nil for NULL.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try Array(fetchCursor(db))
    }

    /// The first value, as GRDB gives it: nil when there is no row, `.some(nil)` for NULL.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        let prepared = try makePreparedRequest(db, forSingleResult: true)
        let cursor = try FastOptionalValueCursor<RowDecoder._Wrapped>(
            statement: prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
        return try cursor.next().map(RowDecoder._wrap)
    }
}

extension FetchRequest where RowDecoder: _OptionalFastValue & Hashable {
    /// The distinct values of the first column, nil for NULL.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try Set(fetchCursor(db))
    }
}

extension DatabaseValueConvertible {
    /// All values of the first column of any request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try request.asRequest(of: Self.self).fetchAll(db)
    }

    /// The first value of any request.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try request.asRequest(of: Self.self).fetchOne(db)
    }
}

/// A request that hides its kind: any request of `RowDecoder`.
///
/// ```swift
/// let request: AnyFetchRequest<Player> = condition
///     ? AnyFetchRequest(Player.order(Column("score").desc))
///     : AnyFetchRequest(SQLRequest<Player>(sql: "SELECT * FROM player"))
/// let players = try request.fetchAll(db)
/// ```
public struct AnyFetchRequest<RowDecoder>: FetchRequest {
    private let base: any FetchRequest

    /// The request `request`, fetching `RowDecoder`.
    public init(_ request: some FetchRequest<RowDecoder>) {
        base = request
    }

    /// Any request, fetching `RowDecoder` (see `asRequest(of:)`).
    init(erasing request: some FetchRequest) {
        base = request
    }

    public func makePreparedRequest(_ db: Database, forSingleResult: Bool) throws -> PreparedRequest {
        try base.makePreparedRequest(db, forSingleResult: forSingleResult)
    }

    public func fetchCount(_ db: Database) throws -> Int {
        try base.fetchCount(db)
    }

    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try base.databaseRegion(db)
    }

    /// The same request, fetching another type.
    public func asRequest<T>(of type: T.Type) -> AnyFetchRequest<T> {
        AnyFetchRequest<T>(erasing: base)
    }
}
