import Foundation
import XCTest

@testable import Ripple

/// A randomized ground-truth oracle of other processes' commits: two writer processes
/// (Ripple, and the raw C API) and the test process itself write random transactions to
/// four tables; after each one, every value observation must reach the content of its
/// table (never miss a change); with `logsChangedTables` on both sides, after each commit of
/// the Ripple process, no check may see a change to the whole database (precise to the
/// table). The process's own commits are never told as other connections' changes.
final class ExternalChangeOracleTests: XCTestCase {
    typealias ExternalWriter = ExternalChangeTests.ExternalWriter

    static let tables = ["t0", "t1", "t2", "t3"]

    /// What the observations of one table saw.
    final class TableWatch: @unchecked Sendable {  // state behind `lock`
        private let lock = NSLock()
        private var _values: [[Int]] = []
        private var _fetches = 0
        var lastValue: [Int]? { lock.withLock { _values.last } }
        var fetches: Int { lock.withLock { _fetches } }
        func fetched() { lock.withLock { _fetches += 1 } }
        func received(_ value: [Int]) { lock.withLock { _values.append(value) } }
    }

    private func waitUntil(_ message: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while try !condition() {
            if Date() > deadline { throw DatabaseError(message: "timeout: \(message)") }
            usleep(1000)
        }
    }

    private func run(poolMode: Bool, precise: Bool, seed: UInt64, steps: Int) throws {
        let path = try makeTemporaryDatabasePath(self, name: "oracle-\(poolMode)-\(precise)-\(seed).sqlite")
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.logsChangedTables = precise
        let observed: any DatabaseWriter =
            poolMode
            ? try DatabasePool(path: path, configuration: config)
            : try DatabaseQueue(path: path, configuration: config)
        try observed.write { db in
            for table in Self.tables { try db.execute(sql: "CREATE TABLE \(table) (id INTEGER PRIMARY KEY, x INTEGER NOT NULL DEFAULT 0)") }
        }
        // The truth: each table's row count and sum, read by the observed connection.
        func truth(_ table: String) throws -> [Int] {
            try observed.read { db in
                let row = try Row.fetchOne(db, sql: "SELECT count(*), total(x) FROM \(table)")!
                return [row[0] as Int, Int(row[1] as Double)]
            }
        }
        var watches: [String: TableWatch] = [:]
        var cancellables: [AnyDatabaseCancellable] = []
        for table in Self.tables {
            let watch = TableWatch()
            watches[table] = watch
            cancellables.append(
                ValueObservation
                    .tracking { db -> [Int] in
                        watch.fetched()
                        let row = try Row.fetchOne(db, sql: "SELECT count(*), total(x) FROM \(table)")!
                        return [row[0] as Int, Int(row[1] as Double)]
                    }
                    .start(
                        in: observed, scheduling: .async(onQueue: DispatchQueue(label: "oracle.\(table)")), onError: { XCTFail("\($0)") },
                        onChange: watch.received))
        }
        try waitUntil("initial values") { watches.values.allSatisfy { $0.lastValue == [0, 0] } }
        let ripple = try ExternalWriter("ripple", path: path, environment: precise ? ExternalChangeTests.precise : [:])
        let raw = try ExternalWriter("raw", path: path)
        var rng = SplitMix(seed: seed)
        var preciseSteps = 0
        /// Runs checks until one finds nothing new: every commit so far was told.
        func settle() {
            for _ in 0..<1000 {
                if observed.unsafeReentrantWrite({ $0.checkExternalChanges() }) == .nothingNew { return }
                usleep(100)
            }
            XCTFail("checks do not settle")
        }
        func fullDatabaseVerdicts() -> Int {
            observed.unsafeReentrantWrite { $0.state.value.observation.externalChanges!.fullDatabaseVerdicts }
        }
        for step in 0..<steps {
            settle()
            let fullDatabaseVerdictsBefore = fullDatabaseVerdicts()
            let table = Self.tables[Int(rng.next() % 4)]
            let other = Self.tables[Int(rng.next() % 4)]
            let fetchesBefore = watches.mapValues(\.fetches)
            let description: String
            var written: Set<String>? = nil  // nil: no precision expected
            var mayChangeNothing = false
            switch rng.next() % 10 {
            case 0, 1, 2:
                description = "ripple insert \(table)"
                try ripple.send("insert \(table)")
                if precise { written = [table] }
            case 3:
                description = "ripple insert2 \(table) \(other)"
                try ripple.send("insert2 \(table) \(other)")
                if precise { written = [table, other] }
            case 4:
                description = "ripple update \(table)"
                try ripple.send("update \(table)")
                if precise { written = [table] }
                // (An update of no row writes nothing to the file: nothing to tell.)
                mayChangeNothing = true
            case 5:
                description = "ripple autocommit \(table)"
                try ripple.send("autocommit \(table)")
            case 6, 7:
                description = "raw insert \(table)"
                _ = rng.next()
                try raw.send("insert \(table)")
            case 8:
                description = "own insert \(table)"
                try observed.write { try $0.execute(sql: "INSERT INTO \(table) DEFAULT VALUES") }
                written = [table]
            default:
                // The observed process checkpoints and resets the log, then another process
                // commits: a change to the whole database, never a missed one.
                description = "own checkpoint, raw insert \(table)"
                try observed.writeWithoutTransaction { db in
                    if poolMode { _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(RESTART)") }
                }
                try raw.send("insert \(table)")
            }
            // Never miss a change: every observation reaches the truth.
            for table in Self.tables {
                let expected = try truth(table)
                try waitUntil("step \(step) (\(description)), seed \(seed): \(table) reaches \(expected)") {
                    watches[table]!.lastValue == expected
                }
            }
            if let written {
                // Precise: no check saw a change to the whole database. (Observations of
                // other tables may still fetch late for an earlier step: fetches do not
                // tell.)
                settle()
                XCTAssertEqual(fullDatabaseVerdicts(), fullDatabaseVerdictsBefore, "step \(step) (\(description)), seed \(seed): whole database")
                _ = written
                preciseSteps += 1
            } else if !mayChangeNothing {
                // Whole database: wait until every observation fetched, so that the
                // notification does not fall in the next step.
                try waitUntil("step \(step) (\(description)): whole database") {
                    Self.tables.allSatisfy { watches[$0]!.fetches > fetchesBefore[$0]! }
                }
            }
        }
        XCTAssertGreaterThan(preciseSteps, precise ? steps / 3 : 0)
        ripple.quit()
        raw.quit()
        withExtendedLifetime(cancellables) {}
    }

    /// Fixed seeds by default; `RIPPLE_EXTERNAL_ORACLE_SEED=N` runs seeds N, N+1, N+2
    /// instead (a soak loop changes it at each run).
    private var seeds: [UInt64] {
        let base = ProcessInfo.processInfo.environment["RIPPLE_EXTERNAL_ORACLE_SEED"].flatMap(UInt64.init) ?? 1
        return [base, base + 1, base + 2]
    }

    func testPool() throws {
        for seed in seeds { try run(poolMode: true, precise: false, seed: seed, steps: 60) }
    }

    func testRollbackJournalQueue() throws {
        for seed in seeds { try run(poolMode: false, precise: false, seed: seed &+ 1000, steps: 60) }
    }

    func testPoolLoggingChangedTables() throws {
        for seed in seeds { try run(poolMode: true, precise: true, seed: seed &+ 2000, steps: 60) }
    }

    func testRollbackJournalQueueLoggingChangedTables() throws {
        for seed in seeds { try run(poolMode: false, precise: true, seed: seed &+ 3000, steps: 60) }
    }
}

/// A small deterministic random generator (SplitMix64).
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
