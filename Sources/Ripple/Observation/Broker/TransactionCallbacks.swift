import CSQLite

/// The transaction callbacks that remain to be called at the end of a transaction.
///
/// `databaseDidCommit(_:)` and `databaseDidRollback(_:)` may use the connection, and run
/// statements: a callback that writes starts a new transaction before the other observers
/// heard of the end of the previous one. So the callbacks of a transaction's end are queued,
/// and whatever remains of the queue is delivered before the next statement starts: each
/// observer hears of the end of a transaction before it hears of the next one.
struct NotificationRound {
    enum Action {
        /// `databaseDidCommit(_:)`; for a region observer, `impacted` tells whether its
        /// region was touched.
        case didCommit(impacted: Bool)
        case didRollback
    }

    private var items: [(entry: ObserverEntry, action: Action)] = []
    private var position = 0

    var isEmpty: Bool { position == items.count }

    mutating func enqueue(_ entry: ObserverEntry, _ action: Action) {
        if position == items.count {
            items.removeAll(keepingCapacity: true)
            position = 0
        }
        items.append((entry, action))
    }

    mutating func next() -> (entry: ObserverEntry, action: Action)? {
        guard position < items.count else { return nil }
        defer { position += 1 }
        return items[position]
    }
}

extension DatabaseObservationBroker {
    // MARK: - SQLite's commit and rollback hooks

    func installTransactionHooks() {
        let context = _CallbackContext.unretained(self)
        sqlite3_commit_hook(
            connection,
            { context in
                _CallbackContext<DatabaseObservationBroker>.object(context).commitHook() ? 0 : 1
            }, context)
        sqlite3_rollback_hook(
            connection,
            { context in
                _CallbackContext<DatabaseObservationBroker>.object(context).rollbackHook()
            }, context)
    }

    /// SQLite is about to commit: true lets it.
    private func commitHook() -> Bool {
        // (Any commit of the connection, the commit log's too, moves the file.)
        database.externalChangesCommitWillHappen()
        // The commit log's own work is not the application's (see `CommitLog`).
        guard !database.state.value.observation.runsUnobservedWork else { return true }
        // The statement that commits (an autocommit statement, COMMIT, RELEASE) made its
        // changes: they are told before the commit is announced, then everything that
        // waited for savepoints to be released.
        finishExecution(succeeded: true)
        deliver(savepoints.removeAll())
        do {
            try askObserversToCommit()
            transaction.commitHook(vetoedBy: nil)
            return true
        } catch {
            transaction.commitHook(vetoedBy: error)
            return false
        }
    }

    private func rollbackHook() {
        database.externalChangesTransactionDidEnd(committed: false)
        guard !database.state.value.observation.runsUnobservedWork else { return }
        _ = savepoints.removeAll()
        switch transaction.rollbackHook() {
        case .endExecution: endExecution()
        case .discardChanges: execution?.discardChanges()
        }
    }

    /// `databaseWillCommit()` of every observer, in registration order: the first error
    /// vetoes the commit.
    private func askObserversToCommit() throws {
        guard !database.isReadOnly else { return }
        try withoutDatabaseAccess {
            // (The application's observers only: region observers have no veto, and a walk
            // of every entry would cost as many observers, thousands maybe, at each commit.)
            for entry in registry.userEntries {
                guard let observer = entry.observer else { continue }
                try observer.databaseWillCommit()
            }
        }
    }

    // MARK: - End of transactions

    /// Does what an event of the transaction's state asks.
    @inline(__always)
    func perform(_ end: TransactionState.End) throws {
        if case .none = end { return }
        try performEnd(end)
    }

    private func performEnd(_ end: TransactionState.End) throws {
        switch end {
        case .none: break
        case .commit: notifyCommit()
        case .rollback: notifyRollback()
        case .forget: resetTransaction()
        case .commitUnlessVetoed:
            deliver(savepoints.removeAll())
            do {
                try askObserversToCommit()
            } catch {
                notifyRollback()
                throw error
            }
            notifyCommit()
        case .rollbackThrowingVeto:
            let error = transaction.vetoError
            notifyRollback()
            if let error { throw error }
        }
    }

    /// Forgets the transaction's state; returns the observers to call back, in
    /// registration order: the application's observers, and the region observers that
    /// the transaction touched (the others have nothing to hear). The work is that of the
    /// observers called back, whatever the number of region observers.
    private func endTransaction(announced: Bool = true) -> [ObserverEntry] {
        transaction.end()
        endExecution()
        _ = savepoints.removeAll()
        let users = registry.userEntries
        // (Merged into one new list without the removed entries: a sorted copy, the merged
        // list and the filtered one were three lists to make for each commit, W8. The
        // callers clear the marks of the entries returned.)
        let entries = state.value.impacts.end { impacted in Self.merged(users, impacted) }
        // (Only application observers are held weakly, or for the next transaction.)
        if users.contains(where: { $0.observer == nil }) {
            for entry in registry.removeUserEntries(where: { $0.observer == nil }) { entry.release() }
        }
        // .nextTransaction observers are called back this once more, then forgotten.
        if announced, users.contains(where: { $0.extent == .nextTransaction }) {
            registry.removeUserEntries { $0.extent == .nextTransaction }
        }
        return entries
    }

    /// Two lists of entries in registration order (by id), merged in that order, without
    /// the entries removed from the registry.
    static func merged(_ first: [ObserverEntry], _ second: [ObserverEntry]) -> [ObserverEntry] {
        var result: [ObserverEntry] = []
        result.reserveCapacity(first.count + second.count)
        var i = 0
        var j = 0
        while i < first.count || j < second.count {
            let entry: ObserverEntry
            if j == second.count || (i < first.count && first[i].id < second[j].id) {
                entry = first[i]
                i += 1
            } else {
                entry = second[j]
                j += 1
            }
            if !entry.isRemoved { result.append(entry) }
        }
        return result
    }

    func resetTransaction() {
        for entry in endTransaction(announced: false) { entry.hasTransactionImpact = false }
    }

    func notifyCommit() {
        database.externalChangesTransactionDidEnd(committed: true)
        let fetchingObserver = transaction.fetchingObserver
        for entry in endTransaction() {
            if let regionObserver = entry.regionObserver {
                let isOwnFetch = fetchingObserver != nil && ObjectIdentifier(regionObserver) == fetchingObserver
                round.enqueue(entry, .didCommit(impacted: entry.hasTransactionImpact && !isOwnFetch))
                entry.hasTransactionImpact = false
            } else {
                round.enqueue(entry, .didCommit(impacted: false))
            }
        }
        deliverRound()
    }

    func notifyRollback() {
        for entry in endTransaction() {
            entry.hasTransactionImpact = false
            round.enqueue(entry, .didRollback)
        }
        deliverRound()
    }

    /// Calls what remains of the transaction callbacks.
    func deliverRound() {
        while let (entry, action) = round.next() {
            guard !entry.isRemoved else { continue }
            switch action {
            case .didCommit(let impacted):
                if let regionObserver = entry.regionObserver {
                    if impacted { regionObserver.regionWasCommitted(database) }
                } else if let observer = entry.observer {
                    observer.databaseDidCommit(database)
                }
            case .didRollback:
                if entry.regionObserver == nil, let observer = entry.observer {
                    observer.databaseDidRollback(database)
                }
            }
            if entry.extent == .nextTransaction { entry.release() }
        }
    }
}
