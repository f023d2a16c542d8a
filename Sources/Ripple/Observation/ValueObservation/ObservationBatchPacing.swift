/// When a pool's batches of value observation fetches run (see
/// `DatabasePool.asyncObservationRead`): a pure state machine, apart from the threads and
/// timers that run its decisions, so that it is tested without them.
///
/// One batch runs at a time. A batch asked for while the reader is idle starts at once:
/// sporadic commits are observed with no added latency. Fetches asked for while a batch
/// runs wait for it to end, then for a pause as long as it ran (at most
/// ``maximumPause``), and run together as the next batch: while commits keep coming, the
/// reader rests half of the time, and a writer that shares the machine's cores with it
/// keeps its own (W8, SQLite's statistics off: an import with 20 observations of its
/// table ran 1.32-1.45x the import alone without the pause, 1.13-1.35x with it, on two
/// cores).
/// Observations then get fewer values than commits, as a coalescing scheduler gives them;
/// the value of the last commit always comes, since a fetch asked for is never dropped.
struct ObservationBatchPacing<Fetch> {
    /// The longest pause between two batches, in nanoseconds: a batch that ran long (a
    /// slow fetch) does not hold the next values back for as long again.
    static var maximumPause: UInt64 { 20_000_000 }

    /// The fetches asked for since the last batch began.
    private var fetches: [Fetch] = []
    /// Whether a batch runs, or waits for its pause: fetches asked for then wait too.
    private(set) var isBusy = false

    /// A fetch is asked for; returns whether a batch must start now (the reader was idle).
    mutating func ask(_ fetch: Fetch) -> Bool {
        fetches.append(fetch)
        guard !isBusy else { return false }
        isBusy = true
        return true
    }

    /// The fetches of the batch that starts: all those asked for so far.
    mutating func takeBatch() -> [Fetch] {
        defer { fetches.removeAll() }
        return fetches
    }

    /// The batch that started last ended after running `duration` nanoseconds; returns the
    /// pause after which the next batch must start, for the fetches asked for meanwhile,
    /// or nil when none was: the reader is idle.
    mutating func batchDidEnd(duration: UInt64) -> UInt64? {
        guard !fetches.isEmpty else {
            isBusy = false
            return nil
        }
        return min(duration, Self.maximumPause)
    }
}
