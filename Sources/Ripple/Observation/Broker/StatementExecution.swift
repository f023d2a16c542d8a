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
    // Exclusivity: the mutable fields below are unchecked, for the reason and the
    // measurement written at the broker's fields (DatabaseObservationBroker.swift).
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
        /// The pointers SQLite passed last for this table: compared by address first.
        var lastTablePointer: UnsafePointer<CChar>?
        var lastDatabasePointer: UnsafePointer<CChar>?
        /// The active users that accept some kind of change of this table, with the kinds.
        var users: [(index: Int, kinds: StatementActivation.Kinds)] = []
        /// Whether some active user wants the pre-update events of this table.
        var hasPreUpdateUsers = false
        /// The region observers of this table.
        var watchers: RegionIndex.TableWatchers? {
            didSet {
                hasRowWatchers = watchers?.idsByRowID.isEmpty == false
                watcherEntries = (watchers?.wholeTable.values.map(\.entry) ?? []) + (watchers?.someRows.values.map(\.entry) ?? [])
            }
        }
        /// The entries of `watchers`, in an array: walking a dictionary costs several
        /// hundred instructions, for each statement.
        private(set) var watcherEntries: [ObserverEntry] = []
        /// Whether some region observers watch rows of this table by rowid.
        private(set) var hasRowWatchers = false
        /// The kinds of the row changes seen so far.
        var changedKinds: StatementActivation.Kinds = []
        /// Whether SQLite reported writes to this table when it compiled the statement.
        let isReported: Bool
        /// Whether the table is a virtual table, once known (the execution is reused only
        /// with the schema facts it was made with).
        var isVirtualTable: Bool?
    }
    @exclusivity(unchecked) private(set) var slots: [TableSlot] = []

    /// A row change for `databaseDidChange(with:)`, waiting for the statement to end.
    struct PendingEvent {
        let slot: Int
        let kind: DatabaseEvent.Kind
        let rowID: Int64
        /// The kind of change SQLite made: an update that changes a row's rowid is told as
        /// a deletion and an insertion, to observers that accepted the update.
        let origin: StatementActivation.Kinds
    }
    /// The statement's pending events: the first `eventCount` elements of `eventStorage`,
    /// whose capacity serves from one execution to the next.
    var events: ArraySlice<PendingEvent> { eventStorage[0..<eventCount] }
    @exclusivity(unchecked) private var eventStorage: [PendingEvent] = []
    @exclusivity(unchecked) private var eventCount = 0

    private func appendEvent(_ event: PendingEvent) {
        if eventCount < eventStorage.count {
            eventStorage[eventCount] = event
        } else {
            eventStorage.append(event)
        }
        eventCount += 1
    }
    /// Copied pre-update events, waiting for the statement to end (inside savepoints).
    @exclusivity(unchecked) private(set) var preUpdateItems: [SavepointStack.Item] = []
    /// Region observers whose watched rows changed.
    @exclusivity(unchecked) private(set) var rowImpacts: [ObserverEntry] = []
    /// The connection's change counter when the statement started: writes to tables that
    /// have no row callbacks (virtual tables) are known from it.
    @exclusivity(unchecked) private(set) var totalChangesAtStart: CInt
    /// The slots of the tables of the report; the others were made for row changes.
    private let reportedSlotCount: Int

    init(statement: Statement, report: StatementReport, activeUsers: [ActiveUser], regionIndex: RegionIndex, registryGeneration: Int, totalChanges: CInt) {
        self.statement = statement
        self.statementID = ObjectIdentifier(statement)
        self.report = report
        self.activeUsers = activeUsers
        self.registryGeneration = registryGeneration
        self.totalChangesAtStart = totalChanges
        for write in report.writes {
            var slot = TableSlot(key: write.key, name: write.name, databaseName: "main", isReported: true)
            slot.watchers = regionIndex.tables[write.key]
            slots.append(slot)
        }
        reportedSlotCount = slots.count
        hasNoWatchers = slots.allSatisfy { $0.watchers == nil }
        hasSchemaEffects = report.changesSchema || !report.tablesChangedBySchema.isEmpty
        for (index, user) in activeUsers.enumerated() {
            for (tableKey, kinds) in user.acceptance.kindsByTable {
                guard let slotIndex = slots.firstIndex(where: { $0.key == tableKey }) else { continue }
                slots[slotIndex].users.append((index, kinds))
                if user.entry.wantsPreUpdateEvents { slots[slotIndex].hasPreUpdateUsers = true }
            }
        }
        var userRanges: [Range<Int>] = []
        var users: [(index: Int, kinds: StatementActivation.Kinds)] = []
        for slot in slots {
            userRanges.append(users.count..<(users.count + slot.users.count))
            users.append(contentsOf: slot.users)
        }
        reportedSlotUserRanges = userRanges
        reportedSlotUsers = users
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
        for eventIndex in 0..<eventCount {
            let event = eventStorage[eventIndex]
            guard event.slot < reportedSlotCount else { continue }
            let databaseEvent = DatabaseEvent(
                kind: event.kind, rowID: event.rowID,
                databaseName: slots[event.slot].databaseName, tableName: slots[event.slot].name)
            for userIndex in reportedSlotUserRanges[event.slot] where reportedSlotUsers[userIndex].kinds.contains(event.origin) {
                guard let observer = activeUsers[reportedSlotUsers[userIndex].index].entry.observerUnlessStopped else { continue }
                observer.databaseDidChange(with: databaseEvent)
            }
        }
    }

    /// ``deliverEvents()`` for a statement with one active user, `observer`, held since the
    /// statement started, until it is stopped or removed. (A second loop rather than an
    /// optional parameter of the first: binding the optional observer retains and
    /// releases it in its side table, 195 instructions for each statement, callgrind W1b.)
    func deliverEvents(toSoleUser observer: any TransactionObserver) {
        assert(activeUsers.count == 1 && ObjectIdentifier(observer) == activeUsers[0].entry.identity, "the observer of the only active user")
        let entry = activeUsers[0].entry
        for eventIndex in 0..<eventCount {
            let event = eventStorage[eventIndex]
            guard event.slot < reportedSlotCount else { continue }
            for userIndex in reportedSlotUserRanges[event.slot] where reportedSlotUsers[userIndex].kinds.contains(event.origin) {
                guard !entry.isStopped && !entry.isRemoved else { return }
                observer.databaseDidChange(with: DatabaseEvent(
                    kind: event.kind, rowID: event.rowID,
                    databaseName: slots[event.slot].databaseName, tableName: slots[event.slot].name))
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
    var hasEvents: Bool { eventCount > 0 }

    /// Whether the execution has these active observers, with these answers.
    /// Prepares the execution to serve again, for a new run of its statement.
    func restart(totalChanges: CInt) {
        // (An empty array keeps no storage: removeAll(keepingCapacity:) would allocate one.)
        eventCount = 0
        if !preUpdateItems.isEmpty { preUpdateItems.removeAll(keepingCapacity: true) }
        if !rowImpacts.isEmpty { rowImpacts.removeAll(keepingCapacity: true) }
        probe = nil
        totalChangesAtStart = totalChanges
        if slots.count > reportedSlotCount {
            slots.removeSubrange(reportedSlotCount...)
            hasNoWatchers = slots.allSatisfy { $0.watchers == nil }
        }
        for index in slots.indices { slots[index].changedKinds = [] }
    }

    /// Whether the statement's changes can matter to no observer, whatever it changes: no
    /// active application observer, no region observer that has yet to learn that the
    /// transaction touched its region, and no schema change.
    func isInert(fullDatabaseIsSettled: @autoclosure () -> Bool) -> Bool {
        guard activeUsers.isEmpty && !hasSchemaEffects else { return false }
        guard fullDatabaseIsSettled() else { return false }
        return hasNoWatchers || !needsRowEvents
    }

    /// Whether ``regionImpacts(regionIndex:virtualTables:totalChanges:)`` may find region
    /// observers other than those of the full database.
    var mayImpactRegions: Bool { !hasNoWatchers || hasSchemaEffects || !rowImpacts.isEmpty }

    /// Whether the statement changes the schema, or tables through it.
    private let hasSchemaEffects: Bool
    /// Whether no region observer watches the tables of the slots.
    @exclusivity(unchecked) private(set) var hasNoWatchers: Bool

    /// Whether the statement needs row callbacks at all: to tell application observers, or
    /// to know which watched tables and rows changed.
    var needsRowEvents: Bool {
        if !activeUsers.isEmpty { return true }
        for index in slots.indices {
            for entry in slots[index].watcherEntries where !entry.hasTransactionImpact { return true }
        }
        return false
    }

    /// The slot of a table SQLite reports a row change for, when SQLite passed the same
    /// name pointers before; else ``newSlotIndex(databaseName:tableName:regionIndex:)``
    /// finds it, or makes one for a table the statement did not report (the internal
    /// tables of a virtual table module).
    func knownSlotIndex(databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>) -> Int? {
        for index in slots.indices where slots[index].lastTablePointer == tableName && slots[index].lastDatabasePointer == databaseName {
            return index
        }
        return nil
    }

    /// The slot of a table whose pointers SQLite did not pass before (see
    /// ``knownSlotIndex(databaseName:tableName:)``).
    @inline(never)
    func newSlotIndex(databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>, regionIndex: borrowing RegionIndex) -> Int {
        let name = String(cString: tableName)
        let key = name.lowercased()
        let database = String(cString: databaseName)
        if let index = slots.firstIndex(where: { $0.key == key && ($0.lastDatabasePointer == nil || $0.databaseName == database) }) {
            slots[index].lastTablePointer = tableName
            slots[index].lastDatabasePointer = databaseName
            slots[index].name = name
            slots[index].databaseName = database
            return index
        }
        var slot = TableSlot(key: key, name: name, databaseName: database, isReported: false)
        slot.lastTablePointer = tableName
        slot.lastDatabasePointer = databaseName
        slot.watchers = regionIndex.tables[key]
        if slot.watchers != nil { hasNoWatchers = false }
        slots.append(slot)
        return slots.count - 1
    }

    /// Records a row change of the slot's table. `initialRowID` and `finalRowID` are those
    /// of the pre-update hook (for inserts, only the final one is meaningful; for deletes,
    /// only the initial one).
    func recordRowChange(slot index: Int, kind: DatabaseEvent.Kind, initialRowID: Int64, finalRowID: Int64) {
        let origin = StatementActivation.Kinds(kind)
        // An update that changes a row's rowid removes a row and adds another one: for
        // regions, a deletion and an insertion.
        let movesRow = kind == .update && finalRowID != initialRowID
        let kinds: StatementActivation.Kinds = movesRow ? [.delete, .insert] : origin
        slots[index].changedKinds.insert(kinds)
        // (Rows of WITHOUT ROWID tables come with rowid 0: they can not be looked up.)
        if probe == nil, kind != .update, (kind == .insert ? finalRowID : initialRowID) != 0 {
            probe = (index, kind, kind == .insert ? finalRowID : initialRowID)
        }
        if slots[index].hasRowWatchers {
            if kind != .insert { recordRowImpacts(slots[index].watchers!, rowID: initialRowID, kinds: movesRow ? .delete : kinds, slot: index) }
            if kind != .delete && (kind == .insert || movesRow) {
                recordRowImpacts(slots[index].watchers!, rowID: finalRowID, kinds: movesRow ? .insert : kinds, slot: index)
            }
        }
        guard !slots[index].users.isEmpty else { return }
        switch kind {
        case .insert:
            appendEvent(PendingEvent(slot: index, kind: .insert, rowID: finalRowID, origin: origin))
        case .delete:
            appendEvent(PendingEvent(slot: index, kind: .delete, rowID: initialRowID, origin: origin))
        case .update where movesRow:
            appendEvent(PendingEvent(slot: index, kind: .delete, rowID: initialRowID, origin: origin))
            appendEvent(PendingEvent(slot: index, kind: .insert, rowID: finalRowID, origin: origin))
        case .update:
            appendEvent(PendingEvent(slot: index, kind: .update, rowID: finalRowID, origin: origin))
        }
    }

    /// The first insertion or deletion of the statement, if any: after the statement
    /// failed, whether that row is there tells whether SQLite kept the statement's changes.
    @exclusivity(unchecked) private(set) var probe: (slot: Int, kind: DatabaseEvent.Kind, rowID: Int64)?

    private func recordRowImpacts(_ watchers: RegionIndex.TableWatchers, rowID: Int64, kinds: StatementActivation.Kinds, slot: Int) {
        guard let ids = watchers.idsByRowID[rowID] else { return }
        let updatedColumns = report.writes(toTableKey: slots[slot].key)?.updatedColumns
        for id in ids {
            guard let watcher = watchers.someRows[id], !watcher.entry.hasTransactionImpact else { continue }
            if StatementActivation.touches(kinds, updatedColumns: slots[slot].isReported ? updatedColumns : nil, watchedColumns: watcher.columns) {
                rowImpacts.append(watcher.entry)
            }
        }
    }

    /// SQLite rolled back what the statement did so far.
    func discardChanges() {
        eventCount = 0
        preUpdateItems.removeAll()
        rowImpacts.removeAll()
        probe = nil
        for index in slots.indices { slots[index].changedKinds = [] }
    }

    func appendPreUpdateItem(_ item: SavepointStack.Item) {
        preUpdateItems.append(item)
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
        if hasNoWatchers && !hasSchemaEffects && regionIndex.fullDatabase.isEmpty && rowImpacts.isEmpty { return [] }
        var impacted = rowImpacts
        var touchesAnyTable = false
        // (Slots are read in place: a copy of one would retain its strings and dictionaries.)
        for index in slots.indices {
            var kinds = slots[index].changedKinds
            if kinds.isEmpty, slots[index].isReported, totalChanges != totalChangesAtStart, !StatementReport.isInternalTable(slots[index].name) {
                if slots[index].isVirtualTable == nil, let virtualTables = virtualTables() {
                    slots[index].isVirtualTable = virtualTables.contains(slots[index].key)
                }
            }
            if kinds.isEmpty, slots[index].isReported, totalChanges != totalChangesAtStart, slots[index].isVirtualTable ?? true,
               !StatementReport.isInternalTable(slots[index].name), let write = report.writes(toTableKey: slots[index].key)
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
            guard let watchers = slots[index].watchers else { continue }
            let updatedColumns = slots[index].isReported ? report.writes(toTableKey: slots[index].key)?.updatedColumns : nil
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
