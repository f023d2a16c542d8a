import Dispatch

/// A single connection to a database file (or an in-memory database), where every access
/// is serialized: reads and writes run one after the other, on one dispatch queue.
///
/// ```swift
/// let dbQueue = try DatabaseQueue(path: "/path/to/database.sqlite")
/// try dbQueue.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// let count = try dbQueue.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// Accesses are not re-entrant: starting one from inside another on the same queue is a
/// fatal error.
public final class DatabaseQueue: DatabaseWriter {
    let writer: SerializedDatabase

    /// The configuration of the database.
    public let configuration: Configuration

    /// Watches the file for other processes' commits (see ``Configuration/observesExternalChanges``).
    let externalChangeMonitor: ExternalChangeMonitor?

    /// The path of the database file, or `:memory:`.
    public let path: String

    /// Suspends the database at ``Database/suspendNotification`` (see
    /// ``Configuration/observesSuspensionNotifications``).
    private let suspensionObserver: SuspensionNotificationObserver?

    /// Opens the database file at `path`, creating it when missing (unless read-only).
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        self.path = path
        writer = try SerializedDatabase(
            path: path,
            configuration: configuration,
            label: configuration.label ?? "Ripple.DatabaseQueue",
            context: AccessContext(role: .writer),
            countsAccesses: ExternalChangeMonitor.monitors(path: path, configuration: configuration))
        if case .wal = configuration.journalMode, !configuration.readonly {
            try writer.sync { try $0.setUpWALMode() }
        }
        externalChangeMonitor = ExternalChangeMonitor.setUp(writer: writer, path: path, configuration: configuration)
        suspensionObserver = configuration.observesSuspensionNotifications ? SuspensionNotificationObserver(writer.interruptHandle) : nil
    }

    /// Opens an in-memory database: a private one, or, with a `name`, the shared in-memory
    /// database of that name, which every `DatabaseQueue(named:)` of the process with the
    /// same name opens until the last of them closes.
    ///
    /// ```swift
    /// let dbQueue1 = try DatabaseQueue(named: "cache")
    /// let dbQueue2 = try DatabaseQueue(named: "cache")  // the same database
    /// ```
    ///
    /// A shared in-memory database uses SQLite's shared cache: its connections lock each
    /// other's tables while they write (`SQLITE_LOCKED`), and observers do not hear of the
    /// commits of the other connections.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/inmemorydb.html>
    public convenience init(named name: String? = nil, configuration: Configuration = Configuration()) throws {
        try self.init(path: name.map { "file:\($0)?mode=memory&cache=shared" } ?? ":memory:", configuration: configuration)
    }

    public func close() throws {
        try writer.sync { try $0.close() }
    }

    public func interrupt() {
        writer.interruptHandle.interrupt()
    }

    /// Suspends the database, as ``Database/suspendNotification`` does: the statement
    /// that runs is interrupted, the transaction in progress is rolled back at the next
    /// statement, and until ``resume()``, statements that could take a lock on the
    /// database file throw `SQLITE_ABORT` ("Database is suspended"). Reads in WAL mode go
    /// on. Any thread may call it.
    public func suspend() {
        writer.interruptHandle.suspend()
    }

    /// Ends a suspension (see ``suspend()``). Any thread may call it.
    public func resume() {
        writer.interruptHandle.resume()
    }

    // MARK: - Reading

    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        return try writer.sync { db in
            try db.inReadOnlyTransaction { try value(db) }
        }
    }

    public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        return try writer.sync { db in try value(db) }
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.async { db in Self.readInTransaction(db, value) }
    }

    /// Hands `db` to `value` inside a read-only transaction, or the error that prevented it.
    private static func readInTransaction(_ db: Database, _ value: (Result<Database, any Error>) -> Void) {
        do {
            try db.inReadOnlyTransaction { value(.success(db)) }
        } catch {
            value(.failure(error))
        }
    }

    // MARK: - Writing

    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        return try writer.sync(updates)
    }

    /// Same as `writeWithoutTransaction(_:)`.
    public func inDatabase<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writeWithoutTransaction(updates)
    }

    /// Runs `updates` in a transaction that commits or rolls back as it returns.
    ///
    /// ```swift
    /// // BEGIN EXCLUSIVE TRANSACTION ...
    /// try dbQueue.inTransaction(.exclusive) { db in
    ///     try db.execute(sql: "...")
    ///     return .commit
    /// }
    /// ```
    public func inTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion
    ) throws {
        try writeInTransaction(kind, updates)
    }

    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction(updates)
    }

    /// Runs `value` in the access the current thread runs on this queue, if any; otherwise
    /// as `read(_:)` does.
    ///
    /// - parameter value: reads the database.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        if writer.isHeldByCurrentThread { return try writer.onCurrentQueue(value) }
        return try read(value)
    }

    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        if writer.isHeldByCurrentThread { return try writer.onCurrentQueue(updates) }
        return try writer.syncWithoutChecks(updates)
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.async(updates)
    }

    public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        precondition(
            writer.isHeldByCurrentThread,
            """
            asyncConcurrentRead must be called from the writer queue: \
            call it from dbQueue.writeWithoutTransaction { db in ... }
            """)
        writer.onCurrentQueue { db in
            precondition(
                !db.isInsideTransaction,
                "asyncConcurrentRead must be called outside of any transaction")
            Self.readInTransaction(db, value)
        }
    }

    // MARK: - Async/await

    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await awaitRead(value)
    }

    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await awaitWrite(updates)
    }

    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await awaitWriteWithoutTransaction(updates)
    }
}
