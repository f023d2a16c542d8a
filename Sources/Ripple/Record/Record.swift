/// A base class for records, as GRDB's `Record`: a subclass overrides
/// ``databaseTableName``, ``init(row:)`` and ``encode(to:)``, and gets fetching,
/// persistence, and the tracking of changes made since the record was fetched or saved.
///
/// ```swift
/// class Player: Record {
///     var id: Int64?
///     var name: String
///
///     override class var databaseTableName: String { "player" }
///
///     required init(row: Row) throws {
///         id = row["id"]
///         name = row["name"]
///         try super.init(row: row)
///     }
///
///     override func encode(to container: inout PersistenceContainer) throws {
///         container["id"] = id
///         container["name"] = name
///     }
///
///     override func didInsert(_ inserted: InsertionSuccess) {
///         super.didInsert(inserted)
///         id = inserted.rowID
///     }
/// }
///
/// let player = try Player.fetchOne(db, key: 1)!
/// player.name = "Arthur"
/// if player.hasDatabaseChanges { try player.update(db) }
/// try player.updateChanges(db)  // writes only the changed columns, if any
/// ```
///
/// Structs adopting ``FetchableRecord`` and ``PersistableRecord`` are the usual choice;
/// `Record` is for code written for it.
open class Record {
    /// The values last read from or written to the database: what
    /// ``hasDatabaseChanges`` compares with. Nil when unknown (a record built by the app).
    var referenceRow: Row?

    /// A record with no known database values: ``hasDatabaseChanges`` is true.
    public init() {}

    /// A record from a row. A subclass reads its columns, then calls `super.init(row:)`,
    /// which remembers the values of a fetched row.
    public required init(row: Row) throws {
        if row.isFetched { referenceRow = row.copy() }
    }

    /// The table of the records. Subclasses must override it.
    open class var databaseTableName: String {
        fatalError("\(self) must override `class var databaseTableName: String` (the name of its table)")
    }

    /// The conflict resolution of inserts and updates that name none.
    open class var persistenceConflictPolicy: PersistenceConflictPolicy { PersistenceConflictPolicy() }

    /// The columns fetched by requests of the records: all of them, by default.
    open class var databaseSelection: [any SQLSelectable] { [AllColumns()] }

    /// Stores the record's values in `container`. Subclasses override it.
    open func encode(to container: inout PersistenceContainer) throws {}

    // MARK: - Changes

    /// Whether the record has values that differ from those last read from or written to
    /// the database (true when unknown, or when the record cannot be encoded).
    public var hasDatabaseChanges: Bool {
        guard let changes = try? databaseChanges else { return true }
        return !changes.isEmpty
    }

    /// The columns whose values differ from those last read from or written to the
    /// database, with those former values (nil when unknown).
    public var databaseChanges: [String: DatabaseValue?] {
        get throws {
            let container = try persistenceContainer()
            var changes: [String: DatabaseValue?] = [:]
            for (column, value) in zip(container.columns, container.values) {
                guard let former = referenceRow?.databaseValue(forColumn: column) else {
                    changes[column] = .some(nil)
                    continue
                }
                if former != value { changes[column] = former }
            }
            return changes
        }
    }

    /// Updates the changed columns, if any; returns whether there were some.
    @discardableResult
    public final func updateChanges(_ db: Database) throws -> Bool {
        let columns = try databaseChanges.keys
        guard !columns.isEmpty else { return false }
        try update(db, columns: Array(columns))
        return true
    }

    private func remember(_ container: PersistenceContainer) {
        referenceRow = Row(columns: container.columns, values: container.values, isFetched: true)
    }

    // MARK: - Persistence callbacks (overrides call `super`)

    open func willInsert(_ db: Database) throws {}

    open func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        let inserted = try insert()
        remember(inserted.persistenceContainer)
    }

    open func didInsert(_ inserted: InsertionSuccess) {}

    open func willUpdate(_ db: Database, columns: Set<String>) throws {}

    open func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        let updated = try update()
        remember(updated.persistenceContainer)
    }

    open func didUpdate(_ updated: PersistenceSuccess) {}

    open func willSave(_ db: Database) throws {}

    open func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try save()
    }

    open func didSave(_ saved: PersistenceSuccess) {}

    open func willDelete(_ db: Database) throws {}

    open func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        _ = try delete()
        // The row is gone: every value is a change now.
        referenceRow = nil
    }

    open func didDelete(deleted: Bool) {}
}

extension Record: TableRecord {}
extension Record: PersistableRecord {}
extension Record: FetchableRecord {}
