extension Database {
    /// The broker of this connection, created with the first observer.
    var observationBroker: DatabaseObservationBroker {
        if let broker = state.value.observation.hook as? DatabaseObservationBroker { return broker }
        let broker = DatabaseObservationBroker(database: self)
        state.value.observation.hook = broker
        return broker
    }

    /// Starts notifying `transactionObserver` of changes and transactions.
    ///
    /// - parameter transactionObserver: the observer.
    /// - parameter extent: how long: `.observerLifetime` (the default: the connection holds
    ///   the observer weakly), `.nextTransaction`, or `.databaseLifetime`.
    public func add(transactionObserver: some TransactionObserver, extent: TransactionObservationExtent = .observerLifetime) {
        observationBroker.add(transactionObserver, extent: extent)
        if let tracker = state.value.observation.externalChanges, !tracker.isActive { startExternalChangeTracking() }
    }

    /// Marks the open transaction as the fetch of `observer` (see
    /// `TransactionState.fetchingObserver`): its commit does not notify it.
    func transactionIsFetch(of observer: RegionObserver) {
        (state.value.observation.hook as? DatabaseObservationBroker)?.transaction.fetchingObserver = ObjectIdentifier(observer)
    }

    /// Stops notifying `transactionObserver`.
    public func remove(transactionObserver: some TransactionObserver) {
        (state.value.observation.hook as? DatabaseObservationBroker)?.remove(transactionObserver)
        // The last observer is gone: the file watch stops. (An observer that is
        // deallocated is noticed at the next check.)
        if state.value.observation.externalChanges?.isActive == true, !hasTransactionObservers { stopExternalChangeTracking() }
    }

    /// Tells observers about changes they could not see (changes by statements Ripple did
    /// not compile, ...): transaction observers that accept a change (insert, delete or
    /// update of the region's columns) of one of the region's tables get
    /// `databaseDidChange()`, and region and value observations whose region intersects it
    /// are notified when the current transaction commits. Tables that do not exist are
    /// ignored; in a read-only access, nothing happens.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.notifyChanges(in: .fullDatabase)
    ///     try db.notifyChanges(in: Player.all())
    ///     try db.notifyChanges(in: Table("player"))
    ///     try db.notifyChanges(in: Table("sqlite_master"))   // schema changes
    /// }
    /// ```
    ///
    /// Call it from a write transaction: outside of a transaction, it opens one.
    public func notifyChanges(in region: some DatabaseRegionConvertible) throws {
        // Read-only accesses are not announced to observers: they would wait for a commit
        // that never comes.
        guard !isReadOnly else { return }
        let region = try region.databaseRegion(self)
        guard let broker = state.value.observation.hook as? DatabaseObservationBroker, broker.hasObservers else { return }
        if isInsideTransaction {
            broker.notifyChanges(in: region)
        } else {
            try inTransaction(.deferred) {
                broker.notifyChanges(in: region)
                return .commit
            }
        }
    }
}

extension DatabaseWriter {
    /// Starts notifying `transactionObserver` of changes and transactions of the writer.
    public func add(transactionObserver: some TransactionObserver, extent: TransactionObservationExtent = .observerLifetime) {
        unsafeReentrantWrite { db in db.add(transactionObserver: transactionObserver, extent: extent) }
    }

    /// Stops notifying `transactionObserver`.
    public func remove(transactionObserver: some TransactionObserver) {
        unsafeReentrantWrite { db in db.remove(transactionObserver: transactionObserver) }
    }
}
