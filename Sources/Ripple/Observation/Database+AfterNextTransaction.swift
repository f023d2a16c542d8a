extension Database {
    /// Runs `onCommit` when the current transaction (or the next one, outside of a
    /// transaction) commits, or `onRollback` when it is rolled back; once.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try Player(name: "Arthur").insert(db)
    ///     db.afterNextTransaction { _ in
    ///         print("Arthur is saved")
    ///     }
    /// }
    /// ```
    ///
    /// Both closures run on the writer's queue, and may use their database argument.
    public func afterNextTransaction(
        onCommit: @escaping @Sendable (Database) -> Void,
        onRollback: @escaping @Sendable (Database) -> Void = { _ in }
    ) {
        add(transactionObserver: OneShotTransactionObserver(onCommit: onCommit, onRollback: onRollback), extent: .nextTransaction)
    }
}

/// The observer of `afterNextTransaction`: it observes no change, only the end.
private final class OneShotTransactionObserver: TransactionObserver {
    let onCommit: @Sendable (Database) -> Void
    let onRollback: @Sendable (Database) -> Void

    init(onCommit: @escaping @Sendable (Database) -> Void, onRollback: @escaping @Sendable (Database) -> Void) {
        self.onCommit = onCommit
        self.onRollback = onRollback
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { onCommit(db) }
    func databaseDidRollback(_ db: Database) { onRollback(db) }
}
