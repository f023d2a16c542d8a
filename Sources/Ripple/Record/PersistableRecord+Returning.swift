// Inserts and updates that return values of the written row, with SQLite's RETURNING
// clause, as GRDB spells them: `insertAndFetch`, `updateAndFetch`, `saveAndFetch`.

extension MutablePersistableRecord {
    /// Inserts the record, and returns what `selection` reads of the inserted row, as
    /// `fetch` reads it from the statement (which runs the insert):
    ///
    /// ```swift
    /// let score = try player.insertAndFetch(db, selection: [Column("score")]) { statement in
    ///     try Int.fetchOne(statement)!
    /// }
    /// ```
    public mutating func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        try performInsertAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// The insert of `insertAndFetch`, also for `PersistableRecord`'s non-mutating spellings.
    mutating func performInsertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        try persistAndFetch(db, onConflict: conflictResolution, updatingFirst: false, selection: selection, fetch: fetch)
    }

    /// The insert of `insertAndFetch` and `saveAndFetch`, between `willInsert` and
    /// `didInsert`: `fetch` runs the statement.
    private mutating func insertAndFetchWithCallbacks(
        _ db: Database, conflict: String, returning: String, fetch: (Statement) throws -> Void
    ) throws -> PersistenceSuccess {
        PersistenceSuccess(
            try insertWithCallbacks(db) { record in
                let container = try record.persistenceContainer()
                let statement = try db.makeStatement(sql: type(of: record).insertSQL(container, conflict: conflict) + " RETURNING " + returning)
                try statement.setArguments(StatementArguments(container.values))
                try fetch(statement)
                let rowIDColumn = try db.primaryKey(type(of: record).databaseTableName).rowIDColumn
                return InsertionSuccess(rowID: db.lastInsertedRowID, rowIDColumn: rowIDColumn, persistenceContainer: container)
            })
    }

    /// The save of `saveAndFetch` (`updatingFirst`), as GRDB's: an `UPDATE ... RETURNING`
    /// when the record has a key, and an `INSERT ... RETURNING` when it has none or the
    /// update found no row (a `RecordError.recordNotFound` from the update, or from
    /// `fetch`); or the insert of `insertAndFetch`.
    mutating func persistAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, updatingFirst: Bool,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        let returning = try Self.returningSQL(db, selection)
        let insertConflict = insertConflictClause(conflictResolution)
        let updateConflict = updateConflictClause(conflictResolution)
        var fetched: T?
        try withSaveCallbacks(db) { record in
            if updatingFirst, let key = try record.savedKey(db) {
                do {
                    return try record.updateWithCallbacks(
                        db, columns: nil, conflict: updateConflict, returning: returning
                    ) { fetched = try fetch($0) }
                } catch RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: key) {
                    fetched = nil  // no row has the key (another record's error goes on): inserted below
                }
            }
            return try record.insertAndFetchWithCallbacks(db, conflict: insertConflict, returning: returning) {
                fetched = try fetch($0)
            }
        }
        guard let fetched else { throw updatingFirst ? Self.callbackMisuse("aroundSave", "save") : Self.callbackMisuse("aroundInsert", "insert") }
        return fetched
    }

    /// Inserts the record, and returns the inserted row as `returnedType`.
    public mutating func insertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type
    ) throws -> T {
        try performInsertAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) { statement in
            try Self.fetchRequiredRow(T.self, statement)
        }
    }

    /// Updates the record's row, and returns what `selection` reads of it.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        try performUpdateAndFetch(db, onConflict: conflictResolution, columns: nil, selection: selection, fetch: fetch)
    }

    /// Updates these columns of the record's row, and returns what `selection` reads of it.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: A conflict resolution that overrides the record's policy.
    ///     - columns: The names of the updated columns.
    ///     - selection: The returned columns or expressions.
    ///     - fetch: Reads the returned values from the statement.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<String>, selection: [any SQLSelectable],
        fetch: (Statement) throws -> T
    ) throws -> T {
        try performUpdateAndFetch(db, onConflict: conflictResolution, columns: Array(columns), selection: selection, fetch: fetch)
    }

    /// Updates these columns of the record's row, and returns what `selection` reads of it.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: A conflict resolution that overrides the record's policy.
    ///     - columns: The updated columns.
    ///     - selection: The returned columns or expressions.
    ///     - fetch: Reads the returned values from the statement.
    public func updateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<some ColumnExpression>, selection: [any SQLSelectable],
        fetch: (Statement) throws -> T
    ) throws -> T {
        try performUpdateAndFetch(db, onConflict: conflictResolution, columns: columns.map(\.name), selection: selection, fetch: fetch)
    }

    /// Updates the record's row, or inserts the record when there is none, and returns
    /// what `selection` reads of the row.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: A conflict resolution that overrides the record's policy.
    ///     - selection: The returned columns or expressions.
    ///     - fetch: Reads the returned values from the statement.
    public mutating func saveAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        try persistAndFetch(db, onConflict: conflictResolution, updatingFirst: true, selection: selection, fetch: fetch)
    }

    /// Updates `columns` of the record's row (all when nil), and returns what `selection`
    /// reads of it.
    private func performUpdateAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, columns: [String]?,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T
    ) throws -> T {
        var record = self
        var fetched: T?
        let conflict = updateConflictClause(conflictResolution)
        try record.withSaveCallbacks(db) { record in
            try record.updateWithCallbacks(db, columns: columns, conflict: conflict, returning: Self.returningSQL(db, selection)) { statement in
                fetched = try fetch(statement)
            }
        }
        guard let fetched else { throw Self.callbackMisuse("aroundUpdate", "update") }
        return fetched
    }

    /// Modifies the record, updates the columns that changed, and returns what `selection`
    /// reads of the row; nil, without any statement, when nothing changed.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: A conflict resolution that overrides the record's policy.
    ///     - selection: The returned columns or expressions.
    ///     - fetch: Reads the returned values from the statement.
    ///     - modify: Changes the record.
    public mutating func updateChangesAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable], fetch: (Statement) throws -> T,
        modify: (inout Self) throws -> Void
    ) throws -> T? {
        let changes = try databaseChanges(modify: modify)
        guard !changes.isEmpty else { return nil }
        // (In the record's column order: the same changes make the same statement.)
        let columns = try persistenceContainer().columns.filter { changes[$0] != nil }
        return try performUpdateAndFetch(db, onConflict: conflictResolution, columns: columns, selection: selection, fetch: fetch)
    }

    /// Modifies the record, updates the columns that changed, and returns the row as
    /// `returnedType`; nil, without any statement, when nothing changed.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: A conflict resolution that overrides the record's policy.
    ///     - returnedType: The type of the returned record.
    ///     - modify: Changes the record.
    public mutating func updateChangesAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type, modify: (inout Self) throws -> Void
    ) throws -> T? {
        // (A missing row throws `recordNotFound` when the update changed nothing.)
        let fetched = try updateChangesAndFetch(
            db, onConflict: conflictResolution, selection: T.databaseSelection, fetch: { try T.fetchOne($0) }, modify: modify)
        guard let fetched else { return nil }
        guard let record = fetched else {
            throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: try storedKeyValues(db))
        }
        return record
    }

    /// Updates the record's row, and returns it as `returnedType`.
    public func updateAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type
    ) throws -> T {
        try updateAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) { statement in
            try Self.fetchRequiredRow(T.self, statement, key: storedKeyValues(db))
        }
    }

    /// `RETURNING` columns of the record's table; a selection made with the connection
    /// (`.allColumns(excluding:)`) is resolved first.
    static func returningSQL(_ db: Database, _ selection: [any SQLSelectable]) throws -> String {
        var context = SQLGenerationContext()
        let sql = try selection.flatMap { try $0.sqlSelection.resolved(db, table: databaseTableName) }
            .map { $0.sql(&context) }.joined(separator: ", ")
        precondition(context.arguments.isEmpty, "A RETURNING selection can not hold values: select columns or constant-free expressions")
        return sql
    }

    /// The one row a RETURNING statement gives; `key`: the key of the updated row.
    static func fetchRequiredRow<T: FetchableRecord & TableRecord>(
        _ type: T.Type, _ statement: Statement, key: @autoclosure () throws -> [String: DatabaseValue] = [:]
    ) throws -> T {
        guard let record = try T.fetchOne(statement) else {
            throw RecordError.recordNotFound(databaseTableName: databaseTableName, key: try key())
        }
        return record
    }
}

extension MutablePersistableRecord where Self: FetchableRecord {
    /// Inserts the record, and returns the inserted row, as the database stores it
    /// (defaults and generated values included).
    ///
    /// ```swift
    /// let player = try Player(name: "Arthur").insertAndFetch(db)
    /// player.id  // set
    /// ```
    public func insertAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        return try record.insertAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Updates the record's row, and returns it as the database stores it.
    public func updateAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        try updateAndFetch(db, onConflict: conflictResolution, selection: Self.databaseSelection) { statement in
            guard let updated = try Self.fetchOne(statement) else {
                throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: try storedKeyValues(db))
            }
            return updated
        }
    }

    /// Modifies the record, updates the columns that changed, and returns the row as the
    /// database stores it; nil, without any statement, when nothing changed.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: A conflict resolution that overrides the record's policy.
    ///     - modify: Changes the record.
    public mutating func updateChangesAndFetch(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        modify: (inout Self) throws -> Void
    ) throws -> Self? {
        try updateChangesAndFetch(db, onConflict: conflictResolution, as: Self.self, modify: modify)
    }

    /// Updates the record's row, or inserts it when there is none, and returns the row as
    /// the database stores it.
    public func saveAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        // (An update that finds no row fetches nil, and throws the record's not found.)
        let saved = try record.persistAndFetch(db, onConflict: conflictResolution, updatingFirst: true, selection: Self.databaseSelection) {
            try Self.fetchOne($0)
        }
        guard let saved else { throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: try storedKeyValues(db)) }
        return saved
    }
}
