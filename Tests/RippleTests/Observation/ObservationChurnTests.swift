import Dispatch
import Foundation
import Ripple
import XCTest

/// Observations started and cancelled from inside other observations' callbacks (value
/// observation handlers, region observation handlers, which run on the writer during the
/// commit) while transactions run: afterwards, every observation still active holds the
/// content of its row, hears each later change of its row and nothing else, and an
/// observation cancelled on its delivery queue gets no value after its cancellation (issue 16).
final class ObservationChurnTests: XCTestCase {
    func testObservationsStartedAndCancelledFromCallbacksWhileWritesRunOnADatabaseQueue() throws {
        try assertChurn(DatabaseQueue(path: makeTemporaryDatabasePath(self)))
    }

    func testObservationsStartedAndCancelledFromCallbacksWhileWritesRunOnADatabasePool() throws {
        try assertChurn(DatabasePool(path: makeTemporaryDatabasePath(self)))
    }

    private static let rowCount = 8

    private func assertChurn(_ writer: some DatabaseWriter) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
            for id in 1...Self.rowCount {
                try db.execute(sql: "INSERT INTO item (id, value) VALUES (?, 0)", arguments: [id])
            }
        }
        let churn = Churn(writer: writer)
        for _ in 0..<30 { churn.startValueObservation(row: Int.random(in: 1...Self.rowCount)) }
        for _ in 0..<10 { churn.startRegionObservation(row: Int.random(in: 1...Self.rowCount)) }

        // Writes, while the callbacks start and cancel observations.
        for index in 1...400 {
            try writer.write { db in
                for _ in 0..<Int.random(in: 1...2) {
                    try db.execute(
                        sql: "UPDATE item SET value = ? WHERE id = ?",
                        arguments: [index, Int.random(in: 1...Self.rowCount)])
                }
            }
        }
        churn.stop()
        let counts = churn.counts
        XCTAssertGreaterThan(counts.startedFromValueCallbacks, 50, "\(counts)")
        XCTAssertGreaterThan(counts.startedFromRegionCallbacks, 20, "\(counts)")
        XCTAssertGreaterThan(counts.cancelledFromValueCallbacks, 50, "\(counts)")
        XCTAssertGreaterThan(counts.cancelledFromRegionCallbacks, 20, "\(counts)")

        // Every active value observation settles on the content of its row.
        try churn.waitUntilValuesAreTheContent()

        // Each row changed alone: the region observations of that row hear of it, once,
        // and no other does; the value observations of the row get its new value.
        for row in 1...Self.rowCount {
            let before = churn.regionCounts()
            try writer.write { db in
                try db.execute(sql: "UPDATE item SET value = value + 1000 WHERE id = ?", arguments: [row])
            }
            let after = churn.regionCounts()
            for (id, entry) in after {
                let expected = entry.row == row ? 1 : 0
                XCTAssertEqual(
                    entry.count - (before[id]?.count ?? 0), expected, "region observation \(id) of row \(entry.row), after a change of row \(row)")
            }
        }
        try churn.waitUntilValuesAreTheContent()
        XCTAssertEqual(churn.lateValues, [], "values after a cancellation made on the delivery queue")
        XCTAssertEqual(churn.errors, [])
        churn.cancelAll()
    }
}

/// The observations of `assertChurn`, and what they received. Its state is behind `lock`.
private final class Churn<Writer: DatabaseWriter>: @unchecked Sendable {  // every mutable field behind `lock`
    struct ValueEntry {
        var row: Int
        var values: [Int] = []
        var cancellable: AnyDatabaseCancellable?
    }

    struct RegionEntry {
        var row: Int
        var count = 0
        var cancellable: AnyDatabaseCancellable?
    }

    struct Counts: CustomStringConvertible {
        var startedFromValueCallbacks = 0
        var startedFromRegionCallbacks = 0
        var cancelledFromValueCallbacks = 0
        var cancelledFromRegionCallbacks = 0
        var description: String {
            "started from value/region callbacks \(startedFromValueCallbacks)/\(startedFromRegionCallbacks), cancelled \(cancelledFromValueCallbacks)/\(cancelledFromRegionCallbacks)"
        }
    }

    let writer: Writer
    let deliveryQueue = DispatchQueue(label: "ObservationChurnTests.delivery")
    private let lock = NSLock()
    private var valueEntries: [Int: ValueEntry] = [:]
    private var regionEntries: [Int: RegionEntry] = [:]
    /// The value observations cancelled on the delivery queue: no value may come after.
    private var cancelledOnDeliveryQueue: Set<Int> = []
    private var nextID = 0
    private var isChurning = true
    private var _counts = Counts()
    private var _lateValues: [Int] = []
    private var _errors: [String] = []

    init(writer: Writer) { self.writer = writer }

    var counts: Counts { lock.withLock { _counts } }
    var lateValues: [Int] { lock.withLock { _lateValues } }
    var errors: [String] { lock.withLock { _errors } }

    func stop() { lock.withLock { isChurning = false } }

    func regionCounts() -> [Int: RegionEntry] { lock.withLock { regionEntries } }

    private func makeID() -> Int {
        lock.withLock {
            nextID += 1
            return nextID
        }
    }

    // MARK: Starting

    func startValueObservation(row: Int) {
        let id = makeID()
        lock.withLock { valueEntries[id] = ValueEntry(row: row) }
        let cancellable =
            ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT value FROM item WHERE id = ?", arguments: [row]) ?? -1 }
            .start(in: writer, scheduling: .async(onQueue: deliveryQueue)) { [self] error in
                lock.withLock { _errors.append("\(error)") }
            } onChange: { [self] value in
                valueDidChange(id: id, value: value)
            }
        lock.withLock { valueEntries[id]?.cancellable = cancellable }
    }

    func startRegionObservation(row: Int) {
        let id = makeID()
        lock.withLock { regionEntries[id] = RegionEntry(row: row) }
        let cancellable = DatabaseRegionObservation(tracking: Table<Row>("item").filter(key: row))
            .start(in: writer) { [self] error in
                lock.withLock { _errors.append("\(error)") }
            } onChange: { [self] _ in
                regionDidChange(id: id)
            }
        lock.withLock { regionEntries[id]?.cancellable = cancellable }
    }

    // MARK: Callbacks

    /// On the delivery queue.
    private func valueDidChange(id: Int, value: Int) {
        let (churns, toCancel) = lock.withLock { () -> (Bool, AnyDatabaseCancellable?) in
            if cancelledOnDeliveryQueue.contains(id) { _lateValues.append(id) }
            guard valueEntries[id] != nil else { return (false, nil) }
            valueEntries[id]!.values.append(value)
            guard isChurning, Int.random(in: 0..<3) == 0 else { return (false, nil) }
            // Cancels another value observation (never the last ones).
            guard valueEntries.count > 10, let other = valueEntries.keys.filter({ $0 != id && valueEntries[$0]?.cancellable != nil }).randomElement()
            else {
                return (true, nil)
            }
            cancelledOnDeliveryQueue.insert(other)
            let cancellable = valueEntries[other]?.cancellable
            valueEntries[other] = nil
            _counts.cancelledFromValueCallbacks += 1
            return (true, cancellable)
        }
        guard churns else { return }
        toCancel?.cancel()
        startValueObservation(row: Int.random(in: 1...8))
        lock.withLock { _counts.startedFromValueCallbacks += 1 }
        if Int.random(in: 0..<4) == 0 {
            startRegionObservation(row: Int.random(in: 1...8))
            lock.withLock { _counts.startedFromValueCallbacks += 1 }
        }
    }

    /// On the writer, during the commit.
    private func regionDidChange(id: Int) {
        let (churns, toCancel) = lock.withLock { () -> (Bool, [AnyDatabaseCancellable]) in
            guard regionEntries[id] != nil else { return (false, []) }
            regionEntries[id]!.count += 1
            guard isChurning, Int.random(in: 0..<4) == 0 else { return (false, []) }
            var toCancel: [AnyDatabaseCancellable] = []
            // Cancels a value observation (it may still deliver a value in flight), and
            // a region observation, maybe itself.
            if valueEntries.count > 10, let other = valueEntries.keys.randomElement(), let cancellable = valueEntries[other]?.cancellable {
                valueEntries[other] = nil
                toCancel.append(cancellable)
                _counts.cancelledFromRegionCallbacks += 1
            }
            if regionEntries.count > 5, let other = regionEntries.keys.randomElement(), let cancellable = regionEntries[other]?.cancellable {
                regionEntries[other] = nil
                toCancel.append(cancellable)
                _counts.cancelledFromRegionCallbacks += 1
            }
            return (true, toCancel)
        }
        guard churns else { return }
        for cancellable in toCancel { cancellable.cancel() }
        startValueObservation(row: Int.random(in: 1...8))
        startRegionObservation(row: Int.random(in: 1...8))
        lock.withLock { _counts.startedFromRegionCallbacks += 2 }
    }

    // MARK: Checks

    /// Waits until every active value observation's last value is the content of its row.
    func waitUntilValuesAreTheContent() throws {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let content = try writer.read { db in
                try Dictionary(
                    uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, value FROM item").map { row -> (Int, Int) in (row[0], row[1]) })
            }
            deliveryQueue.sync {}
            let stale = lock.withLock {
                valueEntries.filter { $0.value.values.last != content[$0.value.row] }
            }
            if stale.isEmpty { return }
            if Date() > deadline {
                XCTFail(
                    "value observations not on the content: \(stale.map { "\($0.key) row \($0.value.row): \($0.value.values.suffix(3)) vs \(content[$0.value.row] ?? -1)" })"
                )
                return
            }
            usleep(2000)
        }
    }

    func cancelAll() {
        let all = lock.withLock { () -> [AnyDatabaseCancellable] in
            defer {
                valueEntries = [:]
                regionEntries = [:]
            }
            return valueEntries.values.compactMap(\.cancellable) + regionEntries.values.compactMap(\.cancellable)
        }
        for cancellable in all { cancellable.cancel() }
    }
}
