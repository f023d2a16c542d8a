import CSQLite
import CRippleSupport
import Foundation

/// Notifies transaction observers of one connection: the one place that decides whether a
/// change matters to an observer.
///
/// How a change travels:
/// 1. When a statement compiles, the authorizer reports what it may write
///    (`StatementReport`).
/// 2. Before it runs, each user observer is asked `observes(eventsOfKind:)` for each kind of
///    change the statement may make; those that say yes are activated. Region-based observers
///    (region and value observations) are matched against the statement's writes through an
///    index by table, decided once per prepared statement.
/// 3. While it runs, the update and pre-update hooks, installed only when someone needs row
///    events, report each row to activated observers, or into the savepoint buffer while a
///    savepoint is open. Region observers whose region has no rowids need no row events at
///    all: SQLite's change counter tells after the statement whether it wrote.
/// 4. At commit, `databaseWillCommit` may veto (SQLite rolls back and the caller gets the
///    observer's error); after the statement, `databaseDidCommit` or `databaseDidRollback`.
final class DatabaseObservationBroker: StatementExecutionHook {
    // The connection owns its broker. Read through `withDatabase` on the paths run for
    // each statement and row: an `unowned(unsafe)` reference is retained at each use.
    private let databaseReference: Unmanaged<Database>
    var database: Database { databaseReference.takeUnretainedValue() }

    @inline(__always)
    private func withDatabase<R>(_ body: (Database) throws -> R) rethrows -> R {
        try databaseReference._withUnsafeGuaranteedRef(body)
    }

    // MARK: Observers

    final class Entry {
        @exclusivity(unchecked) weak var weakObserver: (any TransactionObserver)?
        @exclusivity(unchecked) var strongObserver: (any TransactionObserver)?
        let extent: TransactionObservationExtent
        let identity: ObjectIdentifier
        /// Set for Ripple's own region-based observers.
        let regionObserver: RegionObserver?
        @exclusivity(unchecked) var isStopped = false
        /// False once the observer showed it does not implement `databaseWillChange(with:)`.
        @exclusivity(unchecked) var wantsPreUpdateEvents = true
        /// The tables the observer accepted for the current statement, as C strings owned by
        /// the statement's activation (alive as long as the statement): all its written
        /// tables (`acceptsAllOf`, read without reference counting), or some of them
        /// (`acceptedTables`, when `acceptsAllOf` is nil).
        @exclusivity(unchecked) var acceptsAllOf: UnsafeBufferPointer<UnsafeMutablePointer<CChar>>?
        @exclusivity(unchecked) var acceptedTables: [UnsafeMutablePointer<CChar>] = []
        /// A strong reference to the observer while it is activated for a statement: row
        /// events then need no weak-reference load.
        @exclusivity(unchecked) private var activeObserver: (any TransactionObserver)?
        /// The same observer, for callbacks without reference counting (each count is an
        /// atomic operation, and for an observer held weakly it goes through a side table).
        /// Valid while `activeObserver` keeps it alive.
        @exclusivity(unchecked) private var activeObserverPointer: UnsafeMutableRawPointer?
        /// Calls the callbacks of the observer's concrete type with an unretained
        /// reference. A metatype, not closures: loading it counts no references.
        private let rowCallbacks: any RowCallbacks.Type
        /// The table name pointer of the last row event accepted: SQLite passes the same
        /// pointer for each row of a table, as long as it does not reload the schema. Kept
        /// from one execution of a statement to the next while the observer accepts all
        /// the tables the statement writes, and the broker's `tableNameEpoch` (bumped
        /// whenever the schema may have been reloaded) has not changed.
        @exclusivity(unchecked) private var lastAcceptedTable: UnsafePointer<CChar>?
        @exclusivity(unchecked) private var lastAcceptedTableKey: (activation: UInt64, epoch: UInt64) = (0, 0)

        init(_ observer: any TransactionObserver, extent: TransactionObservationExtent) {
            rowCallbacks = Self.callbacks(of: observer)
            identity = ObjectIdentifier(observer)
            self.extent = extent
            regionObserver = observer as? RegionObserver
            switch extent {
            case .observerLifetime: weakObserver = observer
            case .nextTransaction, .databaseLifetime: strongObserver = observer
            }
        }

        var observer: (any TransactionObserver)? { strongObserver ?? weakObserver }

        private static func callbacks<Observer: TransactionObserver>(of observer: Observer) -> any RowCallbacks.Type {
            ObserverRowCallbacks<Observer>.self
        }

        /// Keeps the observer alive until ``deactivate()``, so that the statement's
        /// callbacks can reach it without counting references; false if it is gone.
        @inline(__always)
        func retainObserverForStatement() -> Bool {
            // Loaded straight into `activeObserver`, and its address read from there: a
            // local copy would be retained and released once more, and for an observer
            // held weakly each count goes through its side table.
            if strongObserver != nil {
                activeObserver = strongObserver
            } else {
                activeObserver = weakObserver
            }
            // A class-bound existential starts with the object reference (null for nil).
            activeObserverPointer = withUnsafeBytes(of: &activeObserver) { $0.load(as: UnsafeMutableRawPointer?.self) }
            return activeObserverPointer != nil
        }

        /// Asks the retained observer whether it observes `kind`.
        @inline(__always)
        func observerObserves(_ kind: DatabaseEventKind) -> Bool {
            guard let activeObserverPointer else { return false }
            return rowCallbacks.observes(activeObserverPointer, kind)
        }

        /// Ends the activation for the statement.
        @inline(__always)
        func deactivate() {
            activeObserverPointer = nil
            activeObserver = nil
            acceptsAllOf = nil
        }

        /// Forgets the last accepted table name pointer unless it was accepted for the
        /// same activation, in the same epoch, with every written table accepted.
        @inline(__always)
        func validateLastAcceptedTable(activation: UInt64, epoch: UInt64, acceptsAll: Bool) {
            guard !acceptsAll || lastAcceptedTableKey != (activation, epoch) else { return }
            lastAcceptedTable = nil
            lastAcceptedTableKey = acceptsAll ? (activation, epoch) : (0, 0)
        }

        /// Notifies the active observer of a row change.
        @inline(__always)
        func notifyDidChange(_ event: DatabaseEvent) {
            if let activeObserverPointer { rowCallbacks.didChange(activeObserverPointer, event) }
        }

        /// Notifies the active observer of a row about to change.
        @inline(__always)
        func notifyWillChange(_ event: DatabasePreUpdateEvent) {
            if let activeObserverPointer { rowCallbacks.willChange(activeObserverPointer, event) }
        }

        /// Whether the observer accepted the table of a row event of the current statement.
        @inline(__always)
        func accepts(table: UnsafePointer<CChar>) -> Bool {
            if table == lastAcceptedTable { return true }
            return acceptsNewTable(table)
        }

        private func acceptsNewTable(_ table: UnsafePointer<CChar>) -> Bool {
            let isTable = { (accepted: UnsafeMutablePointer<CChar>) in sqlite3_stricmp(table, accepted) == 0 }
            guard acceptsAllOf?.contains(where: isTable) ?? acceptedTables.contains(where: isTable) else { return false }
            lastAcceptedTable = table
            return true
        }
    }

    // All this state is confined to the writer's queue, and never accessed re-entrantly:
    // the runtime's dynamic exclusivity checks would cost on every statement.
    @exclusivity(unchecked) private var entries: [Entry] = [] {
        willSet { deactivateUserEntries() }
        didSet { userEntries.replace(with: entries.filter { $0.regionObserver == nil }) }
    }
    /// The entries of user observers, asked about each statement (owned by `entries`).
    private let userEntries = UnmanagedList<Entry>()
    /// Bumped whenever the set of observers changes, to invalidate per-statement decisions.
    @exclusivity(unchecked) private var generation = 0
    /// Whether callbacks currently run with the connection forbidden (set per statement
    /// while row events may come, rather than per event).
    @exclusivity(unchecked) private var forbidsAccessForStatement = false

    // MARK: Statement state

    private final class RegionActivation {
        /// Unique among the activations of this broker.
        let id: UInt64
        let generation: Int
        let statementLevel: [Entry]
        /// Their region observers, read without reference counting on each execution.
        /// Only read while `generation` is current: the broker's entries keep them alive.
        private let statementLevelObservers: UnsafeMutableBufferPointer<Unmanaged<RegionObserver>>
        /// Row-level observers, indexed by table, then by rowid: a row change finds the
        /// observers of that row without looking at the others.
        let rowLevel: [(table: ContiguousArray<CChar>, entriesByRowID: [Int64: [Entry]])]
        var hasRowLevel: Bool { !rowLevel.isEmpty }
        /// The kinds of changes the statement may make, asked to user observers, and their
        /// tables, in the same order, as C strings owned by the activation: row events
        /// are compared with them without allocation or reference counting.
        let writeKinds: [DatabaseEventKind]
        let writtenTables: UnsafeBufferPointer<UnsafeMutablePointer<CChar>>
        init(
            id: UInt64,
            generation: Int,
            statementLevel: [Entry],
            rowLevel: [(table: ContiguousArray<CChar>, entriesByRowID: [Int64: [Entry]])],
            userWrites: [(kind: DatabaseEventKind, table: String)])
        {
            self.id = id
            self.generation = generation
            self.statementLevel = statementLevel
            let observers = statementLevel.compactMap(\.regionObserver)
            statementLevelObservers = .allocate(capacity: observers.count)
            for (index, observer) in observers.enumerated() {
                statementLevelObservers.initializeElement(at: index, to: .passUnretained(observer))
            }
            self.rowLevel = rowLevel
            writeKinds = userWrites.map(\.kind)
            let tables = UnsafeMutableBufferPointer<UnsafeMutablePointer<CChar>>.allocate(capacity: userWrites.count)
            for (index, write) in userWrites.enumerated() {
                tables.initializeElement(at: index, to: strdup(write.table)!)
            }
            writtenTables = UnsafeBufferPointer(tables)
        }

        /// Whether every statement-level observer already has a change in the current
        /// transaction.
        func allStatementLevelObserversImpacted() -> Bool {
            statementLevelObservers.allSatisfy { $0._withUnsafeGuaranteedRef(\.hasPendingImpact) }
        }

        deinit {
            statementLevelObservers.deallocate()
            for table in writtenTables { free(table) }
            writtenTables.deallocate()
        }
    }

    /// The user entries activated for the current statement (owned by `entries`).
    private let activeUserEntries = UnmanagedList<Entry>()
    @exclusivity(unchecked) private var regionActivation: RegionActivation?
    @exclusivity(unchecked) private var lastActivationID: UInt64 = 0
    /// Bumped whenever SQLite may reload the schema, which frees the table names that row
    /// events point to (see `Entry.lastAcceptedTable`).
    @exclusivity(unchecked) private var tableNameEpoch: UInt64 = 0
    @exclusivity(unchecked) private var rowLevelImpacts: [Entry] = []
    @exclusivity(unchecked) private var totalChangesBefore: CInt = 0
    @exclusivity(unchecked) private var tracksStatementLevelImpacts = false
    @exclusivity(unchecked) private var wasInsideTransaction = false
    @exclusivity(unchecked) private var updateHookInstalled = false
    @exclusivity(unchecked) private var preUpdateHookInstalled = false

    // MARK: Savepoints and transactions

    private enum BufferedItem {
        case event(DatabaseEvent, [Entry])
        case impact(Entry)
    }
    @exclusivity(unchecked) private var savepointNames: [String] = []
    @exclusivity(unchecked) private var buffer: [(depth: Int, item: BufferedItem)] = []

    private enum TransactionState {
        case none
        case committed
        case rolledBack
        case cancelledCommit(any Error)
    }
    @exclusivity(unchecked) private var transactionState = TransactionState.none
    @exclusivity(unchecked) private var hasNotifiedChanges = false

    /// Whether the linked SQLite has the pre-update hook (Debian's and Apple's do).
    static let supportsPreUpdateHook: Bool = sqlite3_compileoption_used("ENABLE_PREUPDATE_HOOK") != 0

    private let supportsPreUpdateHook = DatabaseObservationBroker.supportsPreUpdateHook

    init(database: Database) {
        databaseReference = Unmanaged.passUnretained(database)
        super.init()
        installTransactionHooks()
    }

    // MARK: - Registration

    func add(_ observer: any TransactionObserver, extent: TransactionObservationExtent) {
        let identity = ObjectIdentifier(observer)
        guard !entries.contains(where: { $0.identity == identity && $0.observer != nil }) else { return }
        entries.append(Entry(observer, extent: extent))
        generation += 1
    }

    func remove(_ observer: any TransactionObserver) {
        let identity = ObjectIdentifier(observer)
        removeEntries { $0.identity == identity }
    }

    /// Removes the matching entries, if any. When none match, `entries` is left alone: its
    /// observers rebuild the user-entry list, and per-statement decisions stay valid.
    private func removeEntries(where shouldRemove: (Entry) -> Bool) {
        guard entries.contains(where: shouldRemove) else { return }
        entries.removeAll(where: shouldRemove)
        generation += 1
    }

    /// A region observer changed its region: per-statement decisions must be made again.
    func observersDidChange() {
        generation += 1
    }

    private func purgeDeallocatedObservers() {
        removeEntries { $0.observer == nil }
    }

    var hasObservers: Bool { !entries.isEmpty }

    // MARK: - The current broker, for stopObservingDatabaseChangesUntilNextTransaction()

    static var current: DatabaseObservationBroker? {
        ripple_current_broker().map { Unmanaged<DatabaseObservationBroker>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs observer callbacks that must not use the connection, with the broker current.
    private func withoutDatabaseAccess<T>(_ body: () throws -> T) rethrows -> T {
        if forbidsAccessForStatement { return try body() }
        beginForbiddingAccess()
        defer { endForbiddingAccess() }
        return try body()
    }

    func observerIgnoresPreUpdateEvents(_ observer: any TransactionObserver) {
        let identity = ObjectIdentifier(observer)
        for entry in entries where entry.identity == identity { entry.wantsPreUpdateEvents = false }
    }

    func stopObservingUntilNextTransaction(_ observer: any TransactionObserver) {
        let identity = ObjectIdentifier(observer)
        for entry in entries where entry.identity == identity { entry.isStopped = true }
    }

    // MARK: - Statements

    override func statementWillStart(_ statement: Statement) throws {
        guard !entries.isEmpty else {
            uninstallRowHooks()
            return
        }
        wasInsideTransaction = withDatabase { $0.isInsideTransaction }
        // Outside of a transaction, another connection may have changed the schema, and
        // this statement may make SQLite reload it.
        if !wasInsideTransaction { tableNameEpoch &+= 1 }
        guard statement.report.mayWrite else { return }

        // Decided once per prepared statement (until observers change). Only the broker
        // stores in observationCache, and only RegionActivations.
        if let cached = statement.unretainedObservationCache {
            let isCurrent = cached._withUnsafeGuaranteedRef { unsafeDowncast($0, to: RegionActivation.self).generation == generation }
            if isCurrent {
                Unmanaged<RegionActivation>.fromOpaque(cached.toOpaque())._withUnsafeGuaranteedRef { activate(for: $0) }
                return
            }
        }
        let activation = makeRegionActivation(statement.report)
        statement.observationCache = activation
        activate(for: activation)
    }

    /// Prepares the broker for the execution of a statement whose decisions are
    /// `activation`.
    @inline(__always)
    private func activate(for activation: RegionActivation) {
        // Observers already impacted in this transaction need no more checks: a bulk
        // import checks its first statement only.
        tracksStatementLevelImpacts = !activation.statementLevel.isEmpty && !(savepointNames.isEmpty
            && activation.allStatementLevelObserversImpacted())
        if tracksStatementLevelImpacts {
            totalChangesBefore = withDatabase { sqlite3_total_changes($0.sqliteConnection) }
        }
        // Kept only when the end of the statement has something to check.
        if tracksStatementLevelImpacts || activation.hasRowLevel {
            regionActivation = activation
        } else if regionActivation != nil {
            regionActivation = nil
        }

        // User observers: asked once per execution, as documented.
        deactivateUserEntries()
        var needsPreUpdate = supportsPreUpdateHook && activation.hasRowLevel
        for index in 0..<userEntries.count {
            userEntries.withElement(at: index) { entry in
                guard !entry.isStopped, activate(entry, for: activation) else { return }
                activeUserEntries.append(entry)
                if entry.wantsPreUpdateEvents { needsPreUpdate = supportsPreUpdateHook }
            }
        }

        let needsRowEvents = !activeUserEntries.isEmpty
        // Row hooks stay installed from one statement to the next while they are needed
        // (installing one takes SQLite's mutex), and go as soon as they are not.
        if needsRowEvents {
            installUpdateHook()
            // Row callbacks must not use the connection: forbid it once for the statement.
            beginForbiddingAccess()
        } else {
            uninstallUpdateHook()
        }
        if needsPreUpdate { installPreUpdateHook() } else { uninstallPreUpdateHook() }
    }

    @exclusivity(unchecked) private var savedForbidsAccess = false
    @exclusivity(unchecked) private var savedCurrentBroker: UnsafeMutableRawPointer?

    @inline(__always)
    private func beginForbiddingAccess() {
        guard !forbidsAccessForStatement else { return }
        forbidsAccessForStatement = true
        savedCurrentBroker = ripple_current_broker()
        ripple_set_current_broker(Unmanaged.passUnretained(self).toOpaque())
        withDatabase { database in
            savedForbidsAccess = database.forbidsAccess
            database.forbidsAccess = true
        }
    }

    @inline(__always)
    private func endForbiddingAccess() {
        guard forbidsAccessForStatement else { return }
        forbidsAccessForStatement = false
        withDatabase { $0.forbidsAccess = savedForbidsAccess }
        ripple_set_current_broker(savedCurrentBroker)
    }

    /// Asks the observer of `entry` about each kind of change the statement may make, and
    /// activates the entry if it accepts one: returns whether it does.
    @inline(__always)
    private func activate(_ entry: Entry, for activation: RegionActivation) -> Bool {
        // The observer, retained once until the end of the statement (with a side table,
        // because it is held weakly, each count is costly).
        guard entry.retainObserverForStatement() else { return false }
        // `activation.writeKinds` read in place, not copied into a local (a copy is retained).
        let tables = activation.writtenTables
        var acceptsAll = true
        var accepted: [UnsafeMutablePointer<CChar>] = []
        for index in 0..<tables.count {
            if entry.observerObserves(activation.writeKinds[index]) {
                if !acceptsAll { accepted.append(tables[index]) }
            } else if acceptsAll {
                acceptsAll = false
                accepted = Array(tables[..<index])
            }
        }
        entry.validateLastAcceptedTable(activation: activation.id, epoch: tableNameEpoch, acceptsAll: acceptsAll)
        if acceptsAll && !tables.isEmpty {
            entry.acceptsAllOf = tables
            return true
        }
        if !acceptsAll && !accepted.isEmpty {
            entry.acceptsAllOf = nil
            entry.acceptedTables = accepted
            return true
        }
        entry.deactivate()
        return false
    }

    @inline(__always)
    private func deactivateUserEntries() {
        guard !activeUserEntries.isEmpty else { return }
        for index in 0..<activeUserEntries.count {
            activeUserEntries.withElement(at: index) { $0.deactivate() }
        }
        activeUserEntries.removeAll()
    }

    /// `sqlite_sequence`, `sqlite_stat1` and the like are nobody's business but SQLite's.
    private static func isInternal(_ table: String) -> Bool {
        table.hasPrefix("sqlite_")
    }

    private func makeRegionActivation(_ report: StatementReport) -> RegionActivation {
        // What the statement may write, in a stable order: matched against regions, and
        // (but for SQLite's internal tables) asked to user observers.
        var writes: [(table: String, kind: DatabaseRegion.ChangeKind, eventKind: DatabaseEventKind)] = []
        for table in report.insertedTables.sorted() {
            writes.append((table, .insert, .insert(tableName: table)))
        }
        for table in report.deletedTables.sorted() {
            writes.append((table, .delete, .delete(tableName: table)))
        }
        for (table, columns) in report.updatedColumns.sorted(by: { $0.key < $1.key }) {
            writes.append((table, .update(columns), .update(tableName: table, columnNames: columns)))
        }
        let userWrites = writes.filter { !Self.isInternal($0.table) }.map { (kind: $0.eventKind, table: $0.table) }
        var statementLevel: [Entry] = []
        var rowLevelByTable: [String: [Int64: [Entry]]] = [:]
        for entry in entries {
            guard let regionObserver = entry.regionObserver else { continue }
            let region = regionObserver.region
            var rowLevelTables: [(String, Set<Int64>)] = []
            var isStatementLevel = false
            for write in writes where region.isModified(byChangeOf: write.table, kind: write.kind) {
                // A dropped table loses its rows without row events: statement level.
                if Self.supportsPreUpdateHook, !report.changesSchema, let rowIDs = region.rowIDs(forTable: write.table) {
                    rowLevelTables.append((write.table, rowIDs))
                } else {
                    // No rowids, or no pre-update hook to see rows deleted by REPLACE: the
                    // statement's change count decides.
                    isStatementLevel = true
                }
            }
            if isStatementLevel {
                statementLevel.append(entry)
            } else {
                for (table, rowIDs) in rowLevelTables {
                    for rowID in rowIDs { rowLevelByTable[table, default: [:]][rowID, default: []].append(entry) }
                }
            }
        }
        let rowLevel = rowLevelByTable.map { (table: $0.key.utf8CString, entriesByRowID: $0.value) }
        lastActivationID += 1
        return RegionActivation(id: lastActivationID, generation: generation, statementLevel: statementLevel, rowLevel: rowLevel, userWrites: userWrites)
    }

    override func statementDidFinish(_ statement: Statement) throws {
        if statement.report.changesSchema { tableNameEpoch &+= 1 }
        // The common case of a statement nobody needed to watch: nothing to do.
        if regionActivation == nil, activeUserEntries.isEmpty, !forbidsAccessForStatement, !hasNotifiedChanges,
           !statement.report.hasSavepointEffect, case .none = transactionState
        {
            return
        }
        endForbiddingAccess()
        if let activation = regionActivation {
            regionActivation = nil
            // A schema change (DROP TABLE) may empty a table without counting changes.
            if tracksStatementLevelImpacts, statement.report.changesSchema
                || withDatabase({ sqlite3_total_changes($0.sqliteConnection) }) != totalChangesBefore
            {
                for entry in activation.statementLevel { recordImpact(entry) }
            }
            if !rowLevelImpacts.isEmpty {
                for entry in rowLevelImpacts { recordImpact(entry) }
                rowLevelImpacts.removeAll(keepingCapacity: true)
            }
        }
        deactivateUserEntries()

        switch statement.report.savepointEffect {
        case .begin(let name)?:
            savepointNames.append(name.lowercased())
        case .release(let name)?:
            if let index = savepointNames.lastIndex(of: name.lowercased()) {
                savepointNames.removeSubrange(index...)
                if savepointNames.isEmpty { flushBuffer() }
            }
        case .rollback(let name)?:
            if let index = savepointNames.lastIndex(of: name.lowercased()) {
                // The savepoint stays open; what happened since it began is gone.
                buffer.removeAll { $0.depth > index }
            }
        case nil:
            break
        }
        try endTransactionIfNeeded(statement.report)
    }

    override func statementDidFail(_ statement: Statement, error: any Error) -> any Error {
        tableNameEpoch &+= 1
        endForbiddingAccess()
        uninstallRowHooks()
        regionActivation = nil
        rowLevelImpacts.removeAll(keepingCapacity: true)
        deactivateUserEntries()
        var result = error
        switch transactionState {
        case .cancelledCommit(let observerError):
            result = observerError
            notifyRollback()
        case .rolledBack:
            notifyRollback()
        case .committed:
            notifyCommit()
        case .none:
            if wasInsideTransaction && !database.isInsideTransaction { notifyRollback() }
        }
        return result
    }

    override func connectionWillClose() {
        if let connection = database.sqliteConnection {
            sqlite3_commit_hook(connection, nil, nil)
            sqlite3_rollback_hook(connection, nil, nil)
        }
        uninstallRowHooks()
    }

    /// Impacts of region observers wait in the savepoint buffer like row events.
    private func recordImpact(_ entry: Entry) {
        if savepointNames.isEmpty {
            entry.regionObserver?.markImpacted()
        } else {
            buffer.append((savepointNames.count, .impact(entry)))
        }
    }

    private func flushBuffer() {
        guard !buffer.isEmpty else { return }
        let items = buffer
        buffer.removeAll()
        withoutDatabaseAccess {
            for (_, item) in items {
                switch item {
                case let .event(event, entries):
                    for entry in entries where !entry.isStopped {
                        entry.observer?.databaseDidChange(with: event)
                    }
                case .impact(let entry):
                    entry.regionObserver?.markImpacted()
                }
            }
        }
    }

    // MARK: - Row hooks

    private func installUpdateHook() {
        guard !updateHookInstalled else { return }
        updateHookInstalled = true
        sqlite3_update_hook(database.sqliteConnection, { context, operation, databaseName, tableName, rowID in
            guard let context, let databaseName, let tableName, let kind = DatabaseEvent.Kind(rawValue: operation) else { return }
            Unmanaged<DatabaseObservationBroker>.fromOpaque(context)._withUnsafeGuaranteedRef { broker in
                broker.didChange(DatabaseEvent(kind: kind, rowID: rowID, databaseName: databaseName, tableName: tableName), table: tableName)
            }
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func installPreUpdateHook() {
        guard !preUpdateHookInstalled else { return }
        preUpdateHookInstalled = true
        sqlite3_preupdate_hook(database.sqliteConnection, { context, connection, operation, databaseName, tableName, initialRowID, finalRowID in
            guard let context, let connection, let databaseName, let tableName, let kind = DatabaseEvent.Kind(rawValue: operation) else { return }
            Unmanaged<DatabaseObservationBroker>.fromOpaque(context)._withUnsafeGuaranteedRef { broker in
                broker.willChange(connection: connection, kind: kind, databaseName: databaseName, tableName: tableName, initialRowID: initialRowID, finalRowID: finalRowID)
            }
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func uninstallRowHooks() {
        uninstallUpdateHook()
        uninstallPreUpdateHook()
    }

    private func uninstallUpdateHook() {
        guard updateHookInstalled else { return }
        withDatabase { _ = sqlite3_update_hook($0.sqliteConnection, nil, nil) }
        updateHookInstalled = false
    }

    private func uninstallPreUpdateHook() {
        guard preUpdateHookInstalled else { return }
        withDatabase { _ = sqlite3_preupdate_hook($0.sqliteConnection, nil, nil) }
        preUpdateHookInstalled = false
    }

    @inline(__always)
    private func didChange(_ event: DatabaseEvent, table: UnsafePointer<CChar>) {
        // The hook stays installed between statements: rows of statements that activated
        // nobody are nobody's business.
        let activeUserEntries = activeUserEntries
        guard !activeUserEntries.isEmpty else { return }
        if !savepointNames.isEmpty {
            var entries: [Entry] = []
            for index in 0..<activeUserEntries.count {
                activeUserEntries.withElement(at: index) { entry in
                    if entry.accepts(table: table) { entries.append(entry) }
                }
            }
            if !entries.isEmpty { buffer.append((savepointNames.count, .event(event.copy(), entries))) }
            return
        }
        withoutDatabaseAccess {
            for index in 0..<activeUserEntries.count {
                activeUserEntries.withElement(at: index) { entry in
                    if !entry.isStopped && entry.accepts(table: table) { entry.notifyDidChange(event) }
                }
            }
        }
    }

    private func willChange(connection: OpaquePointer, kind: DatabaseEvent.Kind, databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>, initialRowID: Int64, finalRowID: Int64) {
        if let activation = regionActivation, activation.hasRowLevel {
            for (table, entriesByRowID) in activation.rowLevel {
                guard table.withUnsafeBufferPointer({ sqlite3_stricmp(tableName, $0.baseAddress!) == 0 }) else { continue }
                if kind != .insert, let entries = entriesByRowID[initialRowID] { rowLevelImpacts.append(contentsOf: entries) }
                if kind != .delete, finalRowID != initialRowID || kind == .insert, let entries = entriesByRowID[finalRowID] {
                    rowLevelImpacts.append(contentsOf: entries)
                }
            }
        }
        guard !activeUserEntries.isEmpty else { return }
        let event = DatabasePreUpdateEvent(
            connection: connection, kind: kind, databaseName: databaseName, tableName: tableName,
            initialRowID: initialRowID, finalRowID: finalRowID)
        withoutDatabaseAccess {
            for index in 0..<activeUserEntries.count {
                activeUserEntries.withElement(at: index) { entry in
                    if !entry.isStopped && entry.wantsPreUpdateEvents && entry.accepts(table: tableName) {
                        entry.notifyWillChange(event)
                    }
                }
            }
        }
    }

    // MARK: - Transactions

    private func installTransactionHooks() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_commit_hook(database.sqliteConnection, { context in
            let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context!).takeUnretainedValue()
            return broker.willCommit() ? 0 : 1
        }, context)
        sqlite3_rollback_hook(database.sqliteConnection, { context in
            let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context!).takeUnretainedValue()
            broker.didRollbackInSQLite()
        }, context)
    }

    /// The commit hook: true lets the commit happen.
    private func willCommit() -> Bool {
        // Changes held by savepoints reach observers before the commit is announced.
        savepointNames.removeAll()
        flushBuffer()
        do {
            try askObserversToCommit()
            transactionState = .committed
            return true
        } catch {
            transactionState = .cancelledCommit(error)
            return false
        }
    }

    /// `databaseWillCommit()` of every observer, in registration order: the first error vetoes.
    private func askObserversToCommit() throws {
        try withoutDatabaseAccess {
            for entry in entries { try entry.observer?.databaseWillCommit() }
        }
    }

    private func didRollbackInSQLite() {
        savepointNames.removeAll()
        buffer.removeAll()
        if case .cancelledCommit = transactionState { return }
        transactionState = .rolledBack
    }

    private func endTransactionIfNeeded(_ report: StatementReport) throws {
        switch transactionState {
        case .committed:
            notifyCommit()
        case .rolledBack:
            notifyRollback()
        case .cancelledCommit(let error):
            notifyRollback()
            throw error
        case .none:
            // A transaction without writes ends without hooks: announce it when observers
            // were told of changes with notifyChanges(in:).
            guard hasNotifiedChanges, wasInsideTransaction, !database.isInsideTransaction else { return }
            if report.transactionEffect == .rollback {
                notifyRollback()
            } else {
                do {
                    try askObserversToCommit()
                } catch {
                    // The empty transaction is committed already: nothing can be rolled back.
                }
                notifyCommit()
            }
        }
    }

    private func endOfTransactionEntries() -> [Entry] {
        transactionState = .none
        hasNotifiedChanges = false
        savepointNames.removeAll()
        buffer.removeAll()
        let snapshot = entries
        for entry in snapshot { entry.isStopped = false }
        // .nextTransaction observers are notified this once more, then forgotten.
        removeEntries { $0.extent == .nextTransaction || $0.observer == nil }
        return snapshot
    }

    private func notifyCommit() {
        for entry in endOfTransactionEntries() {
            entry.observer?.databaseDidCommit(database)
        }
    }

    private func notifyRollback() {
        for entry in endOfTransactionEntries() {
            entry.observer?.databaseDidRollback(database)
        }
    }

    // MARK: - Explicit notifications

    func notifyChanges(in region: DatabaseRegion) {
        purgeDeallocatedObservers()
        hasNotifiedChanges = true
        withoutDatabaseAccess {
            for entry in entries {
                guard let observer = entry.observer else { continue }
                if let regionObserver = entry.regionObserver {
                    if !regionObserver.region.intersection(region).isEmpty || region.isFullDatabase || regionObserver.region.isFullDatabase {
                        recordImpact(entry)
                    }
                    continue
                }
                guard !entry.isStopped else { continue }
                let interested: Bool
                if let tables = region.tableNames {
                    interested = tables.contains { table in
                        observer.observes(eventsOfKind: .insert(tableName: table))
                            || observer.observes(eventsOfKind: .delete(tableName: table))
                            || observer.observes(eventsOfKind: .update(tableName: table, columnNames: []))
                    }
                } else {
                    interested = true
                }
                if interested { observer.databaseDidChange() }
            }
        }
    }
}

extension DatabaseRegion {
    /// The rowids the region restricts `table` to, if any.
    func rowIDs(forTable table: String) -> Set<Int64>? {
        tableRegions?[table.lowercased()]?.rowIDs
    }
}

/// Calls an observer's per-statement and row callbacks through an unretained reference
/// (see `DatabaseObservationBroker.Entry`).
protocol RowCallbacks {
    static func observes(_ observer: UnsafeMutableRawPointer, _ kind: DatabaseEventKind) -> Bool
    static func didChange(_ observer: UnsafeMutableRawPointer, _ event: DatabaseEvent)
    static func willChange(_ observer: UnsafeMutableRawPointer, _ event: DatabasePreUpdateEvent)
}

enum ObserverRowCallbacks<Observer: TransactionObserver>: RowCallbacks {
    static func observes(_ observer: UnsafeMutableRawPointer, _ kind: DatabaseEventKind) -> Bool {
        Unmanaged<Observer>.fromOpaque(observer)._withUnsafeGuaranteedRef { $0.observes(eventsOfKind: kind) }
    }

    static func didChange(_ observer: UnsafeMutableRawPointer, _ event: DatabaseEvent) {
        Unmanaged<Observer>.fromOpaque(observer)._withUnsafeGuaranteedRef { $0.databaseDidChange(with: event) }
    }

    static func willChange(_ observer: UnsafeMutableRawPointer, _ event: DatabasePreUpdateEvent) {
        Unmanaged<Observer>.fromOpaque(observer)._withUnsafeGuaranteedRef { $0.databaseWillChange(with: event) }
    }
}
