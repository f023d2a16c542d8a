/// The strategy of an observation of a ``DatabaseQueue``, or of one that writes: each fetch
/// runs on the writer's queue, right after the commit and before any other access, so
/// each transaction that touched the region gets its own value, and the writer waits for
/// it.
final class ValueObservationQueueStrategy: ValueObservationStrategy {
    /// The strategy of observations that only read.
    static let reading = ValueObservationQueueStrategy(fetchesInWriteTransaction: false)
    /// The strategy of observations that write (on a pool too).
    static let writing = ValueObservationQueueStrategy(fetchesInWriteTransaction: true)

    let fetchesInWriteTransaction: Bool

    private init(fetchesInWriteTransaction: Bool) {
        self.fetchesInWriteTransaction = fetchesInWriteTransaction
    }

    func start(_ runner: ValueObservationRunner, _ writer: any DatabaseWriter, immediately: Bool) {
        if immediately {
            // Register and fetch the initial value in one writer access: no commit can slip
            // in between.
            runner.deliverNow(writer.unsafeReentrantWrite { db in runner.registerAndFetch(db) })
        } else {
            writer.asyncWriteWithoutTransaction { db in
                runner.whileInUse { runner.endFetch(delivering: runner.registerAndFetch(db)) }
            }
        }
    }

    func fetchAfterChange(_ runner: ValueObservationRunner, _ db: Database) {
        // A change told while a fetch runs (a fetch that writes: its commit runs another
        // observation's fetch, which writes the region) asks for one more once it ends,
        // so that values come in the order of the commits.
        guard runner.state.withLock({ $0.askForFetch() }) else { return }
        runner.fetchAndDeliver(.success(db), nil)
    }

    func fetchLatest(_ runner: ValueObservationRunner, _ writer: any DatabaseWriter, _ request: ValueObservationFetchRequest) {
        writer.asyncWriteWithoutTransaction { db in
            runner.whileInUse {
                // On the writer's queue, the fetch sees every commit made so far.
                runner.state.withLock { $0.fetchSeesEveryCommit() }
                runner.fetchAndDeliver(.success(db), request)
            }
        }
    }

    /// The fetch ran on the writer, after the last commit: its region is observed at once.
    func regionWasFetched(_ runner: ValueObservationRunner, _ region: DatabaseRegion, on db: Database, _ request: ValueObservationFetchRequest?) {
        runner.setRegion(region, on: db)
    }
}
