import Dispatch
import Foundation

/// Runs one started value observation. It is its own region observer: one object per
/// observation, with one lock (W6m).
///
/// The class is not generic: what depends on the type of the values (the pipeline that
/// fetches them, the change handler) lies in the subclass that the observation makes,
/// `TypedValueObservationRunner<Value>`, behind three overridden methods. Generic code that
/// the compiler cannot specialize (a class whose values only the application knows) looks
/// up the metadata of each generic type it touches, each time, on the fetch, commit and
/// delivery paths (measured: Benchmarks/README.md, "Shortcuts").
// Unchecked Sendable: what fetches, deliveries and cancellation share across threads is
// behind `state`'s lock (`onError` and the subclass's handlers too); `region` and
// `hasTrackedRegion` are only used on the writer's queue; the other properties are
// immutable.
class ValueObservationRunner: RegionObserver, DatabaseCancellable, @unchecked Sendable {
    // (The order of the stored properties packs them: the flags fill what the optional
    // interval leaves of its last word, W6m.)
    private weak var writer: (any DatabaseWriter)?
    private let throttleInterval: TimeInterval?
    private let isPool: Bool
    private let requiresWriteAccess: Bool
    /// Whether `willTrackRegion` handlers were told of a region yet: then of `region`,
    /// which changes after them. Used on the writer's queue.
    private var hasTrackedRegion = false
    private let regionSpec: ValueObservationRegion
    private let scheduler: any ValueObservationScheduler

    /// The fetches, the cancellation, the handlers and the deliveries, shared across
    /// threads.
    let state: LockedState<ValueObservationSharedState>

    /// The error handler: let go once cancelled, so that one that keeps the cancellable
    /// makes no cycle then. Only read and written inside `state.withLock`.
    private var onError: (@Sendable (any Error) -> Void)?

    /// What a fetch gives: a value to deliver (or none, when the pipeline skips it), or an
    /// error.
    enum FetchOutcome {
        /// The delivery of a value: it calls the change handler set when it was made.
        case value(@Sendable () -> Void)
        case failure(any Error)
    }

    /// The delivery of an outcome: it calls the handler that is set now, with the lock
    /// held. A cancellation that comes before it runs drops it, or stops the delivery under
    /// way before it.
    private func delivery(of outcome: FetchOutcome) -> @Sendable () -> Void {
        switch outcome {
        case .value(let deliverValue):
            return deliverValue
        case .failure(let error):
            let onError = onError
            return { onError?(error) }
        }
    }

    /// What a cancelled observation lets go, for the caller to release once the lock is
    /// unlocked (releasing a closure may run a `deinit` that uses the observation).
    private struct Released {
        var shared: ValueObservationSharedState.Released
        var onError: (@Sendable (any Error) -> Void)?
        var typedOutputs: Any
    }

    /// With the lock held: once cancelled, and when no work holds the closures, what the
    /// observation lets go (see ``whileInUse(unlessCancelled:_:)``); nil otherwise.
    private func letGo(_ state: inout ValueObservationSharedState) -> Released? {
        // (`onError`, set until then, tells whether the closures were let go already.)
        guard onError != nil, let shared = state.letGo() else { return nil }
        defer { onError = nil }
        return Released(shared: shared, onError: onError, typedOutputs: letTypedOutputsGo())
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
    private func whileInUse(unlessCancelled: Bool = false, _ body: () -> Void) {
        guard state.withLock({ $0.beginUse(unlessCancelled: unlessCancelled) }) else { return }
        defer {
            if let released = state.withLock({ state -> Released? in
                state.endUse()
                return letGo(&state)
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
        onError: @escaping @Sendable (any Error) -> Void)
    {
        self.writer = writer
        // With write access, a pool's observation fetches on the writer, as a queue's does.
        self.isPool = writer is DatabasePool && !requiresWriteAccess
        self.requiresWriteAccess = requiresWriteAccess
        self.throttleInterval = throttleInterval
        self.regionSpec = regionSpec
        self.scheduler = scheduler
        self.state = LockedState(ValueObservationSharedState(events: events))
        self.onError = onError
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
        if scheduler.immediateInitialValue() {
            if scheduler is ImmediateValueObservationScheduler && !MainActorCheck.isOnMainActor {
                // Not a trap: the application hears of it, and may go on.
                let error = DatabaseError.misuse(Self.immediateOffMainActorMessage)
                guard let (events, onError) = state.withLock({ state -> ([ValueObservationEvents], (@Sendable (any Error) -> Void)?)? in
                    guard state.cancel() else { return nil }
                    return (state.events, self.onError)
                }) else { return }
                events.notify(\.didFail, error)
                onError?(error)
                return
            }
            if isPool, let pool = writer as? DatabasePool {
                startOnReaderNow(pool)
                return
            }
            // Register and fetch the initial value in one writer access: no commit can slip
            // in between.
            deliverNow(writer.unsafeReentrantWrite { db in registerAndFetch(db) })
        } else if isPool, let pool = writer as? DatabasePool {
            startOnReader(pool)
        } else {
            writer.asyncWriteWithoutTransaction { [self] db in
                whileInUse { deliver(registerAndFetch(db)) }
            }
        }
    }

    /// A pool's observation starts without waiting for the writer, which may be busy with
    /// a long transaction: the first value comes from a reader, then the observation
    /// registers on the writer, and fetches again if a commit may have come between the
    /// reader's snapshot and the registration (see ``LastCommitMark``). So the first value
    /// never waits for a write, and no commit is missed: the one that ends the write that
    /// was running is seen.
    private func startOnReader(_ pool: DatabasePool) {
        state.withLock { $0.startFirstFetch() }
        pool.asyncObservationRead(markingLastCommit: true) { [self] result, mark in
            whileInUse { firstReaderFetch(pool, result, mark) }
        }
    }

    /// ``startOnReader(_:)`` for `.immediate`: the first value is read on a reader now, and
    /// delivered before `start` returns, out of the read. A reader, as for the other
    /// schedulers: the fetch may write through the pool (a write inside a write would be
    /// fatal).
    private func startOnReaderNow(_ pool: DatabasePool) {
        state.withLock { $0.startFirstFetch() }
        var first: (region: DatabaseRegion, outcome: FetchOutcome?, mark: LastCommitMark?) = (.fullDatabase, nil, nil)
        pool.snapshotRead(markingLastCommit: true) { result, mark in
            let (region, outcome) = readFirstValue(result)
            first = (region, outcome, mark)
        }
        registerAfterFirstRead(pool, region: first.region, mark: first.mark)
        deliverNow(first.outcome)
        endFetch(delivering: nil)
    }

    /// ``startOnReader(_:)``'s fetch, on the reader.
    private func firstReaderFetch(_ pool: DatabasePool, _ result: Result<Database, any Error>, _ mark: LastCommitMark?) {
        let (region, outcome) = readFirstValue(result)
        registerAfterFirstRead(pool, region: region, mark: mark)
        endFetch(delivering: outcome)
    }

    /// The first value of a pool's observation, read on a reader, and the region to observe.
    private func readFirstValue(_ result: Result<Database, any Error>) -> (DatabaseRegion, FetchOutcome?) {
        var region: DatabaseRegion = .fullDatabase
        let outcome = fetchOutcome(result, recording: !isExplicit) { db, recorded in
            region = try initialExplicitRegion(db) ?? recorded ?? .fullDatabase
        }
        return (region, outcome)
    }

    /// Registers on the writer, after the first value was read in a snapshot that holds the
    /// commit of `mark`; fetches again when a commit came since.
    private func registerAfterFirstRead(_ pool: DatabasePool, region: DatabaseRegion, mark: LastCommitMark?) {
        // Registered before the first value is delivered: a write that the application
        // starts once it has the value comes after the registration.
        pool.asyncWriteWithoutTransaction { [self, region] db in
            whileInUse(unlessCancelled: true) {
                register(db, initialRegion: region)
                if !db.noCommitChangedData(since: mark) {
                    // (While the first value is not delivered yet, this only asks for one
                    // more fetch, after it.)
                    regionDidChange(db)
                }
            }
        }
    }

    func cancel() {
        // What the observation lets go is released here, with the lock unlocked, out of
        // any access; or, when work under way holds its closures, once that work ends
        // (see `whileInUse(unlessCancelled:_:)`).
        guard let (events, released) = state.withLock({ state -> ([ValueObservationEvents], Released?)? in
            guard state.cancel() else { return nil }
            return (state.events, letGo(&state))
        }) else { return }
        events.notify(\.didCancel)
        OutOfAccessRelease.release((consume events, consume released))
        writer?.asyncWriteWithoutTransaction { [self] db in db.remove(transactionObserver: self) }
    }

    private func initialExplicitRegion(_ db: Database) throws -> DatabaseRegion? {
        guard case .explicit(let regions) = regionSpec else { return nil }
        return try regions.reduce(into: DatabaseRegion()) { try $0.formUnion($1.databaseRegion(db)) }
    }

    private func register(_ db: Database, initialRegion: DatabaseRegion) {
        trackRegion(initialRegion)
        region = initialRegion
        if isPool { state.withLock { $0.observedRegion = initialRegion } }
        db.add(transactionObserver: self, extent: .databaseLifetime)
    }

    /// On the writer queue: fetches the initial value and registers the region observer.
    private func registerAndFetch(_ db: Database) -> FetchOutcome? {
        fetchOutcome(.success(db), recording: !isExplicit) { db, recorded in
            register(db, initialRegion: try initialExplicitRegion(db) ?? recorded ?? .fullDatabase)
        }
    }

    private var isExplicit: Bool {
        if case .explicit = regionSpec { return true }
        return false
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
        if requiresWriteAccess {
            var result: Fetched?
            try db.inTransaction {
                result = try run()
                return .commit
            }
            return result
        }
        return try db.inReadOnlyTransaction(run)
    }

    // MARK: Changes

    /// What a fetch reads depends on the schema too (a view redefined, a temporary table
    /// that hides a table): a schema change fetches again, and records the region anew.
    override var observesSchemaChanges: Bool { recordsRegionOnEachFetch }

    override func regionWasCommitted(_ db: Database) {
        if isPool && throttleInterval == nil {
            poolRegionWasCommitted()
            return
        }
        whileInUse(unlessCancelled: true) { regionDidChange(db) }
    }

    /// ``regionWasCommitted(_:)`` on a pool, without throttling: what `regionDidChange(_:)`
    /// does, with the lock taken once where it took it four times (cancelled? the
    /// handlers, the fetch under way, the next fetch). The writer does this for each
    /// observation of each commit, and each lock may wait for a reader that fetches (W8:
    /// 20 observations of a table, one commit every 90 µs).
    private func poolRegionWasCommitted() {
        guard let (hasEvents, request) = state.withLock({ state -> (Bool, ValueObservationFetchRequest?)? in
            guard !state.isCancelled else { return nil }
            return (!state.events.isEmpty, state.askForFetch() ? state.nextFetch() : nil)
        }) else { return }
        // (Without handlers, no copy of them, no use, no key path: a copy is a retain, and
        // making a key path has a cost.)
        if hasEvents { whileInUse { notify(\.databaseDidChange) } }
        if let request { startPoolFetch(request) }
    }

    /// Starts the fetch of `request` on a reader of the pool. The writer goes on at once:
    /// the reader's snapshot holds the commit that asked for it, maybe later ones too
    /// (which, observed meanwhile, ask for one more fetch).
    private func startPoolFetch(_ request: ValueObservationFetchRequest) {
        guard let pool = writer as? DatabasePool else {
            state.withLock { $0.fetchDidNotRun() }
            return
        }
        pool.asyncObservationRead { [self] result, _ in fetchAndDeliver(result, request) }
    }

    /// On the writer queue, right after a commit that touched the region.
    private func regionDidChange(_ db: Database) {
        notify(\.databaseDidChange)
        fetchAfterChange(db)
    }

    /// On the writer queue: fetches the value again, after a commit that may have changed
    /// it.
    private func fetchAfterChange(_ db: Database) {
        if throttleInterval == nil, !isPool {
            // A database queue: the fetch happens right now, on the writer queue, after the
            // commit and before any other access: each transaction that touched the region
            // gets its own value, and the writer waits for it.
            fetchOnWriterAndDeliver(db)
            return
        }
        if let throttleInterval {
            guard state.withLock({ $0.askForFetch() }) else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + throttleInterval) { [self] in fetchLatest() }
        } else if let request = state.withLock({ $0.askForFetch() ? $0.nextFetch() : nil }) {
            startPoolFetch(request)
        }
    }

    /// A new fetch is asked for.
    private func nextFetch() -> ValueObservationFetchRequest {
        state.withLock { $0.nextFetch() }
    }

    /// Fetches on the writer of a database queue, and delivers the value.
    private func fetchOnWriterAndDeliver(_ db: Database) {
        let outcome = fetchOutcome(.success(db), recording: recordsRegionOnEachFetch) { db, recorded in
            if let recorded { setRegion(recorded, on: db) }
        }
        deliver(outcome)
    }

    /// Fetches the latest committed state, later, off the writing access.
    private func fetchLatest() {
        guard let writer, !isCancelled else {
            state.withLock { $0.fetchDidNotRun() }
            return
        }
        let request = nextFetch()
        if isPool, let pool = writer as? DatabasePool {
            pool.asyncObservationRead { [self] result, _ in fetchAndDeliver(result, request) }
        } else {
            writer.asyncWriteWithoutTransaction { [self] db in fetchAndDeliver(.success(db), request) }
        }
    }

    private func fetchAndDeliver(_ result: Result<Database, any Error>, _ request: ValueObservationFetchRequest) {
        whileInUse { fetchAndDeliverInUse(result, request) }
    }

    private func fetchAndDeliverInUse(_ result: Result<Database, any Error>, _ request: ValueObservationFetchRequest) {
        if !isPool {
            // On the writer queue, the fetch sees every commit made so far.
            state.withLock { $0.fetchSeesEveryCommit() }
        }
        let outcome = fetchOutcome(result, recording: recordsRegionOnEachFetch) { db, recorded in
            if let recorded { regionWasFetched(recorded, on: db, request) }
        }
        endFetch(delivering: outcome)
    }

    /// The one fetch of every path: runs the fetch (nothing once cancelled), hands the
    /// region it read to `regionRead` before the value is reduced (a reduce that fails
    /// keeps the region), and returns the delivery of the value, or the error.
    private func fetchOutcome(
        _ result: Result<Database, any Error>,
        recording: Bool,
        regionRead: (Database, DatabaseRegion?) throws -> Void) -> FetchOutcome?
    {
        do {
            let db = try result.get()
            guard let fetched = try fetch(db, recording: recording) else { return nil }
            try regionRead(db, fetched.region)
            return try delivery(of: fetched.raw).map(FetchOutcome.value)
        } catch {
            return .failure(error)
        }
    }

    /// Delivers what a fetch found, and fetches again if a change came meanwhile (see
    /// `ValueObservationSharedState.fetchEnded(delivering:)`).
    private func endFetch(delivering outcome: FetchOutcome?) {
        if case .failure(let error)? = outcome { notify(\.didFail, error) }
        let end = state.withLock { state in
            state.fetchEnded(delivering: outcome.map { delivery(of: $0) })
        }
        if end.schedulesDelivery { state.scheduleDelivery(on: scheduler) }
        if end.fetchesAgain { fetchLatest() }
    }

    /// Observes the region that a fetch read.
    ///
    /// On a database queue, at once: the fetch ran on the writer, after the last commit.
    ///
    /// On a pool, the fetch ran on a reader while the writer went on, observing the region
    /// observed when the fetch was asked for. When the fetch read that same region (the
    /// usual case), nothing changes. Else the writer observes the new region, then fetches
    /// again: a commit made meanwhile may have changed what only the new region holds.
    /// Only the last fetch asked for does so: an older one, whose region reaches the writer
    /// late, is ignored (a newer one compares with the region observed when it began).
    private func regionWasFetched(_ region: DatabaseRegion, on db: Database, _ request: ValueObservationFetchRequest) {
        guard isPool else {
            setRegion(region, on: db)
            return
        }
        guard region != request.observedRegion else { return }
        writer?.asyncWriteWithoutTransaction { [self] writerDB in
            guard state.withLock({ request.generation == $0.generation }) else { return }
            whileInUse(unlessCancelled: true) {
                setRegion(region, on: writerDB)
                fetchAfterChange(writerDB)
            }
        }
    }

    /// On the writer queue, where the region observer's region is read and written.
    private func setRegion(_ region: DatabaseRegion, on db: Database) {
        if isPool { state.withLock { $0.observedRegion = region } }
        trackRegion(region)
        db.observationBroker.setRegion(region, of: self)
    }

    /// Tells `willTrackRegion` handlers of a region that differs from the last one told,
    /// before it becomes the observed `region`.
    private func trackRegion(_ newRegion: DatabaseRegion) {
        guard !hasTrackedRegion || newRegion != region else { return }
        hasTrackedRegion = true
        notify(\.willTrackRegion, newRegion)
    }

    // MARK: Events

    /// Tells the `handleEvents` closures, unless cancelled.
    /// (Once cancelled, the handlers may wait for the work under way to end, and are not
    /// called.)
    private func notify(_ event: KeyPath<ValueObservationEvents, (@Sendable () -> Void)?>) {
        state.withLock { $0.isCancelled ? [] : $0.events }.notify(event)
    }

    private func notify<Argument>(_ event: KeyPath<ValueObservationEvents, (@Sendable (Argument) -> Void)?>, _ argument: Argument) {
        state.withLock { $0.isCancelled ? [] : $0.events }.notify(event, argument)
    }

    // MARK: Delivery

    /// Delivers an outcome through the scheduler.
    private func deliver(_ outcome: FetchOutcome?) {
        guard let outcome else { return }
        if case .failure(let error) = outcome { notify(\.didFail, error) }
        if state.withLock({ $0.enqueue(delivery(of: outcome)) }) { state.scheduleDelivery(on: scheduler) }
    }

    /// Delivers an outcome now, during `start` (the initial value of `.immediate`).
    private func deliverNow(_ outcome: FetchOutcome?) {
        switch outcome {
        case .value(let delivery)?:
            delivery()
        case .failure(let error)?:
            notify(\.didFail, error)
            state.withLock { _ in onError }?(error)
        case nil:
            break
        }
    }
}
