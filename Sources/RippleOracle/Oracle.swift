import CSQLite
import Dispatch
import Foundation
import Ripple

/// The kind of writer the oracle runs on.
public enum OracleWriterKind: String, CaseIterable, Sendable {
    case queue
    case pool
}

/// How many observations the oracle starts.
public enum OracleObservations: String, CaseIterable, Sendable {
    /// A few region and value observations of each table and view (a few dozen in all).
    case few
    /// Hundreds more: region observations of each column, of each of thirty rows, and of
    /// one column of each row, and value observations of ten rows, for every table. It
    /// checks Ripple's index of observations by table and rowid (issue 16): nothing missed,
    /// and no observation woken for a change outside its region.
    case many
}

/// What one oracle run did and found.
public struct OracleReport: Sendable, CustomStringConvertible {
    public var seed: UInt64
    public var writerKind: OracleWriterKind
    /// The SQLite transactions checked (each autocommit statement is one).
    public var transactions = 0
    /// The statements run.
    public var statements = 0
    /// The individual checks made.
    public var checks = 0
    /// What went wrong; empty when the run found nothing.
    public var failures: [String] = []

    public var description: String {
        let status = failures.isEmpty ? "ok" : "\(failures.count) failure(s)"
        return "seed \(seed) \(writerKind): \(transactions) transactions, \(statements) statements, \(checks) checks: \(status)"
    }
}

/// A randomized ground-truth oracle of Ripple's observation promise: every transaction that
/// changes what an observer watches is notified, and nothing else is.
///
/// From a seed, it makes a random schema (rowid and `WITHOUT ROWID` tables, tables spelled
/// in random case, UNIQUE constraints with and without `ON CONFLICT REPLACE`, foreign keys
/// with cascades, views, temporary tables), observes it with transaction observers, region
/// observations and value observations, and runs random transactions through every
/// statement path, with savepoints, failures, rollbacks, and schema changes by this
/// connection and another one. After each statement it reads every table with the raw C
/// API: that content is the truth observers are compared with.
public enum Oracle {
    /// Runs the oracle; the same seed runs the same work.
    public static func run(
        seed: UInt64, writerKind: OracleWriterKind, observations: OracleObservations = .few,
        transactions: Int, directory: URL
    ) -> OracleReport {
        var report = OracleReport(seed: seed, writerKind: writerKind)
        do {
            let run = try OracleRun(seed: seed, writerKind: writerKind, observations: observations, directory: directory)
            defer { run.close() }
            try run.run(units: transactions)
            report = run.report
        } catch {
            report.failures.append("seed \(seed) \(writerKind): \(error)")
        }
        return report
    }
}

/// One run of the oracle.
final class OracleRun {
    var rng: SplitMix
    let seed: UInt64
    let writerKind: OracleWriterKind
    let observations: OracleObservations
    let path: String
    let writer: any DatabaseWriter
    var report: OracleReport
    let state = OracleState()
    /// Delivers the values of value observations.
    let deliveryQueue = DispatchQueue(label: "RippleOracle.values")

    var tables: [OracleTable] = []
    /// The names of the triggers.
    var triggers: [String] = []
    /// The table each trigger writes, by lowercased trigger name.
    var triggerTargets: [String: String] = [:]
    /// The triggers whose action updates their target (lowercased names).
    var updatingTriggers: Set<String> = []
    /// The triggers whose action inserts into their target (lowercased names).
    var insertingTriggers: Set<String> = []
    var views: [OracleView] = []
    /// The ground truth of each association request observed (see `OracleAssociations`),
    /// by its watch's query label: whether a transaction changed it says whether its
    /// observations must be notified.
    var associationTruths: [String: @Sendable (Database) throws -> [String]] = [:]
    var indexes: [String] = []
    var nameCounter = 0

    var allObserver: RecordingObserver!
    var tableObserver: RecordingObserver!
    var deleteObserver: RecordingObserver!
    /// Whether the recording observers implement `databaseWillChange(with:)`.
    var observersWantPreUpdateEvents = true
    /// Whether the all-events observer is the only transaction observer registered.
    var soleTransactionObserver: Bool { seed % 3 == 0 }
    /// Hears the first change of each transaction, then stops until the transaction ends:
    /// the observers before it must go on hearing everything.
    var stoppingObserver: RecordingObserver!
    var regionWatches: [RegionWatch] = []
    var valueWatches: [ValueWatch] = []
    /// Statements prepared once, and run again and again across schema changes.
    var keptStatements: [String: Statement] = [:]
    /// A second connection to the same file, through the raw C API: it changes the schema
    /// behind Ripple's back.
    var otherConnection: OpaquePointer?

    /// The unit of work being run, for failure reports.
    var unitLog: [String] = []
    var unitIndex = 0

    init(seed: UInt64, writerKind: OracleWriterKind, observations: OracleObservations, directory: URL) throws {
        self.seed = seed
        self.writerKind = writerKind
        self.observations = observations
        rng = SplitMix(seed: seed)
        report = OracleReport(seed: seed, writerKind: writerKind)
        path = directory.appendingPathComponent("oracle-\(seed)-\(writerKind).sqlite").path
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // The oracle checks what each of the writer's own transactions tells observers,
        // right after it. The commits of the second connection (below) would reach them too,
        // as changes to the whole database, but later, when the file watch wakes a check:
        // the oracle of other processes' commits is ExternalChangeTests and
        // ExternalChangeOracleTests.
        configuration.observesExternalChanges = false
        // Every transaction of the writer records its tables in the commit log, inside the
        // transaction, just before it commits: observers must hear none of it.
        configuration.logsChangedTables = true
        switch writerKind {
        case .queue: writer = try DatabaseQueue(path: path, configuration: configuration)
        case .pool: writer = try DatabasePool(path: path, configuration: configuration)
        }
        var connection: OpaquePointer?
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let connection else {
            throw OracleError("could not open the second connection")
        }
        sqlite3_busy_timeout(connection, 10_000)
        otherConnection = connection
    }

    func close() {
        for watch in regionWatches { watch.cancellable?.cancel() }
        for watch in valueWatches { watch.cancellable?.cancel() }
        keptStatements.removeAll()
        if let otherConnection { sqlite3_close_v2(otherConnection) }
        otherConnection = nil
        try? writer.close()
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    func makeName(_ prefix: String) -> String {
        nameCounter += 1
        return rng.randomCase("\(prefix)\(nameCounter)")
    }

    // MARK: - Failures

    func fail(_ message: String) {
        guard report.failures.count < 20 else { return }
        let log = unitLog.suffix(30).map { "    " + $0 }.joined(separator: "\n")
        // The schema of the main database, read by the other connection, for the first failure.
        var schema = ""
        if report.failures.isEmpty, let otherConnection,
            let objects = try? Snapshot.query(otherConnection, "SELECT sql FROM sqlite_master WHERE sql NOT NULL").rows
        {
            schema = "\n  the schema:\n" + objects.compactMap { $0.first ?? nil }.map { "    " + $0 }.joined(separator: "\n")
        }
        report.failures.append(
            """
            seed \(seed) \(writerKind), transaction \(unitIndex): \(message)
              replay: ripple-oracle --seed \(seed) --writer \(writerKind) --transactions \(unitIndex + 1) --observations \(observations)
              the transaction:
            \(log)\(schema)
            """)
    }

    func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        report.checks += 1
        if !condition { fail(message()) }
    }

    // MARK: - Running

    func run(units: Int) throws {
        try setUp()
        while unitIndex < units && report.failures.isEmpty {
            unitLog = []
            try runUnit()
            unitIndex += 1
        }
        if report.failures.isEmpty { try checkValueObservationsSettle() }
    }

    /// The truth: every table, read with the raw C API on the writer's connection.
    func snapshot(_ db: Database) throws -> Snapshot {
        try Snapshot.read(db.sqliteConnection!, tables: tables)
    }
}
