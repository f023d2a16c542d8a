// More spellings of the `RETURNING` methods, as GRDB's: the returned columns from the
// record's components (`select: { [$0.score] }`), and a saved record fetched as another
// type (`saveAndFetch(db, as: FullPlayer.self)`).

extension MutablePersistableRecord {
    /// Inserts the record, and returns what `select` names of the inserted row, as `fetch`
    /// reads it from the statement (which runs the insert):
    ///
    /// ```swift
    /// let score = try player.insertAndFetch(db) { statement in
    ///     try Int.fetchOne(statement)!
    /// } select: {
    ///     [$0.score]
    /// }
    /// ```
    public mutating func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T, select: (DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> T {
        try performInsertAndFetch(db, onConflict: conflictResolution, selection: select(Self.databaseComponents), fetch: fetch)
    }

    /// Updates the record's row, or inserts the record when there is none, and returns
    /// the row as `returnedType`.
    public mutating func saveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type
    ) throws -> T {
        try performSaveAndFetch(db, onConflict: conflictResolution, as: returnedType)
    }

    /// The save of `saveAndFetch(_:onConflict:as:)`, also for its non-mutating spelling.
    mutating func performSaveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution?, as returnedType: T.Type
    ) throws -> T {
        // (An update that finds no row fetches nil, and inserts; an ignored insert too.)
        let saved = try persistAndFetch(db, onConflict: conflictResolution, updatingFirst: true, selection: T.databaseSelection) {
            try T.fetchOne($0)
        }
        guard let saved else { throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: try storedKeyValues(db)) }
        return saved
    }
}

extension PersistableRecord {
    /// Inserts the record, and returns what `select` names of the inserted row (see the
    /// mutating ``MutablePersistableRecord/insertAndFetch(_:onConflict:fetch:select:)``).
    public func insertAndFetch<T>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T, select: (DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> T {
        var record = self
        return try record.performInsertAndFetch(db, onConflict: conflictResolution, selection: select(Self.databaseComponents), fetch: fetch)
    }

    /// Updates the record's row, or inserts the record when there is none, and returns
    /// the row as `returnedType`.
    public func saveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type
    ) throws -> T {
        var record = self
        return try record.performSaveAndFetch(db, onConflict: conflictResolution, as: returnedType)
    }
}
