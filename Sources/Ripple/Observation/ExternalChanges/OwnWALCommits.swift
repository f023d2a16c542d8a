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
/// Pure: tested with plain values.
struct OwnWALCommits: Equatable {
    struct Commit: Equatable {
        /// The wal-index before the commit; nil when it could not be read.
        var start: WALIndexHeader?
        /// The number of frames of the log after the commit.
        var endFrame: Int
    }

    private(set) var commits: [Commit] = []
    /// The wal-index read in the commit hook of the commit under way.
    private var pendingStart: WALIndexHeader?

    var endFrames: [Int] { commits.map(\.endFrame) }
    var count: Int { commits.count }

    /// A commit of this connection is about to happen; `start` is the wal-index now.
    mutating func commitWillHappen(start: WALIndexHeader?) {
        pendingStart = start
    }

    /// A commit of this connection ended at `endFrame` (SQLite's WAL hook).
    mutating func commitDidWrite(endFrame: Int) {
        commits.append(Commit(start: pendingStart, endFrame: endFrame))
        pendingStart = nil
    }

    mutating func removeAll() {
        commits.removeAll(keepingCapacity: true)
        pendingStart = nil
    }

    /// The frame that ends the last own commit, when the own commits lead, one after the
    /// other, from the position (`salt1`, `salt2`, `frame`) to `index`; nil otherwise.
    func endFrameExplainingAll(salt1: UInt32, salt2: UInt32, frame: Int, index: WALIndexHeader) -> Int? {
        guard !commits.isEmpty, index.salt1 == salt1, index.salt2 == salt2 else { return nil }
        var current = frame
        for commit in commits {
            guard let start = commit.start, start.salt1 == salt1, start.salt2 == salt2,
                start.maxFrame == current, commit.endFrame > current
            else { return nil }
            current = commit.endFrame
        }
        return current == index.maxFrame ? current : nil
    }
}
