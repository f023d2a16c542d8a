import Dispatch
import Foundation

/// Runs one started value observation. It is its own region observer: one object per
/// observation, with one lock (W6m).
///
/// Three parts: the state (`ValueObservationSharedState`), whose events return what to do;
/// this class, which performs it (the fetch, the delivery, the cancellation); and its
/// strategy (`ValueObservationStrategy`), which says where and when fetches run: on the
/// writer of a queue, on the readers of a pool, maybe throttled.
///
/// The class is not generic: what depends on the type of the values (the pipeline that
/// fetches them, the change handler) lies in the subclass that the observation makes,
/// `TypedValueObservationRunner<Value>`, behind three overridden methods. Generic code that
/// the compiler cannot specialize (a class whose values only the application knows) looks
/// up the metadata of each generic type it touches, each time, on the fetch, commit and
/// delivery paths (Benchmarks/README.md, "Shortcuts"). (A typed part held by closures
/// instead would be one more allocation per observation.)
// Unchecked Sendable (restated from `RegionObserver`): what fetches, deliveries and
// cancellation share across threads is behind `state`'s lock (the subclass's handlers
// too); `region` is only used on the writer's queue; the other properties are immutable.
class ValueObservationRunner: RegionObserver, DatabaseCancellable, @unchecked Sendable {
    private(set) weak var writer: (any DatabaseWriter)?
    private let strategy: any ValueObservationStrategy
    private let regionSpec: ValueObservationRegion
    private let scheduler: any ValueObservationScheduler

    /// The fetches, the cancellation, the handlers and the deliveries, shared across
    /// threads.
    let state: LockedState<ValueObservationSharedState>

    /// What a cancelled observation lets go, for the caller to release once the lock is
    /// unlocked (releasing a closure may run a `deinit` that uses the observation).
    private struct Released {
        var shared: ValueObservationSharedState.Released
        var typedOutputs: Any
    }

    /// With the lock held: `shared` and the typed part, which the subclass lets go now.
    private func released(_ shared: ValueObservationSharedState.Released) -> Released {
        Released(shared: shared, typedOutputs: letTypedOutputsGo())
    }

    /// Runs `body`, work that may hold the observation's closures (its handlers, its
    /// fetch, its `handleEvents` closures) on a thread that may run a database access: a
    /// fetch, the scheduling of a delivery, a call to a handler.
    ///
    /// A cancellation meanwhile (from another thread) leaves the closures to the end of
    /// the last such work, which lets them go out of any access. So the last reference to
    /// a closure is never released inside an access, where a `deinit` that uses the
    /// database would be refused. (`body`'s own references go when it returns, before the
    /// work ends: the observation's are the last.)
    /// (`body` returns nothing: what it returned would outlive the work.) With
    /// `unlessCancelled`, `body` does not run once cancelled.
    func whileInUse(unlessCancelled: Bool = false, _ body: () -> Void) {
        guard state.withLock({ $0.beginUse(unlessCancelled: unlessCancelled) }) else { return }
        defer {
            if let released = state.withLock({ state -> Released? in
                state.useEnded().map(released)
            }) {
                OutOfAccessRelease.release(consume released)
            }
        }
        body()
    }

    /// Whether the observation was cancelled.
    private var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Whether the region is recorded again on each fetch.
    private var recordsRegionOnEachFetch: Bool { regionSpec.recordsRegionOnEachFetch }

    init(
        writer: some DatabaseWriter,
        requiresWriteAccess: Bool,
        throttleInterval: TimeInterval?,
        regionSpec: ValueObservationRegion,
        events: [ValueObservationEvents],
        scheduler: any ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void
    ) {
        self.writer = writer
        self.strategy = valueObservationStrategy(
            for: writer, requiresWriteAccess: requiresWriteAccess, throttleInterval: throttleInterval)
        self.regionSpec = regionSpec
        self.scheduler = scheduler
        self.state = LockedState(ValueObservationSharedState(events: events, onError: onError))
        super.init(region: .fullDatabase)
    }

    // MARK: What depends on the type of the values (overridden)

    /// Runs the application's fetch, unless cancelled (nil then): its raw result, which
    /// ``delivery(of:)`` turns into a value.
    func fetchRaw(_ db: Database) throws -> Any? {
        preconditionFailure("\(type(of: self)) must override fetchRaw(_:)")
    }

    /// The delivery of the value that `raw` gives; nil when the pipeline skips it (a
    /// duplicate, say) or once cancelled.
    func delivery(of raw: Any) throws -> (@Sendable () -> Void)? {
        preconditionFailure("\(type(of: self)) must override delivery(of:)")
    }

    /// With the lock held, when cancelled: lets the pipeline and the change handler go,
    /// and returns them, for the caller to release once the lock is unlocked.
    func letTypedOutputsGo() -> Any {
        preconditionFailure("\(type(of: self)) must override letTypedOutputsGo()")
    }

    // MARK: Start and cancel

    static var immediateOffMainActorMessage: String {
        "ValueObservation with .immediate scheduling must be started on the main actor: "
            + "start it from main-actor code, or schedule with .async(onQueue:) or .mainActor"
    }

    func start() {
        guard let writer else { return }
        whileInUse { start(writer) }
    }

    private func start(_ writer: any DatabaseWriter) {
        notify(\.willStart)
        let immediately = scheduler.immediateInitialValue()
        if immediately && scheduler is ImmediateValueObservationScheduler && !MainActorCheck.isOnMainActor {
            // Not a trap: the application hears of it, and may go on.
            let error = DatabaseError.misuse(Self.immediateOffMainActorMessage)
            guard
                let (events, onError) = state.withLock({ state -> ([ValueObservationEvents], (@Sendable (any Error) -> Void)?)? in
                    guard state.cancel() else { return nil }
                    return (state.events, state.onError)
                })
            else { return }
            events.notify(\.didFail, error)
            onError?(error)
            return
        }
        strategy.start(self, writer, immediately: immediately)
    }

    func cancel() {
        // What the observation lets go is released here, with the lock unlocked, out of
        // any access; or, when work under way holds its closures, once that work ends
        // (see `whileInUse(unlessCancelled:_:)`).
        guard
            let (events, released) = state.withLock({ state -> ([ValueObservationEvents], Released?)? in
                guard let action = state.cancelled() else { return nil }
                return (action.events, action.released.map(released))
            })
        else { return }
        events.notify(\.didCancel)
        OutOfAccessRelease.release((consume events, consume released))
        writer?.asyncWriteWithoutTransaction { [self] db in db.remove(transactionObserver: self) }
    }

    /// The region that the first fetch observes: the explicit one, else the one it read.
    func initialRegion(_ db: Database, recorded: DatabaseRegion?) throws -> DatabaseRegion {
        guard case .explicit(let regions) = regionSpec else { return recorded ?? .fullDatabase }
        return try regions.reduce(into: DatabaseRegion()) { try $0.formUnion($1.databaseRegion(db)) }
    }

    /// Whether the first fetch records the region it reads.
    var recordsInitialRegion: Bool {
        if case .explicit = regionSpec { return false }
        return true
    }

    /// On the writer's queue: observes `initialRegion` from now on.
    func register(_ db: Database, initialRegion: DatabaseRegion) {
        trackRegion(initialRegion)
        region = initialRegion
        strategy.willObserve(self, initialRegion)
        db.add(transactionObserver: self, extent: .databaseLifetime)
    }

    /// On the writer's queue: fetches the initial value and registers the region observer.
    func registerAndFetch(_ db: Database) -> ValueObservationOutcome? {
        fetchOutcome(.success(db), recording: recordsInitialRegion) { db, recorded in
            register(db, initialRegion: try initialRegion(db, recorded: recorded))
        }
    }

    // MARK: Changes

    /// What a fetch reads depends on the schema too (a view redefined, a temporary table
    /// that hides a table): a schema change fetches again, and records the region anew.
    override var observesSchemaChanges: Bool { recordsRegionOnEachFetch }

    override func regionWasCommitted(_ db: Database) {
        strategy.regionWasCommitted(self, db)
    }

    /// On the writer's queue, after a commit that touched the region (or a region that
    /// changed while a commit may have come).
    func regionDidChange(_ db: Database) {
        notify(\.databaseDidChange)
        fetchAfterChange(db)
    }

    /// On the writer's queue: a change asks for a fetch, which the strategy runs now or
    /// later.
    func fetchAfterChange(_ db: Database) {
        strategy.fetchAfterChange(self, db)
    }

    /// Fetches the latest committed state, later, off the writing access: a throttled
    /// fetch, or one more after a fetch that a change came during.
    func fetchLatest() {
        guard let writer, !isCancelled else {
            state.withLock { $0.fetchDidNotRun() }
            return
        }
        strategy.fetchLatest(self, writer, state.withLock { $0.nextFetch() })
    }

    // MARK: Fetch and delivery

    /// The one path from a database access to a delivery: fetches (nothing once
    /// cancelled), gives the region it read to the strategy, and delivers the value or the
    /// error. `request` is nil for a fetch on the writer right after a commit.
    func fetchAndDeliver(_ result: Result<Database, any Error>, _ request: ValueObservationFetchRequest?) {
        let outcome = fetchOutcome(result, recording: recordsRegionOnEachFetch) { db, recorded in
            if let recorded { strategy.regionWasFetched(self, recorded, on: db, request) }
        }
        endFetch(delivering: outcome)
    }

    /// The one fetch of every path: runs the fetch (nothing once cancelled), hands the
    /// region it read to `regionRead` before the value is reduced (a reduce that fails
    /// keeps the region), and returns the delivery of the value, or the error.
    func fetchOutcome(
        _ result: Result<Database, any Error>,
        recording: Bool,
        regionRead: (Database, DatabaseRegion?) throws -> Void
    ) -> ValueObservationOutcome? {
        do {
            let db = try result.get()
            guard let fetched = try fetch(db, recording: recording) else { return nil }
            try regionRead(db, fetched.region)
            return try delivery(of: fetched.raw).map(ValueObservationOutcome.value)
        } catch {
            return .failure(error)
        }
    }

    /// What a fetch found: its raw result (see ``delivery(of:)``), and the region it read.
    private struct Fetched {
        var raw: Any
        var region: DatabaseRegion?
    }

    /// Fetches in a read-only transaction (unless one is open), recording the region; nil
    /// once cancelled.
    private func fetch(_ db: Database, recording: Bool) throws -> Fetched? {
        guard let events = state.withLock({ $0.isCancelled ? nil : $0.events }) else { return nil }
        // (Without handlers, no key path: making one has a cost.)
        if !events.isEmpty { events.notify(\.willFetch) }
        func run() throws -> Fetched? {
            if recording {
                // (A schema change fetches again too: `observesSchemaChanges`.)
                let (raw, region) = try db.recordingReadRegion { try fetchRaw(db) }
                return try raw.map { Fetched(raw: $0, region: try region.removingViews(db)) }
            }
            return try fetchRaw(db).map { Fetched(raw: $0, region: nil) }
        }
        if db.isInsideTransaction { return try run() }
        if strategy.fetchesInWriteTransaction {
            var result: Fetched?
            try db.inTransaction {
                // The commit of the fetch's own writes does not fetch again: the value saw
                // them (a fetch that creates a table would otherwise fetch forever).
                db.transactionIsFetch(of: self)
                result = try run()
                return .commit
            }
            return result
        }
        return try db.inReadOnlyTransaction(run)
    }

    /// Delivers what a fetch found, and fetches again if a change came meanwhile (see
    /// `ValueObservationSharedState.fetchEnded(delivering:)`).
    func endFetch(delivering outcome: ValueObservationOutcome?) {
        if case .failure(let error)? = outcome { notify(\.didFail, error) }
        let end = state.withLock { $0.fetchEnded(with: outcome) }
        if end.schedulesDelivery { Self.scheduleDelivery(state, on: scheduler) }
        if end.fetchesAgain { fetchLatest() }
    }

    /// Asks `scheduler` for the one delivery of the observation, which runs the
    /// deliveries waiting when it runs, in order, then asks for another one if more came
    /// meanwhile: a scheduler's queue (the main queue) is never held by one observation
    /// for as long as values keep coming. Nothing is delivered once cancelled, not even
    /// by the delivery under way (a handler that cancels is the last one called).
    /// (The delivery keeps the state, not the runner.)
    private static func scheduleDelivery(_ state: LockedState<ValueObservationSharedState>, on scheduler: any ValueObservationScheduler) {
        scheduler.schedule {
            for delivery in state.withLock({ $0.deliveries.takeAll() }) {
                guard !state.withLock({ $0.isCancelled }) else { break }
                delivery()
            }
            if state.withLock({ $0.deliveries.continuesAfterDelivery() }) { scheduleDelivery(state, on: scheduler) }
        }
    }

    /// Delivers an outcome now, during `start` (the initial value of `.immediate`).
    func deliverNow(_ outcome: ValueObservationOutcome?) {
        switch outcome {
        case .value(let delivery)?:
            delivery()
        case .failure(let error)?:
            notify(\.didFail, error)
            state.withLock { $0.onError }?(error)
        case nil:
            break
        }
    }

    // MARK: Region

    /// On the writer's queue, where the region observer's region is read and written.
    func setRegion(_ region: DatabaseRegion, on db: Database) {
        strategy.willObserve(self, region)
        trackRegion(region)
        db.observationBroker.setRegion(region, of: self)
    }

    /// Tells `willTrackRegion` handlers of a region that differs from the last one told,
    /// before it becomes the observed `region`.
    private func trackRegion(_ newRegion: DatabaseRegion) {
        guard state.withLock({ $0.tracksFirstRegion() }) || newRegion != region else { return }
        notify(\.willTrackRegion, newRegion)
    }

    // MARK: Events

    /// Tells the `handleEvents` closures, unless cancelled.
    /// (Once cancelled, the handlers may wait for the work under way to end, and are not
    /// called.)
    func notify(_ event: KeyPath<ValueObservationEvents, (@Sendable () -> Void)?>) {
        state.withLock { $0.isCancelled ? [] : $0.events }.notify(event)
    }

    func notify<Argument>(_ event: KeyPath<ValueObservationEvents, (@Sendable (Argument) -> Void)?>, _ argument: Argument) {
        state.withLock { $0.isCancelled ? [] : $0.events }.notify(event, argument)
    }
}
