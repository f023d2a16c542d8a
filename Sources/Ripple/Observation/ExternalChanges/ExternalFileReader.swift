/// How the check of other processes' commits reads the database's files: the database
/// header, the wal-index and the write-ahead log, without a lock and without SQL, and the
/// commit log (``CommitLog``) in a short read transaction.
///
/// The connection itself is the real reader (`Database+ExternalFileReader.swift`): the
/// check is generic over its reader, so that the writer's checks call the connection
/// directly, and tests give plain bytes instead.
protocol ExternalFileReader {
    /// Bytes 18 to 27 of the database header (see ``DatabaseHeader``); nil when the file
    /// cannot be read.
    func readDatabaseHeader() -> DatabaseHeader?

    /// The wal-index header; nil when it cannot be read, or a writer is changing it.
    func readWALIndexHeader() -> WALIndexHeader?

    /// The wal-index header (as ``readWALIndexHeader()``) and how many frames of the log
    /// checkpoints copied into the database (its `nBackfill`); nil when the wal-index
    /// cannot be read.
    func readWALIndexHeaderAndBackfill() -> (header: WALIndexHeader?, backfill: Int)?

    /// Runs `body` with a reader of the write-ahead log's bytes; nil when the log is not
    /// open.
    func withWALFile<T>(_ body: (WALFile.Read) -> T) -> T?

    /// Whether a connection other than this one holds the write lock of the database file;
    /// nil when it cannot be told.
    func otherConnectionHoldsWriteLock() -> Bool?

    /// Whether this connection's own transaction holds a lock on the database file, so
    /// that no other connection can commit until it ends.
    func ownTransactionHoldsLock() -> Bool

    /// Whether the transaction about to commit writes the main database only (no temporary
    /// or attached one), so that its change of the change counter is exact.
    func transactionWritesMainDatabaseOnly() -> Bool

    /// SQLite's count of the pages this connection wrote to its database files.
    func pagesWritten() -> Int64

    /// The commit log's entries of the commits after frame `frame` of the write-ahead log's
    /// generation `generation`, read in a read transaction; empty when they cannot be read.
    func walLogEntries(generation: UInt32, from frame: Int) -> [ExternalChangeVerdict.Entry]

    /// Rollback-journal mode, in one read transaction (whose lock keeps writers out): the
    /// change counter, and the commit log's entries of the commits from `counter` on; nil
    /// when the transaction cannot begin or the header cannot be read.
    func rollbackLogEntries(from counter: UInt32) -> (counter: UInt32, entries: [ExternalChangeVerdict.Entry])?
}

/// What a check reads of the database header.
struct DatabaseHeader: Equatable {
    var isWAL: Bool
    var changeCounter: UInt32
}
