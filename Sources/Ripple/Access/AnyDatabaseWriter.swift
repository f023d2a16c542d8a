/// A database reader that hides its kind: a ``DatabaseQueue``, a ``DatabasePool``, a
/// ``DatabaseSnapshot``... Every call goes to the reader it wraps.
///
/// ```swift
/// let reader = AnyDatabaseReader(dbPool)
/// let count = try reader.read { db in try Player.fetchCount(db) }
/// ```
public final class AnyDatabaseReader: DatabaseReader {
    /// The wrapped reader.
    let base: any DatabaseReader

    public init(_ base: any DatabaseReader) {
        self.base = base
    }

    public var configuration: Configuration { base.configuration }
    public var path: String { base.path }
    public func close() throws { try base.close() }
    public func interrupt() { base.interrupt() }
    public func read<T>(_ value: (Database) throws -> T) throws -> T { try base.read(value) }
    /// Reenters the wrapped reader's access (see `DatabaseReader.unsafeReentrantRead(_:)`).
    ///
    /// - parameter value: reads the database.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T { try base.unsafeReentrantRead(value) }
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T { try base.unsafeRead(value) }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncRead(value)
    }

    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.read(value)
    }
}

/// A database writer that hides its kind: a ``DatabaseQueue`` or a ``DatabasePool``.
/// Every call goes to the writer it wraps.
///
/// ```swift
/// let writer = AnyDatabaseWriter(dbQueue)
/// try writer.write { db in try Player(name: "Arthur").insert(db) }
/// ```
///
/// Value observations started on it fetch on the writer, as on a ``DatabaseQueue``: the
/// concurrent fetches of a pool need the pool itself.
public final class AnyDatabaseWriter: DatabaseWriter {
    /// The wrapped writer.
    let writer: any DatabaseWriter

    public init(_ base: any DatabaseWriter) {
        writer = base
    }

    public var configuration: Configuration { writer.configuration }
    public var path: String { writer.path }
    public func close() throws { try writer.close() }
    public func interrupt() { writer.interrupt() }
    public func read<T>(_ value: (Database) throws -> T) throws -> T { try writer.read(value) }
    /// Reenters the wrapped writer's access (see `DatabaseReader.unsafeReentrantRead(_:)`).
    ///
    /// - parameter value: reads the database.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T { try writer.unsafeReentrantRead(value) }
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T { try writer.unsafeRead(value) }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.asyncRead(value)
    }

    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.read(value)
    }

    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.writeWithoutTransaction(updates)
    }

    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.barrierWriteWithoutTransaction(updates)
    }

    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.unsafeReentrantWrite(updates)
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.asyncWriteWithoutTransaction(updates)
    }

    public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.asyncConcurrentRead(value)
    }

    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.write(updates)
    }

    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.writeWithoutTransaction(updates)
    }
}
