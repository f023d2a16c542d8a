import Foundation

/// Where and when the fetches of a value observation run: the part of its runner that
/// differs between a ``DatabaseQueue`` (`ValueObservationQueueStrategy`), a
/// ``DatabasePool`` (`ValueObservationPoolStrategy`), and throttling
/// (`ValueObservationThrottle`, which wraps one of the two).
///
/// Immutable, and shared by all observations but the throttled ones: a runner keeps one
/// reference, and no flag of its own (W6m).
protocol ValueObservationStrategy: AnyObject, Sendable {
    /// Whether fetches run in a write transaction: the observation writes.
    var fetchesInWriteTransaction: Bool { get }

    /// Fetches the first value and registers the runner on the writer; with `immediately`,
    /// the first value is delivered before this returns.
    func start(_ runner: ValueObservationRunner, _ writer: any DatabaseWriter, immediately: Bool)

    /// On the writer's queue, after a commit that touched the region.
    func regionWasCommitted(_ runner: ValueObservationRunner, _ db: Database)

    /// On the writer's queue: a change (a commit, or a region that a fetch found new) asks
    /// for a fetch.
    func fetchAfterChange(_ runner: ValueObservationRunner, _ db: Database)

    /// Starts the fetch of `request`, off the access that asked for it.
    func fetchLatest(_ runner: ValueObservationRunner, _ writer: any DatabaseWriter, _ request: ValueObservationFetchRequest)

    /// A fetch read `region`, inside its access (`db`); `request` is nil for a fetch on
    /// the writer right after a commit.
    func regionWasFetched(_ runner: ValueObservationRunner, _ region: DatabaseRegion, on db: Database, _ request: ValueObservationFetchRequest?)

    /// On the writer's queue: the broker is about to match commits with `region`.
    func willObserve(_ runner: ValueObservationRunner, _ region: DatabaseRegion)
}

extension ValueObservationStrategy {
    func regionWasCommitted(_ runner: ValueObservationRunner, _ db: Database) {
        runner.whileInUse(unlessCancelled: true) { runner.regionDidChange(db) }
    }

    func willObserve(_ runner: ValueObservationRunner, _ region: DatabaseRegion) {}
}

/// The strategy of an observation of `writer`. With write access, a pool's observation
/// fetches on the writer, as a queue's does.
func valueObservationStrategy(
    for writer: some DatabaseWriter,
    requiresWriteAccess: Bool,
    throttleInterval: TimeInterval?
) -> any ValueObservationStrategy {
    let base: any ValueObservationStrategy =
        if requiresWriteAccess {
            ValueObservationQueueStrategy.writing
        } else if writer is DatabasePool {
            ValueObservationPoolStrategy.shared
        } else {
            ValueObservationQueueStrategy.reading
        }
    guard let throttleInterval else { return base }
    return ValueObservationThrottle(interval: throttleInterval, base: base)
}
