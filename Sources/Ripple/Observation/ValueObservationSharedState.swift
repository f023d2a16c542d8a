/// What the fetches, the commits and the cancellation of a started value observation
/// share across threads, behind its lock (the part that does not depend on the observed
/// value: see `ValueObservationRunner`).
///
/// Not generic: the writer reads and changes it for each observation of each commit, and
/// a generic state costs a lookup of its metadata each time (W8).
struct ValueObservationSharedState {
    var isCancelled = false
    var isFetching = false
    var needsRefetch = false
    /// Counts the fetches asked for: on a pool, only the last one asked for may change
    /// the observed region (see `ValueObservationRunner.regionWasFetched`). Compared for
    /// equality only: it may wrap.
    var generation: UInt32 = 0
    /// The region the broker matches with commits, on a pool (set on the writer's queue,
    /// read when a fetch is asked for, from any thread).
    var observedRegion = DatabaseRegion()
    /// The application's `handleEvents` closures: let go once cancelled.
    var events: [ValueObservationEvents]

    init(events: [ValueObservationEvents]) {
        self.events = events
    }

    /// A change asks for a fetch: false when one runs (it fetches again once done), true
    /// when one starts now.
    mutating func askForFetch() -> Bool {
        if isFetching {
            needsRefetch = true
            return false
        }
        isFetching = true
        return true
    }

    /// The request of a fetch that starts, and the region observed when it was made.
    mutating func nextFetch() -> ValueObservationFetchRequest {
        generation &+= 1
        return ValueObservationFetchRequest(generation: generation, observedRegion: observedRegion)
    }

    /// Cancels; returns nil when it was cancelled already, else the `handleEvents`
    /// closures, which the caller releases once the lock is unlocked.
    mutating func cancel() -> [ValueObservationEvents]? {
        guard !isCancelled else { return nil }
        isCancelled = true
        defer { events = [] }
        return events
    }
}

/// A fetch that a value observation asked for, and the region it observed then.
struct ValueObservationFetchRequest {
    var generation: UInt32
    var observedRegion: DatabaseRegion
}
