// A second process for the tests of other processes' commits (ExternalChangeTests): it
// opens the database file given as argument, then follows commands read from its standard
// input, one per line, and answers each with a line "ok" once done (or "error ...").
//
//     ripple-external-writer ripple|raw PATH
//
// Commands:
//   insert TABLE     one transaction that inserts a row into TABLE
//   insert2 A B      one transaction that inserts a row into A and one into B
//   update TABLE     one transaction that updates every row of TABLE (column x += 1)
//   burst TABLE N    N transactions, each inserting a row into TABLE, one after the other
//   paced TABLE N U  N transactions, each inserting a row into TABLE, U microseconds apart;
//                    answers "error ..." at the first that fails
//   autocommit TABLE one INSERT outside of any transaction
//   hang TABLE       begins a transaction, inserts a row, answers, and waits to be killed
//   observe          (ripple only) registers a transaction observer
//   memory           answers "value N", N = sqlite3_memory_used(), before its "ok" (SQLite's
//                    memory statistics; RIPPLE_KEEP_MEMORY_STATISTICS=1 keeps them in a
//                    ripple writer)
//   quit
//
// `ripple` writes with Ripple (a DatabaseQueue; RIPPLE_LOGS_CHANGED_TABLES=1 logs the tables
// of its transactions, RIPPLE_BUSY_MODE=immediate fails at once on a lock, as the default
// configuration does), `raw` with the SQLite C API (no log).
import CSQLite
import Foundation
import Ripple

/// Writes a line to the standard output, unbuffered: the test waits for it.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count == 3, ["ripple", "raw"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: ripple-external-writer ripple|raw PATH\n".utf8))
    exit(2)
}
let path = arguments[2]

protocol Writer {
    func run(_ sql: String, inTransaction: Bool) throws
    func hang(_ sql: String) throws
    func observe() throws
}

final class Observer: TransactionObserver, Sendable {
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}

final class RippleWriter: Writer {
    let dbQueue: DatabaseQueue
    var observer: Observer?
    init() throws {
        var config = Configuration()
        config.busyMode = .timeout(10)
        // RIPPLE_LOGS_CHANGED_TABLES=1: log the tables of every transaction (precise mode).
        if ProcessInfo.processInfo.environment["RIPPLE_LOGS_CHANGED_TABLES"] == "1" { config.logsChangedTables = true }
        // RIPPLE_BUSY_MODE=immediate: fail at once on a lock, as a default configuration does.
        if ProcessInfo.processInfo.environment["RIPPLE_BUSY_MODE"] == "immediate" { config.busyMode = .immediateError }
        if ProcessInfo.processInfo.environment["RIPPLE_KEEP_MEMORY_STATISTICS"] == "1" { Database.keepSQLiteMemoryStatistics() }
        dbQueue = try DatabaseQueue(path: path, configuration: config)
    }
    func run(_ sql: String, inTransaction: Bool) throws {
        if inTransaction {
            try dbQueue.write { try $0.execute(sql: sql) }
        } else {
            try dbQueue.writeWithoutTransaction { try $0.execute(sql: sql) }
        }
    }
    func hang(_ sql: String) throws {
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: sql)
            say("ok")
            while true { sleep(60) }
        }
    }
    func observe() throws {
        let observer = Observer()
        self.observer = observer
        dbQueue.add(transactionObserver: observer)
    }
}

final class RawWriter: Writer {
    var connection: OpaquePointer?
    init() throws {
        guard sqlite3_open(path, &connection) == SQLITE_OK else { throw DatabaseError(message: "could not open \(path)") }
        sqlite3_busy_timeout(connection, 10_000)
    }
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(connection, sql, nil, nil, &message) == SQLITE_OK else {
            throw DatabaseError(message: message.map { String(cString: $0) } ?? "error")
        }
    }
    func run(_ sql: String, inTransaction: Bool) throws {
        try execute(inTransaction ? "BEGIN IMMEDIATE; \(sql); COMMIT" : sql)
    }
    func hang(_ sql: String) throws {
        try execute("BEGIN IMMEDIATE; \(sql)")
        say("ok")
        while true { sleep(60) }
    }
    func observe() throws {}
}

do {
    let writer: any Writer = arguments[1] == "ripple" ? try RippleWriter() : try RawWriter()
    say("ready")
    while let line = readLine() {
        let words = line.split(separator: " ").map(String.init)
        do {
            switch words.first {
            case "insert"?: try writer.run("INSERT INTO \(words[1]) DEFAULT VALUES", inTransaction: true)
            case "insert2"?: try writer.run("INSERT INTO \(words[1]) DEFAULT VALUES; INSERT INTO \(words[2]) DEFAULT VALUES", inTransaction: true)
            case "burst"?:
                for _ in 0..<(Int(words[2]) ?? 1) { try writer.run("INSERT INTO \(words[1]) DEFAULT VALUES", inTransaction: true) }
            case "paced"?:
                for _ in 0..<(Int(words[2]) ?? 1) {
                    try writer.run("INSERT INTO \(words[1]) DEFAULT VALUES", inTransaction: true)
                    usleep(UInt32(words[3]) ?? 1000)
                }
            case "update"?: try writer.run("UPDATE \(words[1]) SET x = x + 1", inTransaction: true)
            case "autocommit"?: try writer.run("INSERT INTO \(words[1]) DEFAULT VALUES", inTransaction: false)
            case "hang"?: try writer.hang("INSERT INTO \(words[1]) DEFAULT VALUES")
            case "observe"?: try writer.observe()
            case "memory"?: say("value \(sqlite3_memory_used())")
            case "subscript-null"?:
                // A row subscript outside of a fetch stops the process (RowSubscriptFailureTests).
                let row: Row = ["name": nil]
                let name: String = row["name"]
                say("value \(name)")
            case "quit"?: exit(0)
            default:
                say("error unknown command \(line)")
                continue
            }
            say("ok")
        } catch {
            say("error \(error)")
        }
    }
} catch {
    say("error \(error)")
    exit(1)
}
