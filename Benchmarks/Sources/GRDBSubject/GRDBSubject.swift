import BenchCore
import Dispatch
import Foundation
import GRDB

/// GRDB 7.10.0, the peer Ripple is measured against, used as its documentation shows.
public struct GRDBSubject: BenchSubject {
    public init() {}
    public var name: String { "GRDB" }

    public func run(_ id: WorkloadID) -> WorkloadRun? {
        switch id {
        case .w1a: return { try Self.insertItems($0, $1, observe: .none) }
        case .w1b: return { try Self.insertItems($0, $1, observe: .transactionObserver) }
        case .w1c: return { try Self.insertItems($0, $1, observe: .regionObservation) }
        case .w1d: return { try Self.insertItems($0, $1, observe: .unrelatedValueObservations) }
        case .w2a: return { try Self.fetchRows($0, $1) }
        case .w2b: return { try Self.fetchRecords($0, $1) }
        case .w2c: return { try Self.fetchDecodables($0, $1) }
        case .w3: return { try Self.rowObservations($0, observations: $1.w3Observations, transactions: $1.w3Transactions) }
        case .w6: return { try Self.rowObservations($0, observations: $1.w6Observations, transactions: $1.w6Transactions) }
        case .w6one: return { try Self.rowObservations($0, observations: 1, transactions: $1.w6Transactions) }
        case .w4: return { try Self.poolLatency($0, $1) }
        case .w5b: return { try Self.singleInsertTransactions($0, $1, observer: true) }
        case .w5c: return { try Self.singleInsertTransactions($0, $1, observer: false) }
        // W5d is Ripple's switch; GRDB never sees another process's commits (W7).
        case .w5d, .w7: return nil
        }
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
        switch observe {
        case .none:
            break
        case .transactionObserver:
            let observer = EveryEventObserver()
            dbQueue.add(transactionObserver: observer)
            retained.append(observer)
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
        if case .regionObservation = observe, changes.value != 1 { fatalError("region observation missed the change") }
        withExtendedLifetime(retained) {}
        return Sample(seconds: seconds)
    }

    static func populate(_ dbQueue: DatabaseQueue, count: Int) throws {
        let data = ItemData(count: count)
        try dbQueue.write { db in
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

    struct RecordItem: FetchableRecord {
        var id: Int64, a: Int64, b: Double, c: String, d: Int64, e: String
        init(row: Row) throws {
            id = row["id"]; a = row["a"]; b = row["b"]; c = row["c"]; d = row["d"]; e = row["e"]
        }
    }

    struct DecodableItem: Decodable, FetchableRecord {
        var id: Int64, a: Int64, b: Double, c: String, d: Int64, e: String
    }

    static func fetchRecords(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        try fetchAll(RecordItem.self, directory, sizes)
    }

    static func fetchDecodables(_ directory: URL, _ sizes: Sizes) throws -> Sample {
        try fetchAll(DecodableItem.self, directory, sizes)
    }

    static func fetchAll<Record: FetchableRecord>(_ type: Record.Type, _ directory: URL, _ sizes: Sizes) throws -> Sample {
        let dbQueue = try makeQueue(directory)
        try populate(dbQueue, count: sizes.w2Rows)
        var count = 0
        let seconds = try measure {
            count = try dbQueue.read { db in try Record.fetchAll(db, sql: "SELECT * FROM item").count }
        }
        precondition(count == sizes.w2Rows)
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

    static func singleInsertTransactions(_ directory: URL, _ sizes: Sizes, observer: Bool) throws -> Sample {
        let data = ItemData(count: sizes.w5Transactions)
        let dbQueue = try makeQueue(directory)
        try dbQueue.write { db in try db.execute(sql: itemSchema) }
        let everyEvent = EveryEventObserver()
        if observer { dbQueue.add(transactionObserver: everyEvent) }
        let seconds = try measure {
            for i in 0..<data.count {
                try dbQueue.write { db in
                    try db.cachedStatement(sql: insertItemSQL)
                        .execute(arguments: [data.a[i], data.b[i], data.c[i], data.d[i], data.e[i]])
                }
            }
        }
        withExtendedLifetime(everyEvent) {}
        return Sample(seconds: seconds)
    }
}
