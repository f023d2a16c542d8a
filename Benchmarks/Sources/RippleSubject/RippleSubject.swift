import BenchCore
import Dispatch
import Foundation
import Ripple

/// Ripple, used as its documentation shows.
public struct RippleSubject: BenchSubject {
    public init() {}
    public var name: String { "Ripple" }

    public func run(_ id: WorkloadID) -> WorkloadRun? {
        switch id {
        case .w1a: return { try Self.insertItems($0, $1, observe: .none) }
        case .w1b: return { try Self.insertItems($0, $1, observe: .transactionObserver) }
        case .w1c: return { try Self.insertItems($0, $1, observe: .regionObservation) }
        case .w1d: return { try Self.insertItems($0, $1, observe: .unrelatedValueObservations) }
        case .w3: return { try Self.rowObservations($0, observations: $1.w3Observations, transactions: $1.w3Transactions) }
        case .w6: return { try Self.rowObservations($0, observations: $1.w6Observations, transactions: $1.w6Transactions) }
        case .w6one: return { try Self.rowObservations($0, observations: 1, transactions: $1.w6Transactions) }
        case .w6r: return { try Self.rowRegionObservations($0, observations: $1.w6Observations, transactions: $1.w6Transactions) }
        case .w6rone: return { try Self.rowRegionObservations($0, observations: 1, transactions: $1.w6Transactions) }
        case .w6m: return { try MemoryChild.sample(subject: "Ripple", directory: $0, observations: $1.w6Observations) }
        case .w6s: return { try Self.observationsDuringWrite($0, $1) }
        case .w8: return { try Self.importWithObservations($0, $1) }
        case .w9a: return { try Self.authorsIncludingAllBooks($0, $1) }
        case .w9b: return { try Self.booksIncludingAuthor($0, $1) }
        case .w4: return { try Self.poolLatency($0, $1) }
        case .w2a: return { try Self.fetchRows($0, $1) }
        case .w2b: return { try Self.fetchAll(RecordItem.self, $0, $1) }
        case .w2b1: return { try Self.fetchAll(AssignedRecordItem.self, $0, $1) }
        case .w2c: return { try Self.fetchAll(DecodableItem.self, $0, $1) }
        case .w2a2: return { try Self.fetchAllRows($0, $1) }
        case .w5b: return { try Self.singleInsertTransactions($0, $1, observer: true) }
        case .w5c: return { try Self.singleInsertTransactions($0, $1, observer: false) }
        case .w5d: return { try Self.pairedExternalWatch($0, $1) }
        case .w7: return { try Self.externalLatency($0, $1) }
        }
    }

    /// Keeps SQLite's memory statistics, which Ripple turns off otherwise (see main.swift).
    public static func keepSQLiteMemoryStatistics() {
        precondition(Database.keepSQLiteMemoryStatistics(), "a connection was opened already")
    }

    static func configuration() -> Configuration {
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        return config
    }

    static func makeQueue(_ directory: URL) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(path: directory.appendingPathComponent("db.sqlite").path, configuration: configuration())
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        return dbQueue
    }

    final class EveryEventObserver: TransactionObserver, @unchecked Sendable {
        var count = 0
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { count += 1 }
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    enum Observation { case none, transactionObserver, regionObservation, unrelatedValueObservations }

    static func insertItems(_ directory: URL, _ sizes: Sizes, observe: Observation) throws -> Sample {
        let data = ItemData(count: sizes.w1Inserts)
        let dbQueue = try makeQueue(directory)
        try dbQueue.write { db in try db.execute(sql: itemSchema) }
        var retained: [Any] = []
        let changes = Tally()
        let everyEvent = EveryEventObserver()
        switch observe {
        case .none:
            break
        case .transactionObserver:
            dbQueue.add(transactionObserver: everyEvent)
        case .regionObservation:
            let cancellable = DatabaseRegionObservation(tracking: Table("item"))
                .start(in: dbQueue, onError: { _ in }, onChange: { _ in changes.increment() })
            retained.append(cancellable)
        case .unrelatedValueObservations:
            try dbQueue.write { db in
                for i in 0..<100 { try db.execute(sql: "CREATE TABLE other\(i) (id INTEGER PRIMARY KEY, v)") }
            }
            let initial = DispatchGroup()
            let queue = DispatchQueue(label: "observations")
            for i in 0..<100 {
                initial.enter()
                let once = Tally()
                let cancellable = ValueObservation
                    .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM other\(i)") }
                    .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { _ in
                        once.increment()
                        if once.value == 1 { initial.leave() }
                    })
                retained.append(cancellable)
            }
            initial.wait()
        }
        let seconds = try measure {
            try dbQueue.write { db in
                let statement = try db.makeStatement(sql: insertItemSQL)
                for i in 0..<data.count {
                    try statement.execute(arguments: [data.a[i], data.b[i], data.c[i], data.d[i], data.e[i]])
                }
            }
        }
        switch observe {
        case .none: break
        case .transactionObserver: precondition(everyEvent.count == data.count, "the observer missed events")
        case .regionObservation: precondition(changes.value == 1, "the region observation missed the change")
        case .unrelatedValueObservations: break
        }
        withExtendedLifetime(retained) {}
        return Sample(seconds: seconds)
    }

    static func populate(_ writer: some DatabaseWriter, count: Int) throws {
        let data = ItemData(count: count)
        try writer.write { db in
            try db.execute(sql: itemSchema)
            let statement = try db.makeStatement(sql: insertItemSQL)
            for i in 0..<data.count {
                try statement.execute(arguments: [data.a[i], data.b[i], data.c[i], data.d[i], data.e[i]])
            }
        }
    }

    static func fetchRows(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let dbQueue = try makeQueue(directory)
        try populate(dbQueue, count: sizes.w2Rows)
        var total = 0
        let seconds = try measure {
            try dbQueue.read { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT * FROM item")
                while let row = try rows.next() {
                    let id: Int64 = row[0]
                    let a: Int64 = row[1]
                    let b: Double = row[2]
                    let c: String = row[3]
                    let d: Int64 = row[4]
                    let e: String = row[5]
                    total &+= Int(id &+ a &+ d) &+ Int(b) &+ c.utf8.count &+ e.utf8.count
                }
            }
        }
        precondition(total != 0)
        return Sample(seconds: seconds)
    }

    /// Built the way `FetchableRecord`'s documentation shows: the columns read into the
    /// memberwise initializer.
    struct RecordItem {
        var id: Int64, a: Int64, b: Double, c: String, d: Int64, e: String
    }

    /// W2b1: the same record, its fields assigned one by one (`id = row["id"]`), as GRDB's
    /// samples read it.
    struct AssignedRecordItem: FetchableRecord {
        var id: Int64, a: Int64, b: Double, c: String, d: Int64, e: String
        init(row: Row) {
            id = row["id"]; a = row["a"]; b = row["b"]; c = row["c"]; d = row["d"]; e = row["e"]
        }
    }

    struct DecodableItem: Decodable, FetchableRecord {
        var id: Int64, a: Int64, b: Double, c: String, d: Int64, e: String
    }

    static func fetchAll<Record: FetchableRecord>(_ type: Record.Type, _ directory: URL, _ sizes: Sizes) throws -> Sample {
        let dbQueue = try makeQueue(directory)
        try populate(dbQueue, count: sizes.w2Rows)
        // The records are freed after the timing, as raw's array of structs is.
        var records: [Record] = []
        let seconds = try measure {
            records = try dbQueue.read { db in try Record.fetchAll(db, sql: "SELECT * FROM item") }
        }
        precondition(records.count == sizes.w2Rows)
        return Sample(seconds: seconds)
    }

    /// W2a2: all rows in an array, as `Row` values (the array is freed after the timing, as
    /// raw's array of structs is).
    static func fetchAllRows(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let dbQueue = try makeQueue(directory)
        try populate(dbQueue, count: sizes.w2Rows)
        var rows: [Row] = []
        let seconds = try measure {
            rows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM item") }
        }
        precondition(rows.count == sizes.w2Rows)
        return Sample(seconds: seconds)
    }

    /// W3, W6, W6one: `observations` one-row observations, `transactions` one-row updates.
    static func rowObservations(_ directory: URL, observations: Int, transactions: Int) throws -> Sample {
        let dbQueue = try makeQueue(directory)
        try populate(dbQueue, count: observations)
        let updates = w3UpdatedRows(observations: observations, transactions: transactions)
        let tracker = RowTracker(observations: observations, updates: updates)
        let fetches = Tally()
        let queue = DispatchQueue(label: "observations")
        var cancellables: [AnyDatabaseCancellable] = []
        for id in 1...Int64(observations) {
            let request = Table("item").filter(key: id).select(Column("a"), as: Int64.self)
            cancellables.append(ValueObservation
                .tracking { db in
                    fetches.increment()
                    return try request.fetchOne(db)
                }
                .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { value in
                    tracker.received(id: id, value: value)
                }))
        }
        tracker.waitForInitialValues()
        fetches.reset()
        let seconds = try measure {
            for (index, id) in updates.enumerated() {
                try dbQueue.write { db in
                    try db.execute(sql: "UPDATE item SET a = ? WHERE id = ?", arguments: [RowTracker.value(index), id])
                }
            }
            tracker.waitForFinalValues()
        }
        withExtendedLifetime(cancellables) {}
        return Sample(seconds: seconds, counters: ["fetches": Double(fetches.value)])
    }

    /// W6r, W6rone: `observations` one-row region observations, `transactions` one-row
    /// updates. Region observations are notified on the writer, right after each commit:
    /// the transactions are the measure.
    static func rowRegionObservations(_ directory: URL, observations: Int, transactions: Int) throws -> Sample {
        let dbQueue = try makeQueue(directory)
        try populate(dbQueue, count: observations)
        let updates = w3UpdatedRows(observations: observations, transactions: transactions)
        let notified = NotifiedRows(capacity: transactions)
        var cancellables: [AnyDatabaseCancellable] = []
        for id in 1...Int64(observations) {
            cancellables.append(DatabaseRegionObservation(tracking: Table("item").filter(key: id))
                .start(in: dbQueue, onError: { _ in }, onChange: { _ in notified.received(id) }))
        }
        let seconds = try measure {
            for (index, id) in updates.enumerated() {
                try dbQueue.write { db in
                    try db.execute(sql: "UPDATE item SET a = ? WHERE id = ?", arguments: [RowTracker.value(index), id])
                }
            }
        }
        precondition(notified.all == updates, "the region observations were not notified of exactly the updated rows")
        withExtendedLifetime(cancellables) {}
        return Sample(seconds: seconds)
    }

    /// W6m, in a child process (`--w6m-child Ripple`): the resident memory that `observations`
    /// idle one-row observations add, once each delivered its first value.
    public static func runW6mChild(directory: URL, observations: Int) throws -> String {
        let dbQueue = try makeQueue(directory)
        try populate(dbQueue, count: observations)
        let queue = DispatchQueue(label: "observations")
        func observe(_ id: Int64, _ tracker: ObservationTracker, _ index: Int) -> AnyDatabaseCancellable {
            let request = Table("item").filter(key: id).select(Column("a"), as: Int64.self)
            return ValueObservation
                .tracking { db in try request.fetchOne(db) }
                .start(in: dbQueue, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { value in
                    tracker.received(index, value ?? -1)
                })
        }
        // One observation first, so that what the first one sets up once (threads, caches)
        // is not counted.
        let warmUp = ObservationTracker(observations: 1)
        let first = observe(1, warmUp, 0)
        warmUp.waitForFirstValues()
        let tracker = ObservationTracker(observations: observations)
        var cancellables: [AnyDatabaseCancellable] = []
        cancellables.reserveCapacity(observations)
        let before = MemoryUse.now()
        let seconds = measure {
            for id in 1...Int64(observations) {
                cancellables.append(observe(id, tracker, Int(id - 1)))
            }
            tracker.waitForFirstValues()
        }
        let after = MemoryUse.now()
        // Then all are cancelled: until the writer, which removes them, runs the next write.
        let cancelSeconds = try measure {
            cancellables.removeAll()
            try dbQueue.write { _ in }
        }
        withExtendedLifetime(first) {}
        return MemoryChild.report(subject: "Ripple", observations: observations, before: before, after: after, seconds: seconds, cancelSeconds: cancelSeconds)
    }

    /// W6s: one-row observations of a pool, started while a long write transaction runs on
    /// another thread; the time until all delivered their first value. Then, untimed, each
    /// must deliver the value the transaction committed (it writes every row).
    static func observationsDuringWrite(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path, configuration: configuration())
        let observations = sizes.w6sObservations
        try populate(dbPool, count: observations)
        let write = LongWrite()
        write.start { began in
            try dbPool.write { db in
                try db.execute(sql: "UPDATE item SET a = ?", arguments: [w6sCommittedValue])
                began()
                Thread.sleep(forTimeInterval: sizes.w6sWriteSeconds)
            }
        }
        let began = try write.waitUntilBegan()
        Thread.sleep(forTimeInterval: max(0, began + sizes.w6sDelaySeconds - now()))
        let tracker = ObservationTracker(observations: observations, final: w6sCommittedValue)
        let queue = DispatchQueue(label: "observations")
        var cancellables: [AnyDatabaseCancellable] = []
        let seconds = measure {
            for id in 1...Int64(observations) {
                let request = Table("item").filter(key: id).select(Column("a"), as: Int64.self)
                cancellables.append(ValueObservation
                    .tracking { db in try request.fetchOne(db) }
                    .start(in: dbPool, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { value in
                        tracker.received(Int(id - 1), value ?? -1)
                    }))
            }
            tracker.waitForFirstValues()
        }
        let committed = try write.waitUntilCommitted().committed
        guard tracker.waitForFinalValues(timeout: 60) else {
            fatalError("W6s: \(tracker.missingFinal) observations never delivered the committed value")
        }
        withExtendedLifetime(cancellables) {}
        return Sample(seconds: seconds, counters: [
            "of_write": seconds / (committed - began),
            "before_commit": Double(tracker.firstValues(before: committed)),
        ])
    }

    /// Alternates, from one W8 sample to the next, which import goes first.
    static let w8Order = Tally()

    /// W8: the same import (`w8Transactions` transactions of the same number of rows) into a
    /// new pool twice in each sample: with `w8Observations` observations of the table, and
    /// without any. The sample's seconds are the import with them; then, untimed, every
    /// observation must deliver the final value.
    static func importWithObservations(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let data = ItemData(count: sizes.w8Rows)
        let rowsPerTransaction = sizes.w8Rows / sizes.w8Transactions
        func makePool(_ name: String) throws -> DatabasePool {
            let dbPool = try DatabasePool(path: databasePath(in: directory, folder: name), configuration: configuration())
            try dbPool.write { db in try db.execute(sql: itemSchema) }
            return dbPool
        }
        func runImport(_ dbPool: DatabasePool) throws -> Double {
            try measure {
                for transaction in 0..<sizes.w8Transactions {
                    try dbPool.write { db in
                        let statement = try db.cachedStatement(sql: insertItemSQL)
                        for i in transaction * rowsPerTransaction..<(transaction + 1) * rowsPerTransaction {
                            try statement.execute(arguments: [data.a[i], data.b[i], data.c[i], data.d[i], data.e[i]])
                        }
                    }
                }
            }
        }
        let observedFirst = w8Order.value % 2 == 1
        w8Order.increment()
        var baseSeconds = 0.0
        if !observedFirst { baseSeconds = try runImport(makePool("base")) }

        let dbPool = try makePool("observed")
        let tracker = ObservationTracker(observations: sizes.w8Observations, final: Int64(sizes.w8Rows))
        let queue = DispatchQueue(label: "observations")
        var cancellables: [AnyDatabaseCancellable] = []
        for index in 0..<sizes.w8Observations {
            if index % 2 == 0 {
                cancellables.append(ValueObservation
                    .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
                    .start(in: dbPool, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { count in
                        tracker.received(index, Int64(count ?? -1))
                    }))
            } else {
                let lastItems = Table<DecodableItem>("item").order(Column("id").desc).limit(10)
                cancellables.append(ValueObservation
                    .tracking { db in try lastItems.fetchAll(db) }
                    .start(in: dbPool, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { items in
                        tracker.received(index, items.first?.id ?? 0)
                    }))
            }
        }
        tracker.waitForFirstValues()
        let seconds = try runImport(dbPool)
        guard tracker.waitForFinalValues(timeout: 60) else {
            fatalError("W8: \(tracker.missingFinal) observations never delivered the final value")
        }
        let values = tracker.laterValues
        cancellables.removeAll()

        if observedFirst { baseSeconds = try runImport(makePool("base")) }
        return Sample(seconds: seconds, counters: ["base_s": baseSeconds, "ratio": seconds / baseSeconds, "values": Double(values)])
    }

    static func poolLatency(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path, configuration: configuration())
        try dbPool.write { db in
            try db.execute(sql: itemSchema)
            try db.execute(sql: "INSERT INTO item (id, a, b, c, d, e) VALUES (1, -1, 0, '', 0, '')")
        }
        let probe = LatencyProbe()
        let cancellable = ValueObservation
            .tracking { db in try Int64.fetchOne(db, sql: "SELECT a FROM item WHERE id = 1") }
            .start(in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "latency")), onError: { _ in }, onChange: { value in
                probe.received(value ?? -2)
            })
        probe.waitFor(-1)
        let seconds = try measure {
            for i in 0..<Int64(sizes.w4Transactions) {
                probe.start(i)
                try dbPool.write { db in
                    try db.execute(sql: "UPDATE item SET a = ? WHERE id = 1", arguments: [i])
                }
                probe.waitFor(i)
            }
        }
        withExtendedLifetime(cancellable) {}
        return Sample(seconds: seconds, counters: probe.percentiles())
    }

    static func singleInsertTransactions(_ directory: URL, _ sizes: Sizes, observer: Bool, observesExternalChanges: Bool = true) throws -> Sample {
        let data = ItemData(count: sizes.w5Transactions)
        var config = configuration()
        config.observesExternalChanges = observesExternalChanges
        let dbQueue = try DatabaseQueue(path: directory.appendingPathComponent("db.sqlite").path, configuration: config)
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try dbQueue.write { db in try db.execute(sql: itemSchema) }
        let everyEvent = EveryEventObserver()
        if observer { dbQueue.add(transactionObserver: everyEvent) }
        defer { withExtendedLifetime(everyEvent) {} }
        let seconds = try measure {
            for i in 0..<data.count {
                try dbQueue.write { db in
                    try db.cachedStatement(sql: insertItemSQL)
                        .execute(arguments: [data.a[i], data.b[i], data.c[i], data.d[i], data.e[i]])
                }
            }
        }
        return Sample(seconds: seconds)
    }

    /// Alternates, from one W5d sample to the next, which of its two runs goes first.
    static let w5dOrder = Tally()

    /// W5d: W5b without watching other processes (the sample's seconds), and W5b itself
    /// (`watched_s`), each in a directory of its own, one right after the other in the
    /// same sample: their ratio (`ratio`) is what watching costs the process's own writes,
    /// measured side by side rather than minutes apart.
    static func pairedExternalWatch(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        func run(_ name: String, watching: Bool) throws -> Double {
            let runDirectory = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: runDirectory, withIntermediateDirectories: true)
            return try singleInsertTransactions(runDirectory, sizes, observer: true, observesExternalChanges: watching).seconds
        }
        // RIPPLE_BENCH_W5D_UNPAIRED=1: the run without watching only, so that callgrind
        // counts its instructions alone (W5b's filter counts the watched run alone).
        if ProcessInfo.processInfo.environment["RIPPLE_BENCH_W5D_UNPAIRED"] == "1" {
            return Sample(seconds: try run("unwatched", watching: false))
        }
        let watchedFirst = w5dOrder.value % 2 == 1
        w5dOrder.increment()
        var watched = 0.0
        if watchedFirst { watched = try run("watched", watching: true) }
        let unwatched = try run("unwatched", watching: false)
        if !watchedFirst { watched = try run("watched", watching: true) }
        return Sample(seconds: unwatched, counters: ["watched_s": watched, "ratio": watched / unwatched])
    }

    // MARK: - W7: another process's commits

    /// W7, the observing side: this process holds a value observation with the default
    /// configuration; a writer process (this executable, `--w7-writer`) commits one-row
    /// transactions one at a time, and tells the time right after each commit returned.
    /// Latency: from then to the delivery of the committed value.
    static func externalLatency(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        let path = directory.appendingPathComponent("db.sqlite").path
        let dbPool = try DatabasePool(path: path, configuration: configuration())
        try dbPool.write { db in
            try db.execute(sql: itemSchema)
            try db.execute(sql: "INSERT INTO item (id, a, b, c, d, e) VALUES (1, -1, 0, '', 0, '')")
        }
        let deliveries = Deliveries()
        let cancellable = ValueObservation
            .tracking { db in try Int64.fetchOne(db, sql: "SELECT a FROM item WHERE id = 1") }
            .start(in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "W7")), onError: { _ in }, onChange: { value in
                deliveries.received(value ?? -2)
            })
        _ = deliveries.wait(for: -1)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        writer.arguments = ["--w7-writer", path]
        let input = Pipe()
        let output = Pipe()
        writer.standardInput = input
        writer.standardOutput = output
        try writer.run()
        let reader = LineReader(output.fileHandleForReading)
        var latencies: [Double] = []
        let seconds = try measure {
            for i in 0..<Int64(sizes.w7Transactions) {
                input.fileHandleForWriting.write(Data("\(i)\n".utf8))
                guard let line = reader.readLine(), let committedAt = UInt64(line) else { throw RippleBenchError("the W7 writer stopped") }
                let deliveredAt = deliveries.wait(for: i)
                latencies.append(Double(Int64(bitPattern: deliveredAt &- committedAt)) / 1e9)
            }
        }
        input.fileHandleForWriting.write(Data("quit\n".utf8))
        writer.waitUntilExit()
        withExtendedLifetime(cancellable) {}
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return Sample(seconds: seconds, counters: ["p50_us": percentile(0.5) * 1e6, "p99_us": percentile(0.99) * 1e6])
    }

    /// W7, the writing process: for each line read, one transaction, then the time
    /// (`DispatchTime`, the system's monotonic clock) right after the commit.
    public static func runW7Writer(path: String) throws {
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration())
        while let line = Swift.readLine(), let value = Int64(line) {
            try dbQueue.write { db in
                try db.execute(sql: "UPDATE item SET a = ? WHERE id = 1", arguments: [value])
            }
            FileHandle.standardOutput.write(Data("\(DispatchTime.now().uptimeNanoseconds)\n".utf8))
        }
    }

    /// The values an observation delivered, with the time of each delivery.
    final class Deliveries: @unchecked Sendable {  // `times` behind `condition`
        private let condition = NSCondition()
        private var times: [Int64: UInt64] = [:]

        func received(_ value: Int64) {
            let now = DispatchTime.now().uptimeNanoseconds
            condition.lock()
            times[value] = now
            condition.broadcast()
            condition.unlock()
        }

        /// Waits until `value` was delivered; the time of the delivery.
        func wait(for value: Int64) -> UInt64 {
            condition.lock()
            defer { condition.unlock() }
            while times[value] == nil { condition.wait() }
            return times[value]!
        }
    }

    /// Lines of a pipe.
    final class LineReader {
        private let handle: FileHandle
        private var buffer = Data()
        init(_ handle: FileHandle) { self.handle = handle }
        func readLine() -> String? {
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer = Data(buffer[(newline + 1)...])
                    return line
                }
                let data = handle.availableData
                if data.isEmpty { return nil }
                buffer.append(data)
            }
        }
    }

    struct RippleBenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

extension RippleSubject.RecordItem: FetchableRecord {
    init(row: Row) {
        self.init(id: row["id"], a: row["a"], b: row["b"], c: row["c"], d: row["d"], e: row["e"])
    }
}
