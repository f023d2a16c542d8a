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
        case .w2b, .w2c, .w2a2: return { directory, sizes in try Self.fetchItems(directory, sizes) }
        case .w5b, .w5c: return { directory, sizes in try Self.singleInsertTransactions(directory, sizes) }
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

/// SQLite's process-wide settings, the same for every subject of a benchmark process.
public enum BenchSQLite {
    /// Turns SQLite's memory statistics on or off for the process (before any connection
    /// opens; see `main.swift`).
    public static func setMemoryStatistics(_ enabled: Bool) {
        let code = bench_sqlite_config_memstatus(enabled ? 1 : 0)
        precondition(code == SQLITE_OK, "SQLite was initialized before the benchmark could configure it")
    }
}
