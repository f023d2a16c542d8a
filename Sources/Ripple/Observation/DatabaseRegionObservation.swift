/// Tracks changes in a database region, and notifies impactful transactions.
///
/// ```swift
/// let observation = DatabaseRegionObservation(tracking: Player.all())
/// let cancellable = observation.start(in: dbQueue) { error in
///     // Handle error
/// } onChange: { (db: Database) in
///     print("Players were changed")
/// }
/// ```
///
/// `onChange` runs on the writer's queue right after each commit that touched the region,
/// before any other write can happen. This is a strong guarantee that most applications do
/// not need: prefer value observations, which notify fresh values.
///
/// What is detected: inserts, updates and deletes in the region, by raw SQL or the query
/// interface, including the indirect changes of foreign key actions and triggers, changes to
/// `WITHOUT ROWID` tables, rows deleted by `ON CONFLICT REPLACE`, and dropped tables
/// (`DROP TABLE` notifies the observations of the table). Updates that do not
/// touch the observed columns, and changes to rows outside the observed rowids, are not
/// notified. Changes committed by other connections and processes are detected too (see
/// ``Configuration/observesExternalChanges``): precise to the table when they wrote with
/// Ripple, else as a change to the whole database. What is not detected: statements that
/// Ripple did not compile, and other processes when ``Configuration/observesExternalChanges``
/// is false. Tell about them with `Database.notifyChanges(in:)`.
public struct DatabaseRegionObservation: Sendable {
    let regions: [any DatabaseRegionConvertible]

    /// Observes the regions of one or several requests, tables or regions.
    public init(tracking regions: any DatabaseRegionConvertible...) {
        self.regions = regions
    }

    /// Observes the regions of requests, tables or regions.
    public init(tracking regions: [any DatabaseRegionConvertible]) {
        self.regions = regions
    }

    /// The observed region, as the database sees it.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try regions.reduce(into: DatabaseRegion()) { try $0.formUnion($1.databaseRegion(db)) }
    }

    /// Starts the observation.
    ///
    /// The region is computed right away, on the writer's queue: when it can not be (a
    /// request on a missing table), `onError` is called with the error, and the
    /// observation does not start.
    ///
    /// - parameter writer: a ``DatabaseQueue`` or a ``DatabasePool``.
    /// - parameter onError: called with the error of the region's computation.
    /// - parameter onChange: called on the writer's queue after each impactful transaction.
    /// - returns: a cancellable that stops the observation, also when deallocated. Once
    ///   the writer removed the observation, `onChange` is released out of any database
    ///   access: a `deinit` it runs may use the database.
    public func start(
        in writer: some DatabaseWriter,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Database) -> Void
    ) -> AnyDatabaseCancellable {
        let observer = ClosureRegionObserver(region: DatabaseRegion(), onChange: onChange)
        let regions = self.regions
        do {
            try writer.unsafeReentrantWrite { db in
                observer.region = try regions.reduce(into: DatabaseRegion()) { try $0.formUnion($1.databaseRegion(db)) }
                db.add(transactionObserver: observer, extent: .databaseLifetime)
            }
        } catch {
            onError(error)
            return AnyDatabaseCancellable {}
        }
        return AnyDatabaseCancellable { [weak writer] in
            observer.cancel()
            writer?.asyncWriteWithoutTransaction { db in
                db.remove(transactionObserver: observer)
                observer.letHandlerGo()
            }
        }
    }
}
