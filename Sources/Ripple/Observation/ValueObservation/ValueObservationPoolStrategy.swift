/// The strategy of an observation of a ``DatabasePool``: fetches run on readers while the
/// writer goes on. A commit asks for a fetch (`DatabasePool.asyncObservationRead`), whose
/// snapshot holds that commit, maybe later ones too; the commits that come while it runs
/// ask for one more, after it.
final class ValueObservationPoolStrategy: ValueObservationStrategy {
    static let shared = ValueObservationPoolStrategy()

    var fetchesInWriteTransaction: Bool { false }

    private init() {}

    /// A pool's observation starts without waiting for the writer, which may be busy with
    /// a long transaction: the first value comes from a reader, then the observation
    /// registers on the writer, and fetches again if a commit may have come between the
    /// reader's snapshot and the registration (see `LastCommitMark`). So the first value
    /// never waits for a write, and no commit is missed: the one that ends the write that
    /// was running is seen.
    func start(_ runner: ValueObservationRunner, _ writer: any DatabaseWriter, immediately: Bool) {
        let pool = writer as! DatabasePool  // the strategy of pools only
        runner.state.withLock { $0.startFirstFetch() }
        if immediately {
            startNow(runner, pool)
            return
        }
        pool.asyncObservationRead(markingLastCommit: true) { [self] result, mark in
            runner.whileInUse {
                let (region, outcome) = readFirstValue(runner, result)
                if !outcome.isFailure { registerAfterFirstRead(runner, pool, region: region, mark: mark) }
                runner.endFetch(delivering: outcome)
            }
        }
    }

    /// `start` for `.immediate`: the first value is read on a reader now, and delivered
    /// before `start` returns, out of the read. A reader, as for the other schedulers: the
    /// fetch may write through the pool (a write inside a write would be fatal).
    private func startNow(_ runner: ValueObservationRunner, _ pool: DatabasePool) {
        var first: (region: DatabaseRegion, outcome: ValueObservationOutcome?, mark: LastCommitMark?) = (.fullDatabase, nil, nil)
        pool.snapshotRead(markingLastCommit: true) { result, mark in
            let (region, outcome) = readFirstValue(runner, result)
            first = (region, outcome, mark)
        }
        if !first.outcome.isFailure { registerAfterFirstRead(runner, pool, region: first.region, mark: first.mark) }
        runner.deliverNow(first.outcome)
        runner.endFetch(delivering: nil)
    }

    /// The first value, read on a reader, and the region to observe.
    private func readFirstValue(_ runner: ValueObservationRunner, _ result: Result<Database, any Error>) -> (DatabaseRegion, ValueObservationOutcome?)
    {
        var region: DatabaseRegion = .fullDatabase
        let outcome = runner.fetchOutcome(result, recording: runner.recordsInitialRegion) { db, recorded in
            region = try runner.initialRegion(db, recorded: recorded)
        }
        return (region, outcome)
    }

    /// Registers on the writer, after the first value was read in a snapshot that holds the
    /// commit of `mark`; fetches again when a commit came since. (Not after a failed first
    /// read: the observation ends with its error, and tracks nothing.)
    private func registerAfterFirstRead(_ runner: ValueObservationRunner, _ pool: DatabasePool, region: DatabaseRegion, mark: LastCommitMark?) {
        // Registered before the first value is delivered: a write that the application
        // starts once it has the value comes after the registration.
        pool.asyncWriteWithoutTransaction { db in
            runner.whileInUse(unlessCancelled: true) {
                runner.register(db, initialRegion: region)
                if !db.noCommitChangedData(since: mark) {
                    // (While the first value is not delivered yet, this only asks for one
                    // more fetch, after it.)
                    runner.regionDidChange(db)
                }
            }
        }
    }

    /// What the default does, with the lock taken once where it took it four times
    /// (cancelled? the handlers, the fetch under way, the next fetch). The writer does this
    /// for each observation of each commit, and each lock may wait for a reader that
    /// fetches (W8: 20 observations of a table, one commit every 90 µs).
    func regionWasCommitted(_ runner: ValueObservationRunner, _ db: Database) {
        guard let action = runner.state.withLock({ $0.regionWasCommitted() }) else { return }
        // (Without handlers, no copy of them, no use, no key path: a copy is a retain, and
        // making a key path has a cost.)
        if action.notifiesChange { runner.whileInUse { runner.notify(\.databaseDidChange) } }
        if let request = action.fetch { startFetch(runner, request) }
    }

    func fetchAfterChange(_ runner: ValueObservationRunner, _ db: Database) {
        if let request = runner.state.withLock({ $0.changeAsksForFetch() }) { startFetch(runner, request) }
    }

    /// Starts the fetch of `request` on a reader. The writer goes on at once.
    private func startFetch(_ runner: ValueObservationRunner, _ request: ValueObservationFetchRequest) {
        guard let writer = runner.writer else {
            runner.state.withLock { $0.fetchDidNotRun() }
            return
        }
        fetchLatest(runner, writer, request)
    }

    func fetchLatest(_ runner: ValueObservationRunner, _ writer: any DatabaseWriter, _ request: ValueObservationFetchRequest) {
        let pool = writer as! DatabasePool  // the strategy of pools only
        pool.asyncObservationRead { result, _ in
            runner.whileInUse { runner.fetchAndDeliver(result, request) }
        }
    }

    /// The fetch ran on a reader while the writer went on, observing the region observed
    /// when the fetch was asked for. When the fetch read that same region (the usual
    /// case), nothing changes. Else the writer observes the new region, then fetches
    /// again: a commit made meanwhile may have changed what only the new region holds.
    /// Only the last fetch asked for does so: an older one, whose region reaches the writer
    /// late, is ignored (a newer one compares with the region observed when it began).
    func regionWasFetched(_ runner: ValueObservationRunner, _ region: DatabaseRegion, on db: Database, _ request: ValueObservationFetchRequest?) {
        guard let request, region != request.observedRegion else { return }
        runner.writer?.asyncWriteWithoutTransaction { writerDB in
            guard runner.state.withLock({ request.generation == $0.generation }) else { return }
            runner.whileInUse(unlessCancelled: true) {
                runner.setRegion(region, on: writerDB)
                runner.fetchAfterChange(writerDB)
            }
        }
    }

    /// The broker's region, kept in the state too: a fetch asked for from any thread
    /// compares with it.
    func willObserve(_ runner: ValueObservationRunner, _ region: DatabaseRegion) {
        runner.state.withLock { $0.observedRegion = region }
    }
}
