import CSQLite

/// What the broker collects while one statement runs: the row changes observers will be
/// told of, held until the statement ends.
///
/// A statement's row changes are only told when it succeeds: SQLite undoes the changes of
/// a statement that fails (the default `ABORT` conflict resolution), and observers must
/// not hear of changes that did not happen.
///
/// The statement's cache keeps its last execution, which serves again when the next one
/// has the same active observers with the same answers, and the same region index
/// (``restart(totalChanges:)``).
final class StatementExecution {
    /// The statement keeps its last execution (in its observation cache): unowned, so that
    /// they do not keep each other alive.
    unowned let statement: Statement
    /// The identity of `statement`, compared without the reference counting of an unowned
    /// reference (a hundred instructions for each statement).
    private let statementID: ObjectIdentifier
    let report: StatementReport

    /// Whether this is the execution of `statement`.
    func runs(_ statement: Statement) -> Bool { statementID == ObjectIdentifier(statement) }

    /// An application observer active for the statement, and the kinds it accepted.
    struct ActiveUser {
        let entry: ObserverEntry
        /// The observer's answers, one bit per question (0 when there were too many
        /// questions for a mask: the execution is then not reused).
        let mask: UInt64
        let acceptance: StatementActivation.Acceptance
    }
    let activeUsers: [ActiveUser]
    /// The registry's generation when the execution was made: its slots hold the region
    /// observers of that generation.
    let registryGeneration: Int

    /// One table the statement changes rows of.
    struct TableSlot {
        /// The lowercased table name.
        let key: String
        /// The names as SQLite spells them in its row callbacks.
        var name: String
        var databaseName: String
        /// The active users that accept some kind of change of this table, with the kinds.
        var users: [(index: Int, kinds: StatementActivation.Kinds)] = []
        /// Whether some active user wanted the pre-update events of this table when the
        /// execution was made; the log's flag is the live one (see `RowChangeLog.Slot`).
        var hasPreUpdateUsers = false
        /// The region observers of this table.
        var watchers: RegionIndex.TableWatchers? {
            didSet {
                hasRowWatchers = watchers?.idsByRowID.isEmpty == false
                watcherEntries = nil
            }
        }
        /// The entries of `watchers`, in an array: walking a dictionary costs several
        /// hundred instructions, for each statement. Made when first needed (see
        /// `needsRowEvents(regionObserversAreUntouched:)`): a table may have thousands of
        /// watchers, and a statement made anew for each transaction must not cost as many.
        private(set) var watcherEntries: [ObserverEntry]?

        mutating func makeWatcherEntries() -> [ObserverEntry] {
            if let watcherEntries { return watcherEntries }
            let entries = (watchers?.wholeTable.values.map(\.entry) ?? []) + (watchers?.someRows.values.map(\.entry) ?? [])
            watcherEntries = entries
            return entries
        }
        /// Whether some region observers watch rows of this table by rowid.
        private(set) var hasRowWatchers = false
        /// Whether SQLite reported writes to this table when it compiled the statement.
        let isReported: Bool
        /// Whether the table is a virtual table, once known (the execution is reused only
        /// with the schema facts it was made with).
        var isVirtualTable: Bool?
    }
    /// What changes while the statement runs.
    struct Run {
        var slots: [TableSlot] = []
        /// Copied pre-update events, waiting for the statement to end (inside savepoints).
        var preUpdateItems: [SavepointStack.Item] = []
        /// Region observers whose watched rows changed.
        var rowImpacts: [ObserverEntry] = []
        /// The connection's change counter when the statement started: writes to tables
        /// that have no row callbacks (virtual tables) are known from it.
        var totalChangesAtStart: CInt
        /// Whether no region observer watches the tables of the slots.
        var hasNoWatchers = true
        /// The `impactEpoch` in which every watcher of the slots was found touched by the
        /// transaction (see ``needsRowEvents(regionObserversAreUntouched:impactEpoch:)``);
        /// forgotten when a slot with watchers is added. (An execution serves only with
        /// the region index it was made with: a watcher added since makes a new execution.)
        var settledEpoch = -1
    }

    // Confined to the connection's queue; no observer runs inside an access to it.
    private let run: _ExclusiveAccessBox<Run>

    var slots: [TableSlot] { _read { yield run.value.slots } }
    var preUpdateItems: [SavepointStack.Item] { _read { yield run.value.preUpdateItems } }

    /// The row changes, where SQLite's row callbacks write them (slot `i` of the log is
    /// slot `i` here).
    let log = _PinnedValue(RowChangeLog())

    /// The statement's pending events.
    var events: ArraySlice<RowChangeLog.PendingEvent> { log.pointer.pointee.events }
    /// The slots of the tables of the report; the others were made for row changes.
    private let reportedSlotCount: Int

    init(
        statement: Statement, report: StatementReport, activeUsers: [ActiveUser], regionIndex: RegionIndex, registryGeneration: Int,
        totalChanges: CInt
    ) {
        self.statement = statement
        self.statementID = ObjectIdentifier(statement)
        self.report = report
        self.activeUsers = activeUsers
        self.registryGeneration = registryGeneration
        var run = Run(totalChangesAtStart: totalChanges)
        for write in report.writes {
            var slot = TableSlot(key: write.key, name: write.name, databaseName: "main", isReported: true)
            slot.watchers = regionIndex.tables[write.key]
            run.slots.append(slot)
        }
        reportedSlotCount = run.slots.count
        run.hasNoWatchers = run.slots.allSatisfy { $0.watchers == nil }
        hasSchemaEffects = report.changesSchema || !report.tablesChangedBySchema.isEmpty
        for (index, user) in activeUsers.enumerated() {
            for (tableKey, kinds) in user.acceptance.kindsByTable {
                guard let slotIndex = run.slots.firstIndex(where: { $0.key == tableKey }) else { continue }
                run.slots[slotIndex].users.append((index, kinds))
                if user.entry.wantsPreUpdateEvents { run.slots[slotIndex].hasPreUpdateUsers = true }
            }
        }
        for slot in run.slots { log.pointer.pointee.appendSlot(Self.logSlot(of: slot)) }
        var userRanges: [Range<Int>] = []
        var users: [(index: Int, kinds: StatementActivation.Kinds)] = []
        for slot in run.slots {
            userRanges.append(users.count..<(users.count + slot.users.count))
            users.append(contentsOf: slot.users)
        }
        reportedSlotUserRanges = userRanges
        reportedSlotUsers = users
        self.run = _ExclusiveAccessBox(run)
    }

    /// The log's slot for an execution's slot.
    private static func logSlot(of slot: TableSlot) -> RowChangeLog.Slot {
        RowChangeLog.Slot(hasUsers: !slot.users.isEmpty, hasRowWatchers: slot.hasRowWatchers, hasPreUpdateUsers: slot.hasPreUpdateUsers)
    }

    /// The users of the reported slots (those of a slot made for a row change are none),
    /// in constant flat lists: read in place, where a read of `slots` (or of a nested
    /// array) retains what it reads.
    private let reportedSlotUsers: [(index: Int, kinds: StatementActivation.Kinds)]
    /// The range of each reported slot's users in `reportedSlotUsers`.
    private let reportedSlotUserRanges: [Range<Int>]

    /// Tells the statement's events to the active users that accepted them, in order,
    /// skipping observers stopped, removed or deallocated since. Called once the statement
    /// succeeded, outside of any savepoint.
    func deliverEvents() {
        let log = log.pointer
        for eventIndex in 0..<log.pointee.eventCount {
            let event = log.pointee.event(at: eventIndex)
            guard event.slot < reportedSlotCount else { continue }
            let databaseEvent = DatabaseEvent(
                kind: event.kind, rowID: event.rowID,
                databaseName: run.value.slots[event.slot].databaseName, tableName: run.value.slots[event.slot].name)
            for userIndex in reportedSlotUserRanges[event.slot] where reportedSlotUsers[userIndex].kinds.contains(event.origin) {
                guard let observer = activeUsers[reportedSlotUsers[userIndex].index].entry.observerUnlessStopped else { continue }
                observer.databaseDidChange(with: databaseEvent)
            }
        }
    }

    /// ``deliverEvents()`` for a statement with one active user, `observer`, held since the
    /// statement started, until it is stopped or removed. (A second loop rather than an
    /// optional parameter of the first: binding the optional observer retains and
    /// releases it in its side table for each statement (measured: Benchmarks/README.md, "Shortcuts").)
    func deliverEvents(toSoleUser observer: any TransactionObserver) {
        assert(activeUsers.count == 1 && activeUsers[0].entry.isEntry(of: ObjectIdentifier(observer)), "the observer of the only active user")
        // (The entry is read in place at each event: a local reference to it is a retain
        // and a release, two atomic operations for each statement.)
        let log = log.pointer
        for eventIndex in 0..<log.pointee.eventCount {
            let event = log.pointee.event(at: eventIndex)
            guard event.slot < reportedSlotCount else { continue }
            for userIndex in reportedSlotUserRanges[event.slot] where reportedSlotUsers[userIndex].kinds.contains(event.origin) {
                guard !activeUsers[0].entry.isStopped && !activeUsers[0].entry.isRemoved else { return }
                observer.databaseDidChange(
                    with: DatabaseEvent(
                        kind: event.kind, rowID: event.rowID,
                        databaseName: run.value.slots[event.slot].databaseName, tableName: run.value.slots[event.slot].name))
            }
        }
    }

    /// The first `count` active users' answers (entry and mask).
    func answers(count: Int) -> [(entry: ObserverEntry, mask: UInt64)] {
        activeUsers.prefix(count).map { ($0.entry, $0.mask) }
    }

    /// Whether some active user wants pre-update events (`databaseWillChange(with:)`).
    var hasPreUpdateUsers: Bool {
        activeUsers.contains { $0.entry.wantsPreUpdateEvents }
    }

    /// Whether the statement has events to tell.
    var hasEvents: Bool { log.pointer.pointee.eventCount > 0 }

    /// Whether the execution has these active observers, with these answers.
    /// Prepares the execution to serve again, for a new run of its statement.
    func restart(totalChanges: CInt) {
        // (An empty array keeps no storage: removeAll(keepingCapacity:) would allocate one.)
        if !run.value.preUpdateItems.isEmpty { run.value.preUpdateItems.removeAll(keepingCapacity: true) }
        if !run.value.rowImpacts.isEmpty { run.value.rowImpacts.removeAll(keepingCapacity: true) }
        run.value.totalChangesAtStart = totalChanges
        if run.value.slots.count > reportedSlotCount {
            run.value.slots.removeSubrange(reportedSlotCount...)
            run.value.hasNoWatchers = run.value.slots.allSatisfy { $0.watchers == nil }
        }
        log.pointer.pointee.restart(keepingSlots: reportedSlotCount)
    }

    /// Whether the statement's changes can matter to no observer, whatever it changes: no
    /// active application observer, no region observer that has yet to learn that the
    /// transaction touched its region, and no schema change.
    ///
    /// - parameter regionObserversAreUntouched: whether no region observer learned yet
    ///   that the transaction touched its region.
    func isInert(fullDatabaseIsSettled: @autoclosure () -> Bool, regionObserversAreUntouched: Bool, impactEpoch: Int) -> Bool {
        guard activeUsers.isEmpty && !hasSchemaEffects else { return false }
        guard fullDatabaseIsSettled() else { return false }
        return run.value.hasNoWatchers || !needsRowEvents(regionObserversAreUntouched: regionObserversAreUntouched, impactEpoch: impactEpoch)
    }

    /// Whether ``regionImpacts(regionIndex:virtualTables:totalChanges:)`` may find region
    /// observers other than those of the full database.
    var mayImpactRegions: Bool { !run.value.hasNoWatchers || hasSchemaEffects || !run.value.rowImpacts.isEmpty }

    /// Whether the statement changes the schema, or tables through it.
    private let hasSchemaEffects: Bool

    /// Whether the statement needs row callbacks at all: to tell application observers, or
    /// to know which watched tables and rows changed.
    ///
    /// - parameter regionObserversAreUntouched: whether no region observer learned yet
    ///   that the transaction touched its region: then any watcher of the statement's
    ///   tables needs them, and the watchers are not looked at one by one.
    /// - parameter impactEpoch: the broker's count of ended transactions (see
    ///   `DatabaseObservationBroker.impactEpoch`): once every watcher of the slots is
    ///   touched, they stay so until the transaction ends, and the next statements of
    ///   the transaction do not look at them again (a loop of inserts into a table of 20
    ///   observations looked at 20 entries for each insert, W8).
    func needsRowEvents(regionObserversAreUntouched: Bool, impactEpoch: Int) -> Bool {
        if !activeUsers.isEmpty { return true }
        if regionObserversAreUntouched { return !run.value.hasNoWatchers }
        if run.value.settledEpoch == impactEpoch { return false }
        for index in run.value.slots.indices where run.value.slots[index].watchers != nil {
            for entry in run.value.slots[index].makeWatcherEntries() where !entry.hasTransactionImpact { return true }
        }
        run.value.settledEpoch = impactEpoch
        return false
    }

    /// The slot of a table SQLite reports a row change for, when SQLite passed the same
    /// name pointers before; else ``newSlotIndex(databaseName:tableName:regionIndex:)``
    /// finds it, or makes one for a table the statement did not report (the internal
    /// tables of a virtual table module).
    func knownSlotIndex(databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>) -> Int? {
        log.pointer.pointee.knownSlotIndex(databaseName: databaseName, tableName: tableName)
    }

    /// The slot of a table whose pointers SQLite did not pass before (see
    /// ``knownSlotIndex(databaseName:tableName:)``).
    @inline(never)
    func newSlotIndex(databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>, regionIndex: borrowing RegionIndex) -> Int {
        let name = String(cString: tableName)
        let key = name.lowercased()
        let database = String(cString: databaseName)
        // (A slot whose names SQLite never passed has no pointers in the log yet.)
        if let index = run.value.slots.indices.first(where: {
            run.value.slots[$0].key == key && (log.pointer.pointee.slots[$0].tablePointer == nil || run.value.slots[$0].databaseName == database)
        }) {
            log.pointer.pointee.setPointers(ofSlot: index, databaseName: databaseName, tableName: tableName)
            run.value.slots[index].name = name
            run.value.slots[index].databaseName = database
            return index
        }
        var slot = TableSlot(key: key, name: name, databaseName: database, isReported: false)
        slot.watchers = regionIndex.tables[key]
        if slot.watchers != nil {
            run.value.hasNoWatchers = false
            run.value.settledEpoch = -1
        }
        run.value.slots.append(slot)
        log.pointer.pointee.appendSlot(Self.logSlot(of: slot))
        log.pointer.pointee.setPointers(ofSlot: run.value.slots.count - 1, databaseName: databaseName, tableName: tableName)
        return run.value.slots.count - 1
    }

    /// Records a row change of the slot's table. `initialRowID` and `finalRowID` are those
    /// of the pre-update hook (for inserts, only the final one is meaningful; for deletes,
    /// only the initial one).
    func recordRowChange(slot index: Int, kind: DatabaseEvent.Kind, initialRowID: Int64, finalRowID: Int64) {
        log.pointer.pointee.record(slot: index, kind: kind, initialRowID: initialRowID, finalRowID: finalRowID)
        guard run.value.slots[index].hasRowWatchers else { return }
        // An update that changes a row's rowid removes a row and adds another one: for
        // regions, a deletion and an insertion.
        let movesRow = kind == .update && finalRowID != initialRowID
        let kinds = StatementActivation.Kinds(kind)
        if kind != .insert { recordRowImpacts(run.value.slots[index].watchers!, rowID: initialRowID, kinds: movesRow ? .delete : kinds, slot: index) }
        if kind != .delete && (kind == .insert || movesRow) {
            recordRowImpacts(run.value.slots[index].watchers!, rowID: finalRowID, kinds: movesRow ? .insert : kinds, slot: index)
        }
    }

    /// The first insertion or deletion of the statement, if any: after the statement
    /// failed, whether that row is there tells whether SQLite kept the statement's changes.
    var probe: (slot: Int, kind: DatabaseEvent.Kind, rowID: Int64)? { log.pointer.pointee.probe }

    private func recordRowImpacts(_ watchers: RegionIndex.TableWatchers, rowID: Int64, kinds: StatementActivation.Kinds, slot: Int) {
        guard let ids = watchers.idsByRowID[rowID] else { return }
        let updatedColumns = report.writes(toTableKey: run.value.slots[slot].key)?.updatedColumns
        for id in ids {
            guard let watcher = watchers.someRows[id], !watcher.entry.hasTransactionImpact else { continue }
            if StatementActivation.touches(
                kinds, updatedColumns: run.value.slots[slot].isReported ? updatedColumns : nil, watchedColumns: watcher.columns)
            {
                run.value.rowImpacts.append(watcher.entry)
            }
        }
    }

    /// SQLite rolled back what the statement did so far.
    func discardChanges() {
        run.value.preUpdateItems.removeAll()
        run.value.rowImpacts.removeAll()
        log.pointer.pointee.discardChanges()
    }

    func appendPreUpdateItem(_ item: SavepointStack.Item) {
        run.value.preUpdateItems.append(item)
    }

    /// The region observers the statement touched, once it succeeded: those of changed rows,
    /// those of tables that got row changes of a watched kind, and those of tables whose
    /// content changed without row callbacks (dropped or altered tables, virtual tables,
    /// the schema).
    ///
    /// - parameter virtualTables: the virtual tables (nil: unknown), asked only for a
    ///   table of the report that got no row callback while the change counter moved.
    func regionImpacts(regionIndex: borrowing RegionIndex, virtualTables: () -> Set<String>?, totalChanges: CInt) -> [ObserverEntry] {
        // No region observer of the written tables, of the schema, or of the whole
        // database: nobody to find.
        if run.value.hasNoWatchers && !hasSchemaEffects && regionIndex.fullDatabase.isEmpty && run.value.rowImpacts.isEmpty { return [] }
        var impacted = run.value.rowImpacts
        // (Room for every watcher of the run.slots' tables, made once: grown one entry at a
        // time, the list was made anew four times for 20 watchers, W8.)
        impacted.reserveCapacity(run.value.rowImpacts.count + run.value.slots.reduce(0) { $0 + ($1.watchers?.wholeTable.count ?? 0) })
        var touchesAnyTable = false
        // (Slots are read in place: a copy of one would retain its strings and dictionaries.)
        for index in run.value.slots.indices {
            var kinds = log.pointer.pointee.slots[index].changedKinds
            if kinds.isEmpty, run.value.slots[index].isReported, totalChanges != run.value.totalChangesAtStart,
                !StatementReport.isInternalTable(run.value.slots[index].name)
            {
                if run.value.slots[index].isVirtualTable == nil, let virtualTables = virtualTables() {
                    run.value.slots[index].isVirtualTable = virtualTables.contains(run.value.slots[index].key)
                }
            }
            if kinds.isEmpty, run.value.slots[index].isReported, totalChanges != run.value.totalChangesAtStart,
                run.value.slots[index].isVirtualTable ?? true,
                !StatementReport.isInternalTable(run.value.slots[index].name), let write = report.writes(toTableKey: run.value.slots[index].key)
            {
                // A virtual table has no row callbacks: what the statement may do to it is
                // known from its report, and that it did something from the change counter.
                // (Unknown virtual tables, in the rare case the schema was not readable:
                // any written table without row callbacks.)
                if write.inserts { kinds.insert(.insert) }
                if write.deletes { kinds.insert(.delete) }
                if write.updatedColumns != nil { kinds.insert(.update) }
            }
            guard !kinds.isEmpty else { continue }
            touchesAnyTable = true
            guard let watchers = run.value.slots[index].watchers else { continue }
            let updatedColumns = run.value.slots[index].isReported ? report.writes(toTableKey: run.value.slots[index].key)?.updatedColumns : nil
            for (entry, columns) in watchers.wholeTable.values where !entry.hasTransactionImpact {
                if StatementActivation.touches(kinds, updatedColumns: updatedColumns, watchedColumns: columns) {
                    impacted.append(entry)
                }
            }
        }
        // Tables whose content changed with the schema: every observer of them.
        func touchWatchers(of key: String) {
            guard let watchers = regionIndex.tables[key] else { return }
            touchesAnyTable = true
            for (entry, _) in watchers.wholeTable.values where !entry.hasTransactionImpact { impacted.append(entry) }
            for (entry, _) in watchers.someRows.values where !entry.hasTransactionImpact { impacted.append(entry) }
        }
        for key in report.tablesChangedBySchema { touchWatchers(of: key) }
        if report.changesSchema {
            touchesAnyTable = true
            for key in ["sqlite_master", "sqlite_schema", "sqlite_temp_master", "sqlite_temp_schema"] { touchWatchers(of: key) }
        }
        if touchesAnyTable {
            for entry in regionIndex.fullDatabase.values where !entry.hasTransactionImpact { impacted.append(entry) }
        }
        return impacted
    }
}
