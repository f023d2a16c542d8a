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

    /// Whether foreign keys are enforced (`PRAGMA foreign_keys = ON`). Default true.
    public var foreignKeysEnabled = true

    /// What happens when the database is locked by another connection. Default
    /// `.immediateError`.
    public var busyMode: BusyMode = .immediateError

    /// The kind of transactions opened by `write`, `inTransaction` and friends when none is
    /// given. Default `.deferred`.
    public var defaultTransactionKind: Database.TransactionKind = .deferred

    /// Whether a database access may end with a transaction still open. Default false: such
    /// an access is a fatal error, because the next access would find an unexpected
    /// transaction.
    public var allowsUnsafeTransactions = false

    /// The maximum number of concurrent readers of a ``DatabasePool``. Default 5.
    public var maximumReaderCount = 5

    /// A label for the connections' dispatch queues and descriptions, for debugging.
    public var label: String? = nil

    /// How often, in seconds, a ``DatabaseQueue`` or ``DatabasePool`` checks its database
    /// file for changes committed by other connections and processes. Default nil: no
    /// checks.
    ///
    /// Ripple sees the changes made through its own connection as they happen. Changes
    /// committed elsewhere (another process, an app extension, another `DatabaseQueue`
    /// on the same file) leave no trace SQLite could report, except the file's data
    /// version (`PRAGMA data_version`). With an interval, the writer connection reads it
    /// that often, and when it changed, transaction observers, region observations and
    /// value observations are told of a change to the whole database (as with
    /// `db.notifyChanges(in: .fullDatabase)`): they cannot know which tables changed.
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.externalChangeCheckInterval = 0.25
    /// let dbPool = try DatabasePool(path: sharedContainerPath, configuration: config)
    /// ```
    ///
    /// In-memory databases are never checked: nothing else can change them.
    public var externalChangeCheckInterval: TimeInterval? = nil

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
    public enum BusyMode: Sendable {
        /// Fail at once with `SQLITE_BUSY`.
        case immediateError
        /// Retry for up to this many seconds, then fail with `SQLITE_BUSY`.
        case timeout(TimeInterval)
        /// Ask the closure, with the number of tries so far: true tries again.
        case callback(@Sendable (_ numberOfTries: Int) -> Bool)
    }
}
