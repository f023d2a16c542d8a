import CSQLite

/// SQLite's row callbacks: the pre-update hook where SQLite has it, the update hook
/// elsewhere. Installed only while some observer needs row changes.
///
/// The pre-update hook reports every row change, including the rows deleted by `REPLACE`
/// conflict resolution and the changes of `WITHOUT ROWID` tables, which the update hook
/// does not report. For a statement that only inserts, into rowid tables, where no
/// `REPLACE` can delete a row, and whose observers do not want pre-update events, both
/// hooks report the same rows: the update hook serves then, since SQLite prepares each
/// pre-update call at a cost for each inserted row (measured: Benchmarks/README.md, "Shortcuts").
extension DatabaseObservationBroker {
    /// The row callback SQLite calls.
    enum RowHook {
        case preUpdate
        case update
    }

    /// Installs a row callback: the pre-update hook when `preUpdate` is true and SQLite has
    /// it, else the update hook. Replaces the other one, if installed: this happens inside
    /// `sqlite3_step` only when SQLite compiles a statement again, before it changes rows.
    func installRowHook(preUpdate: Bool = true) {
        let hook: RowHook = preUpdate && usesPreUpdateHook ? .preUpdate : .update
        guard installedRowHook != hook else { return }
        if installedRowHook != nil { clearRowHook() }
        installedRowHook = hook
        let context = UnsafeMutableRawPointer(hookContext.pointer)
        switch hook {
        case .preUpdate:
            sqlite3_preupdate_hook(
                connection,
                { context, connection, operation, databaseName, tableName, initialRowID, finalRowID in
                    guard let context, let connection, let databaseName, let tableName,
                        let kind = DatabaseEvent.Kind(rawValue: operation)
                    else { return }
                    RowHookContext.rowWillChange(
                        context.assumingMemoryBound(to: RowHookContext.self),
                        connection: connection, kind: kind, databaseName: databaseName, tableName: tableName,
                        initialRowID: initialRowID, finalRowID: finalRowID)
                }, context)
        case .update:
            sqlite3_update_hook(
                connection,
                { context, operation, databaseName, tableName, rowID in
                    guard let context, let databaseName, let tableName,
                        let kind = DatabaseEvent.Kind(rawValue: operation)
                    else { return }
                    RowHookContext.rowWillChange(
                        context.assumingMemoryBound(to: RowHookContext.self),
                        connection: nil, kind: kind, databaseName: databaseName, tableName: tableName,
                        initialRowID: rowID, finalRowID: rowID)
                }, context)
        }
    }

    func uninstallRowHook() {
        guard installedRowHook != nil else { return }
        // Not from inside sqlite3_step: the hook stays until the statement ends.
        guard database.authorizer.steppingStatement == nil else { return }
        clearRowHook()
    }

    private func clearRowHook() {
        switch installedRowHook {
        case .preUpdate?: sqlite3_preupdate_hook(connection, nil, nil)
        case .update?: sqlite3_update_hook(connection, nil, nil)
        case nil: break
        }
        installedRowHook = nil
    }

    /// A row is about to change (pre-update hook), or just changed (update hook, where
    /// `connection` is nil): what the log alone can not record.
    fileprivate func rowWillChange(
        connection: OpaquePointer?, kind: DatabaseEvent.Kind,
        databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>,
        initialRowID: Int64, finalRowID: Int64
    ) {
        if recompilationIsPending, let statement = execution?.statement ?? inertStatement {
            // SQLite compiled the statement again: its new report first.
            recompilationIsPending = false
            database.resolveRecompilation(of: statement)
        }
        guard let execution else { return }
        let slotIndex =
            execution.knownSlotIndex(databaseName: databaseName, tableName: tableName)
            ?? execution.newSlotIndex(databaseName: databaseName, tableName: tableName, regionIndex: registry.regionIndex)
        execution.recordRowChange(slot: slotIndex, kind: kind, initialRowID: initialRowID, finalRowID: finalRowID)
        guard let connection, execution.log.pointer.pointee.slots[slotIndex].hasPreUpdateUsers else { return }
        // Observers that do not implement databaseWillChange(with:) stop wanting its events
        // at the first one: the slot's flag is then stale, and no event is made for them.
        guard execution.slots[slotIndex].users.contains(where: { execution.activeUsers[$0.index].entry.wantsPreUpdateEvents }) else {
            // For good: an observer does not want these events again.
            execution.log.pointer.pointee.forgetPreUpdateUsers(ofSlot: slotIndex)
            return
        }
        let origin = StatementActivation.Kinds(kind)
        let slot = execution.slots[slotIndex]
        let event = DatabasePreUpdateEvent(
            connection: connection, kind: kind, databaseName: slot.databaseName, tableName: slot.name,
            initialRowID: initialRowID, finalRowID: finalRowID)
        if savepoints.isEmpty {
            // Told live: the event's values are only readable now.
            withoutDatabaseAccess {
                for user in slot.users where user.kinds.contains(origin) {
                    let entry = execution.activeUsers[user.index].entry
                    guard entry.wantsPreUpdateEvents, !entry.isStopped, let observer = entry.observer else { continue }
                    observer.databaseWillChange(with: event)
                    // (The default implementation, of an observer that does not implement
                    // the method, tells nothing.)
                    if entry.wantsPreUpdateEvents { transaction.toldObservers = true }
                }
            }
        } else {
            // Waits with the statement's other changes, copied.
            var copy: DatabasePreUpdateEvent?
            for user in slot.users where user.kinds.contains(origin) {
                let entry = execution.activeUsers[user.index].entry
                guard entry.wantsPreUpdateEvents else { continue }
                if copy == nil { copy = event.copy() }
                execution.appendPreUpdateItem(.willChange(copy!, entry))
            }
        }
    }
}

extension RowHookContext {
    /// A row is about to change (pre-update hook), or just changed (update hook, where
    /// `connection` is nil). The log of the running execution records it when it can,
    /// without touching a reference-counted object; else the broker does.
    @inline(__always)
    static func rowWillChange(
        _ context: UnsafeMutablePointer<RowHookContext>,
        connection: OpaquePointer?, kind: DatabaseEvent.Kind,
        databaseName: UnsafePointer<CChar>, tableName: UnsafePointer<CChar>,
        initialRowID: Int64, finalRowID: Int64
    ) {
        assert(context.pointee.marker == RowHookContext.liveMarker, "the row hooks' context lives as long as its broker")
        assert(
            context.pointee.log == context.pointee.broker.map { _CallbackContext<DatabaseObservationBroker>.object($0).execution?.log.pointer }
                ?? nil,
            "the log of the running execution")
        if !context.pointee.recompilationIsPending, let log = context.pointee.log,
            let slot = log.pointee.knownSlotIndex(databaseName: databaseName, tableName: tableName),
            !log.pointee.needsExecution(slot: slot, preUpdate: connection != nil)
        {
            log.pointee.record(slot: slot, kind: kind, initialRowID: initialRowID, finalRowID: finalRowID)
            return
        }
        guard let broker = context.pointee.broker else { return }
        _CallbackContext<DatabaseObservationBroker>.object(broker).rowWillChange(
            connection: connection, kind: kind, databaseName: databaseName, tableName: tableName,
            initialRowID: initialRowID, finalRowID: finalRowID)
    }
}
