/// What the fetches, the commits, the deliveries and the cancellation of a started value
/// observation share across threads, behind its lock (the part that does not depend on the
/// observed value: see `ValueObservationRunner`).
///
/// Not generic: the writer reads and changes it for each observation of each commit, and
/// each delivery runs on it; a generic state costs lookups of its metadata each time (W8).
///
/// (The order of the fields packs them in 32 bytes, W6m.)
struct ValueObservationSharedState {
    /// The deliveries that wait for the scheduler, in order: each one calls a handler
    /// with a value or an error.
    var deliveries = DeliveryOrder<@Sendable () -> Void>()
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

    /// What a cancellation lets go: for the caller to release once the lock is unlocked
    /// (releasing a closure may run a `deinit` that uses the observation).
    struct Released {
        var events: [ValueObservationEvents]
        var deliveries: [@Sendable () -> Void]
    }

    /// Cancels; returns nil when it was cancelled already, else what it lets go.
    mutating func cancel() -> Released? {
        guard !isCancelled else { return nil }
        isCancelled = true
        defer { events = [] }
        return Released(events: events, deliveries: deliveries.removeAll())
    }
}

extension LockedState where State == ValueObservationSharedState {
    /// Asks `scheduler` for the one delivery of the observation, which runs the
    /// deliveries waiting when it runs, in order, then asks for another one if more came
    /// meanwhile: a scheduler's queue (the main queue) is never held by one observation
    /// for as long as values keep coming. Nothing is delivered once cancelled, not even
    /// by the delivery under way (a handler that cancels is the last one called).
    func scheduleDelivery(on scheduler: any ValueObservationScheduler) {
        scheduler.schedule { [self] in
            for delivery in withLock({ $0.deliveries.takeAll() }) {
                guard !withLock({ $0.isCancelled }) else { break }
                delivery()
            }
            if withLock({ $0.deliveries.continuesAfterDelivery() }) { scheduleDelivery(on: scheduler) }
        }
    }
}

/// A fetch that a value observation asked for, and the region it observed then.
struct ValueObservationFetchRequest {
    var generation: UInt32
    var observedRegion: DatabaseRegion
}
