/// The row changes of one statement execution, as SQLite's row callbacks report them.
///
/// The log is plain memory, pinned (``_PinnedValue``) by its ``StatementExecution``: the
/// callback of a row that concerns nothing but the log (the common case: a table whose
/// changes go to application observers, or to no one) records it without touching any
/// reference-counted object (see ``RowHookContext``). The rows that need more (region
/// observers of rows by rowid, `databaseWillChange(with:)`) go through the broker.
///
/// Slot `i` of the log is slot `i` of the execution: the same table.
struct RowChangeLog {
    /// What the callback needs to know of one table the statement changes.
    struct Slot {
        /// The pointers SQLite passed last for this table: compared by address first.
        var tablePointer: UnsafePointer<CChar>?
        var databasePointer: UnsafePointer<CChar>?
        /// Whether some active user accepts some kind of change of this table: its row
        /// changes then become pending events.
        let hasUsers: Bool
        /// Whether region observers watch rows of this table by rowid: its row changes
        /// need the execution.
        let hasRowWatchers: Bool
        /// Whether some active user may want the pre-update events of this table: its
        /// changes reported by the pre-update hook need the execution.
        var hasPreUpdateUsers: Bool
        /// The kinds of the row changes seen so far.
        var changedKinds: StatementActivation.Kinds = []
    }

    /// A row change for `databaseDidChange(with:)`, waiting for the statement to end.
    struct PendingEvent {
        let slot: Int
        let kind: DatabaseEvent.Kind
        let rowID: Int64
        /// The kind of change SQLite made: an update that changes a row's rowid is told as
        /// a deletion and an insertion, to observers that accepted the update.
        let origin: StatementActivation.Kinds
    }

    private(set) var slots: [Slot] = []

    /// The pending events: the first `eventCount` elements of `eventStorage`, whose
    /// capacity serves from one execution to the next.
    private var eventStorage: [PendingEvent] = []
    private(set) var eventCount = 0

    /// The first insertion or deletion of the statement, if any: after the statement
    /// failed, whether that row is there tells whether SQLite kept the statement's changes.
    private(set) var probe: (slot: Int, kind: DatabaseEvent.Kind, rowID: Int64)?

    var events: ArraySlice<PendingEvent> { eventStorage[0..<eventCount] }

    /// The event at `index`, below `eventCount`. (Mutating: called through the log's
    /// pointer, a non-mutating call would copy the log, and retain its arrays.)
    @inline(__always)
    mutating func event(at index: Int) -> PendingEvent {
        assert(index < eventCount)
        return eventStorage[index]
    }

    mutating func appendSlot(_ slot: Slot) {
        slots.append(slot)
    }

    /// Whether the callback of a row change of the slot's table needs the execution;
    /// `preUpdate` tells that the pre-update hook reports it.
    @inline(__always)
    mutating func needsExecution(slot index: Int, preUpdate: Bool) -> Bool {
        slots[index].hasRowWatchers || (preUpdate && slots[index].hasPreUpdateUsers)
    }

    mutating func forgetPreUpdateUsers(ofSlot index: Int) {
        slots[index].hasPreUpdateUsers = false
    }

    mutating func setPointers(ofSlot index: Int, databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>) {
        slots[index].tablePointer = tableName
        slots[index].databasePointer = databaseName
    }

    /// The slot of a table SQLite reports a row change for, when SQLite passed the same
    /// name pointers before.
    @inline(__always)
    mutating func knownSlotIndex(databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>) -> Int? {
        for index in slots.indices where slots[index].tablePointer == tableName && slots[index].databasePointer == databaseName {
            return index
        }
        return nil
    }

    /// Records a row change of the slot's table. `initialRowID` and `finalRowID` are those
    /// of the pre-update hook (for inserts, only the final one is meaningful; for deletes,
    /// only the initial one).
    @inline(__always)
    mutating func record(slot index: Int, kind: DatabaseEvent.Kind, initialRowID: Int64, finalRowID: Int64) {
        let origin = StatementActivation.Kinds(kind)
        // An update that changes a row's rowid removes a row and adds another one: for
        // regions, a deletion and an insertion.
        let movesRow = kind == .update && finalRowID != initialRowID
        slots[index].changedKinds.insert(movesRow ? [.delete, .insert] : origin)
        // (Rows of WITHOUT ROWID tables come with rowid 0: they can not be looked up.)
        if probe == nil, kind != .update, (kind == .insert ? finalRowID : initialRowID) != 0 {
            probe = (index, kind, kind == .insert ? finalRowID : initialRowID)
        }
        guard slots[index].hasUsers else { return }
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

    private mutating func appendEvent(_ event: PendingEvent) {
        if eventCount < eventStorage.count {
            eventStorage[eventCount] = event
        } else {
            eventStorage.append(event)
        }
        eventCount += 1
    }

    /// Forgets the changes recorded so far (SQLite undid them).
    mutating func discardChanges() {
        eventCount = 0
        probe = nil
        for index in slots.indices { slots[index].changedKinds = [] }
    }

    /// Prepares the log for a new execution: no change, and only the first `slotCount`
    /// slots (those of the statement's report).
    mutating func restart(keepingSlots slotCount: Int) {
        discardChanges()
        if slots.count > slotCount { slots.removeSubrange(slotCount...) }
    }
}

/// What SQLite's row callbacks reach through their context pointer: the log of the running
/// execution, and the broker for what the log can not do. Pinned by the broker
/// (``_PinnedValue``), which keeps `log` set exactly while an execution collects.
struct RowHookContext {
    static let liveMarker: UInt64 = 0x524F_5748_4F4F_4B53
    /// Checked in debug builds at each callback: see ``_PinnedValue``.
    let marker = RowHookContext.liveMarker
    /// The broker, unretained (``_CallbackContext``): it owns this context, and clears its
    /// hooks before it goes.
    var broker: UnsafeMutableRawPointer?
    /// The log of the running execution, which the broker holds while it is set.
    var log: UnsafeMutablePointer<RowChangeLog>?
    /// Set when SQLite compiles a stepping statement again: the next row callback first
    /// makes the broker read its new report.
    var recompilationIsPending = false
}
