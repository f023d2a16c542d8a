/// What observers hear of the commits another connection or process made since the last
/// check: nothing, the tables the commit log names, or the whole database.
///
/// The commit log only tells of commits of Ripple connections that recorded them; any other
/// commit (the `sqlite3` shell, another library, a statement that committed outside of a
/// transaction) leaves no entry. So the log is believed only when it accounts for every
/// commit the file shows since the last check: in WAL mode the commit frames of the log
/// that this connection did not write, in rollback-journal mode the file change counter.
/// Anything else, and whatever cannot be read, is a change to the whole database: no
/// commit of another process is ever missed.
///
/// Pure: tested without files or processes.
enum ExternalChangeVerdict: Equatable {
    case nothing
    case tables(Set<String>)
    case fullDatabase

    /// One entry of the commit log.
    struct Entry: Equatable {
        var sequence: Int64
        /// The identifier of the connection that wrote it.
        var writer: Int64
        /// The lowercased names of the tables the commit may have changed; nil when it
        /// changed the schema (or anything the log cannot name).
        var tables: Set<String>?
    }

    /// - parameter commits: the commits the file shows since the last check, except
    ///   those this connection is known to have made (nil: the file cannot tell).
    /// - parameter entries: the log's entries since the last check that stand for those
    ///   commits (nil: the log cannot tell: entries are missing).
    /// - parameter ownWriter: this connection's identifier: its own entries name no
    ///   change to tell (its commits were told as they happened).
    init(commits: Int?, entries: [Entry]?, ownWriter: Int64) {
        guard let commits, let entries, commits == entries.count else {
            self = .fullDatabase
            return
        }
        var tables: Set<String> = []
        for entry in entries where entry.writer != ownWriter {
            guard let entryTables = entry.tables else {
                self = .fullDatabase
                return
            }
            tables.formUnion(entryTables)
        }
        self = tables.isEmpty ? .nothing : .tables(tables)
    }

    /// The entries after `sequence`, when they follow it without a gap (the log is pruned
    /// from its oldest end): nil otherwise.
    static func entries(_ entries: [Entry], after sequence: Int64) -> [Entry]? {
        var expected = sequence + 1
        for entry in entries {
            guard entry.sequence == expected else { return nil }
            expected += 1
        }
        return entries
    }
}
