import Foundation

/// A transaction observer of a database region: the observer behind
/// ``DatabaseRegionObservation`` and value observations. The broker recognizes it and
/// matches statements against its region by table, without asking it per statement.
final class RegionObserver: TransactionObserver, @unchecked Sendable {
    /// The observed region. Set on the writer queue only.
    var region: DatabaseRegion

    // Touched on the writer queue only.
    private var isImpacted = false
    private let onChange: (Database) -> Void
    private let cancellation = Cancellation()

    init(region: DatabaseRegion, onChange: @escaping (Database) -> Void) {
        self.region = region
        self.onChange = onChange
    }

    /// Called by the broker when a change to the region is recorded.
    func markImpacted() {
        isImpacted = true
    }

    /// Whether a change of the current transaction already touched the region: further
    /// statements of the transaction need not be checked.
    var hasPendingImpact: Bool { isImpacted }

    var isCancelled: Bool { cancellation.isCancelled }

    func cancel() {
        cancellation.cancel()
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        !region.intersection(eventKind.modifiedRegion).isEmpty
    }

    func databaseDidChange(with event: DatabaseEvent) {
        markImpacted()
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidChange() {
        markImpacted()
    }

    func databaseDidCommit(_ db: Database) {
        guard isImpacted else { return }
        isImpacted = false
        guard !cancellation.isCancelled else { return }
        onChange(db)
    }

    func databaseDidRollback(_ db: Database) {
        isImpacted = false
    }
}

/// A thread-safe, one-way flag.
final class Cancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Sets the flag; returns whether it was not set yet.
    @discardableResult
    func cancel() -> Bool {
        lock.withLock {
            defer { cancelled = true }
            return !cancelled
        }
    }
}
