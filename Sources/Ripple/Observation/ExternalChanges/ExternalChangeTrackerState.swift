/// What ``ExternalChangeTracker`` knows, as one value: where the last check left the
/// database file, this connection's own commits since, and what the running transaction
/// may log. The check changes it through a file reader (`ExternalChangeCheck.swift`), so
/// that tests drive it with plain bytes.
///
/// Pure: tested with plain values and a fake reader.
struct ExternalChangeTrackerState {
    /// This connection's identifier in the commit log.
    let writerID: Int64
    /// ``Configuration/logsChangedTables``: log this connection's transactions, and read
    /// the entries of other connections' commits.
    let logsChangedTables: Bool

    /// Whether observers are registered, and the file is watched.
    var isActive = false

    // MARK: Where the last check left the file

    /// Whether the database was in WAL mode at the last check.
    var isWAL = false
    /// WAL mode: just after the last commit counted.
    var walPosition: WALFile.Position?
    /// This connection's own commits since the position, not to be told again.
    var ownCommits = OwnWALCommits()
    /// Rollback-journal mode: the change counter expected, moved by this connection's own
    /// commits.
    var changeCounter = ExpectedChangeCounter()
    /// Rollback-journal mode, precise: the change counter at the last check, from which
    /// the next check looks up the entries of the commits.
    var loggedCounter: UInt32?
    /// What a check at the end of an application's access found, to tell in an access of
    /// its own.
    var deferredVerdict: ExternalChangeVerdict?
    /// Set by a check that found commit frames not visible yet, or a position that could
    /// not be found: check again soon.
    var hasPendingCommit = false
    /// WAL mode: how many checks in a row found the wal-index changing under them.
    var unreadableIndexChecks = 0
    /// How many such checks wait for the writer before the next one tells a change to the
    /// whole database: the index changes for microseconds at a commit, and a damaged one
    /// must not keep changes untold.
    static let unreadableIndexChecksBeforeFullDatabase = 16
    /// The number of checks so far that read the file (for tests).
    var checks = 0

    // MARK: Logging

    /// What the running transaction may log.
    var transaction = CommitLogTransaction()
    /// Where this connection last found the end of the write-ahead log, as a writer: the
    /// next search for the key of its commit starts there.
    var writerWALPosition: WALFile.Position?

    /// How many own commits are remembered at most: past that, the position is forgotten
    /// (the next commit of another process is then a change to the whole database).
    static let maximumOwnCommitFrames = 4096

    init(writerID: Int64, logsChangedTables: Bool) {
        self.writerID = writerID
        self.logsChangedTables = logsChangedTables
    }

    /// Forgets where the log stood: the next check counts nothing.
    mutating func forgetWALPosition() {
        walPosition = nil
        forgetOwnCommits()
    }

    /// Forgets this connection's commits since the position: the position moved past them.
    /// (The array keeps its storage: emptied by a new one, it grew again from nothing
    /// between two checks, reallocating in most one-insert transactions
    /// (measured: Benchmarks/README.md, "Shortcuts").)
    mutating func forgetOwnCommits() {
        ownCommits.removeAll()
    }

    /// A commit of this connection: the log holds `frameCount` frames (SQLite's WAL hook);
    /// `pagesWritten` reads SQLite's count of pages written, when the commit may have
    /// started a new log.
    mutating func ownCommitDidWrite(frameCount: Int, pagesWritten: () -> Int64) {
        ownCommits.commitDidWrite(
            endFrame: frameCount, pagesWritten: ownCommits.needsPagesWrittenAfterCommit ? pagesWritten() : nil)
        if ownCommits.count > Self.maximumOwnCommitFrames { forgetWALPosition() }
    }

    /// The last observer went: what the checks knew is forgotten.
    mutating func deactivate() {
        isActive = false
        changeCounter.reset(to: nil, pagesWritten: 0)
        loggedCounter = nil
        deferredVerdict = nil
        forgetWALPosition()
    }
}
