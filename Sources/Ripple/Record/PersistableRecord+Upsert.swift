// `upsertAndFetch`: `INSERT ... ON CONFLICT DO UPDATE ... RETURNING`, as GRDB spells it.

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
    ///     - assignments: What the conflict sets, before the columns that `strategy`
    ///       overwrites with the inserted values; `excluded` is the row that was not
    ///       inserted.
    ///
    /// ```swift
    /// // On conflict, updates every column but 'score'.
    /// let upserted = try player.upsertAndFetch(db) { _ in [Column("score").noOverwrite] }
    ///
    /// // On conflict, only updates 'name'.
    /// let upserted = try player.upsertAndFetch(db, updating: .noColumnUnlessSpecified) { excluded in
    ///     [Column("name").set(to: excluded[Column("name")])]
    /// }
    /// ```
    public mutating func upsertAndFetch(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> Self
    where Self: FetchableRecord {
        try upsertAndFetch(db, as: Self.self, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
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
    ///     - assignments: What the conflict sets (see ``upsertAndFetch(_:onConflict:updating:doUpdate:)``).
    public mutating func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> T {
        try performUpsertAndFetch(db, as: returnedType, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
    }

    /// The upsert of `upsertAndFetch`, also for `PersistableRecord`'s non-mutating spellings.
    mutating func performUpsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, as returnedType: T.Type,
        onConflict conflictTarget: [String], updating strategy: UpsertUpdateStrategy,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])?
    ) throws -> T {
        var returned: T?
        try withSaveCallbacks(db) { record in
            PersistenceSuccess(
                try record.insertWithCallbacks(db) { record in
                    let container = try record.persistenceContainer()
                    let primaryKey = try db.primaryKey(Self.databaseTableName)
                    // The rowid comes last, after the returned record's columns.
                    let rowIDSQL = primaryKey.isWithoutRowID ? "" : #", "rowid""#
                    let upsert = try record.upsertSQL(db, container, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
                    let sql = try upsert.sql + " RETURNING " + Self.returningSQL(db, T.databaseSelection) + rowIDSQL
                    let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(container.values + upsert.arguments))
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

    /// `INSERT ... ON CONFLICT ... DO UPDATE SET ...`, as GRDB writes it: the `doUpdate`
    /// assignments, then, with `.allColumns`, the other columns of the record but the
    /// primary key and the conflict target, set to the inserted values. The update always
    /// assigns a column, so that a RETURNING clause returns the existing row on conflict.
    /// `arguments` follow the record's values.
    func upsertSQL(
        _ db: Database, _ container: PersistenceContainer,
        onConflict conflictTarget: [String], updating strategy: UpsertUpdateStrategy,
        doUpdate: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> (sql: String, arguments: [DatabaseValue]) {
        let primaryKey = try db.primaryKey(Self.databaseTableName)
        var sql = Self.insertSQL(container, conflict: "") + " ON CONFLICT"
        if !conflictTarget.isEmpty {
            sql += "(" + conflictTarget.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        let excluded = TableAlias<Self>(name: "excluded")
        var assignments = doUpdate?(excluded) ?? []
        if strategy.contains(.allColumns) {
            let kept = Set((primaryKey.columns + conflictTarget).map { $0.lowercased() })
            let assigned = Set(assignments.map { $0.columnName.lowercased() })
            for column in container.columns where !kept.contains(column.lowercased()) && !assigned.contains(column.lowercased()) {
                assignments.append(Column(column).set(to: excluded[column]))
            }
        }
        var context = SQLGenerationContext()
        context.database = db
        var updates = assignments.compactMap { $0.sql(&context) }
        if updates.isEmpty {
            let column = primaryKey.columns[0].quotedDatabaseIdentifier
            updates = ["\(column) = \(column)"]
        }
        try context.checkSubqueries()
        return (sql + " DO UPDATE SET " + updates.joined(separator: ", "), context.arguments)
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
    ///     - assignments: What the conflict sets (see
    ///       ``MutablePersistableRecord/upsertAndFetch(_:onConflict:updating:doUpdate:)``).
    public func upsertAndFetch(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> Self
    where Self: FetchableRecord {
        var record = self
        return try record.performUpsertAndFetch(db, as: Self.self, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
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
    ///     - assignments: What the conflict sets (see
    ///       ``MutablePersistableRecord/upsertAndFetch(_:onConflict:updating:doUpdate:)``).
    public func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil
    ) throws -> T {
        var record = self
        return try record.performUpsertAndFetch(db, as: returnedType, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
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
