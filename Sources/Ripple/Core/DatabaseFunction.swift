import CSQLite
import Foundation

/// A custom SQL function or aggregate, written in Swift.
///
/// ```swift
/// let succ = DatabaseFunction("succ", argumentCount: 1, pure: true) { values in
///     guard let int = Int.fromDatabaseValue(values[0]) else { return nil }
///     return int + 1
/// }
/// try dbQueue.write { db in
///     db.add(function: succ)
///     try Int.fetchOne(db, sql: "SELECT succ(1)")           // 2
///     try Player.select(succ(Column("score"))).fetchAll(db)  // from the query interface
/// }
/// ```
///
/// Aggregates are types that conform to ``DatabaseAggregate``.
///
/// Add functions to every connection of a pool with `Configuration.prepareDatabase`.
/// An error thrown by the function makes the statement fail with an SQLite error that
/// carries its message.
///
/// The function gets values, not a connection, and must not reach one by other means: it
/// runs in the middle of a statement's step, where a statement of the same connection
/// would run unobserved by Ripple's bookkeeping of that step (a statement SQLite compiles
/// again there keeps what it read before).
public final class DatabaseFunction: Hashable, Sendable {
    /// The function's name.
    public let name: String
    /// The number of arguments, or nil for any number.
    public let argumentCount: Int32?
    /// Whether the function always gives the same result for the same arguments (SQLite
    /// may then use it in indexes and optimize its calls).
    public let isPure: Bool
    let kind: Kind

    /// What SQLite runs: a function once per call, or a fresh aggregate for each group.
    enum Kind: Sendable {
        case function(@Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
        case aggregate(@Sendable () -> any DatabaseAggregate)
    }

    /// A function named `name`; `argumentCount` nil accepts any number of arguments.
    public convenience init(
        _ name: String, argumentCount: Int? = nil, pure: Bool = false,
        function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?
    ) {
        self.init(name: name, argumentCount: argumentCount, pure: pure, kind: .function(function))
    }

    init(name: String, argumentCount: Int?, pure: Bool, kind: Kind) {
        self.name = name
        // Out of range counts stay out of range: SQLite refuses them.
        self.argumentCount = argumentCount.map { Int32(clamping: $0) }
        self.isPure = pure
        self.kind = kind
    }

    /// A call of the function, for the query interface: `succ(Column("score"))`.
    public func callAsFunction(_ arguments: any SQLExpressible...) -> SQLExpression {
        SQLExpression(.function(name, arguments.map(\.sqlExpression.node)))
    }

    /// Functions are identified by name and argument count, as SQLite identifies them.
    public static func == (lhs: DatabaseFunction, rhs: DatabaseFunction) -> Bool {
        lhs.name.lowercased() == rhs.name.lowercased() && lhs.argumentCount == rhs.argumentCount
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name.lowercased())
        hasher.combine(argumentCount)
    }

    /// The function that `add(function:)` gave SQLite, from the context of a call.
    static func registered(in context: OpaquePointer?) -> DatabaseFunction? {
        guard let userData = sqlite3_user_data(context) else { return nil }
        return _CallbackContext<DatabaseFunction>.retainedObject(userData)
    }

    /// The arguments of a call, as SQLite gives them to a function or an aggregate step.
    static func arguments(_ count: CInt, _ values: UnsafeMutablePointer<OpaquePointer?>?) -> [DatabaseValue] {
        (0..<Int(count)).map { DatabaseValue(sqliteValue: values?[$0]) }
    }

    /// Gives SQLite the result of a call.
    static func setResult(_ result: (any DatabaseValueConvertible)?, in context: OpaquePointer?) {
        switch result?.databaseValue.storage ?? .null {
        case .null: sqlite3_result_null(context)
        case .int64(let int): sqlite3_result_int64(context, int)
        case .double(let double): sqlite3_result_double(context, double)
        case .string(let string):
            // With its length: text may hold NUL bytes.
            let utf8 = Array(string.utf8)
            if utf8.isEmpty {
                sqlite3_result_text(context, "", 0, ripple_sqlite_transient())
            } else {
                utf8.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { chars in
                        sqlite3_result_text64(context, chars.baseAddress, sqlite3_uint64(chars.count), ripple_sqlite_transient(), UInt8(SQLITE_UTF8))
                    }
                }
            }
        case .blob(let data):
            if data.isEmpty {
                sqlite3_result_zeroblob(context, 0)
            } else {
                data.withUnsafeBytes { bytes in
                    sqlite3_result_blob64(context, bytes.baseAddress, sqlite3_uint64(bytes.count), ripple_sqlite_transient())
                }
            }
        }
    }

    /// Makes the statement fail with `error`: a ``DatabaseError`` keeps its code, and its
    /// message (SQLite's message of the code when it has none); any other error is an
    /// `SQLITE_ERROR` that carries its description.
    static func setError(_ error: any Error, in context: OpaquePointer?) {
        if let error = error as? DatabaseError {
            if let message = error.message { sqlite3_result_error(context, message, -1) }
            sqlite3_result_error_code(context, error.extendedResultCode.rawValue)
        } else {
            sqlite3_result_error(context, "\(error)", -1)
        }
    }
}

extension Database {
    /// Makes `function` available to this connection's SQL; replaces a function of the
    /// same name and argument count.
    public func add(function: DatabaseFunction) {
        guard let sqliteConnection else { return }
        var flags = SQLITE_UTF8
        if function.isPure { flags |= SQLITE_DETERMINISTIC }
        // SQLite keeps a retained reference to the function, released when it replaces or
        // drops the function, or closes the connection (the destructor below).
        let userData = _CallbackContext.retained(function)
        let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { userData in
            guard let userData else { return }
            _CallbackContext<DatabaseFunction>.release(userData)
        }
        let code: CInt
        switch function.kind {
        case .function:
            code = sqlite3_create_function_v2(
                sqliteConnection, function.name, function.argumentCount ?? -1, flags, userData,
                { context, count, values in
                    guard case .function(let body) = DatabaseFunction.registered(in: context)?.kind else { return }
                    do {
                        try DatabaseFunction.setResult(body(DatabaseFunction.arguments(count, values)), in: context)
                    } catch {
                        DatabaseFunction.setError(error, in: context)
                    }
                },
                nil, nil, release)
        case .aggregate:
            code = sqlite3_create_function_v2(
                sqliteConnection, function.name, function.argumentCount ?? -1, flags, userData, nil,
                { context, count, values in _AggregateContextBox.step(context, count, values) },
                { context in _AggregateContextBox.final(context) },
                release)
        }
        // On failure SQLite has called the destructor already.
        assert(code == SQLITE_OK || code == SQLITE_MISUSE || code == SQLITE_ERROR, "unexpected result \(code) from sqlite3_create_function_v2")
    }

    /// Removes `function` from this connection's SQL.
    public func remove(function: DatabaseFunction) {
        guard let sqliteConnection else { return }
        sqlite3_create_function_v2(sqliteConnection, function.name, function.argumentCount ?? -1, SQLITE_UTF8, nil, nil, nil, nil, nil)
    }
}
