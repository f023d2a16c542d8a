/// What the fetches, the commits, the deliveries and the cancellation of a started value
/// observation share across threads, behind its lock: the observation's state machine.
/// Its events (a commit, a fetch that ends, a cancel, the end of a use) return what the
/// runner does next (see `ValueObservationRunner`, which performs them, and its
/// strategies); it does not depend on the observed value.
///
/// Not generic: the writer reads and changes it for each observation of each commit, and
/// each delivery runs on it; a generic state costs lookups of its metadata each time (W8).
///
/// (The order of the fields packs them, W6m.)
struct ValueObservationSharedState {
    /// The deliveries that wait for the scheduler, in order: each one calls a handler
    /// with a value or an error.
    var deliveries = DeliveryOrder<@Sendable () -> Void>()
    private var lifecycle = Lifecycle.active
    /// Where the observation's one fetch at a time stands.
    private(set) var fetchPhase = FetchPhase.idle
    /// The work under way that may hold the observation's closures, on threads that may
    /// be in a database access (see `ValueObservationRunner.whileInUse`): once cancelled,
    /// the closures are let go when the last one ends. A few at most: the writer's, a
    /// reader's, a start's, a throttled fetch's.
    private(set) var usesInProgress: UInt8 = 0
    /// Whether `willTrackRegion` handlers were told of a region yet (see
    /// `ValueObservationRunner.trackRegion`).
    private var hasTrackedRegion = false
    /// Counts the fetches asked for: on a pool, only the last one asked for may change
    /// the observed region (see `ValueObservationPoolStrategy.regionWasFetched`). Compared
    /// for equality only: it may wrap. (16 bits leave a byte for the flag above, W6m.)
    var generation: UInt16 = 0
    /// The region the broker matches with commits, on a pool (set on the writer's queue,
    /// read when a fetch is asked for, from any thread).
    var observedRegion = DatabaseRegion()
    /// The application's `handleEvents` closures: let go once cancelled.
    var events: [ValueObservationEvents]
    /// The error handler: let go once cancelled, so that one that keeps the cancellable
    /// makes no cycle then.
    private(set) var onError: (@Sendable (any Error) -> Void)?

    /// Whether the observation was cancelled.
    var isCancelled: Bool { lifecycle != .active }

    /// Whether the observation runs, was cancelled, or let its closures go.
    private enum Lifecycle: UInt8 {
        case active
        /// Cancelled: the closures wait for the end of the work that holds them.
        case cancelled
        /// Cancelled, and the closures were let go.
        case released
    }

    init(events: [ValueObservationEvents], onError: (@Sendable (any Error) -> Void)? = nil) {
        self.events = events
        self.onError = onError
    }

    /// Where the observation's fetch stands: an observation runs one fetch at a time, and
    /// a change that comes while it runs asks for one more, after it.
    enum FetchPhase: UInt8 {
        /// No fetch runs.
        case idle
        /// A fetch runs, and no change came since it was asked for.
        case fetching
        /// A fetch runs, and a change came since it was asked for: one more follows.
        case fetchingThenAgain
    }

    /// A change asks for a fetch: false when one runs (it fetches again once done), true
    /// when one starts now.
    mutating func askForFetch() -> Bool {
        switch fetchPhase {
        case .idle:
            fetchPhase = .fetching
            return true
        case .fetching, .fetchingThenAgain:
            fetchPhase = .fetchingThenAgain
            return false
        }
    }

    /// The first fetch, which no change asked for, starts.
    mutating func startFirstFetch() {
        assert(fetchPhase == .idle, "the first fetch starts while another runs")
        fetchPhase = .fetching
    }

    /// A fetch on the writer's queue starts: it sees every commit made so far, so the
    /// changes that asked for one more fetch meanwhile are covered by this one.
    mutating func fetchSeesEveryCommit() {
        if fetchPhase == .fetchingThenAgain { fetchPhase = .fetching }
    }

    /// A fetch that was asked for does not run (the writer is gone, or the observation
    /// was cancelled before it began).
    mutating func fetchDidNotRun() {
        fetchPhase = .idle
    }

    /// What ``fetchEnded(delivering:)`` asks the runner to do.
    struct FetchEnd: Equatable {
        /// Schedule a delivery: the one enqueued found none scheduled.
        var schedulesDelivery: Bool
        /// Fetch again: a change came while the fetch ran.
        var fetchesAgain: Bool
    }

    /// A fetch ended: its delivery (if any) is enqueued and the fetch ends in one step, so
    /// that a commit that comes after the delivery (an application that writes again once
    /// it sees the value) finds the fetch over and starts the next one at once, and the
    /// next value is enqueued after this one. Once cancelled, nothing is enqueued, and no
    /// fetch follows.
    mutating func fetchEnded(delivering delivery: (@Sendable () -> Void)?) -> FetchEnd {
        let schedulesDelivery = delivery.map { enqueue($0) } ?? false
        if fetchPhase == .fetchingThenAgain && !isCancelled {
            fetchPhase = .fetching
            return FetchEnd(schedulesDelivery: schedulesDelivery, fetchesAgain: true)
        }
        fetchPhase = .idle
        return FetchEnd(schedulesDelivery: schedulesDelivery, fetchesAgain: false)
    }

    /// Adds a delivery, unless cancelled; returns whether a delivery must be scheduled
    /// (none is scheduled or running).
    mutating func enqueue(_ delivery: @escaping @Sendable () -> Void) -> Bool {
        guard !isCancelled else { return false }
        return deliveries.append(delivery)
    }

    /// A region is about to be observed: true the first time, when the `willTrackRegion`
    /// handlers hear of it whatever it is (later, only when it differs from the last one).
    mutating func tracksFirstRegion() -> Bool {
        defer { hasTrackedRegion = true }
        return !hasTrackedRegion
    }

    /// The request of a fetch that starts, and the region observed when it was made.
    mutating func nextFetch() -> ValueObservationFetchRequest {
        generation &+= 1
        return ValueObservationFetchRequest(generation: generation, observedRegion: observedRegion)
    }

    /// What a cancelled observation lets go: for the caller to release once the lock is
    /// unlocked (releasing a closure may run a `deinit` that uses the observation).
    struct Released {
        var events: [ValueObservationEvents]
        var deliveries: [@Sendable () -> Void]
        var onError: (@Sendable (any Error) -> Void)?
    }

    /// Cancels; returns false when it was cancelled already. What the observation lets
    /// go then comes from ``letGo()``.
    mutating func cancel() -> Bool {
        guard lifecycle == .active else { return false }
        lifecycle = .cancelled
        return true
    }

    /// Once cancelled, and when no work holds the closures (``usesInProgress`` is 0): what
    /// the observation lets go, once. Nil otherwise.
    mutating func letGo() -> Released? {
        guard lifecycle == .cancelled && usesInProgress == 0 else { return nil }
        lifecycle = .released
        defer {
            events = []
            onError = nil
        }
        return Released(events: events, deliveries: deliveries.removeAll(), onError: onError)
    }

    /// Work that may hold the observation's closures begins; false, and nothing begins,
    /// when `unlessCancelled` and the observation was cancelled.
    @discardableResult
    mutating func beginUse(unlessCancelled: Bool = false) -> Bool {
        if unlessCancelled && isCancelled { return false }
        precondition(usesInProgress < .max, "too many uses of a value observation at once")
        usesInProgress += 1
        return true
    }

    /// Work that began with ``beginUse()`` ends. When it was the last one, and the
    /// observation was cancelled meanwhile, ``letGo()`` gives what the observation lets go.
    mutating func endUse() {
        precondition(usesInProgress > 0, "endUse() without beginUse()")
        usesInProgress -= 1
    }
}

// MARK: Events that return actions

extension ValueObservationSharedState {
    /// What the runner does after a commit that touched the region.
    struct CommitAction: Equatable {
        /// Tell the `databaseDidChange` handlers: there are some.
        var notifiesChange: Bool
        /// Start this fetch; nil when one runs (it fetches again once done).
        var fetch: ValueObservationFetchRequest?
    }

    /// A commit touched the region: what the runner does, or nil once cancelled. (On a
    /// pool, the writer does this for each observation of each commit, under one lock.)
    mutating func regionWasCommitted() -> CommitAction? {
        guard !isCancelled else { return nil }
        return CommitAction(notifiesChange: !events.isEmpty, fetch: changeAsksForFetch())
    }

    /// A change asks for a fetch: the request of the fetch that starts now, or nil when
    /// one runs (it fetches again once done).
    mutating func changeAsksForFetch() -> ValueObservationFetchRequest? {
        askForFetch() ? nextFetch() : nil
    }

    /// What the runner does when the application cancels.
    struct CancelAction {
        /// The handlers to tell of the cancellation.
        var events: [ValueObservationEvents]
        /// What to release once the lock is unlocked; nil while work holds the closures.
        var released: Released?
    }

    /// The application cancels: what the runner does, or nil when it cancelled already.
    mutating func cancelled() -> CancelAction? {
        guard cancel() else { return nil }
        let events = events
        return CancelAction(events: events, released: letGo())
    }

    /// Work that began with ``beginUse(unlessCancelled:)`` ends: what the observation lets
    /// go now, when it was the last work and the observation was cancelled meanwhile.
    mutating func useEnded() -> Released? {
        endUse()
        return letGo()
    }

    /// The delivery of an outcome: a value's calls the change handler it was made with,
    /// an error's calls the error handler (none once let go).
    func delivery(of outcome: ValueObservationOutcome) -> @Sendable () -> Void {
        switch outcome {
        case .value(let deliverValue):
            return deliverValue
        case .failure(let error):
            let onError = onError
            return { onError?(error) }
        }
    }

    /// A fetch ended with `outcome` (nil: no value to deliver): see
    /// ``fetchEnded(delivering:)``.
    mutating func fetchEnded(with outcome: ValueObservationOutcome?) -> FetchEnd {
        fetchEnded(delivering: outcome.map { delivery(of: $0) })
    }
}

/// What a fetch gives: the delivery of a value (made with the change handler set then), or
/// an error.
enum ValueObservationOutcome {
    case value(@Sendable () -> Void)
    case failure(any Error)
}

extension ValueObservationOutcome? {
    var isFailure: Bool {
        if case .failure? = self { true } else { false }
    }
}

/// A fetch that a value observation asked for, and the region it observed then.
struct ValueObservationFetchRequest: Equatable {
    var generation: UInt16
    var observedRegion: DatabaseRegion
}
