import Foundation

/// A type that can be built from a database row.
///
/// `Decodable` types adopt it with no code: columns are read by name (see
/// ``FetchableRecord`` decoding). Other types write `init(row:)`:
///
/// ```swift
/// struct Player {
///     var id: Int64
///     var name: String
/// }
///
/// extension Player: FetchableRecord {
///     init(row: Row) {
///         id = row["id"]
///         name = row["name"]
///     }
/// }
/// let players = try Player.fetchAll(db, sql: "SELECT * FROM player")
/// ```
///
/// A value the subscripts cannot convert (a NULL name, a missing column) makes the fetch
/// throw a ``DatabaseError`` (`SQLITE_MISMATCH`) in place of the record: a bad row in the
/// file is an error, not a crash. An `init(row:)` called directly, outside of a fetch,
/// stops the process on such a value, as GRDB's does: it can read with
/// `try row.decode(_:forColumn:)`, which throws everywhere, and be `throws` itself.
public protocol FetchableRecord {
    /// Builds a record from a row. Throw when the row does not fit.
    init(row: Row) throws

    /// The `userInfo` of the decoder of a `Decodable` record. The default is empty.
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The decoder of the JSON in `column`, for the properties of a `Decodable` record that
    /// are neither ``DatabaseValueConvertible`` nor single values (nested structs, arrays).
    /// The default decodes data from base64, dates from milliseconds since 1970, and throws
    /// on non-conforming floats.
    static func databaseJSONDecoder(for column: String) -> JSONDecoder

    /// How a `Decodable` record reads the `Data` in `column`. The default is
    /// ``DatabaseDataDecodingStrategy/deferredToData``.
    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy

    /// How a `Decodable` record reads the `Date` in `column`. The default is
    /// ``DatabaseDateDecodingStrategy/deferredToDate``.
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy

    /// How a `Decodable` record finds the column of each of its coding keys. The default is
    /// ``DatabaseColumnDecodingStrategy/useDefaultKeys``.
    ///
    /// ```swift
    /// struct Player: Decodable, FetchableRecord {
    ///     static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    ///     var playerName: String   // reads the column "player_name"
    /// }
    /// ```
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { get }
}

/// A cursor of records, each built from the statement's current row.
public final class RecordCursor<Record: FetchableRecord>: StatementValueCursorBase, Cursor {
    /// The row records are built from, read in place.
    @usableFromInline var row: Row

    /// With an adapter: the adapted row records are built from (a plain optional, checked
    /// at each record without metadata, and in release builds without exclusivity checks:
    /// Shortcuts table, Benchmarks/README.md), and the adapter.
    #if DEBUG
    @usableFromInline var adaptedRow: Row?
    #else
    @exclusivity(unchecked) @usableFromInline var adaptedRow: Row?
    #endif
    let adapter: (any RowAdapter)?

    @usableFromInline
    override init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        row = Row(statement: statement)
        self.adapter = adapter
        if let adapter {
            adaptedRow = Row(base: row, layout: try adapter.layout(forColumns: statement.columnNames))
        }
        try super.init(statement: statement, arguments: arguments, adapter: nil)
    }

    @inlinable
    public func next() throws -> Record? {
        try nextRecord()
    }

    // Moves each record into the collection: `fetchAll` inlines this loop, where the
    // protocol's default copies each record (W2b, Benchmarks/README.md, "Shortcuts").
    @inlinable
    public func _append<C: RangeReplaceableCollection>(to collection: inout C) throws where C.Element == Record {
        while let record = try nextRecord() { collection.append(record) }
    }

    // Inlined in both: `_append` calling `next()` copied each record again (W2b).
    @inlinable @inline(__always)
    func nextRecord() throws -> Record? {
        guard try step() else { return nil }
        // SQLite may have compiled the statement again, with other columns.
        if !row.describesColumns(of: statement) { try renewRow() }
        row.rewindColumnLookups()
        if let adaptedRow { return try Record.decoded(from: adaptedRow) }
        return try Record.decoded(from: row)
    }

    @usableFromInline
    func renewRow() throws {
        row = Row(statement: statement)
        if let adapter {
            adaptedRow = Row(base: row, layout: try adapter.layout(forColumns: statement.columnNames))
        }
    }
}

extension FetchableRecord {
    /// The record of `row`, built as a fetch builds it: a value that the row's subscripts
    /// cannot convert in `init(row:)` is thrown (see `RowDecodingScope`).
    @inlinable
    static func decoded(from row: Row) throws -> Self {
        try RowDecodingScope.run { try Self(row: row) }
    }

    /// A cursor over the records of `statement`.
    @inlinable
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws
        -> RecordCursor<Self>
    {
        try RecordCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All records of `statement`.
    @inlinable
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The first record of `statement`.
    @inlinable
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Self? {
        try fetchCursor(statement, arguments: arguments, adapter: adapter).next()
    }

    /// A cursor over the records of `sql`.
    @inlinable
    public static func fetchCursor(
        _ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil
    ) throws -> RecordCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All records of `sql`.
    @inlinable
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> [Self]
    {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The first record of `sql`.
    @inlinable
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> Self?
    {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// A cursor over the records of any request.
    @inlinable
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RecordCursor<Self> {
        try request.asRequest(of: Self.self).fetchCursor(db)
    }

    /// All records of any request.
    @inlinable
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try request.asRequest(of: Self.self).fetchAll(db)
    }

    /// The first record of any request.
    @inlinable
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try request.asRequest(of: Self.self).fetchOne(db)
    }
}

extension FetchableRecord where Self: Hashable {
    /// The distinct records of `sql`.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil)
        throws -> Set<Self>
    {
        try Set(fetchCursor(db, sql: sql, arguments: arguments, adapter: adapter))
    }

    /// The distinct records of `statement`.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The distinct records of any request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        try request.asRequest(of: Self.self).fetchSet(db)
    }
}

extension FetchableRecord where Self: TableRecord {
    /// A cursor over all records.
    public static func fetchCursor(_ db: Database) throws -> RecordCursor<Self> { try all().fetchCursor(db) }
    /// All records.
    public static func fetchAll(_ db: Database) throws -> [Self] { try all().fetchAll(db) }
    /// The first record.
    public static func fetchOne(_ db: Database) throws -> Self? { try all().fetchOne(db) }
    /// The record with this primary key.
    public static func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? {
        try filter(key: key).fetchOne(db)
    }
    /// The records with these primary keys.
    public static func fetchAll<S: Sequence>(_ db: Database, keys: S) throws -> [Self] where S.Element: DatabaseValueConvertible {
        try filter(keys: keys).fetchAll(db)
    }
    /// The record with this key (columns and values of the primary key or a unique key);
    /// nil, without hitting the database, for a nil key.
    public static func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]?) throws -> Self? {
        guard let key else { return nil }
        return try filter(key: key).fetchOne(db)
    }

    /// The record with this primary key; throws ``RecordError/recordNotFound(databaseTableName:key:)``
    /// when there is none.
    ///
    /// ```swift
    /// let player = try Player.find(db, key: 1)
    /// ```
    public static func find(_ db: Database, key: some DatabaseValueConvertible) throws -> Self {
        if let record = try fetchOne(db, key: key) { return record }
        let column = try db.primaryKey(databaseTableName).columns.first ?? "rowid"
        throw RecordError.recordNotFound(databaseTableName: databaseTableName, key: [column: key.databaseValue])
    }

    /// The record with this key (columns and values of the primary key or a unique key);
    /// throws ``RecordError/recordNotFound(databaseTableName:key:)`` when there is none.
    public static func find(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self {
        if let record = try fetchOne(db, key: key) { return record }
        throw RecordError.recordNotFound(
            databaseTableName: databaseTableName,
            key: key.mapValues { $0?.databaseValue ?? .null })
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// The record with this id (its primary key).
    public static func fetchOne(_ db: Database, id: ID) throws -> Self? {
        try fetchOne(db, key: id)
    }

    /// The record with this id (its primary key); throws
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` when there is none.
    public static func find(_ db: Database, id: ID) throws -> Self {
        try find(db, key: id)
    }
}

extension FetchableRecord where Self: TableRecord & Hashable {
    /// The distinct records.
    public static func fetchSet(_ db: Database) throws -> Set<Self> { try all().fetchSet(db) }
}

extension FetchRequest where RowDecoder: FetchableRecord {
    /// A cursor over the records.
    @inlinable
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        try prepared.checkCursorIsPossible()
        return try RowDecoder.fetchCursor(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }

    /// All records.
    @inlinable
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        let prepared = try makePreparedRequest(db, forSingleResult: false)
        if prepared.supplementaryFetch != nil { return try prepared.fetchAllRecords(db, RowDecoder.self) }
        return try Array(RowDecoder.fetchCursor(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter))
    }

    /// The first record, or nil.
    @inlinable
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        let prepared = try makePreparedRequest(db, forSingleResult: true)
        if prepared.supplementaryFetch != nil { return try prepared.fetchAllRecords(db, RowDecoder.self).first }
        return try RowDecoder.fetchOne(prepared.statement, arguments: prepared.arguments, adapter: prepared.adapter)
    }
}

extension FetchRequest where RowDecoder: FetchableRecord & Hashable {
    /// The distinct records.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try Set(fetchAll(db))
    }
}
