/// The last commit visible in the file of a database in WAL mode, whoever made it (this
/// connection, another one, another process), as the wal-index tells it: the log's
/// generation (its salts) and the frame that ends the commit.
///
/// Marks only grow: each commit appends frames, and a log that starts over gets new salts.
/// So a reader that takes a mark just before its snapshot begins sees that commit and maybe
/// later ones; a writer that finds the same mark later knows that no commit came between,
/// and that the snapshot is the latest state. Different marks prove nothing either way:
/// some commit may have come.
///
/// A pool's value observation uses it to deliver its first value from a reader without
/// waiting for the writer, then, once it is registered on the writer, to fetch again only
/// when a commit may have slipped between.
struct LastCommitMark: Equatable, Sendable {
    let header: WALIndexHeader
}

extension Database {
    /// The mark of the last commit visible in the file; nil when it cannot be read (not in
    /// WAL mode, the wal-index not mapped, or a writer changing it at this very moment).
    func lastCommitMark() -> LastCommitMark? {
        readWALIndexHeader().map(LastCommitMark.init)
    }
}

extension Database {
    /// Whether no commit came since `mark`: the file's mark is the same. False when either
    /// mark is unknown.
    func noCommitChangedData(since mark: LastCommitMark?) -> Bool {
        guard let mark, let current = lastCommitMark() else { return false }
        return mark == current
    }
}
