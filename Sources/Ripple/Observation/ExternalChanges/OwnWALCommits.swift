/// WAL mode: this connection's own commits since the position of the last check, each as
/// the wal-index before it (read in SQLite's commit hook, while the transaction holds the
/// write lock, so that no other commit comes between) and the frame that ends it (SQLite's
/// WAL hook).
///
/// When they follow one another from the position up to what the wal-index shows now,
/// nobody else committed in between: a check moves the position past them without
/// reading, let alone checksumming, the frames they wrote. Anything else (a gap, another
/// generation of the log, a start not known) leaves the check to scan the log.
///
/// A commit may start a new generation of the log: SQLite writes its frames from the start
/// again when a checkpoint copied the whole log into the database. The commit hook cannot
/// tell whether it will (that depends on other connections' read locks), so the commit is
/// known to have done it only afterwards, from two counts: the frames the log holds after
/// it, and the pages it wrote (SQLite's count, read before and after). Appended to a log
/// of `M` frames, it ends at frame `M` + its pages or later; written from the start, at
/// frame its pages exactly (or later, with padding frames). So when the log held frames
/// and the two counts are equal, the commit started the new generation, whose salt-1 is
/// the previous one plus one (SQLite's rule; each later reset adds one again).
///
/// Pure: tested with plain values.
struct OwnWALCommits: Equatable {
    struct Commit: Equatable {
        /// The wal-index before the commit; nil when it could not be read.
        var start: WALIndexHeader?
        /// The number of frames of the log after the commit.
        var endFrame: Int
        /// Whether the commit wrote the first frames of a new generation of the log.
        var startedNewLog = false
    }

    private(set) var commits: [Commit] = []
    /// The wal-index read in the commit hook of the commit under way.
    private var pendingStart: WALIndexHeader?
    /// The pages the connection had written when the commit under way began; read only
    /// when the commit may start a new log (see ``mayStartNewLog(_:)``).
    private var pendingPagesWritten: Int64?

    var endFrames: [Int] { commits.map(\.endFrame) }
    var count: Int { commits.count }

    /// Whether a commit that begins with the wal-index `start` and checkpoint progress
    /// `backfilled` (frames copied into the database) may write a new log: only when the
    /// whole log, not empty, was copied. (The pages written are read only then.)
    static func mayStartNewLog(_ start: WALIndexHeader, backfilled: Int?) -> Bool {
        start.maxFrame > 0 && backfilled == start.maxFrame
    }

    /// A commit of this connection is about to happen; `start` is the wal-index now, and
    /// `pagesWritten` SQLite's count of the pages the connection wrote, when the commit may
    /// start a new log and writes the main database only (nil otherwise).
    mutating func commitWillHappen(start: WALIndexHeader?, pagesWritten: Int64? = nil) {
        pendingStart = start
        pendingPagesWritten = pagesWritten
    }

    /// Whether the commit under way needs the count of pages written after it.
    var needsPagesWrittenAfterCommit: Bool { pendingPagesWritten != nil }

    /// A commit of this connection ended at `endFrame` (SQLite's WAL hook); `pagesWritten`
    /// is SQLite's count of pages written now, when ``needsPagesWrittenAfterCommit``.
    mutating func commitDidWrite(endFrame: Int, pagesWritten: Int64? = nil) {
        var startedNewLog = false
        if let before = pendingPagesWritten, let after = pagesWritten, let start = pendingStart, start.maxFrame > 0 {
            startedNewLog = after - before == Int64(endFrame)
        }
        commits.append(Commit(start: pendingStart, endFrame: endFrame, startedNewLog: startedNewLog))
        pendingStart = nil
        pendingPagesWritten = nil
    }

    mutating func removeAll() {
        commits.removeAll(keepingCapacity: true)
        pendingStart = nil
        pendingPagesWritten = nil
    }

    /// The frame that ends the last own commit, when the own commits lead, one after the
    /// other, from the position (`salt1`, `salt2`, `frame`) to `index`; nil otherwise.
    /// (The log's generation is then the index's.)
    func endFrameExplainingAll(salt1: UInt32, salt2: UInt32, frame: Int, index: WALIndexHeader) -> Int? {
        guard !commits.isEmpty else { return nil }
        var salt1 = salt1
        // Nil after a new log this connection started: its salt-2 is random, and the
        // generation is known by its salt-1.
        var salt2: UInt32? = salt2
        var current = frame
        for commit in commits {
            guard let start = commit.start, start.salt1 == salt1, salt2 == nil || start.salt2 == salt2, start.maxFrame == current
            else { return nil }
            salt2 = start.salt2
            if commit.startedNewLog {
                salt1 &+= 1
                salt2 = nil
                current = 0
            }
            guard commit.endFrame > current else { return nil }
            current = commit.endFrame
        }
        guard index.salt1 == salt1, salt2 == nil || index.salt2 == salt2 else { return nil }
        return current == index.maxFrame ? current : nil
    }
}
