// Fetching values and records from a table, whatever it decodes, and the remaining
// key-based and batch methods of GRDB's `Table`.
extension Table where RowDecoder: DatabaseValueConvertible {
    /// A cursor over the values of the first column.
    ///
    /// - Parameter db: A connection.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> { try all().fetchCursor(db) }
    /// The values of the first column.
    ///
    /// - Parameter db: A connection.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    /// The first value of the first column.
    ///
    /// - Parameter db: A connection.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// A cursor over the values of the first column, read straight from SQLite.
    ///
    /// - Parameter db: A connection.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> { try all().fetchCursor(db) }
    /// The values of the first column, read straight from SQLite.
    ///
    /// - Parameter db: A connection.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    /// The first value of the first column, read straight from SQLite.
    ///
    /// - Parameter db: A connection.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & Hashable {
    /// The distinct values of the first column.
    ///
    /// - Parameter db: A connection.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// The distinct values of the first column, read straight from SQLite.
    ///
    /// - Parameter db: A connection.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder: FetchableRecord & Hashable {
    /// The distinct records.
    ///
    /// - Parameter db: A connection.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table {
    /// Deletes the rows with these unique keys; returns how many were deleted:
    /// `Table("citizenship").deleteAll(db, keys: [["citizenId": 1, "countryCode": "FR"]])`.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - keys: Unique keys, as column-value dictionaries.
    @discardableResult
    public func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        try filter(keys: keys).deleteAll(db)
    }

    /// Updates all rows and returns how many were updated.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - assignments: The column assignments.
    @discardableResult
    public func updateAll(_ db: Database, _ assignments: [ColumnAssignment]) throws -> Int {
        try all().updateAll(db, assignments)
    }

    /// Updates all rows and returns how many were updated.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - conflictResolution: The conflict resolution of the `UPDATE`.
    ///   - assignments: The column assignments.
    @discardableResult
    public func updateAll(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?, _ assignments: ColumnAssignment...) throws
        -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }
}

extension Table where RowDecoder: TableRecord {
    /// Updates all rows with an assignment built from the columns of the record type:
    /// `Table<Player>("player").updateAll(db) { $0.score.set(to: 0) }`.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - conflictResolution: The conflict resolution of the `UPDATE`.
    ///   - assignment: Builds the assignment.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (RowDecoder.DatabaseComponents) -> ColumnAssignment
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignment: assignment)
    }

    /// Updates all rows with assignments built from the columns of the record type.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - conflictResolution: The conflict resolution of the `UPDATE`.
    ///   - assignments: Builds the assignments.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) -> [ColumnAssignment]
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments: assignments)
    }
}
