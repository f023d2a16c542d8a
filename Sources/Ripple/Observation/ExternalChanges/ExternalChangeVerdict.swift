/// What observers hear of the commits another connection or process made since the last
/// check: nothing, the tables the commit log names, or the whole database.
///
/// The commit log only tells of commits of Ripple connections that recorded them; any other
/// commit (the `sqlite3` shell, another library, a statement that committed outside of a
/// transaction) leaves no entry. So each commit the file shows since the last check must
/// find its own entry, by the key both can tell (``CommitKey``): the commit frames of the
/// write-ahead log in WAL mode, the file change counter in rollback-journal mode. A commit
/// without an entry, and whatever cannot be read, is a change to the whole database: no
/// commit of another process is ever missed.
///
/// Pure: tested without files or processes.
enum ExternalChangeVerdict: Equatable {
    case nothing
    case tables(Set<String>)
    case fullDatabase

    /// What two checks found, told at once.
    func merged(with other: ExternalChangeVerdict) -> ExternalChangeVerdict {
        switch (self, other) {
        case (.nothing, _): return other
        case (_, .nothing): return self
        case (.tables(let a), .tables(let b)): return .tables(a.union(b))
        default: return .fullDatabase
        }
    }

    /// One entry of the commit log.
    struct Entry: Equatable {
        /// The commit the entry describes.
        var key: CommitKey
        /// The identifier of the connection that wrote it.
        var writer: Int64
        /// The lowercased names of the tables the commit may have changed; nil when it
        /// changed the schema (or anything the log cannot name).
        var tables: Set<String>?
    }

    /// - parameter commits: the commits the file shows since the last check, except
    ///   those this connection made (nil: the file cannot tell).
    /// - parameter entries: the log's entries that may describe them.
    /// - parameter ownWriter: this connection's identifier: its own entries name no
    ///   change to tell (its commits were told as they happened).
    init(commits: [CommitKey]?, entries: [Entry], ownWriter: Int64) {
        guard let commits else {
            self = .fullDatabase
            return
        }
        var entriesByKey: [CommitKey: Entry] = [:]
        for entry in entries { entriesByKey[entry.key] = entry }
        var tables: Set<String> = []
        for commit in commits {
            guard let entry = entriesByKey[commit], let entryTables = entry.tables else {
                self = .fullDatabase
                return
            }
            if entry.writer != ownWriter { tables.formUnion(entryTables) }
        }
        self = tables.isEmpty ? .nothing : .tables(tables)
    }
}

/// What identifies a commit both in the file and in the commit log: the commit that comes
/// just before it.
///
/// - WAL mode: the log's generation (its salt-1, which each checkpoint reset changes) and
///   the number of the frame that ends the previous commit (0 at the start of the
///   generation). The writer reads it from the log while it holds the write lock, just
///   before it commits; an observer reads it from the frames it scans.
/// - Rollback-journal mode: the file change counter before the commit (each commit adds
///   one), with no generation.
struct CommitKey: Hashable {
    /// The log's salt-1 in WAL mode; nil in rollback-journal mode.
    var generation: UInt32?
    var previous: Int64

    /// The keys of the commits that end at `endFrames`, after the commit that ends at
    /// `start`, in generation `generation`.
    static func walCommits(generation: UInt32, start: Int, endFrames: [Int]) -> [CommitKey] {
        var previous = start
        return endFrames.map { frame in
            defer { previous = frame }
            return CommitKey(generation: generation, previous: Int64(previous))
        }
    }

    /// The keys of the commits that moved the change counter from `start` to `end`.
    static func rollbackCommits(from start: UInt32, to end: UInt32) -> [CommitKey] {
        let count = Int(end &- start)
        return (0..<count).map { CommitKey(generation: nil, previous: Int64(start &+ UInt32(truncatingIfNeeded: $0))) }
    }
}
