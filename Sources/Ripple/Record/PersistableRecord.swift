/// What ``MutablePersistableRecord/didInsert(_:)`` is told after an insert.
public struct InsertionSuccess: Sendable {
    /// The rowid of the inserted row.
    public let rowID: Int64
    /// The column that aliases the rowid (`id INTEGER PRIMARY KEY`), if any.
    public let rowIDColumn: String?
    /// The inserted columns and values, the rowid column set to the inserted rowid.
    public let persistenceContainer: PersistenceContainer

    init(rowID: Int64, rowIDColumn: String?, persistenceContainer: PersistenceContainer) {
        self.rowID = rowID
        self.rowIDColumn = rowIDColumn
        var container = persistenceContainer
        // (So that a `Record` knows the inserted row's values, its id among them.)
        if let rowIDColumn { container[rowIDColumn] = rowID }
        self.persistenceContainer = container
    }
}

/// The conflict resolutions of a record type's inserts and updates:
///
/// ```swift
/// struct Player: PersistableRecord {
///     static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .replace)
/// }
/// try player.insert(db)  // INSERT OR REPLACE INTO player ...
/// ```
public struct PersistenceConflictPolicy: Sendable {
    /// The resolution of inserts.
    public let conflictResolutionForInsert: Database.ConflictResolution
    /// The resolution of updates.
    public let conflictResolutionForUpdate: Database.ConflictResolution

    /// `.abort` is SQLite's default.
    public init(insert: Database.ConflictResolution = .abort, update: Database.ConflictResolution = .abort) {
        conflictResolutionForInsert = insert
        conflictResolutionForUpdate = update
    }

    /// `OR REPLACE ` and the like; empty for `.abort`, the default, as GRDB writes it.
    static func clause(_ resolution: Database.ConflictResolution) -> String {
        resolution == .abort ? "" : "OR \(resolution.rawValue) "
    }
}

/// Errors about records.
public enum RecordError: Error, Sendable, CustomStringConvertible {
    /// No row matched the primary key of the record.
    case recordNotFound(databaseTableName: String, key: [String: DatabaseValue])

    public var description: String {
        switch self {
        case let .recordNotFound(table, key):
            // As a row describes itself, as GRDB writes it: `[id:1 name:"Arthur"]`.
            let keyDescription = key.keys.sorted().map { "\($0):\(key[$0]!)" }.joined(separator: " ")
            return "Key not found in table \(table): [\(keyDescription)]"
        }
    }
}

/// A record that can be inserted, updated and deleted, and that may change when inserted
/// (to store its new id):
///
/// ```swift
/// struct Player: Codable, FetchableRecord, MutablePersistableRecord {
///     var id: Int64?
///     var name: String
///     var score: Int
///     mutating func didInsert(_ inserted: InsertionSuccess) {
///         id = inserted.rowID
///     }
/// }
///
/// var player = Player(id: nil, name: "Arthur", score: 100)
/// try player.insert(db)   // player.id is set
/// player.score = 200
/// try player.update(db)
/// try player.delete(db)
/// ```
///
/// Persistence callbacks, each with a default that does nothing, run around the
/// statements, as in GRDB (see `PersistenceCallbacks.swift`): `insert` runs `willSave`,
/// then inside `aroundSave`: `willInsert`, `aroundInsert` around the statement,
/// `didInsert`; then `didSave`. `update` does the same with `willUpdate`, `aroundUpdate`,
/// `didUpdate`; `save` runs the save callbacks once around an update or an insert;
/// `delete` runs `willDelete`, `aroundDelete`, `didDelete`.
public protocol MutablePersistableRecord: EncodableRecord, TableRecord {
    /// The conflict resolution of inserts and updates that name none (`.abort`, SQLite's
    /// default, unless the type says otherwise).
    static var persistenceConflictPolicy: PersistenceConflictPolicy { get }

    /// Called before an insert, an update or a save; may throw to prevent it.
    func willSave(_ db: Database) throws
    /// Wraps an insert, an update or a save: must call `save`.
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws
    /// Called after a successful insert, update or save.
    func didSave(_ saved: PersistenceSuccess)

    /// Called before an insert, which encodes the record afterwards: it may set a
    /// creation date, say.
    mutating func willInsert(_ db: Database) throws
    /// Wraps an insert: must call `insert`.
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws
    /// Called after a successful insert; the default does nothing.
    mutating func didInsert(_ inserted: InsertionSuccess)

    /// Called before an update of `columns`.
    func willUpdate(_ db: Database, columns: Set<String>) throws
    /// Wraps an update: must call `update`.
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws
    /// Called after a successful update.
    func didUpdate(_ updated: PersistenceSuccess)

    /// Called before a delete.
    func willDelete(_ db: Database) throws
    /// Wraps a delete: must call `delete`.
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws
    /// Called after a delete, with whether a row was deleted.
    func didDelete(deleted: Bool)
}

/// A record that does not change when it is inserted: `try Player(name: "Arthur").insert(db)`.
public protocol PersistableRecord: MutablePersistableRecord {
    /// Called before an insert.
    func willInsert(_ db: Database) throws
    /// Called after a successful insert; the default does nothing.
    func didInsert(_ inserted: InsertionSuccess)
}

extension MutablePersistableRecord {
    public static var persistenceConflictPolicy: PersistenceConflictPolicy { PersistenceConflictPolicy() }

    private static var quotedTable: String { databaseTableName.quotedDatabaseIdentifier }

    /// `OR REPLACE ` and the like, for an insert: empty for `.abort`, SQLite's default.
    func insertConflictClause(_ resolution: Database.ConflictResolution?) -> String {
        PersistenceConflictPolicy.clause(resolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForInsert)
    }

    /// The same, for an update.
    func updateConflictClause(_ resolution: Database.ConflictResolution?) -> String {
        PersistenceConflictPolicy.clause(resolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForUpdate)
    }

    /// Inserts the record, with its callbacks (`willInsert` may change it first; `didInsert`
    /// gets the new rowid). `onConflict` overrides ``persistenceConflictPolicy``.
    public mutating func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        let conflict = insertConflictClause(conflictResolution)
        try withSaveCallbacks(db) { record in
            PersistenceSuccess(
                try record.insertWithCallbacks(db) { record in
                    try type(of: record).performInsert(db, record.persistenceContainer(), conflict: conflict)
                })
        }
    }

    /// Inserts the record, and returns it as `didInsert` changed it.
    public func inserted(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.insert(db, onConflict: conflictResolution)
        return record
    }

    /// Inserts the record, or updates the row that has its primary key or a unique key
    /// (`INSERT ... ON CONFLICT DO UPDATE`), then calls `didInsert` with the row's rowid.
    public mutating func upsert(_ db: Database) throws {
        try performUpsert(db)
    }

    mutating func performUpsert(_ db: Database) throws {
        try withSaveCallbacks(db) { record in
            PersistenceSuccess(try record.insertWithCallbacks(db) { record in try record.upsertStatement(db) })
        }
    }

    private func upsertStatement(_ db: Database) throws -> InsertionSuccess {
        let container = try persistenceContainer()
        let primaryKey = try db.primaryKey(type(of: self).databaseTableName)
        let sql = try upsertSQL(db, container, onConflict: [], updating: .allColumns).sql
        if primaryKey.isWithoutRowID {
            try db.execute(sql: sql, arguments: StatementArguments(container.values))
            return InsertionSuccess(rowID: db.lastInsertedRowID, rowIDColumn: nil, persistenceContainer: container)
        } else {
            let rowID = try Int64.fetchOne(db, sql: sql + #" RETURNING "rowid""#, arguments: StatementArguments(container.values))
            return InsertionSuccess(rowID: rowID ?? db.lastInsertedRowID, rowIDColumn: primaryKey.rowIDColumn, persistenceContainer: container)
        }
    }

    private func insertSQL(_ container: PersistenceContainer, conflict: String = "") -> String {
        type(of: self).insertSQL(container, conflict: conflict)
    }

    static func insertSQL(_ container: PersistenceContainer, conflict: String) -> String {
        "INSERT \(conflict)INTO \(quotedTable) ("
            + container.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            + ") VALUES (" + Array(repeating: "?", count: container.columns.count).joined(separator: ",") + ")"
    }

    static func performInsert(_ db: Database, _ container: PersistenceContainer, conflict: String) throws -> InsertionSuccess {
        // The schema is read first, as GRDB reads it: the INSERT is the last statement of
        // the trace.
        let rowIDColumn = try db.primaryKey(databaseTableName).rowIDColumn
        guard !container.columns.isEmpty else {
            try db.execute(sql: "INSERT INTO \(quotedTable) DEFAULT VALUES")
            return InsertionSuccess(rowID: db.lastInsertedRowID, rowIDColumn: rowIDColumn, persistenceContainer: container)
        }
        let statement = try db.cachedStatement(sql: insertSQL(container, conflict: conflict))
        try statement.execute(arguments: StatementArguments(container.values))
        return InsertionSuccess(rowID: db.lastInsertedRowID, rowIDColumn: rowIDColumn, persistenceContainer: container)
    }

    /// The primary key of the record, as columns and values. Throws when the record does
    /// not store a value for every primary key column.
    public func primaryKeyValues(_ db: Database) throws -> [String: DatabaseValue] {
        try keyValues(db) { column in
            throw DatabaseError(
                message: """
                    record of type \(Self.self) stores no value for the primary key column \(column) \
                    of table \(type(of: self).databaseTableName)
                    """)
        }
    }

    /// The primary key of the record; `missing` gives the value of a column it does not store.
    private func keyValues(_ db: Database, missing: (String) throws -> DatabaseValue) throws -> [String: DatabaseValue] {
        let container = try persistenceContainer()
        let primaryKey = try db.primaryKey(type(of: self).databaseTableName)
        var key: [String: DatabaseValue] = [:]
        for column in primaryKey.columns { key[column] = try container.databaseValue(forColumn: column) ?? missing(column) }
        return key
    }

    /// The primary key of the record, NULL for the columns it does not store (as in GRDB:
    /// such a record matches no row, so its update throws `recordNotFound`, and its
    /// delete deletes nothing).
    func storedKeyValues(_ db: Database) throws -> [String: DatabaseValue] {
        try keyValues(db) { _ in .null }
    }

    /// The key that `save` updates first, as GRDB's: nil when every column of it is NULL
    /// (the record is inserted at once).
    func savedKey(_ db: Database) throws -> [String: DatabaseValue]? {
        let key = try storedKeyValues(db)
        return key.values.allSatisfy(\.isNull) ? nil : key
    }

    private func keyPredicate(_ key: [String: DatabaseValue]) -> (sql: String, arguments: [DatabaseValue]) {
        let columns = key.keys.sorted()
        return (columns.map { "\($0.quotedDatabaseIdentifier)=?" }.joined(separator: " AND "), columns.map { key[$0]! })
    }

    /// Updates the row with the record's primary key. Throws ``RecordError/recordNotFound(databaseTableName:key:)``
    /// when there is none.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try update(db, onConflict: conflictResolution, columns: nil)
    }

    /// Updates some columns of the row with the record's primary key.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, columns: [String]?) throws {
        var record = self
        try record.withSaveCallbacks(db) { record in
            try record.updateWithCallbacks(db, columns: columns, conflict: updateConflictClause(conflictResolution))
        }
    }

    /// Updates some columns, given as a set or any collection of names.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, columns: some Collection<String>) throws {
        try update(db, onConflict: conflictResolution, columns: Optional(Array(columns)))
    }

    /// Updates some columns: `try player.update(db, columns: [Columns.score])`.
    public func update(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil, columns: some Collection<some ColumnExpression>
    ) throws {
        try update(db, onConflict: conflictResolution, columns: Optional(columns.map(\.name)))
    }

    /// The update, between `willUpdate` and `didUpdate`.
    func updateWithCallbacks(
        _ db: Database, columns: [String]?, conflict: String,
        returning: String? = nil, fetch: (Statement) throws -> Void = { _ in }
    ) throws -> PersistenceSuccess {
        let container = try persistenceContainer()
        let updated = try updatedColumns(db, container, columns: columns)
        // (As GRDB: the columns asked for, or all the table's.)
        let told = Set(try columns ?? db.columns(in: type(of: self).databaseTableName).map(\.name))
        try willUpdate(db, columns: told)
        var success: PersistenceSuccess?
        try aroundUpdate(db, columns: told) {
            try performUpdate(db, container, columns: updated, conflict: conflict, returning: returning, fetch: fetch)
            success = PersistenceSuccess(persistenceContainer: container)
            return success!
        }
        guard let success else { throw Self.callbackMisuse("aroundUpdate", "update") }
        didUpdate(success)
        return success
    }

    /// The columns an update writes: the record's, less the primary key, restricted to
    /// `columns` when given; in the table's order and spelling, as GRDB writes them.
    private func updatedColumns(_ db: Database, _ container: PersistenceContainer, columns: [String]?) throws -> [String] {
        let table = type(of: self).databaseTableName
        let keyColumns = Set(try db.primaryKey(table).columns.map { $0.lowercased() })
        let wanted = columns.map { Set($0.map { $0.lowercased() }) }
        return try db.columns(in: table).lazy.map(\.name).filter { column in
            let key = column.lowercased()
            return !keyColumns.contains(key) && wanted?.contains(key) != false && container.index(of: column) != nil
        }
    }

    private func performUpdate(
        _ db: Database, _ container: PersistenceContainer, columns updated: [String], conflict: String,
        returning: String?, fetch: (Statement) throws -> Void
    ) throws {
        let key = try storedKeyValues(db)
        let (predicate, keyArguments) = keyPredicate(key)
        // With nothing else to write, the key writes itself, as in GRDB: the UPDATE runs,
        // transaction observers hear of it, and a RETURNING clause has a row.
        let columns = updated.isEmpty ? key.keys.sorted() : updated
        var sql =
            "UPDATE \(conflict)\(type(of: self).quotedTable) SET "
            + columns.map { "\($0.quotedDatabaseIdentifier)=?" }.joined(separator: ", ")
            + " WHERE " + predicate
        let values = columns.map { container.databaseValue(forColumn: $0) ?? key[$0] ?? .null } + keyArguments
        let totalBefore = db.totalChangesCount
        if let returning {
            // The row is not found when the fetch, which runs the statement, changed none.
            sql += " RETURNING " + returning
            let statement = try db.makeStatement(sql: sql)
            try statement.setArguments(StatementArguments(values))
            try fetch(statement)
        } else {
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(values))
        }
        if try db.changesCount(of: type(of: self).databaseTableName, totalBefore: totalBefore) == 0 {
            throw RecordError.recordNotFound(databaseTableName: type(of: self).databaseTableName, key: key)
        }
    }

    /// Updates the record's row, or inserts the record when there is no such row.
    public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try performSave(db, onConflict: conflictResolution)
    }

    /// Modifies the record with `modify`, then updates the columns whose values changed,
    /// only them; returns whether some changed (no statement runs otherwise).
    ///
    /// ```swift
    /// try player.updateChanges(db) { $0.score = 1000 }
    /// ```
    @discardableResult
    public mutating func updateChanges(_ db: Database, modify: (inout Self) throws -> Void) throws -> Bool {
        // (Two steps: `updateColumns` must see the record as modified.)
        let changes = try databaseChanges(modify: modify)
        return try updateColumns(db, changes)
    }

    /// Updates the columns whose values differ in `record` (an earlier version of this
    /// one); returns whether some did (no statement runs otherwise).
    ///
    /// ```swift
    /// let old = player
    /// player.score = 1000
    /// try player.updateChanges(db, from: old)
    /// ```
    @discardableResult
    public func updateChanges(_ db: Database, from record: some EncodableRecord) throws -> Bool {
        try updateColumns(db, try databaseChanges(from: record))
    }

    private func updateColumns(_ db: Database, _ changes: [String: DatabaseValue]) throws -> Bool {
        guard !changes.isEmpty else { return false }
        // (In the record's column order: the same changes make the same statement.)
        let columns = try persistenceContainer().columns.filter { changes[$0] != nil }
        try update(db, columns: columns)
        return true
    }

    /// Saves the record, and returns it as `didInsert` changed it.
    public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var record = self
        try record.save(db, onConflict: conflictResolution)
        return record
    }

    mutating func performSave(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws {
        let insertConflict = insertConflictClause(conflictResolution)
        let updateConflict = updateConflictClause(conflictResolution)
        try withSaveCallbacks(db) { record in
            if let key = try record.savedKey(db) {
                do {
                    return try record.updateWithCallbacks(db, columns: nil, conflict: updateConflict)
                } catch RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: key) {
                    // No row has the key (another record's error goes on): insert below.
                }
            }
            return PersistenceSuccess(
                try record.insertWithCallbacks(db) { record in
                    try type(of: record).performInsert(db, record.persistenceContainer(), conflict: insertConflict)
                })
        }
    }

    /// Deletes the record's row, with its callbacks; returns whether there was one.
    @discardableResult
    public func delete(_ db: Database) throws -> Bool {
        try willDelete(db)
        var deleted: Bool?
        try aroundDelete(db) {
            let (predicate, arguments) = keyPredicate(try storedKeyValues(db))
            let totalBefore = db.totalChangesCount
            try db.cachedStatement(sql: "DELETE FROM \(type(of: self).quotedTable) WHERE " + predicate)
                .execute(arguments: StatementArguments(arguments))
            deleted = try db.changesCount(of: type(of: self).databaseTableName, totalBefore: totalBefore) > 0
            return deleted!
        }
        guard let deleted else { throw Self.callbackMisuse("aroundDelete", "delete") }
        didDelete(deleted: deleted)
        return deleted
    }

    /// Whether the record's row exists.
    public func exists(_ db: Database) throws -> Bool {
        let (predicate, arguments) = keyPredicate(try storedKeyValues(db))
        return try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM \(type(of: self).quotedTable) WHERE \(predicate))", arguments: StatementArguments(arguments))
            ?? false
    }
}

extension PersistableRecord {
    /// Inserts the record, with its callbacks. `onConflict` overrides
    /// ``MutablePersistableRecord/persistenceConflictPolicy``.
    public func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        let conflict = insertConflictClause(conflictResolution)
        var record = self
        try record.withSaveCallbacks(db) { record in
            try record.willInsert(db)
            var inserted: InsertionSuccess?
            try record.aroundInsert(db) {
                inserted = try type(of: record).performInsert(db, record.persistenceContainer(), conflict: conflict)
                return inserted!
            }
            guard let inserted else { throw Self.callbackMisuse("aroundInsert", "insert") }
            record.didInsert(inserted)
            return PersistenceSuccess(inserted)
        }
    }

    /// Updates the record's row, or inserts the record when there is no such row.
    public func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        var record = self
        try record.performSave(db, onConflict: conflictResolution)
    }

    /// Inserts the record, or updates the row that has its keys.
    public func upsert(_ db: Database) throws {
        var record = self
        try record.performUpsert(db)
    }
}
