/// Everything a broker changes as statements run, in one stored value: the registry, the
/// current transaction, what it knows of the schema, the running statement.
///
/// Confined to the connection's queue; no observer's callback runs inside a mutating access
/// to it (loops walk copies, and observers are released after the registry changed). Debug
/// builds check that at run time; release builds skip the checks, which cost a third of the
/// broker's time per statement (Shortcuts table, Benchmarks/README.md).
struct BrokerState {
    var registry = ObserverRegistry()
    var transaction = TransactionState()
    var schema = SchemaKnowledge()
    var run = StatementRun()
    var impacts = TransactionImpacts()
    var savepoints = SavepointStack()
    /// Transaction callbacks that remain to be called (see ``NotificationRound``).
    var round = NotificationRound()
    /// The row callback installed, if any.
    var installedRowHook: DatabaseObservationBroker.RowHook?
}

/// The statement that runs, as the broker follows it.
struct StatementRun {
    /// The statement whose row changes are being collected. Set through
    /// `startExecution(of:)` and `endExecution()`, which keep the row hooks' context in step.
    var execution: StatementExecution?
    /// The running statement, when it has no execution because it was inert (see
    /// `startExecution(of:)`).
    var inertStatement: Statement?
    /// The observers that accepted some kind of change of the starting statement, with
    /// their answers (one bit per question); reused from statement to statement.
    var answers: [(entry: ObserverEntry, mask: UInt64)] = []
    /// The answers of statements with too many questions for a mask.
    var unmaskedAcceptances: [StatementActivation.Acceptance] = []
    /// The observers of the running execution's active users, in the same order, held
    /// from the questions before the statement to the end of its execution. With one
    /// active user, its events are told through this reference: a weak load and the
    /// release that follows cost two slow atomic operations (Shortcuts table,
    /// Benchmarks/README.md). An observer is thus kept alive while a statement it observes
    /// runs.
    var liveObservers: [any TransactionObserver] = []
    /// The last statement found inert with no application observer to ask, and what that
    /// finding rests on (see ``InertFinding``).
    var lastInertFinding: InertFinding?
    /// Keeps the report of `lastInertFinding` alive, so that its identity is not reused.
    var lastInertReport: StatementReport?
}

/// What the current transaction did to the observers' entries: the region observers it
/// touched, and the observers stopped until the next transaction.
struct TransactionImpacts {
    /// The entries whose `hasTransactionImpact` the current transaction set.
    private(set) var impactedEntries: [ObserverEntry] = []
    /// Counts the ends of transactions, where `hasTransactionImpact` is cleared (and only
    /// there): within one epoch, an entry once touched stays so.
    private(set) var epoch = 0
    /// The entries stopped until the next transaction.
    private var stoppedEntries: [ObserverEntry] = []

    /// Region observers touched by the current transaction: the end of the transaction
    /// visits them, and not every observer (a commit costs the same with 10,000
    /// observations as with a few).
    mutating func markImpacted(_ entry: ObserverEntry) {
        guard !entry.hasTransactionImpact else { return }
        entry.hasTransactionImpact = true
        impactedEntries.append(entry)
    }

    mutating func stop(_ entry: ObserverEntry) {
        guard !entry.isStopped else { return }
        entry.isStopped = true
        stoppedEntries.append(entry)
    }

    /// The transaction ends: stopped entries resume, and `body` gets the touched entries in
    /// registration order (their marks are the caller's to clear). A new epoch starts.
    mutating func end<R>(_ body: ([ObserverEntry]) -> R) -> R {
        for entry in stoppedEntries { entry.isStopped = false }
        stoppedEntries.removeAll(keepingCapacity: true)
        // (Sorted in place, and kept: the list's storage serves the next transaction.)
        impactedEntries.sort { $0.id < $1.id }
        let result = body(impactedEntries)
        impactedEntries.removeAll(keepingCapacity: true)
        epoch &+= 1
        return result
    }
}

extension DatabaseObservationBroker {
    // The parts of the state, by their names (accessors that the compiler inlines; each
    // goes to the box itself, as a coroutine that yields from another is not inlined).
    var registry: ObserverRegistry {
        _read { yield state.value.registry }
        _modify { yield &state.value.registry }
    }
    var transaction: TransactionState {
        _read { yield state.value.transaction }
        _modify { yield &state.value.transaction }
    }
    var schema: SchemaKnowledge {
        _read { yield state.value.schema }
        _modify { yield &state.value.schema }
    }
    var savepoints: SavepointStack {
        _read { yield state.value.savepoints }
        _modify { yield &state.value.savepoints }
    }
    var round: NotificationRound {
        _read { yield state.value.round }
        _modify { yield &state.value.round }
    }
    var installedRowHook: RowHook? {
        _read { yield state.value.installedRowHook }
        _modify { yield &state.value.installedRowHook }
    }
    var execution: StatementExecution? {
        _read { yield state.value.run.execution }
    }
    var inertStatement: Statement? {
        _read { yield state.value.run.inertStatement }
        _modify { yield &state.value.run.inertStatement }
    }
    var answers: [(entry: ObserverEntry, mask: UInt64)] {
        _read { yield state.value.run.answers }
        _modify { yield &state.value.run.answers }
    }
    var unmaskedAcceptances: [StatementActivation.Acceptance] {
        _read { yield state.value.run.unmaskedAcceptances }
        _modify { yield &state.value.run.unmaskedAcceptances }
    }
    var liveObservers: [any TransactionObserver] {
        _read { yield state.value.run.liveObservers }
        _modify { yield &state.value.run.liveObservers }
    }
}
