import Dispatch

/// Identifies the database access a thread is running, to catch re-entrant accesses.
final class AccessContext: Sendable {
    enum Role: Sendable { case writer, reader }
    /// Shared by all connections of one DatabaseQueue or DatabasePool.
    let owner: Owner
    let role: Role
    init(owner: Owner = Owner(), role: Role) {
        self.owner = owner
        self.role = role
    }

    /// The identity of a DatabaseQueue or DatabasePool.
    final class Owner: Sendable {}

    static let key = DispatchSpecificKey<AccessContext>()

    /// The access running on the current queue, if any.
    static var current: AccessContext? { DispatchQueue.getSpecific(key: key) }
}

/// A connection and the serial dispatch queue that is the only place it is used.
///
/// Every access runs on the queue; at its end, a transaction left open is a fatal error
/// (unless the configuration allows it), and a transaction left open by a thrown error is
/// rolled back.
final class SerializedDatabase: @unchecked Sendable {  // the connection is only used on `queue`
    // Only touched on `queue`: that is what makes the unchecked Sendable conformance true.
    private let db: Database
    let queue: DispatchQueue
    let context: AccessContext
    let configuration: Configuration
    /// Interrupts the connection's running statements, from any thread.
    let interruptHandle: InterruptHandle
    /// The accesses in flight, and the work that waits for the end of one (writers only:
    /// see ``runAtEndOfAccess(_:)``).
    private let occupancy: AccessOccupancy?

    init(
        path: String, configuration: Configuration, label: String, context: AccessContext,
        readonly: Bool? = nil, countsAccesses: Bool = false, readStarts: ReadStartsRole? = nil
    ) throws {
        self.configuration = configuration
        self.context = context
        self.occupancy = countsAccesses ? AccessOccupancy() : nil
        // Readers (read-only connections) target `targetQueue`, the writer
        // `writeTargetQueue` first.
        let target =
            (readonly ?? configuration.readonly)
            ? configuration.targetQueue
            : configuration.writeTargetQueue ?? configuration.targetQueue
        self.queue = DispatchQueue(label: label, target: target)
        self.db = try Database(
            path: path, description: label, configuration: configuration, readonly: readonly,
            readStarts: readStarts)
        self.interruptHandle = db.interruptHandle
        queue.setSpecific(key: AccessContext.key, value: context)
    }

    deinit {
        // Nothing runs on the queue any longer (the queue's blocks retain `self`). The
        // connection is closed here, not when the `Database` object goes: statements
        // kept by the application keep that object alive, and its statement caches refer
        // back to their statements until it closes.
        AccessChain.withAccess(to: db) { try? db.close() }
    }

    /// Whether the current thread runs an access to this connection, maybe with other
    /// accesses nested in it: a new access would wait for itself.
    var isHeldByCurrentThread: Bool { AccessChain.holds(db) }

    /// Stops the process when an access from the current thread would wait for itself.
    func checkNoDeadlock() {
        if isHeldByCurrentThread { fatalError(reentranceMessage) }
    }

    /// Runs `block` on the queue, and waits for it.
    func sync<T>(_ block: (Database) throws -> T) rethrows -> T {
        checkNoDeadlock()
        occupancy?.accessWillStart()
        return try syncOnQueue({ try run(block) }, rescue: { throw $0 })
    }

    /// Runs `block` on the queue and waits, without the end-of-access checks (for accesses
    /// that may happen inside another one's transaction).
    func syncWithoutChecks<T>(_ block: (Database) throws -> T) rethrows -> T {
        checkNoDeadlock()
        return try queue.sync { try AccessChain.withAccess(to: db) { try block(db) } }
    }

    /// `queue.sync`, through Dispatch's non-generic entry point. The generic one keeps its
    /// result in an `Optional<T>`, and in unspecialized generic code (this one, called from
    /// an application) that costs a generic metadata lookup, a few hundred instructions, on
    /// each call; a heap slot for the result costs less.
    ///
    /// `rescue` rethrows the error of `block` (`{ throw $0 }`), as the Dispatch overlay's own
    /// `sync` does: so that this function, and the accesses built on it, rethrow.
    private func syncOnQueue<T>(_ block: () throws -> T, rescue: (any Error) throws -> T) rethrows -> T {
        let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
        defer { slot.deallocate() }
        var failure: (any Error)?
        queue.sync {
            do {
                slot.initialize(to: try block())
            } catch {
                failure = error
            }
        }
        if let failure { return try rescue(failure) }
        return slot.move()
    }

    /// Runs `block` on the queue, without waiting.
    func async(_ block: @escaping @Sendable (Database) -> Void) {
        occupancy?.accessWillStart()
        queue.async { [self] in
            run(block)
        }
    }

    /// Runs `work` on the queue soon: at the end of the access under way or waiting, if any
    /// (in the thread that runs it, after its block; `atEndOfAccess` is then true), else in
    /// an access of its own. For work that need not run before the application's next
    /// access, and should not make it wait for a thread to wake (see
    /// ``AccessOccupancyState``).
    func runAtEndOfAccess(_ work: @escaping @Sendable (_ db: Database, _ atEndOfAccess: Bool) -> Void) {
        if keepForEndOfAccess({ db in work(db, true) }) { return }
        async { db in work(db, false) }
    }

    /// Keeps `work` for the end of the access under way or waiting, and returns true;
    /// false when none is in flight (or the queue does not count its accesses).
    func keepForEndOfAccess(_ work: @escaping AccessOccupancy.Work) -> Bool {
        occupancy?.keepForEndOfAccess(work) ?? false
    }

    /// The accesses submitted and not ended, for tests; nil when they are not counted.
    var accessesInFlight: Int? { occupancy?.accessesInFlight }

    /// The pieces of work that wait for the end of an access, for tests.
    var workWaitingForEndOfAccess: Int { occupancy?.waitingCount ?? 0 }

    /// Runs `block` right now: the caller is on the queue already.
    func onCurrentQueue<T>(_ block: (Database) throws -> T) rethrows -> T {
        precondition(isHeldByCurrentThread, "onCurrentQueue called outside of an access to \(db.description)")
        return try block(db)
    }

    /// Runs an access submitted by `sync` or `async`.
    private func run<T>(_ block: (Database) throws -> T) rethrows -> T {
        try AccessChain.withAccess(to: db) {
            defer {
                if let occupancy {
                    for work in occupancy.accessDidEnd() { work(db) }
                }
            }
            return try runChecked(block)
        }
    }

    private func runChecked<T>(_ block: (Database) throws -> T) rethrows -> T {
        db.finalizeReleasedStatements()
        let result: T
        do {
            result = try block(db)
        } catch {
            if !configuration.allowsUnsafeTransactions { db.rollbackIfInsideTransaction() }
            throw error
        }
        if !configuration.allowsUnsafeTransactions && db.isInsideTransaction {
            fatalError(
                """
                A transaction has been left opened at the end of a database access. \
                Commit or roll back every transaction you begin before the access returns \
                (or use db.inTransaction / dbQueue.write, which do it for you), or set \
                Configuration.allowsUnsafeTransactions to true.
                """)
        }
        return result
    }
}

/// The message of re-entrance fatal errors.
let reentranceMessage = """
    Database methods are not reentrant: this access was started from inside another access \
    to the same database connection, and would wait for itself forever. Use the `db` argument \
    of the running access instead.
    """
