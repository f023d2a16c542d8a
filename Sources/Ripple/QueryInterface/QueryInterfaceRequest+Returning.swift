// Batch deletes and updates that return the deleted or updated rows, with SQLite's
// RETURNING clause, as GRDB spells them: `deleteAndFetchAll`, `updateAndFetchAll`...

extension QueryInterfaceRequest {
    /// A statement that deletes the rows of the request when it runs, and returns what
    /// `selection` reads of each.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - selection: The returned columns or expressions; not empty.
    public func deleteAndFetchStatement(_ db: Database, selection: [any SQLSelectable]) throws -> Statement {
        precondition(!selection.isEmpty, "Invalid empty selection: give deleteAndFetchStatement at least one column")
        var context = SQLGenerationContext()
        let sql = try deleteSQL(db, &context, returning: true)
        return try returningStatement(db, sql, selection, &context)
    }

    /// A statement that updates the rows of the request when it runs, and returns what
    /// `selection` reads of each.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: The conflict resolution of the update.
    ///     - assignments: The column assignments; not empty.
    ///     - selection: The returned columns or expressions; not empty.
    public func updateAndFetchStatement(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment], selection: [any SQLSelectable]
    ) throws -> Statement {
        precondition(!selection.isEmpty, "Invalid empty selection: give updateAndFetchStatement at least one column")
        precondition(
            assignments.contains { $0.value != nil },
            "Invalid empty assignments: give updateAndFetchStatement at least one assignment that is not noOverwrite")
        var context = SQLGenerationContext()
        let sql = try updateSQL(db, conflictResolution, assignments, &context, returning: true)
        return try returningStatement(db, sql, selection, &context)
    }

    private func returningStatement(
        _ db: Database, _ sql: String, _ selection: [any SQLSelectable],
        _ context: inout SQLGenerationContext
    ) throws -> Statement {
        let returning = try selection.flatMap { try $0.sqlSelection.resolved(db, table: tableName) }
            .map { $0.sql(&context) }.joined(separator: ", ")
        try context.checkSubqueries()
        let statement = try db.makeStatement(sql: sql + " RETURNING " + returning)
        try statement.setArguments(StatementArguments(context.arguments))
        return statement
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// A statement that deletes the rows of the request, and returns the columns `select`
    /// builds from the table's columns: `deleteAndFetchStatement(db) { [$0.score] }`.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - select: Builds the returned columns.
    public func deleteAndFetchStatement(
        _ db: Database,
        select: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> Statement {
        try deleteAndFetchStatement(db, selection: select(RowDecoder.databaseComponents))
    }

    /// A statement that updates the rows of the request with the assignments `assignments`
    /// builds, and returns the columns `select` builds.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: The conflict resolution of the update.
    ///     - assignments: Builds the column assignments.
    ///     - select: Builds the returned columns.
    public func updateAndFetchStatement(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment],
        select: (RowDecoder.DatabaseComponents) -> [any SQLSelectable]
    ) throws -> Statement {
        try updateAndFetchStatement(
            db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents),
            selection: select(RowDecoder.databaseComponents))
    }

    /// Deletes the rows of the request, and returns the ids of the deleted records.
    ///
    /// - parameter db: A database connection.
    public func deleteAndFetchIds(_ db: Database) throws -> Set<RowDecoder.ID>
    where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
        let primaryKey = try db.primaryKey(RowDecoder.databaseTableName)
        precondition(primaryKey.columns.count == 1, "deleteAndFetchIds needs a single-column primary key in the table \(tableName)")
        return try RowDecoder.ID.fetchSet(deleteAndFetchStatement(db, selection: [Column(primaryKey.columns[0])]))
    }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord {
    /// Deletes the rows of the request, and returns a cursor over the deleted records
    /// (the deletion ends when the cursor is consumed).
    ///
    /// - parameter db: A database connection.
    public func deleteAndFetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
        try RowDecoder.fetchCursor(deleteAndFetchStatement(db, selection: RowDecoder.databaseSelection))
    }

    /// Deletes the rows of the request, and returns the deleted records.
    ///
    /// - parameter db: A database connection.
    public func deleteAndFetchAll(_ db: Database) throws -> [RowDecoder] {
        try Array(deleteAndFetchCursor(db))
    }

    /// Updates the rows of the request, and returns a cursor over the updated records.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: The conflict resolution of the update.
    ///     - assignments: The column assignments; not empty.
    public func updateAndFetchCursor(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> RecordCursor<RowDecoder> {
        try RowDecoder.fetchCursor(
            updateAndFetchStatement(
                db, onConflict: conflictResolution, assignments, selection: RowDecoder.databaseSelection))
    }

    /// Updates the rows of the request with the assignments `assignments` builds, and
    /// returns a cursor over the updated records.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: The conflict resolution of the update.
    ///     - assignments: Builds the column assignments.
    public func updateAndFetchCursor(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> RecordCursor<RowDecoder> {
        try updateAndFetchCursor(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// Updates the rows of the request, and returns the updated records.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: The conflict resolution of the update.
    ///     - assignments: The column assignments; not empty.
    public func updateAndFetchAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> [RowDecoder] {
        try Array(updateAndFetchCursor(db, onConflict: conflictResolution, assignments))
    }

    /// Updates the rows of the request with the assignments `assignments` builds, and
    /// returns the updated records.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: The conflict resolution of the update.
    ///     - assignments: Builds the column assignments.
    public func updateAndFetchAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> [RowDecoder] {
        try Array(updateAndFetchCursor(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents)))
    }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & TableRecord & Hashable {
    /// Deletes the rows of the request, and returns the deleted records.
    ///
    /// - parameter db: A database connection.
    public func deleteAndFetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try Set(deleteAndFetchCursor(db))
    }

    /// Updates the rows of the request, and returns the updated records.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: The conflict resolution of the update.
    ///     - assignments: The column assignments; not empty.
    public func updateAndFetchSet(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> Set<RowDecoder> {
        try Set(updateAndFetchCursor(db, onConflict: conflictResolution, assignments))
    }

    /// Updates the rows of the request with the assignments `assignments` builds, and
    /// returns the updated records.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - conflictResolution: The conflict resolution of the update.
    ///     - assignments: Builds the column assignments.
    public func updateAndFetchSet(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> Set<RowDecoder> {
        try Set(updateAndFetchCursor(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents)))
    }
}
