import Dispatch
import Foundation

/// A database in WAL mode, with one serialized writer connection and a bounded set of
/// reader connections, so that reads run concurrently with each other and with writes.
///
/// Every `read(_:)` runs in a transaction with snapshot isolation: it sees the database as
/// it was when it began, whatever is committed meanwhile.
///
/// ```swift
/// let dbPool = try DatabasePool(path: "/path/to/database.sqlite")
/// try dbPool.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// let count = try dbPool.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// A pool needs a database file: use ``DatabaseQueue`` for an in-memory database.
public final class DatabasePool: DatabaseWriter {
    let writer: SerializedDatabase
    let readers: Pool<SerializedDatabase>
    private let owner = AccessContext.Owner()

    /// The configuration of the database.
    public let configuration: Configuration

    /// The fetches of value observations: at most one less than the machine's cores at once
    /// (at least one), so that a burst of commits keeps a core for the writer.
    let observationFetches: ConcurrencyLimiter

    /// A value observation's fetch, given a snapshot (see ``asyncObservationRead(markingLastCommit:_:)``).
    typealias ObservationFetch = @Sendable (Result<Database, any Error>, LastCommitMark?) -> Void

    /// The fetches asked for since the last batch began, which run together, in one
    /// snapshot, and when the next batch runs (see
    /// ``asyncObservationRead(markingLastCommit:_:)``).
    private let observationBatches = LockedState(ObservationBatchPacing<ObservationFetch>())

    /// The snapshots that `snapshotRead` began: a batch of observation fetches begins one
    /// (for tests).
    let observationSnapshots = LockedState(0)

    /// The read transactions that the readers are beginning: the writer waits for them
    /// when they hold the write lock for a moment (see ``ReadTransactionStarts``).
    let readStarts = ReadTransactionStarts()

    /// The snapshots made so far, which number their labels (`label.snapshot.1`), as GRDB's.
    let snapshotCount = LockedState(0)

    /// Watches the file for other processes' commits (see ``Configuration/observesExternalChanges``).
    let externalChangeMonitor: ExternalChangeMonitor?
    /// Suspends the database at ``Database/suspendNotification`` (see
    /// ``Configuration/observesSuspensionNotifications``).
    private let suspensionObserver: SuspensionNotificationObserver?

    /// The path of the database file.
    public let path: String

    /// Opens the database file at `path` (created when missing), in WAL mode.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        guard path != ":memory:" && !path.isEmpty else {
            throw DatabaseError.misuse("DatabasePool needs a database file: use DatabaseQueue() for an in-memory database")
        }
        self.path = path
        self.configuration = configuration
        let label = configuration.label ?? "Ripple.DatabasePool"
        let owner = owner
        let readStarts = readStarts
        writer = try SerializedDatabase(
            path: path,
            configuration: configuration,
            label: "\(label).writer",
            context: AccessContext(owner: owner, role: .writer),
            countsAccesses: ExternalChangeMonitor.monitors(path: path, configuration: configuration),
            readStarts: .waitsFor(readStarts))
        if !configuration.readonly {
            try writer.sync { try $0.setUpWALMode() }
        }
        // Readers never write: opening them read-only makes writes in `read` fail.
        let readerConfiguration = {
            var config = configuration
            config.readonly = true
            return config
        }()
        readers = Pool(maximumCount: configuration.maximumReaderCount, label: "\(label).readers") { index in
            try SerializedDatabase(
                path: path,
                configuration: readerConfiguration,
                label: "\(label).reader.\(index + 1)",
                context: AccessContext(owner: owner, role: .reader),
                readStarts: .counts(readStarts))
        }
        externalChangeMonitor = ExternalChangeMonitor.setUp(writer: writer, path: path, configuration: configuration)
        suspensionObserver =
            configuration.observesSuspensionNotifications && !configuration.readonly
            ? SuspensionNotificationObserver(writer.interruptHandle) : nil
        observationFetches = ConcurrencyLimiter(
            limit: max(
                1,
                min(
                    configuration.maximumReaderCount, ProcessInfo.processInfo.activeProcessorCount - 1)))
    }

    public func close() throws {
        checkNotInsideAccess()
        try readers.close { reader in try reader.sync { try $0.close() } }
        try writer.sync { try $0.close() }
    }

    public func interrupt() {
        writer.interruptHandle.interrupt()
        for reader in readers.elements { reader.interruptHandle.interrupt() }
    }

    /// Suspends the database, as ``Database/suspendNotification`` does: the writer's
    /// running statement is interrupted, its transaction is rolled back at its next
    /// statement, and until ``resume()``, its statements that could take a lock on the
    /// database file throw `SQLITE_ABORT` ("Database is suspended"). Reads go on: in WAL
    /// mode they take no lock that blocks other processes. Any thread may call it. A
    /// read-only pool takes no lock and is not suspended.
    public func suspend() {
        if !configuration.readonly { writer.interruptHandle.suspend() }
    }

    /// Ends a suspension (see ``suspend()``). Any thread may call it.
    public func resume() {
        writer.interruptHandle.resume()
    }

    private func checkNotInsideAccess() {
        if AccessContext.current?.owner === owner { fatalError(reentranceMessage) }
    }

    private func checkNotInsideRead() {
        if let current = AccessContext.current, current.owner === owner, current.role == .reader {
            fatalError(reentranceMessage)
        }
    }

    // MARK: - Reading

    /// Begins a read-only transaction and establishes its snapshot right away.
    static func beginSnapshot(_ db: Database) throws {
        try db.beginTransaction(.deferred)
        // A deferred transaction only takes its snapshot at its first read: read now.
        _ = try Row.fetchCursor(db, sql: "SELECT rootpage FROM sqlite_master LIMIT 1").next()
    }

    private static func inSnapshot<T>(_ db: Database, _ value: (Database) throws -> T) throws -> T {
        try beginSnapshot(db)
        let result: T
        do {
            result = try value(db)
        } catch {
            db.rollbackIfInsideTransaction()
            throw error
        }
        try db.commit()
        return result
    }

    /// Runs `value` in a snapshot of the last committed state, on a reader, concurrently
    /// with other reads and with writes; waits for it.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        checkNotInsideRead()
        let (reader, release) = try readers.get()
        defer { release() }
        return try reader.sync { db in try Self.inSnapshot(db, value) }
    }

    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        checkNotInsideRead()
        let (reader, release) = try readers.get()
        defer { release() }
        return try reader.sync { db in try value(db) }
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        DispatchQueue.global().async { [self] in snapshotRead(markingLastCommit: false, [{ result, _ in value(result) }]) }
    }

    /// ``asyncRead(_:)`` for a value observation's fetch: it runs when
    /// ``observationFetches`` lets it. With `markingLastCommit`, `value` also gets the mark
    /// of the last commit visible in the file just before the snapshot began (nil when it
    /// could not be read): the snapshot holds that commit and maybe later ones. A writer
    /// that later finds the same mark (`Database.lastCommitMark()`) knows that no commit
    /// came since, so that the snapshot is the latest state.
    ///
    /// Without `markingLastCommit`, the fetches asked for while others run wait together,
    /// and run one after the other in one snapshot, begun after the last of them was asked
    /// for: it holds the commit that each one follows. One read transaction for a batch of
    /// fetches, not one each: beginning and ending one takes the locks of the wal-index,
    /// which the writer's commits take too (W8, raw: one reader with a read transaction per
    /// query slowed the import by 1.06-1.14, with one per batch by 0.94-0.96). A fetch that
    /// ends the transaction (an error) leaves the next ones to open their own. A batch
    /// asked for while the reader is idle starts at once; one asked for while a batch
    /// runs starts after it, after a pause as long as it ran (see ``ObservationBatchPacing``).
    func asyncObservationRead(markingLastCommit: Bool = false, _ value: @escaping ObservationFetch) {
        // (On the limiter's thread, the read runs right there: no other thread is woken.)
        if markingLastCommit {
            observationFetches.run { [self] in snapshotRead(markingLastCommit: true, [value]) }
            return
        }
        if observationBatches.withLock({ $0.ask(value) }) { runObservationBatch() }
    }

    /// Runs the fetches asked for so far, in one snapshot, when the limiter lets it; then
    /// the next batch, after a pause, when fetches were asked for meanwhile.
    private func runObservationBatch() {
        observationFetches.run { [self] in
            let batch = observationBatches.withLock { $0.takeBatch() }
            let start = DispatchTime.now().uptimeNanoseconds
            snapshotRead(markingLastCommit: false, batch)
            let duration = DispatchTime.now().uptimeNanoseconds &- start
            guard let pause = observationBatches.withLock({ $0.batchDidEnd(duration: duration) }) else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(pause))) { [self] in
                runObservationBatch()
            }
        }
    }

    /// Runs `values` in one snapshot on a reader, in order, on the current thread, which
    /// runs no access.
    private func snapshotRead(markingLastCommit: Bool, _ values: [ObservationFetch]) {
        snapshotRead(markingLastCommit: markingLastCommit) { result, mark in
            for value in values { value(result, mark) }
        }
    }

    /// Runs `body` in a read-only snapshot of a reader, now, on this thread; with the mark of
    /// the last commit when `markingLastCommit` (see ``asyncObservationRead(markingLastCommit:_:)``).
    /// For the initial value of an observation scheduled `.immediate`, which comes during
    /// its start.
    func snapshotRead(markingLastCommit: Bool, _ body: (Result<Database, any Error>, LastCommitMark?) -> Void) {
        let reader: SerializedDatabase
        let release: @Sendable () -> Void
        do {
            (reader, release) = try readers.get()
        } catch {
            body(.failure(error), nil)
            return
        }
        defer { release() }
        reader.sync { db in
            let mark = markingLastCommit ? db.lastCommitMark() : nil
            do {
                try Self.beginSnapshot(db)
                observationSnapshots.withLock { $0 += 1 }
            } catch {
                db.rollbackIfInsideTransaction()
                body(.failure(error), nil)
                return
            }
            body(.success(db), mark)
            db.rollbackIfInsideTransaction()
        }
    }

    // MARK: - Writing

    /// Writes on the writer connection. It may be called from inside a read (a value
    /// observation's fetch may write): readers never wait for the writer. An access that
    /// would wait for itself (a write from inside a write, maybe through reads nested in
    /// it) is a fatal error.
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.sync(updates)
    }

    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        checkNotInsideAccess()
        return try readers.barrier { _ in try writer.sync(updates) }
    }

    /// Runs `value` on the pool's connection that the current thread accesses (the writer
    /// or a reader), if any; otherwise as `read(_:)` does.
    ///
    /// - parameter value: reads the database.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        if writer.isHeldByCurrentThread { return try writer.onCurrentQueue(value) }
        if let reader = readers.elements.first(where: \.isHeldByCurrentThread) { return try reader.onCurrentQueue(value) }
        return try read(value)
    }

    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        if writer.isHeldByCurrentThread { return try writer.onCurrentQueue(updates) }
        return try writer.syncWithoutChecks(updates)
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.async(updates)
    }

    /// From the writer queue: opens a snapshot of the state just written on a reader, waits
    /// until that snapshot is established (not for `value`), then returns, and the writer
    /// goes on while `value` runs on the reader.
    ///
    /// ```swift
    /// try dbPool.writeWithoutTransaction { db in
    ///     try db.execute(sql: "INSERT INTO player ...")
    ///     dbPool.asyncConcurrentRead { result in
    ///         // Sees the player, even if the writer deletes it meanwhile.
    ///     }
    ///     try db.execute(sql: "DELETE FROM player")
    /// }
    /// ```
    ///
    /// Calling it from elsewhere, or inside a transaction, is a fatal error. When every reader
    /// is busy, it waits for one.
    public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        precondition(
            writer.isHeldByCurrentThread,
            """
            asyncConcurrentRead must be called from the writer queue: \
            call it from dbPool.writeWithoutTransaction { db in ... }
            """)
        writer.onCurrentQueue { db in
            precondition(
                !db.isInsideTransaction,
                """
                asyncConcurrentRead must be called outside of any transaction: \
                commit first, then call it
                """)
        }
        let reader: SerializedDatabase
        let release: @Sendable () -> Void
        do {
            (reader, release) = try readers.get()
        } catch {
            value(.failure(error))
            return
        }
        let snapshotEstablished = DispatchSemaphore(value: 0)
        reader.async { db in
            defer { release() }
            do {
                try Self.beginSnapshot(db)
            } catch {
                db.rollbackIfInsideTransaction()
                snapshotEstablished.signal()
                value(.failure(error))
                return
            }
            snapshotEstablished.signal()
            value(.success(db))
            db.rollbackIfInsideTransaction()
        }
        snapshotEstablished.wait()
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
