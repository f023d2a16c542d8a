import Foundation

/// The observer behind ``DatabaseRegionObservation`` and value observations: it watches a
/// database region, and is called back after each commit of a transaction that touched it.
///
/// The broker recognizes it: it matches the statements and rows of each transaction with
/// the region, through an index by table and rowid, and never asks it
/// `observes(eventsOfKind:)`.
///
/// Two subclasses say what a commit does: ``ClosureRegionObserver`` (a region observation)
/// and `ValueObservationRunner` (a value observation, which is its own region observer, so
/// that each observation is one object, W6m).
// Unchecked Sendable: `region` is only used on the writer's queue (it changes through the
// broker); subclasses say why their own state is safe.
class RegionObserver: TransactionObserver, @unchecked Sendable {
    /// The observed region; changed through `DatabaseObservationBroker.setRegion(_:of:)`.
    var region: DatabaseRegion
    /// Whether a change of the schema (`sqlite_master`) notifies the observer, whatever
    /// its region: a `tracking` value observation, whose fetch may read something else
    /// once a view is redefined or a table altered. False unless a subclass says so.
    ///
    /// (A property rather than `sqlite_master` in the region: the broker indexes region
    /// observers by table, and the index entry and the region's second table cost about
    /// 80 bytes per observation, W6m. Schema changes are rare: the broker looks for these
    /// observers among all when one happens. Computed, not stored: each value observation
    /// is one of these objects, and a stored flag would take a word, W6m.)
    var observesSchemaChanges: Bool { false }

    init(region: DatabaseRegion) {
        self.region = region
    }

    /// Whether a change of `region` (told by `Database.notifyChanges(in:)`, or made by
    /// another connection) concerns the observer.
    final func isConcerned(byChangesIn changed: DatabaseRegion) -> Bool {
        if changed.isFullDatabase || region.isFullDatabase { return true }
        if !region.intersection(changed).isEmpty { return true }
        return observesSchemaChanges && changed.tableNames?.contains(where: StatementReport.isSchemaTable(key:)) == true
    }

    /// Called by the broker, on the writer's queue, after the commit of a transaction that
    /// touched the region. Subclasses override it.
    func regionWasCommitted(_ db: Database) {
        preconditionFailure("\(type(of: self)) must override regionWasCommitted(_:)")
    }

    // The broker does not call these: it matches the region itself.
    final func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { region.isModified(byEventsOfKind: eventKind) }
    final func databaseDidChange(with event: DatabaseEvent) {}
    final func databaseDidCommit(_ db: Database) {}
    final func databaseDidRollback(_ db: Database) {}
}

/// The region observer of a ``DatabaseRegionObservation``: a handler, and a cancellation.
// Unchecked Sendable: `onChange` is only read and written on the writer's queue (where the
// broker calls the observer, and where `letHandlerGo()` runs), and `cancellation` is
// thread-safe.
final class ClosureRegionObserver: RegionObserver, @unchecked Sendable {
    private var onChange: ((Database) -> Void)?
    private let cancellation = Cancellation()

    init(region: DatabaseRegion, onChange: @escaping (Database) -> Void) {
        self.onChange = onChange
        super.init(region: region)
    }

    func cancel() {
        cancellation.cancel()
    }

    /// On the writer's queue, once cancelled and removed from the broker: lets the
    /// handler go, out of any database access (a `deinit` it runs may use the database).
    func letHandlerGo() {
        // (Taken out first: the handed-over reference must be the last one.)
        let handler = onChange
        onChange = nil
        OutOfAccessRelease.release((consume handler) as Any)
    }

    override func regionWasCommitted(_ db: Database) {
        guard !cancellation.isCancelled, let onChange else { return }
        onChange(db)
    }
}

/// A thread-safe, one-way flag; its copies share it.
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
