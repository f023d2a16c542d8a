/// A type that reads from a database: ``DatabaseQueue`` and ``DatabasePool`` both are, so
/// your code can be generic over them.
///
/// ```swift
/// func playerCount(_ reader: some DatabaseReader) throws -> Int {
///     try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
/// }
/// ```
public protocol DatabaseReader: AnyObject, Sendable {
    /// The configuration of the database.
    var configuration: Configuration { get }

    /// The path of the database file.
    var path: String { get }

    /// Closes the connections. Later accesses throw `SQLITE_MISUSE`.
    func close() throws

    /// Stops the statements that run now, on every connection: they throw a
    /// ``DatabaseError`` with code `SQLITE_INTERRUPT`. Any thread may call it. A write
    /// interrupted inside a transaction is rolled back (the transaction of `write` is), and
    /// the next accesses run normally. See ``Database/interrupt()``.
    func interrupt()

    /// Runs `value` in a read-only transaction, isolated from concurrent writes, and waits
    /// for it. A write throws `SQLITE_READONLY`.
    func read<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` on the connection the current thread already accesses, when it accesses
    /// one of this reader's; otherwise as `read(_:)` does. Inside an access, `value` runs
    /// in that access's transaction, which may write: prefer the `db` argument.
    ///
    /// - parameter value: reads the database.
    func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` without a transaction: consecutive fetches may see different states of
    /// the database when other threads write.
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` in a read-only transaction, later, on another thread.
    func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// Runs `value` in a read-only transaction without blocking the calling task.
    ///
    /// ```swift
    /// let count = try await dbQueue.read { db in try Player.fetchCount(db) }
    /// ```
    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T
}

extension DatabaseReader {
    /// The implementation of the async `read`, shared by queues and pools.
    func awaitRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        // The closure does not outlive this call: it is released before the continuation
        // resumes.
        try await withoutActuallyEscaping(value) { value in
            let box = ClosureBox(value)
            return try await withCheckedThrowingContinuation { continuation in
                asyncRead { result in
                    switch result {
                    case .success(let db): continuation.resume(with: box.callOnce(db))
                    case .failure(let error):
                        box.release()
                        continuation.resume(throwing: error)
                    }
                }
            }
        }
    }
}

/// Holds a closure for one call, and lets it go right after, so that a closure made
/// escapable by `withoutActuallyEscaping` is released before the awaiting task resumes.
final class ClosureBox<T>: Sendable {
    private let closure: LockedState<(@Sendable (Database) throws -> T)?>

    init(_ closure: @escaping @Sendable (Database) throws -> T) {
        self.closure = LockedState(closure)
    }

    func callOnce(_ db: Database) -> Result<T, any Error> {
        guard let closure = closure.withLock({ $0.take() }) else { fatalError("ClosureBox called twice") }
        return Result { try closure(db) }
    }

    func release() {
        closure.withLock { $0 = nil }
    }
}

extension DatabaseReader {
    /// A reader with no connection of its own to reenter reads as `read(_:)` does.
    ///
    /// - parameter value: reads the database.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try read(value)
    }
}
