/// What ``MutablePersistableRecord/didSave(_:)`` and ``MutablePersistableRecord/didUpdate(_:)``
/// are told after a successful save or update.
public struct PersistenceSuccess: Sendable {
    /// The saved columns and values.
    public var persistenceContainer: PersistenceContainer

    init(persistenceContainer: PersistenceContainer) {
        self.persistenceContainer = persistenceContainer
    }

    init(_ inserted: InsertionSuccess) {
        self.init(persistenceContainer: inserted.persistenceContainer)
    }
}

// MARK: - Defaults: nothing happens

extension MutablePersistableRecord {
    public func willSave(_ db: Database) throws {}
    public func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws { _ = try save() }
    public func didSave(_ saved: PersistenceSuccess) {}

    public mutating func willInsert(_ db: Database) throws {}
    public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws { _ = try insert() }
    public mutating func didInsert(_ inserted: InsertionSuccess) {}

    public func willUpdate(_ db: Database, columns: Set<String>) throws {}
    public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws { _ = try update() }
    public func didUpdate(_ updated: PersistenceSuccess) {}

    public func willDelete(_ db: Database) throws {}
    public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws { _ = try delete() }
    public func didDelete(deleted: Bool) {}
}

extension PersistableRecord {
    public func willInsert(_ db: Database) throws {}
    public func didInsert(_ inserted: InsertionSuccess) {}
}

// MARK: - The order of the callbacks

extension MutablePersistableRecord {
    /// Runs `body` (an insert, an update, or both for a save) between `willSave` and
    /// `didSave`, inside `aroundSave`.
    mutating func withSaveCallbacks(_ db: Database, _ body: (inout Self) throws -> PersistenceSuccess) throws {
        try willSave(db)
        var saved: PersistenceSuccess?
        var record = self
        try aroundSave(db) {
            saved = try body(&record)
            return saved!
        }
        self = record
        guard let saved else { throw Self.callbackMisuse("aroundSave", "save") }
        didSave(saved)
    }

    /// Runs `statement` between `willInsert` (which may change the record before
    /// `statement` encodes it) and `didInsert`, inside `aroundInsert`.
    mutating func insertWithCallbacks(_ db: Database, _ statement: (Self) throws -> InsertionSuccess) throws -> InsertionSuccess {
        try willInsert(db)
        var inserted: InsertionSuccess?
        let record = self
        try aroundInsert(db) {
            inserted = try statement(record)
            return inserted!
        }
        guard let inserted else { throw Self.callbackMisuse("aroundInsert", "insert") }
        didInsert(inserted)
        return inserted
    }

    /// The error of an `around` callback that did not call the function it wraps (GRDB
    /// stops the process).
    static func callbackMisuse(_ callback: String, _ function: String) -> DatabaseError {
        DatabaseError.misuse("\(Self.self).\(callback)(_:) must call its \(function) function")
    }
}
