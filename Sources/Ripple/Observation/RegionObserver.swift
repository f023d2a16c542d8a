import Foundation

/// A transaction observer of a database region: the observer behind
/// ``DatabaseRegionObservation`` and value observations. The broker recognizes it and
/// matches statements against its region by table, without asking it per statement.
final class RegionObserver: TransactionObserver, @unchecked Sendable {
    /// The observed region. Set on the writer queue only.
    var region: DatabaseRegion

    /// Whether a change of the current transaction already touched the region: further
    /// statements of the transaction need not be checked. Touched on the writer queue only.
    private(set) var hasPendingImpact = false
    private let onChange: (Database) -> Void
    private let cancellation = Cancellation()

    init(region: DatabaseRegion, onChange: @escaping (Database) -> Void) {
        self.region = region
        self.onChange = onChange
    }

    /// Called by the broker when a change to the region is recorded.
    func markImpacted() {
        hasPendingImpact = true
    }

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
        guard hasPendingImpact else { return }
        hasPendingImpact = false
        guard !cancellation.isCancelled else { return }
        onChange(db)
    }

    func databaseDidRollback(_ db: Database) {
        hasPendingImpact = false
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
