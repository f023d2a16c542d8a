/// Rollback-journal mode: the file change counter (bytes 24-27 of the database header) that
/// the writer connection expects to find, so that a check tells other connections' commits
/// from its own by reading the file, without taking a lock and without writing anything.
///
/// Each commit that writes the database file adds one to the counter. The connection reads
/// the counter in its own commits, just before they happen (SQLite's commit hook, while
/// the transaction holds the write lock, so that nobody else can commit meanwhile), and
/// learns afterwards whether the commit wrote the file (SQLite's count of pages written).
/// A check that then finds another value, or a commit that finds the counter moved since
/// the last value known, means that another connection committed.
///
/// Whatever is uncertain counts low: a commit whose effect cannot be told exactly (its
/// transaction spilled pages before its commit, or wrote a temporary or attached database
/// too) is expected to have added nothing, so that the check that follows tells a change to
/// the whole database rather than miss one of another connection.
///
/// Pure: tested with plain values.
struct ExpectedChangeCounter: Equatable {
    /// The counter the file shows if no other connection committed since the last check;
    /// nil: unknown (the next check tells a change).
    private(set) var value: UInt32?
    /// Whether a commit of this connection found that another one committed before it.
    private(set) var otherCommitSeen = false
    /// The commits of this connection since the last check whose change of the counter is
    /// exact, each as the counter before it (precise mode: they need no log entry).
    private(set) var ownCommits: [UInt32] = []
    /// SQLite's count of pages written by the connection, after its last transaction.
    private var pagesWrittenAtRest: Int64 = 0
    private var pending: Pending?

    private struct Pending: Equatable {
        var before: UInt32?
        var pagesWritten: Int64
        var isExact: Bool
    }

    /// Where the file stands now (nil: unknown).
    mutating func reset(to value: UInt32?, pagesWritten: Int64) {
        self.value = value
        otherCommitSeen = false
        ownCommits.removeAll()
        pagesWrittenAtRest = pagesWritten
        pending = nil
    }

    /// A commit of this connection is about to happen; `before` is the counter read while
    /// the transaction holds the write lock (nil: unreadable). `isExact` is false when the
    /// transaction also wrote another database of the connection (temporary, attached).
    mutating func commitWillHappen(before: UInt32?, pagesWritten: Int64, isExact: Bool) {
        if let pending { resolve(pending, pagesWritten: pagesWritten, isExact: false) }
        if before == nil || before != value { otherCommitSeen = true }
        // Pages written before the commit: the transaction spilled its cache, and may have
        // changed the counter already.
        let spilled = pagesWritten != pagesWrittenAtRest
        pending = Pending(before: before, pagesWritten: pagesWritten, isExact: isExact && !spilled)
    }

    /// The commit announced by ``commitWillHappen(before:pagesWritten:isExact:)`` happened.
    mutating func commitDidHappen(pagesWritten: Int64) {
        guard let pending else { return }
        resolve(pending, pagesWritten: pagesWritten, isExact: pending.isExact)
    }

    /// The transaction rolled back (or its commit failed): the counter did not move.
    mutating func transactionDidRollBack(pagesWritten: Int64) {
        pending = nil
        pagesWrittenAtRest = pagesWritten
    }

    private mutating func resolve(_ pending: Pending, pagesWritten: Int64, isExact: Bool) {
        self.pending = nil
        pagesWrittenAtRest = pagesWritten
        guard let before = pending.before else {
            value = nil
            return
        }
        let wrote = pagesWritten != pending.pagesWritten
        if wrote && isExact {
            value = before &+ 1
            ownCommits.append(before)
            // (Bounded: a connection that commits without checks keeps the latest only.)
            if ownCommits.count > 4096 { ownCommits.removeFirst(ownCommits.count - 4096) }
        } else {
            value = before
        }
    }

    /// Settles a commit whose end was not told yet: outside of a transaction, a commit
    /// announced and not rolled back happened.
    mutating func settle(pagesWritten: Int64) {
        if let pending { resolve(pending, pagesWritten: pagesWritten, isExact: pending.isExact) }
    }

    /// A check read `counter` from the file (with no writer holding its lock), outside of
    /// any transaction of this connection: whether another connection committed since the
    /// last check. The counter becomes the value expected from now on.
    mutating func check(counter: UInt32, pagesWritten: Int64) -> Bool {
        settle(pagesWritten: pagesWritten)
        defer {
            value = counter
            otherCommitSeen = false
            ownCommits.removeAll(keepingCapacity: true)
        }
        return otherCommitSeen || value != counter
    }
}
