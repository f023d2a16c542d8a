import CRippleSupport
import CSQLite

/// Notifies the transaction observers of one connection: the one place that decides
/// whether a change matters to an observer.
///
/// How a change travels:
/// 1. When a statement compiles, the authorizer reports what it may write
///    (``StatementReport``); SQLite compiles it again after a schema change, and the report
///    is replaced before any row is written.
/// 2. Before it runs, each application observer is asked `observes(eventsOfKind:)` once
///    for each kind of change the statement may make (``StatementActivation``); region
///    observers are found through an index by table and rowid (``RegionIndex``).
/// 3. While it runs, the pre-update hook reports each row change (`RowHooks.swift`); the
///    ``StatementExecution`` collects them, most of them in its ``RowChangeLog``, which
///    the callback reaches through a raw pointer without counting references.
/// 4. When the statement succeeds, its changes are told to observers, or wait in the
///    ``SavepointStack`` while a savepoint is open; when it fails, they are dropped, since
///    SQLite undid them.
/// 5. At commit, `databaseWillCommit()` may veto; after the statement,
///    `databaseDidCommit(_:)` or `databaseDidRollback(_:)` (``NotificationRound``).
///
/// All of it runs on the connection's queue.
final class DatabaseObservationBroker: StatementExecutionHook {
    /// The connection owns its broker, which never outlives it.
    ///
    /// Unretained: a safe `unowned` reference is checked and counted at each use, for each
    /// statement (measured: Benchmarks/README.md, "Shortcuts"). The database owns the
    /// broker and clears its statement hook (the broker) when it closes, before it can go.
    var database: Database { databaseReference.object }
    private let databaseReference: _UnretainedReference<Database>
    /// The raw connection, for the hooks: valid until `connectionWillClose()`.
    let connection: OpaquePointer

    /// What the broker changes as statements run (see ``BrokerState``).
    let state = _ExclusiveAccessBox(BrokerState())
    /// What the row callbacks reach through their context pointer (`RowHooks.swift`).
    let hookContext = _PinnedValue(RowHookContext())
    /// Set when SQLite compiles a stepping statement again: the next row callback first
    /// makes the broker read its new report.
    var recompilationIsPending: Bool {
        get { hookContext.pointer.pointee.recompilationIsPending }
        set { hookContext.pointer.pointee.recompilationIsPending = newValue }
    }

    /// Whether the linked SQLite has the pre-update hook (Debian's and Apple's do).
    static let supportsPreUpdateHook: Bool = sqlite3_compileoption_used("ENABLE_PREUPDATE_HOOK") != 0

    /// Tests set it to false, to cover the update hook used where SQLite lacks the
    /// pre-update hook.
    var usesPreUpdateHook = DatabaseObservationBroker.supportsPreUpdateHook

    init(database: Database) {
        databaseReference = _UnretainedReference(database)
        self.connection = database.sqliteConnection!
        super.init()
        hookContext.pointer.pointee.broker = _CallbackContext.unretained(self)
        installTransactionHooks()
    }

    // MARK: - Registration

    func add(_ observer: any TransactionObserver, extent: TransactionObservationExtent) {
        registry.add(observer, extent: extent)
    }

    /// Removes an observer: it gets no callback from now on, even from a round of
    /// callbacks under way.
    func remove(_ observer: any TransactionObserver) {
        registry.remove(observer)?.release()
    }

    /// Changes the region of a region observer. Takes effect with the next statement.
    func setRegion(_ region: DatabaseRegion, of observer: RegionObserver) {
        registry.setRegion(region, of: observer)
    }

    var hasObservers: Bool { !registry.isEmpty }

    func observerIgnoresPreUpdateEvents(_ observer: any TransactionObserver) {
        registry.entry(of: observer)?.wantsPreUpdateEvents = false
    }

    func stopObservingUntilNextTransaction(_ observer: any TransactionObserver) {
        guard let entry = registry.entry(of: observer) else { return }
        state.value.impacts.stop(entry)
    }

    /// Region observers touched by the current transaction: `hasTransactionImpact` is set
    /// through here, so that the end of the transaction visits them, and not every
    /// observer (a commit costs the same with 10,000 observations as with a few).
    func markImpacted(_ entry: ObserverEntry) {
        state.value.impacts.markImpacted(entry)
    }

    // MARK: - The current broker, for stopObservingDatabaseChangesUntilNextTransaction()

    /// The broker whose callbacks run on this thread, if any.
    static var current: DatabaseObservationBroker? {
        ripple_current_broker().map { _CallbackContext<DatabaseObservationBroker>.object($0) }
    }

    /// Runs callbacks that must not use the connection, with the broker current.
    func withoutDatabaseAccess<T>(_ body: () throws -> T) rethrows -> T {
        let savedBroker = ripple_current_broker()
        let savedForbids = database.state.value.observation.forbidsAccess
        ripple_set_current_broker(_CallbackContext.unretained(self))
        database.state.value.observation.forbidsAccess = true
        defer {
            database.state.value.observation.forbidsAccess = savedForbids
            ripple_set_current_broker(savedBroker)
        }
        return try body()
    }

    // MARK: - Statements

    override func statementWillStart(_ statement: Statement) throws {
        // Transaction callbacks of an earlier statement that a callback interrupted (by
        // running this statement) come first: each observer hears of the end of a
        // transaction before it hears of the next one. A read-only access, which observers
        // are never told of, leaves them to the loop under way: otherwise the callbacks
        // would nest in each other's statements (the value observations of a database
        // queue fetch from their commit callbacks), one level of the stack for each
        // observation, and thousands of them overflowed it
        // (`testThousandsOfObservationsOfOneCommitOnADatabaseQueue`).
        if !round.isEmpty && !database.isInReadOnlyAccess { deliverRound() }
        // A statement that started earlier and did not end (a cursor, maybe of this very
        // statement) made all its changes by now.
        if execution != nil { finishExecution(succeeded: true) }
        try perform(transaction.statementWillStart())
        guard !registry.isEmpty else {
            uninstallRowHook()
            return
        }
        transaction.statementRuns(insideTransaction: statement.database.isInsideTransaction)
        startExecution(of: statement)
    }

    /// Ends the collection of the current statement's changes.
    func endExecution() {
        state.value.run.execution = nil
        hookContext.pointer.pointee.log = nil
        // (A loop: removeAll(keepingCapacity:) costs more (measured: Benchmarks/README.md, "Shortcuts").)
        while liveObservers.popLast() != nil {}
    }

    /// Prepares the collection of the statement's row changes.
    func startExecution(of statement: Statement) {
        inertStatement = nil
        endExecution()
        guard statement.report.mayWrite else {
            uninstallRowHook()
            return
        }
        if let finding = state.value.run.lastInertFinding,
            finding.holds(
                for: statement, generation: registry.generation, impactEpoch: state.value.impacts.epoch, schemaFactsVersion: schema.usableVersion)
        {
            // The same statement, found inert already, and nothing it rests on changed.
            becomeInert(statement)
            return
        }
        // The statement's cache is moved out while the execution starts, and moved back
        // after: a reference held across the observers' calls would be retained and
        // released, two atomic operations for each statement.
        let cache = takeCachedActivation(for: statement)
        startExecution(of: statement, cache: cache)
        if cache.isCacheable { statement.observation.cache = consume cache }
    }

    private func startExecution(of statement: Statement, cache: CachedActivation) {
        let totalChanges = sqlite3_total_changes(connection)
        // Each observer is asked once per execution. When the answers, the observers and
        // the region index are those of the last execution of the statement, its execution
        // serves again: a statement run in a loop allocates nothing here.
        let execution: StatementExecution
        let reused: Bool
        if cache.questionCount <= StatementActivation.maximumMaskedQuestions {
            // The last execution, made with the current observers and region index.
            let candidate = cache.execution.flatMap { $0.registryGeneration == registry.generation ? $0 : nil }
            if askObservers(cache, expecting: candidate), let candidate {
                execution = candidate
                reused = true
            } else {
                execution = makeExecution(of: statement, cache: cache, totalChanges: totalChanges)
                if cache.isCacheable { cache.execution = execution }
                reused = false
            }
        } else {
            askObserversWithoutMasks(cache)
            execution = makeExecution(of: statement, cache: cache, totalChanges: totalChanges)
            reused = false
        }
        if execution.isInert(
            fullDatabaseIsSettled: fullDatabaseWatchersAreSettled, regionObserversAreUntouched: state.value.impacts.impactedEntries.isEmpty,
            impactEpoch: state.value.impacts.epoch)
        {
            if cache.isCacheable, registry.userEntries.isEmpty, let version = schema.usableVersion {
                state.value.run.lastInertFinding = InertFinding(
                    statement: statement, generation: registry.generation, impactEpoch: state.value.impacts.epoch, schemaFactsVersion: version)
                if state.value.run.lastInertReport !== statement.report { state.value.run.lastInertReport = statement.report }
            }
            becomeInert(statement)
            return
        }
        // A new execution starts with the counter already; one that serves again restarts.
        if reused { execution.restart(totalChanges: totalChanges) }
        if execution.needsRowEvents(regionObserversAreUntouched: state.value.impacts.impactedEntries.isEmpty, impactEpoch: state.value.impacts.epoch)
            || !registry.regionIndex.fullDatabase.isEmpty
        {
            installRowHook(preUpdate: !cache.updateHookSuffices || execution.hasPreUpdateUsers)
        } else {
            uninstallRowHook()
        }
        hookContext.pointer.pointee.log = execution.log.pointer
        state.value.run.execution = consume execution
    }

    /// Whether every observer of the full database knows the transaction touched it.
    private var fullDatabaseWatchersAreSettled: Bool {
        registry.regionIndex.fullDatabase.isEmpty || registry.regionIndex.fullDatabase.values.allSatisfy(\.hasTransactionImpact)
    }

    /// Nothing to collect for the running statement: a loop of statements that no observer
    /// cares about (any longer, in this transaction) costs only the questions asked. If
    /// SQLite compiles the statement again, what it writes is looked at again.
    private func becomeInert(_ statement: Statement) {
        // (`startExecution(of:)` ended the previous execution; an inert one has no user.)
        assert(execution == nil && liveObservers.isEmpty)
        inertStatement = statement
        uninstallRowHook()
    }

    /// Forgets the schema facts when the statement changed the schema, or SQLite compiled
    /// it again.
    private func refreshSchemaFactsIfNeeded(after statement: Statement) {
        schema.statementDidEnd(changedSchema: statement.report.changesSchema)
    }

    override func statementDidFinish(_ statement: Statement) throws {
        inertStatement = nil
        if execution?.runs(statement) == true { finishExecution(succeeded: true) }
        refreshSchemaFactsIfNeeded(after: statement)
        applySavepointEffect(of: statement.report)
        try perform(
            transaction.statementDidFinish(
                endsTransaction: {
                    if statement.report.transactionEffect == .commit { return true }
                    if case .release? = statement.report.savepointEffect { return true }
                    return false
                },
                isInsideTransaction: { database.isInsideTransaction },
                isReadOnly: { database.isReadOnly }))
    }

    override func statementDidFail(_ statement: Statement, error: any Error) -> any Error {
        inertStatement = nil
        if let execution, execution.runs(statement) {
            // SQLite undid the statement's changes, unless its conflict resolution was FAIL,
            // which keeps the changes made before the error.
            let keepsChanges = statement.database.isInsideTransaction && statementKeptItsChanges(execution, error: error)
            finishExecution(succeeded: keepsChanges)
        }
        refreshSchemaFactsIfNeeded(after: statement)
        do {
            try perform(transaction.statementDidFail())
        } catch let observerError {
            return observerError
        }
        return error
    }

    override func statementWasRecompiled(_ statement: Statement) {
        recompilationIsPending = false
        guard database.authorizer.steppingStatement != nil else {
            schema.forget()
            return
        }
        schema.markStale()
        guard execution?.runs(statement) == true || inertStatement === statement else { return }
        // SQLite compiles a statement again before it writes anything: start over with
        // its new report. The schema cannot be read now (inside sqlite3_step): the facts
        // read before the statement serve, and REPLACE is assumed possible.
        startExecution(of: statement)
    }

    override func recompilationDidBegin() {
        guard !registry.isEmpty else { return }
        recompilationIsPending = true
        // The row callback will read the new report before the first row.
        installRowHook()
    }

    override func connectionWillClose() {
        sqlite3_commit_hook(connection, nil, nil)
        sqlite3_rollback_hook(connection, nil, nil)
        _CallbackContext.revoke(self)
        uninstallRowHook()
        endExecution()
    }

    /// Ends the collection of the current statement's changes: tells them (or buffers
    /// them in the savepoint stack) when it succeeded, drops them when SQLite undid them.
    func finishExecution(succeeded: Bool) {
        // (Moved out, not copied: a copy is a retain and a release more.)
        guard let execution = state.value.run.execution.take() else { return }
        hookContext.pointer.pointee.log = nil
        defer { endExecution() }
        guard succeeded else { return }
        assert(liveObservers.count == execution.activeUsers.count, "one live observer for each active user, in order")
        // (The region index is not passed when no region observer can be found: a copy of
        // it costs a hundred instructions.)
        var impacts =
            execution.mayImpactRegions || !registry.regionIndex.fullDatabase.isEmpty
            ? execution.regionImpacts(
                regionIndex: registry.regionIndex,
                virtualTables: { self.usesPreUpdateHook ? self.currentSchemaFacts()?.virtualTables : nil },
                totalChanges: sqlite3_total_changes(connection))
            : []
        if execution.report.changesSchema {
            // (An entry found twice is marked once.)
            impacts.append(contentsOf: registry.schemaObservers.lazy.filter { !$0.hasTransactionImpact })
        }
        if savepoints.isEmpty {
            for entry in impacts { markImpacted(entry) }
            deliverEvents(of: execution)
        } else {
            for entry in impacts { savepoints.append(.impact(entry)) }
            savepoints.append(contentsOf: execution.preUpdateItems)
            for event in execution.events {
                let slot = execution.slots[event.slot]
                let databaseEvent = DatabaseEvent(kind: event.kind, rowID: event.rowID, databaseName: slot.databaseName, tableName: slot.name)
                for user in slot.users where user.kinds.contains(event.origin) {
                    savepoints.append(.didChange(databaseEvent, execution.activeUsers[user.index].entry))
                }
            }
        }
    }

    private func deliverEvents(of execution: StatementExecution) {
        guard execution.hasEvents else { return }
        transaction.toldObservers = true
        if liveObservers.count == 1, let observer = liveObservers.popLast() {
            // One observer: told through the reference held since the statement started.
            withoutDatabaseAccess { execution.deliverEvents(toSoleUser: observer) }
        } else {
            withoutDatabaseAccess { execution.deliverEvents() }
        }
    }

    /// Tells buffered items to observers, in order.
    func deliver(_ items: [SavepointStack.Item]) {
        guard !items.isEmpty else { return }
        withoutDatabaseAccess {
            for item in items {
                switch item {
                case let .willChange(event, entry):
                    guard !entry.isStopped, let observer = entry.observer else { continue }
                    observer.databaseWillChange(with: event)
                    // (The default implementation tells nothing.)
                    if entry.wantsPreUpdateEvents { transaction.toldObservers = true }
                case let .didChange(event, entry):
                    guard !entry.isStopped, let observer = entry.observer else { continue }
                    transaction.toldObservers = true
                    observer.databaseDidChange(with: event)
                case .impact(let entry):
                    markImpacted(entry)
                }
            }
        }
    }

    private func applySavepointEffect(of report: StatementReport) {
        switch report.savepointEffect {
        case .begin(let name)?:
            savepoints.begin(name)
        case .release(let name)?:
            deliver(savepoints.release(name))
        case .rollback(let name)?:
            savepoints.rollback(to: name)
        case nil:
            break
        }
    }

    /// Whether a failed statement kept its changes. SQLite undoes the changes of a failed
    /// statement (the default `ABORT` conflict resolution, and always for a foreign key
    /// violation), except with the `FAIL` conflict resolution (`INSERT OR FAIL`,
    /// `ON CONFLICT FAIL`, `RAISE(FAIL)`), which keeps the changes made before the error.
    /// Either all of them or none: the row of the statement's first insertion or deletion
    /// tells which. Without such a row, the changes are told: a change that happened must
    /// never be missed.
    private func statementKeptItsChanges(_ execution: StatementExecution, error: any Error) -> Bool {
        guard let error = error as? DatabaseError, error.resultCode == .SQLITE_CONSTRAINT,
            error.extendedResultCode != .SQLITE_CONSTRAINT_FOREIGNKEY
        else { return false }
        let mentionsFail =
            execution.statement.sql.mentionsASCIIKeyword("fail")
            || (currentSchemaFacts()?.mentionsFail ?? true)
        guard mentionsFail else { return false }
        guard let probe = execution.probe else { return true }
        let slot = execution.slots[probe.slot]
        let sql = "SELECT 1 FROM \(slot.databaseName.quotedDatabaseIdentifier).\(slot.name.quotedDatabaseIdentifier) WHERE rowid = \(probe.rowID)"
        guard let rows = database.withStatementsHiddenFromTrace({ SchemaFacts.rows(connection, sql) }) else { return true }
        return probe.kind == .insert ? !rows.isEmpty : rows.isEmpty
    }

    /// The schema facts, read when needed. Nil inside `sqlite3_step`, where the schema
    /// cannot be read.
    func currentSchemaFacts() -> SchemaFacts? {
        if let facts = schema.facts { return facts }
        // Not from inside sqlite3_step, where no statement may run.
        guard database.authorizer.steppingStatement == nil else { return nil }
        let facts = database.withStatementsHiddenFromTrace { SchemaFacts.read(from: connection) }
        schema.learn(facts)
        return facts
    }
}
