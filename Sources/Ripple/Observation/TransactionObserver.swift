import CSQLite

/// A type that tracks database changes and transactions performed in a database.
///
/// ```swift
/// final class PlayerObserver: TransactionObserver {
///     func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
///         eventKind.tableName == "player"
///     }
///     func databaseDidChange(with event: DatabaseEvent) {
///         // A change to the player table, not committed yet
///     }
///     func databaseDidCommit(_ db: Database) { }
///     func databaseDidRollback(_ db: Database) { }
/// }
/// dbQueue.add(transactionObserver: observer)
/// ```
///
/// All callbacks run on the writer's queue, serialized with all database updates.
/// `databaseDidChange(with:)`, `databaseDidChange()`, `databaseWillChange(with:)` and
/// `databaseWillCommit()` must not use the database connection (a use is a fatal error);
/// `databaseDidCommit(_:)` and `databaseDidRollback(_:)` may, and what they write is itself
/// observed.
public protocol TransactionObserver: AnyObject {
    /// Whether the observer wants `databaseDidChange(with:)` for this kind of event. Asked
    /// once per statement execution, before the statement runs.
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool

    /// A row was inserted, updated or deleted; pending until the transaction commits. The
    /// event is only valid during the call: keep `event.copy()`.
    func databaseDidChange(with event: DatabaseEvent)

    /// Changes happened that no row event describes (see `Database.notifyChanges(in:)`), or
    /// another process or connection committed changes of tables this observer observes
    /// (see ``Configuration/observesExternalChanges``: then `databaseDidCommit(_:)` follows,
    /// without `databaseWillCommit()`). The default does nothing.
    func databaseDidChange()

    /// A transaction is about to commit; throw to roll it back instead. The error is
    /// thrown to the application. The default does nothing.
    func databaseWillCommit() throws

    /// The transaction was committed.
    func databaseDidCommit(_ db: Database)

    /// The transaction was rolled back.
    func databaseDidRollback(_ db: Database)

    /// A row is about to change, with its initial and final values (the SQLite pre-update
    /// hook). The event is only valid during the call: keep `event.copy()`. The default does
    /// nothing.
    func databaseWillChange(with event: DatabasePreUpdateEvent)
}

extension TransactionObserver {
    public func databaseDidChange() {}
    public func databaseWillCommit() throws {}
    /// The default does nothing, and tells the broker so: the pre-update hook, which costs a
    /// callback per changed row, is then only installed for observers that implement this
    /// method.
    public func databaseWillChange(with event: DatabasePreUpdateEvent) {
        DatabaseObservationBroker.current?.observerIgnoresPreUpdateEvents(self)
    }

    /// From `databaseDidChange(with:)`: no more change events until the current transaction
    /// ends. Transaction callbacks still come.
    public func stopObservingDatabaseChangesUntilNextTransaction() {
        guard let broker = DatabaseObservationBroker.current else {
            fatalError("stopObservingDatabaseChangesUntilNextTransaction() must be called from a TransactionObserver callback")
        }
        broker.stopObservingUntilNextTransaction(self)
    }
}

/// How long a transaction observer is notified.
public enum TransactionObservationExtent: Sendable {
    /// Until the observer is deallocated: the database holds it weakly. The default.
    case observerLifetime
    /// Until the current or next transaction completes; the database holds it strongly
    /// until then.
    case nextTransaction
    /// As long as the connection is open; the database holds it strongly.
    case databaseLifetime
}

/// The kind of change a statement is about to make, asked about in
/// `observes(eventsOfKind:)`.
public enum DatabaseEventKind: Sendable, Equatable {
    /// An insertion into a table.
    case insert(tableName: String)
    /// A deletion from a table.
    case delete(tableName: String)
    /// An update of some columns of a table.
    case update(tableName: String, columnNames: Set<String>)

    /// The table.
    public var tableName: String {
        switch self {
        case .insert(let tableName), .delete(let tableName), .update(let tableName, _): return tableName
        }
    }

    /// The region the change may modify.
    ///
    /// A region of a table always holds its rows (an insert or a delete touches it), so
    /// the intersection of an update's region with another region of its table is not
    /// empty even when their columns differ: to tell whether a change touches a region,
    /// ask ``DatabaseRegion/isModified(byEventsOfKind:)``.
    public var modifiedRegion: DatabaseRegion {
        switch self {
        case .insert(let tableName), .delete(let tableName): return DatabaseRegion(table: tableName)
        case let .update(tableName, columns): return DatabaseRegion(table: tableName, columns: columns)
        }
    }
}

/// A row change, reported by `databaseDidChange(with:)`.
///
/// An event is a plain value: it stays valid after the callback, and ``copy()`` returns it
/// as it is.
public struct DatabaseEvent: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of row changes.
    public enum Kind: CInt, Sendable {
        case insert = 18  // SQLITE_INSERT
        case delete = 9  // SQLITE_DELETE
        case update = 23  // SQLITE_UPDATE
    }

    /// The kind of change.
    public let kind: Kind
    /// The rowid of the changed row. For a `WITHOUT ROWID` table, which has no rowid, it is
    /// 0: use `databaseWillChange(with:)` to read the row's primary key.
    public let rowID: Int64
    /// The database name (`main`, `temp`, or an attached database).
    public let databaseName: String
    /// The table name, as the schema spells it.
    public let tableName: String

    init(kind: Kind, rowID: Int64, databaseName: String, tableName: String) {
        self.kind = kind
        self.rowID = rowID
        self.databaseName = databaseName
        self.tableName = tableName
    }

    /// The event itself: events are values, valid after the callback. (GRDB's events are
    /// only valid during the callback, and need a copy.)
    public func copy() -> DatabaseEvent { self }

    public var description: String {
        "\(kind) \(databaseName).\(tableName) rowid \(rowID)"
    }
}

/// A row about to change, with its values (the SQLite pre-update hook), reported by
/// `databaseWillChange(with:)`.
///
/// The event reads SQLite's memory: it is only valid during the callback, and is not
/// `Sendable`. Use ``copy()`` to keep it.
public struct DatabasePreUpdateEvent {
    /// The kinds of row changes.
    public enum Kind: CInt, Sendable {
        case insert = 18  // SQLITE_INSERT
        case delete = 9  // SQLITE_DELETE
        case update = 23  // SQLITE_UPDATE
    }

    /// The kind of change.
    public let kind: Kind
    private let initialRowIDValue: Int64
    private let finalRowIDValue: Int64
    /// The database name (`main`, `temp`, or an attached database).
    public let databaseName: String
    /// The table name, as the schema spells it.
    public let tableName: String

    private enum Storage {
        case live(connection: OpaquePointer)
        case copied(count: Int, depth: Int, initial: [DatabaseValue]?, final: [DatabaseValue]?)
    }
    private let storage: Storage

    init(connection: OpaquePointer, kind: DatabaseEvent.Kind, databaseName: String, tableName: String, initialRowID: Int64, finalRowID: Int64) {
        self.kind = Kind(rawValue: kind.rawValue)!
        self.initialRowIDValue = initialRowID
        self.finalRowIDValue = finalRowID
        self.databaseName = databaseName
        self.tableName = tableName
        self.storage = .live(connection: connection)
    }

    private init(copying event: DatabasePreUpdateEvent) {
        kind = event.kind
        initialRowIDValue = event.initialRowIDValue
        finalRowIDValue = event.finalRowIDValue
        databaseName = event.databaseName
        tableName = event.tableName
        storage = .copied(
            count: event.count, depth: event.depth,
            initial: event.initialDatabaseValues, final: event.finalDatabaseValues)
    }

    /// The rowid before the change (nil for an insert).
    public var initialRowID: Int64? { kind == .insert ? nil : initialRowIDValue }

    /// The rowid after the change (nil for a delete).
    public var finalRowID: Int64? { kind == .delete ? nil : finalRowIDValue }

    /// The number of columns of the row.
    public var count: Int {
        switch storage {
        case .live(let connection): return Int(sqlite3_preupdate_count(connection))
        case .copied(let count, _, _, _): return count
        }
    }

    /// 0 for a change made by the statement, 1 for a change made by a trigger it fired, etc.
    public var depth: Int {
        switch storage {
        case .live(let connection): return Int(sqlite3_preupdate_depth(connection))
        case .copied(_, let depth, _, _): return depth
        }
    }

    /// The values before the change (nil for an insert).
    public var initialDatabaseValues: [DatabaseValue]? {
        switch storage {
        case .copied(_, _, let initial, _): return initial
        case .live(let connection):
            guard kind != .insert else { return nil }
            return (0..<sqlite3_preupdate_count(connection)).map { index in
                var value: OpaquePointer?
                sqlite3_preupdate_old(connection, index, &value)
                return DatabaseValue(sqliteValue: value)
            }
        }
    }

    /// The values after the change (nil for a delete).
    public var finalDatabaseValues: [DatabaseValue]? {
        switch storage {
        case .copied(_, _, _, let final): return final
        case .live(let connection):
            guard kind != .delete else { return nil }
            return (0..<sqlite3_preupdate_count(connection)).map { index in
                var value: OpaquePointer?
                sqlite3_preupdate_new(connection, index, &value)
                return DatabaseValue(sqliteValue: value)
            }
        }
    }

    /// The value of the column at `index` before the change (nil for an insert), read
    /// alone: cheaper than ``initialDatabaseValues`` when a few columns matter.
    ///
    /// It is a programmer error to give an index out of `0..<count`.
    public func initialDatabaseValue(atIndex index: Int) -> DatabaseValue? {
        precondition(index >= 0 && index < count, "row index out of range: \(index) is not in 0..<\(count)")
        switch storage {
        case .copied(_, _, let initial, _): return initial?[index]
        case .live(let connection):
            guard kind != .insert else { return nil }
            var value: OpaquePointer?
            sqlite3_preupdate_old(connection, CInt(index), &value)
            return DatabaseValue(sqliteValue: value)
        }
    }

    /// The value of the column at `index` after the change (nil for a delete), read alone.
    ///
    /// It is a programmer error to give an index out of `0..<count`.
    public func finalDatabaseValue(atIndex index: Int) -> DatabaseValue? {
        precondition(index >= 0 && index < count, "row index out of range: \(index) is not in 0..<\(count)")
        switch storage {
        case .copied(_, _, _, let final): return final?[index]
        case .live(let connection):
            guard kind != .delete else { return nil }
            var value: OpaquePointer?
            sqlite3_preupdate_new(connection, CInt(index), &value)
            return DatabaseValue(sqliteValue: value)
        }
    }

    /// An event that remains valid after the callback.
    public func copy() -> DatabasePreUpdateEvent {
        DatabasePreUpdateEvent(copying: self)
    }
}

extension Database {
    /// GRDB's name of ``TransactionObservationExtent``.
    public typealias TransactionObservationExtent = Ripple.TransactionObservationExtent
}
