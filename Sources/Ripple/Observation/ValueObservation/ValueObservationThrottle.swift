import Dispatch
import Foundation

/// Throttling, around the strategy of a queue or a pool: a change asks for a fetch
/// `interval` later, and the changes that come meanwhile join it; the fetch itself runs
/// as the wrapped strategy runs it.
final class ValueObservationThrottle: ValueObservationStrategy {
    private let interval: TimeInterval
    private let base: any ValueObservationStrategy

    init(interval: TimeInterval, base: any ValueObservationStrategy) {
        self.interval = interval
        self.base = base
    }

    var fetchesInWriteTransaction: Bool { base.fetchesInWriteTransaction }

    func start(_ runner: ValueObservationRunner, _ writer: any DatabaseWriter, immediately: Bool) {
        base.start(runner, writer, immediately: immediately)
    }

    func fetchAfterChange(_ runner: ValueObservationRunner, _ db: Database) {
        guard runner.state.withLock({ $0.askForFetch() }) else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + interval) { runner.fetchLatest() }
    }

    func fetchLatest(_ runner: ValueObservationRunner, _ writer: any DatabaseWriter, _ request: ValueObservationFetchRequest) {
        base.fetchLatest(runner, writer, request)
    }

    func regionWasFetched(_ runner: ValueObservationRunner, _ region: DatabaseRegion, on db: Database, _ request: ValueObservationFetchRequest?) {
        base.regionWasFetched(runner, region, on: db, request)
    }

    func willObserve(_ runner: ValueObservationRunner, _ region: DatabaseRegion) {
        base.willObserve(runner, region)
    }
}
