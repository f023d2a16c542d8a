import Foundation

/// The observer behind ``DatabaseRegionObservation`` and value observations: it watches a
/// database region, and is called back after each commit of a transaction that touched it.
///
/// The broker recognizes it: it matches the statements and rows of each transaction with
/// the region, through an index by table and rowid, and never asks it
/// `observes(eventsOfKind:)`.
// @unchecked Sendable: `region` and `onChange` are only used on the writer's queue (the
// region changes through the broker), and `cancellation` is thread-safe.
final class RegionObserver: TransactionObserver, @unchecked Sendable {
    /// The observed region; changed through `DatabaseObservationBroker.setRegion(_:of:)`.
    var region: DatabaseRegion

    private let onChange: (Database) -> Void
    private let cancellation: Cancellation

    init(region: DatabaseRegion, cancellation: Cancellation = Cancellation(), onChange: @escaping (Database) -> Void) {
        self.region = region
        self.cancellation = cancellation
        self.onChange = onChange
    }

    var isCancelled: Bool { cancellation.isCancelled }

    func cancel() {
        cancellation.cancel()
    }

    /// Called by the broker after the commit of a transaction that touched the region.
    func regionWasCommitted(_ db: Database) {
        guard !cancellation.isCancelled else { return }
        onChange(db)
    }

    // The broker does not call these: it matches the region itself.
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { region.isModified(byEventsOfKind: eventKind) }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) {}
    func databaseDidRollback(_ db: Database) {}
}

/// A thread-safe, one-way flag; its copies share it (a value observation and its region
/// observer are cancelled together).
struct Cancellation: Sendable {
    private let flag = LockedState(false)

    var isCancelled: Bool { flag.withLock { $0 } }

    /// Sets the flag; returns whether it was not set yet.
    @discardableResult
    func cancel() -> Bool {
        flag.withLock { isSet in
            defer { isSet = true }
            return !isSet
        }
    }
}
