/// The state of a ``SharedValueObservation``: its subscribers, whether the database
/// observation runs, and the last result. Pure: each event returns what to do, and
/// ``SharedValueObservation`` does it, out of its lock (a subscriber's handler may start or
/// cancel another subscription of the same shared observation).
struct SharedValueObservationState<Value> {
    let extent: SharedValueObservationExtent
    /// The subscribers, in the order they came.
    private(set) var subscribers: [UInt64] = []
    /// Whether the database observation runs (or starts).
    private(set) var isObserving = false
    /// Counts the database observations started: a cancellable that comes back from a start
    /// is kept only if no stop came meanwhile.
    private(set) var generation: UInt64 = 0
    /// The last value or error, given at once to a later subscriber.
    private(set) var lastResult: Result<Value, any Error>?
    private var nextID: UInt64 = 0
    /// Subscribers that wait for the last result, which the scheduler delivers later: a
    /// value that comes meanwhile reaches them directly, and the last result is then
    /// older, so they no longer wait for it.
    private var waitingForLast: Set<UInt64> = []

    init(extent: SharedValueObservationExtent) {
        self.extent = extent
    }

    enum SubscribeAction {
        /// Start the database observation of this generation.
        case startObservation(generation: UInt64)
        /// Give the last result to the new subscriber, through the scheduler: see
        /// ``takeLastResult(for:)``.
        case deliverLast
        /// Nothing yet: the first value is on its way.
        case none
    }

    /// A subscriber comes: its id, and what to do.
    mutating func subscribe() -> (id: UInt64, action: SubscribeAction) {
        nextID += 1
        let id = nextID
        subscribers.append(id)
        if !isObserving {
            isObserving = true
            generation += 1
            return (id, .startObservation(generation: generation))
        }
        if lastResult != nil {
            waitingForLast.insert(id)
            return (id, .deliverLast)
        }
        return (id, .none)
    }

    /// The last result, for a subscriber that still waits for it (nil when a newer value
    /// reached it meanwhile, or when it left).
    mutating func takeLastResult(for id: UInt64) -> Result<Value, any Error>? {
        guard waitingForLast.remove(id) != nil else { return nil }
        return lastResult
    }

    /// Whether the cancellable of the database observation of `generation` is to be kept
    /// (else it is cancelled: that observation was stopped while it started).
    func keepsObservation(of generation: UInt64) -> Bool {
        isObserving && generation == self.generation
    }

    /// A value comes: who hears of it.
    mutating func receive(_ value: Value) -> [UInt64] {
        lastResult = .success(value)
        waitingForLast.removeAll()
        return subscribers
    }

    /// An error comes: who hears of it (every subscriber, who then leaves), and whether the
    /// database observation stops. With `.whileObserved` it stops, and the next subscriber
    /// starts a new one; with `.observationLifetime` the error is the last result for good.
    mutating func receive(error: any Error) -> (subscribers: [UInt64], stopsObservation: Bool) {
        let notified = subscribers
        subscribers = []
        waitingForLast.removeAll()
        switch extent {
        case .whileObserved:
            stop()
            return (notified, true)
        case .observationLifetime:
            lastResult = .failure(error)
            return (notified, false)
        }
    }

    /// A subscriber cancels: whether the database observation stops (the last subscriber
    /// left, with `.whileObserved`).
    mutating func unsubscribe(_ id: UInt64) -> Bool {
        guard let index = subscribers.firstIndex(of: id) else { return false }
        subscribers.remove(at: index)
        waitingForLast.remove(id)
        guard subscribers.isEmpty && extent == .whileObserved && isObserving else { return false }
        stop()
        return true
    }

    /// Whether subscriber `id` is still there (a cancelled one hears nothing more).
    func isSubscribed(_ id: UInt64) -> Bool {
        subscribers.contains(id)
    }

    private mutating func stop() {
        isObserving = false
        lastResult = nil
    }
}
