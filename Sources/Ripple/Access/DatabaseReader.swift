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

    /// Runs `value` in a read-only transaction, isolated from concurrent writes, and waits
    /// for it. A write throws `SQLITE_READONLY`.
    func read<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` without a transaction: consecutive fetches may see different states of
    /// the database when other threads write.
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` in a read-only transaction, later, on another thread.
    func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)
}

extension DatabaseReader {
    /// Runs `value` in a read-only transaction without blocking the calling task.
    ///
    /// ```swift
    /// let count = try await dbQueue.read { db in try Player.fetchCount(db) }
    /// ```
    public func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            asyncRead { result in
                continuation.resume(with: Result { try value(result.get()) })
            }
        }
    }
}
