import BenchCore
import CSQLiteBench
import Foundation

/// The physical limit: the same work with the SQLite C API and nothing else.
public struct RawSubject: BenchSubject {
    public init() {}
    public var name: String { "raw" }

    public func run(_ id: WorkloadID) -> WorkloadRun? {
        switch id {
        // Observers have no raw equivalent: W1b-W1d and W5b run the raw code of W1a and
        // W5c, so that their baseline is measured in the same rounds, side by side.
        case .w1a, .w1b, .w1c, .w1d: return { directory, sizes in try Self.insertItems(directory, sizes) }
        case .w2a: return { directory, sizes in try Self.fetchRows(directory, sizes) }
        // W2a2 is rows in an array: raw's equivalent is an array of structs of 6 fields.
        case .w2b, .w2b1, .w2c, .w2a2: return { directory, sizes in try Self.fetchItems(directory, sizes) }
        case .w5b, .w5c: return { directory, sizes in try Self.singleInsertTransactions(directory, sizes) }
        case .w8: return { directory, sizes in try Self.importWithReader(directory, sizes) }
        case .w9a: return { directory, sizes in try Self.authorsWithBooks(directory, sizes) }
        case .w9b: return { directory, sizes in try Self.booksWithAuthor(directory, sizes) }
        default: return nil
        }
    }

    struct RawError: Error, CustomStringConvertible {
        var description: String
    }

    final class Connection {
        let handle: OpaquePointer
        init(path: String) throws {
            var handle: OpaquePointer?
            guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
                  let handle else { throw RawError(description: "open failed") }
            self.handle = handle
            // (W8 opens two connections to one file: SQLite may answer SQLITE_BUSY while the
            // other one opens, or resets the log. Ripple's and GRDB's pools wait as well.)
            sqlite3_busy_timeout(handle, 5000)
            try execute("PRAGMA journal_mode = WAL")
            try execute("PRAGMA synchronous = NORMAL")
            try execute("PRAGMA foreign_keys = ON")
        }
        deinit { sqlite3_close_v2(handle) }

        func execute(_ sql: String) throws {
            guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
                throw RawError(description: String(cString: sqlite3_errmsg(handle)))
            }
        }

        func prepare(_ sql: String) throws -> OpaquePointer {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
                  let statement else { throw RawError(description: String(cString: sqlite3_errmsg(handle))) }
            return statement
        }

        func run(_ statement: OpaquePointer) throws {
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw RawError(description: String(cString: sqlite3_errmsg(handle)))
            }
            sqlite3_reset(statement)
        }
    }

    @inline(__always)
    static func bindText(_ statement: OpaquePointer, _ index: CInt, _ string: String) {
        var string = string
        string.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                _ = sqlite3_bind_text(statement, index, $0.baseAddress, CInt($0.count), bench_sqlite_transient())
            }
        }
    }

    @inline(__always)
    static func bindItem(_ statement: OpaquePointer, _ data: ItemData, _ i: Int) {
        sqlite3_bind_int64(statement, 1, data.a[i])
        sqlite3_bind_double(statement, 2, data.b[i])
        bindText(statement, 3, data.c[i])
        sqlite3_bind_int64(statement, 4, data.d[i])
        bindText(statement, 5, data.e[i])
    }

    @inline(__always)
    static func columnText(_ statement: OpaquePointer, _ index: CInt) -> String {
        let bytes = UnsafeBufferPointer(start: sqlite3_column_text(statement, index), count: Int(sqlite3_column_bytes(statement, index)))
        return String(decoding: bytes, as: UTF8.self)
    }

    static func insertItems(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let data = ItemData(count: sizes.w1Inserts)
        let connection = try Connection(path: directory.appendingPathComponent("db.sqlite").path)
        try connection.execute(itemSchema)
        let seconds = try measure { try insert(data, into: connection) }
        return Sample(seconds: seconds)
    }

    /// Inserts all items in one transaction with one prepared statement.
    static func insert(_ data: ItemData, into connection: Connection) throws {
        let insert = try connection.prepare(insertItemSQL)
        defer { sqlite3_finalize(insert) }
        try connection.execute("BEGIN")
        for i in 0..<data.count {
            bindItem(insert, data, i)
            try connection.run(insert)
        }
        try connection.execute("COMMIT")
    }

    /// Creates the item table with `count` rows, untimed.
    static func populate(_ connection: Connection, count: Int) throws {
        try connection.execute(itemSchema)
        try insert(ItemData(count: count), into: connection)
    }

    static func fetchRows(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let connection = try Connection(path: directory.appendingPathComponent("db.sqlite").path)
        try populate(connection, count: sizes.w2Rows)
        var total = 0
        let seconds = try measure {
            let select = try connection.prepare("SELECT * FROM item")
            defer { sqlite3_finalize(select) }
            while sqlite3_step(select) == SQLITE_ROW {
                let id = sqlite3_column_int64(select, 0)
                let a = sqlite3_column_int64(select, 1)
                let b = sqlite3_column_double(select, 2)
                let c = columnText(select, 3)
                let d = sqlite3_column_int64(select, 4)
                let e = columnText(select, 5)
                total &+= Int(id &+ a &+ d) &+ Int(b) &+ c.utf8.count &+ e.utf8.count
            }
        }
        guard total != 0 else { throw RawError(description: "no rows") }
        return Sample(seconds: seconds)
    }

    static func fetchItems(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let connection = try Connection(path: directory.appendingPathComponent("db.sqlite").path)
        try populate(connection, count: sizes.w2Rows)
        var items: [Item] = []
        let seconds = try measure {
            let select = try connection.prepare("SELECT * FROM item")
            defer { sqlite3_finalize(select) }
            while sqlite3_step(select) == SQLITE_ROW {
                items.append(Item(
                    id: sqlite3_column_int64(select, 0),
                    a: sqlite3_column_int64(select, 1),
                    b: sqlite3_column_double(select, 2),
                    c: columnText(select, 3),
                    d: sqlite3_column_int64(select, 4),
                    e: columnText(select, 5)))
            }
        }
        guard items.count == sizes.w2Rows else { throw RawError(description: "wrong count") }
        return Sample(seconds: seconds)
    }

    static func singleInsertTransactions(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let data = ItemData(count: sizes.w5Transactions)
        let connection = try Connection(path: directory.appendingPathComponent("db.sqlite").path)
        try connection.execute(itemSchema)
        let seconds = try measure {
            let begin = try connection.prepare("BEGIN DEFERRED TRANSACTION")
            let commit = try connection.prepare("COMMIT TRANSACTION")
            let insert = try connection.prepare(insertItemSQL)
            defer { sqlite3_finalize(begin); sqlite3_finalize(commit); sqlite3_finalize(insert) }
            for i in 0..<data.count {
                try connection.run(begin)
                bindItem(insert, data, i)
                try connection.run(insert)
                try connection.run(commit)
            }
        }
        return Sample(seconds: seconds)
    }
}

// MARK: - W8

extension RawSubject {
    /// What W8's reader knows, behind its condition.
    private final class ReaderState: @unchecked Sendable {  // every field is read and written with `condition` locked
        let condition = NSCondition()
        var committed = 0
        var seen = 0
        var passes = 0
        var stops = false
        var done = false
        var failure: String?
    }

    /// W8's physical limit: the same import as Ripple's and GRDB's (`w8Transactions`
    /// transactions of the same rows, a prepared statement), while one reader connection,
    /// on one thread of its own, runs the queries of the 20 observations after the commits:
    /// all of them in one read transaction, on the latest snapshot, once for all the
    /// commits that came while it worked. That is the least any observation can do (one
    /// thread of fetches, as Ripple's on two cores; every commit coalesced). The same
    /// import alone runs in each sample too, first or second in turn, in a new file:
    /// `base_s`, and `ratio` is the import with the reader ÷ the import alone.
    static func importWithReader(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let data = ItemData(count: sizes.w8Rows)
        let rowsPerTransaction = sizes.w8Rows / sizes.w8Transactions
        func makeDatabase(_ name: String) throws -> String {
            let path = try databasePath(in: directory, folder: name)
            try Connection(path: path).execute(itemSchema)
            return path
        }
        func runImport(_ path: String, afterCommit: () -> Void) throws -> Double {
            let connection = try Connection(path: path)
            let begin = try connection.prepare("BEGIN")
            let commit = try connection.prepare("COMMIT")
            let insert = try connection.prepare(insertItemSQL)
            defer { sqlite3_finalize(begin); sqlite3_finalize(commit); sqlite3_finalize(insert) }
            return try measure {
                for transaction in 0..<sizes.w8Transactions {
                    try connection.run(begin)
                    for i in transaction * rowsPerTransaction..<(transaction + 1) * rowsPerTransaction {
                        bindItem(insert, data, i)
                        try connection.run(insert)
                    }
                    try connection.run(commit)
                    afterCommit()
                }
            }
        }
        let readerFirst = w8Order.value % 2 == 1
        w8Order.increment()
        var baseSeconds = 0.0
        if !readerFirst { baseSeconds = try runImport(makeDatabase("base"), afterCommit: {}) }

        let path = try makeDatabase("observed")
        let state = ReaderState()
        let thread = Thread {
            do {
                let reader = try Connection(path: path)
                let begin = try reader.prepare("BEGIN")
                let commit = try reader.prepare("COMMIT")
                let count = try reader.prepare("SELECT COUNT(*) FROM item")
                let lastItems = try reader.prepare("SELECT * FROM item ORDER BY id DESC LIMIT 10")
                defer { [begin, commit, count, lastItems].forEach { sqlite3_finalize($0) } }
                var checksum = 0
                while true {
                    state.condition.lock()
                    while state.seen == state.committed && !state.stops { state.condition.wait() }
                    if state.seen == state.committed && state.stops {
                        state.condition.unlock()
                        break
                    }
                    state.seen = state.committed
                    state.condition.unlock()
                    try reader.run(begin)
                    for _ in 0..<sizes.w8Observations / 2 {
                        guard sqlite3_step(count) == SQLITE_ROW else { throw RawError(description: "count") }
                        checksum &+= Int(sqlite3_column_int64(count, 0))
                        sqlite3_reset(count)
                        while sqlite3_step(lastItems) == SQLITE_ROW {
                            checksum &+= Int(sqlite3_column_int64(lastItems, 0)) &+ columnText(lastItems, 3).utf8.count
                        }
                        sqlite3_reset(lastItems)
                    }
                    try reader.run(commit)
                    state.condition.lock()
                    state.passes += 1
                    state.condition.unlock()
                }
                precondition(checksum != 0)
            } catch {
                state.condition.lock()
                state.failure = "\(error)"
                state.condition.unlock()
            }
            state.condition.lock()
            state.done = true
            state.condition.broadcast()
            state.condition.unlock()
        }
        thread.start()
        let seconds = try runImport(path) {
            state.condition.lock()
            state.committed += 1
            state.condition.signal()
            state.condition.unlock()
        }
        // Untimed: the reader reads the last commit, then stops.
        state.condition.lock()
        state.stops = true
        state.condition.broadcast()
        while !state.done { state.condition.wait() }
        let passes = state.passes
        let failure = state.failure
        state.condition.unlock()
        if let failure { throw RawError(description: "W8 reader: \(failure)") }

        if readerFirst { baseSeconds = try runImport(makeDatabase("base"), afterCommit: {}) }
        return Sample(seconds: seconds, counters: ["base_s": baseSeconds, "ratio": seconds / baseSeconds, "values": Double(passes)])
    }

    /// Alternates, from one W8 sample to the next, which import goes first.
    static let w8Order = Tally()
}

/// SQLite's process-wide settings, the same for every subject of a benchmark process.
public enum BenchSQLite {
    /// Turns SQLite's memory statistics on or off for the process (before any connection
    /// opens; see `main.swift`).
    public static func setMemoryStatistics(_ enabled: Bool) {
        let code = bench_sqlite_config_memstatus(enabled ? 1 : 0)
        precondition(code == SQLITE_OK, "SQLite was initialized before the benchmark could configure it")
    }
}
