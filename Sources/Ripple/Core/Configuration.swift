import Foundation

/// How a ``DatabaseQueue`` or ``DatabasePool`` opens and uses its connections.
///
/// ```swift
/// var config = Configuration()
/// config.defaultTransactionKind = .immediate
/// config.busyMode = .timeout(5)
/// config.prepareDatabase { db in
///     try db.execute(sql: "PRAGMA cache_size = -8000")
/// }
/// let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite", configuration: config)
/// ```
public struct Configuration: Sendable {
    /// Whether connections are opened read-only: every write fails with `SQLITE_READONLY`,
    /// and the database file must exist. Default false.
    public var readonly = false

    /// What the schema does not say: the primary keys of views (see ``DatabaseSchemaSource``).
    public var schemaSource: (any DatabaseSchemaSource)?

    /// Whether foreign keys are enforced (`PRAGMA foreign_keys = ON`). Default true.
    public var foreignKeysEnabled = true

    /// What happens when the database is locked by another connection. Default
    /// `.immediateError`.
    public var busyMode: BusyMode = .immediateError

    /// The kind of transactions opened by `write`, `inTransaction` and friends when none is
    /// given. Default nil: as in GRDB 7, `IMMEDIATE`, and `DEFERRED` in a read-only access
    /// or on a read-only connection.
    public var defaultTransactionKind: Database.TransactionKind? = nil

    /// Whether a database access may end with a transaction still open. Default false: such
    /// an access is a fatal error, because the next access would find an unexpected
    /// transaction.
    public var allowsUnsafeTransactions = false

    /// Whether SQLite reads a double-quoted string that names no column as a string
    /// literal. Default false: a misspelt column is an error.
    ///
    /// ```swift
    /// // Default: error "no such column: missingColumn"
    /// try String.fetchOne(db, sql: #"SELECT "missingColumn" FROM player"#)
    /// // With true: "missingColumn", a string (SQLite's misfeature,
    /// // https://sqlite.org/quirks.html#double_quoted_string_literals_are_accepted)
    /// ```
    public var acceptsDoubleQuotedStringLiterals = false

    /// Whether the descriptions of errors and traced statements show the statements'
    /// arguments. Default false, so that logs do not leak private data; the arguments stay
    /// in ``DatabaseError/arguments`` and ``DatabaseError/expandedDescription``.
    public var publicStatementArguments = false

    /// The maximum number of concurrent readers of a ``DatabasePool``. Default 5.
    public var maximumReaderCount = 5

    /// A label for the connections' dispatch queues and descriptions, for debugging.
    public var label: String? = nil

    /// Whether observers hear of the commits of other processes and connections to the
    /// database file. Default true.
    ///
    /// Ripple sees the changes made through its own connection as they happen. Those
    /// committed elsewhere (another process, an app extension, a replication process
    /// such as LiteFS, another `DatabaseQueue` on the same file) are found by watching the
    /// database file: on Linux with inotify, on Apple platforms with a dispatch source, and
    /// with a slow safety poll (``externalChangeCheckInterval``) for file systems that do
    /// not report changes. The writer connection then tells observers, as
    /// `Database.notifyChanges(in:)` does: of a change to the whole database, or of the
    /// tables that changed when every writer records them (see ``logsChangedTables``). A
    /// commit of another process is never missed; the process's own commits are never told
    /// twice.
    ///
    /// Watching writes nothing to the database, runs no statement the trace would show,
    /// and takes no lock: the checks read the file's header, write-ahead log and wal-index
    /// while no other connection is in the middle of a commit, so that no other
    /// connection's write ever fails because of them.
    ///
    /// Only while an observer is registered (a transaction observer, a region or value
    /// observation) is the file watched: no thread, timer or file watch otherwise.
    /// In-memory databases are never watched: nothing else can change them.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.observesExternalChanges = false   // this process is the only writer
    /// let dbPool = try DatabasePool(path: path, configuration: config)
    /// ```
    public var observesExternalChanges = true

    /// Whether the database is suspended when the application posts
    /// ``Database/suspendNotification``, and resumed at ``Database/resumeNotification``.
    /// Default false.
    ///
    /// Set it in each process that writes to a database in a shared container (an app and
    /// its extensions), so that the suspended app holds no lock on the file (see
    /// ``Database/suspendNotification``). ``DatabaseQueue/suspend()`` and
    /// ``DatabasePool/suspend()`` do the same without notifications.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.observesSuspensionNotifications = true
    /// let dbPool = try DatabasePool(path: path, configuration: config)
    /// ```
    public var observesSuspensionNotifications = false

    /// The interval, in seconds, of the safety poll that checks the database file for
    /// other processes' commits even when no file event came (network and FUSE file
    /// systems deliver none). Default 2. Nil: no poll, file events only.
    ///
    /// Only while ``observesExternalChanges`` is true and an observer is registered.
    public var externalChangeCheckInterval: TimeInterval? = 2

    /// Whether observers hear of other processes' commits precisely, table by table, from
    /// the tables each writer recorded. Default false: each commit of another process or
    /// connection is a change to the whole database, and Ripple writes nothing to the file.
    ///
    /// Turned on, the writer records, inside each of its transactions, just before it
    /// commits, the tables the transaction changed, in one table of its own,
    /// `_ripple_commit_log` (created when the writer opens, like a migrator's table; pruned
    /// to its last few thousand entries; hidden from Ripple's introspection, migrations,
    /// regions and observers; its statements never appear in ``Database/trace(options:_:)``).
    /// Observers that turn it on too read those entries and refetch only what the recorded
    /// tables change. A commit without its entry (a writer without this setting, the `sqlite3`
    /// shell, another library, a statement run outside of a transaction) is still a change to
    /// the whole database: no commit is ever missed.
    ///
    /// Turn it on for every process that writes and observes the database, or on the
    /// primary of a replicated database and on the observers of its replicas:
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.logsChangedTables = true
    /// let dbPool = try DatabasePool(path: path, configuration: config)
    /// ```
    ///
    /// Costs: one small insert in each transaction that writes; an observer reads the
    /// entries of other processes' commits in a short read transaction, which it begins
    /// only while no other connection holds the database's write lock.
    public var logsChangedTables = false

    /// The clock of ``Database/transactionDate``. Default ``TransactionClock/default``,
    /// the system's clock.
    ///
    /// The system's clock is read when a transaction starts (a `BEGIN` statement, or a
    /// savepoint outside of a transaction). A custom clock is asked at the first read of
    /// `transactionDate` in each transaction, so that its closure may use the database
    /// (`SELECT ...`) outside of the statement that opened the transaction. Outside of a
    /// transaction, each read of `transactionDate` asks the clock.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.transactionClock = .custom { db in Date(timeIntervalSince1970: 0) }
    /// ```
    public var transactionClock: any TransactionClock = .default

    /// Whether a ``DatabaseQueue`` switches the database to the WAL journal mode when it
    /// opens it (unless read-only). A ``DatabasePool`` always uses WAL. Default `.default`,
    /// which leaves the journal mode as it is.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.journalMode = .wal
    /// let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite", configuration: config)
    /// ```
    public var journalMode = JournalModeConfiguration.default

    /// The dispatch queue that the queues of the connections target: the reader
    /// connections, and the writer unless `writeTargetQueue` is set. Nil for the default
    /// global queue.
    public var targetQueue: DispatchQueue? = nil

    /// The dispatch queue that the queue of the writer connection targets (of a
    /// non-read-only ``DatabaseQueue``, or of a ``DatabasePool``). Nil for `targetQueue`.
    public var writeTargetQueue: DispatchQueue? = nil

    /// Closures run on each new connection, in order, right after it opens.
    var preparations: [@Sendable (Database) throws -> Void] = []

    /// The default configuration.
    public init() {}

    /// Adds a closure run on each new connection right after it opens (before any access):
    /// the place for pragmas, custom functions, and the like. A thrown error aborts the
    /// opening of the database.
    public mutating func prepareDatabase(_ preparation: @escaping @Sendable (Database) throws -> Void) {
        preparations.append(preparation)
    }

    /// What happens when a connection finds the database locked by another one.
    ///
    /// A ``DatabasePool``'s writer also waits, in every mode, while one of the pool's own
    /// readers holds the WAL write lock for the moment SQLite may take it when a read
    /// transaction begins: the pool's readers never make its writes fail.
    public enum BusyMode: Sendable {
        /// Fail at once with `SQLITE_BUSY`.
        case immediateError
        /// Retry for up to this many seconds, then fail with `SQLITE_BUSY`.
        case timeout(TimeInterval)
        /// Ask the closure, with the number of tries so far: true tries again.
        case callback(Database.BusyCallback)
    }
}
