// `upsertAndFetch`: `INSERT ... ON CONFLICT DO UPDATE ... RETURNING`, as GRDB spells it.
// (GRDB's `doUpdate:` closure, which takes a `TableAlias` of the excluded row, is not in Ripple yet.)

/// Which columns an upsert overwrites in the existing row, when it conflicts.
public struct UpsertUpdateStrategy: OptionSet, Sendable {
    /// The raw bits of the strategy.
    public let rawValue: Int

    /// A strategy from its raw bits.
    ///
    /// - parameter rawValue: The raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The existing row keeps its values.
    public static let noColumnUnlessSpecified = Self([])

    /// Every column of the record but the primary key and the conflict target is
    /// overwritten with the inserted value.
    public static let allColumns = Self(rawValue: 1 << 0)
}

extension MutablePersistableRecord {
    /// Inserts the record, or updates the row it conflicts with, and returns the row as
    /// the database stores it.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictTarget: The columns of the unique key that may conflict; empty for
    ///       any conflict.
    ///     - strategy: Which columns of the existing row are overwritten.
    public mutating func upsertAndFetch(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns
    ) throws -> Self
    where Self: FetchableRecord {
        try upsertAndFetch(db, as: Self.self, onConflict: conflictTarget, updating: strategy)
    }

    /// Inserts the record, or updates the row it conflicts with, and returns the row as
    /// `returnedType`.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - returnedType: The type of the returned record.
    ///     - conflictTarget: The columns of the unique key that may conflict; empty for
    ///       any conflict.
    ///     - strategy: Which columns of the existing row are overwritten.
    public mutating func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns
    ) throws -> T {
        try performUpsertAndFetch(db, as: returnedType, onConflict: conflictTarget, updating: strategy)
    }

    /// The upsert of `upsertAndFetch`, also for `PersistableRecord`'s non-mutating spellings.
    mutating func performUpsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, as returnedType: T.Type,
        onConflict conflictTarget: [String], updating strategy: UpsertUpdateStrategy
    ) throws -> T {
        var returned: T?
        try withSaveCallbacks(db) { record in
            PersistenceSuccess(
                try record.insertWithCallbacks(db) { record in
                    let container = try record.persistenceContainer()
                    let primaryKey = try db.primaryKey(Self.databaseTableName)
                    // The rowid comes last, after the returned record's columns.
                    let rowIDSQL = primaryKey.isWithoutRowID ? "" : #", "rowid""#
                    let sql =
                        try record.upsertSQL(db, container, onConflict: conflictTarget, updating: strategy)
                        + " RETURNING " + Self.returningSQL(db, T.databaseSelection) + rowIDSQL
                    let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(container.values))
                    guard let row = rows.first else {
                        throw DatabaseError(message: "upsert of \(Self.self) returned no row")
                    }
                    returned = try T(row: row)
                    let rowID: Int64 = primaryKey.isWithoutRowID ? db.lastInsertedRowID : row[row.count - 1]
                    return InsertionSuccess(rowID: rowID, rowIDColumn: primaryKey.rowIDColumn, persistenceContainer: container)
                })
        }
        guard let returned else { throw Self.callbackMisuse("aroundInsert", "insert") }
        return returned
    }

    /// `INSERT ... ON CONFLICT ... DO UPDATE SET ...`. The update always assigns a column,
    /// so that a RETURNING clause returns the existing row on conflict.
    func upsertSQL(
        _ db: Database, _ container: PersistenceContainer,
        onConflict conflictTarget: [String], updating strategy: UpsertUpdateStrategy
    ) throws -> String {
        let primaryKey = try db.primaryKey(Self.databaseTableName)
        var sql = Self.insertSQL(container, conflict: "") + " ON CONFLICT"
        if !conflictTarget.isEmpty {
            sql += "(" + conflictTarget.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        var updated: [String] = []
        if strategy.contains(.allColumns) {
            let kept = Set((primaryKey.columns + conflictTarget).map { $0.lowercased() })
            updated = container.columns.filter { !kept.contains($0.lowercased()) }
        }
        let assignments =
            updated.isEmpty
            ? [primaryKey.columns[0].quotedDatabaseIdentifier].map { "\($0) = \($0)" }
            : updated.map { "\($0.quotedDatabaseIdentifier) = \"excluded\".\($0.quotedDatabaseIdentifier)" }
        return sql + " DO UPDATE SET " + assignments.joined(separator: ", ")
    }
}

extension PersistableRecord {
    /// Inserts the record, or updates the row it conflicts with, and returns the row as
    /// the database stores it.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictTarget: The columns of the unique key that may conflict; empty for
    ///       any conflict.
    ///     - strategy: Which columns of the existing row are overwritten.
    public func upsertAndFetch(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns
    ) throws -> Self
    where Self: FetchableRecord {
        var record = self
        return try record.performUpsertAndFetch(db, as: Self.self, onConflict: conflictTarget, updating: strategy)
    }

    /// Inserts the record, or updates the row it conflicts with, and returns the row as
    /// `returnedType`.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - returnedType: The type of the returned record.
    ///     - conflictTarget: The columns of the unique key that may conflict; empty for
    ///       any conflict.
    ///     - strategy: Which columns of the existing row are overwritten.
    public func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns
    ) throws -> T {
        var record = self
        return try record.performUpsertAndFetch(db, as: returnedType, onConflict: conflictTarget, updating: strategy)
    }

    /// Inserts the record, and returns what `selection` reads of the inserted row, as
    /// `fetch` reads it from the statement (which runs the insert).
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: A conflict resolution that overrides the record's policy.
    ///     - selection: The returned columns or expressions.
    ///     - fetch: Reads the returned values from the statement.
    public func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        var record = self
        return try record.performInsertAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// Inserts the record, and returns the inserted row as `returnedType`.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: A conflict resolution that overrides the record's policy.
    ///     - returnedType: The type of the returned record.
    public func insertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type
    ) throws -> T {
        var record = self
        return try record.performInsertAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) { statement in
            try Self.fetchRequiredRow(T.self, statement)
        }
    }

    /// Updates the record's row, or inserts the record when there is none, and returns
    /// what `selection` reads of the row.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: A conflict resolution that overrides the record's policy.
    ///     - selection: The returned columns or expressions.
    ///     - fetch: Reads the returned values from the statement.
    public func saveAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        var record = self
        return try record.persistAndFetch(db, onConflict: conflictResolution, updatingFirst: true, selection: selection, fetch: fetch)
    }
}
