/// The raw SQLite statement handle that `StatementColumnConvertible` reads columns from.
public typealias SQLiteStatement = OpaquePointer

// Fetching methods that take any request, whatever type it fetches: the request gives its
// SQL, arguments and adapter, and the type fetched is the one the method is called on
// (`Int.fetchAll(db, SQLRequest<Void>(sql: "SELECT 1"))`).

extension Row {
    /// The distinct rows of any request.
    ///
    /// - parameter db: A database connection.
    /// - parameter request: A request, of any fetched type.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Row> {
        try Set(request.makePreparedRequest(db, forSingleResult: false).fetchAllRows(db))
    }
}

extension DatabaseValueConvertible {
    /// A cursor over the values of the first column of any request.
    ///
    /// - parameter db: A database connection.
    /// - parameter request: A request, of any fetched type.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> DatabaseValueCursor<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The distinct values of the first column of any request.
    ///
    /// - parameter db: A database connection.
    /// - parameter request: A request, of any fetched type.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchSet(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor over the values of the first column of any request, read in place.
    ///
    /// - parameter db: A database connection.
    /// - parameter request: A request, of any fetched type.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> FastDatabaseValueCursor<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }

    /// All values of the first column of any request, read in place.
    ///
    /// - parameter db: A database connection.
    /// - parameter request: A request, of any fetched type.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchAll(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }

    /// The first value of any request, read in place: nil when there is no row or the
    /// value is NULL.
    ///
    /// - parameter db: A database connection.
    /// - parameter request: A request, of any fetched type.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let prepared = try request.makePreparedRequest(db, forSingleResult: true)
        return try fetchOne(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    /// The distinct values of the first column of any request, read in place.
    ///
    /// - parameter db: A database connection.
    /// - parameter request: A request, of any fetched type.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchSet(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }
}

extension Optional where Wrapped: DatabaseValueConvertible & StatementColumnConvertible {
    /// A cursor over the values of the first column of any request, nil for NULL.
    ///
    /// - parameter db: A database connection.
    /// - parameter request: A request, of any fetched type.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> FastOptionalValueCursor<Wrapped> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }

    /// All values of the first column of any request, nil for NULL.
    ///
    /// - parameter db: A database connection.
    /// - parameter request: A request, of any fetched type.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Wrapped?] {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchAll(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }
}

extension Optional where Wrapped: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// The distinct values of the first column of any request, nil for NULL, read in place.
    ///
    /// - parameter db: A database connection.
    /// - parameter request: A request, of any fetched type.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Wrapped?> {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchSet(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }
}
