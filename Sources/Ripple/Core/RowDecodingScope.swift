import CRippleSupport

/// Lets `init(row:)` read columns with the plain subscripts (`name = row["name"]`, as GRDB
/// apps write it) without trading safety away: a value the subscript cannot convert does
/// not stop the process while a fetch builds records on this thread. The subscript records
/// the error and returns a placeholder, and the fetch throws the recorded error in place of
/// the record:
///
/// ```swift
/// struct Player: FetchableRecord {
///     var name: String
///     init(row: Row) { name = row["name"] }
/// }
/// // A NULL name: throws DatabaseError (SQLITE_MISMATCH), "unexpected NULL: could not decode String"
/// let players = try Player.fetchAll(db, sql: "SELECT * FROM player")
/// ```
///
/// Outside of a fetch (`Player(row: row)` called by the app) there is no fetch to throw:
/// the subscript stops the process, as GRDB's does, and its message names
/// `try row.decode(_:forColumn:)`, which throws.
@usableFromInline
enum RowDecodingScope {
    /// Runs `body` (which builds a record from a row) as a scope: a value a subscript could
    /// not convert inside it is thrown, in place of what `body` returned or threw.
    @inlinable @inline(__always)
    static func run<T>(_ body: () throws -> T) throws -> T {
        ripple_row_decoding_enter()
        let value: T
        do {
            value = try body()
        } catch {
            if ripple_row_decoding_leave() != 0, let failure = takeFailure() { throw failure }
            throw error
        }
        if ripple_row_decoding_leave() != 0, let failure = takeFailure() { throw failure }
        return value
    }

    /// The failure recorded in the scope that just ended, if any (nil when the recorded
    /// failure belongs to a scope around it).
    @usableFromInline @inline(never)
    static func takeFailure() -> DatabaseError? {
        _RowDecodingFailureSlot.take(endedDepth: ripple_row_decoding_current_depth() + 1)
    }

    /// Whether this thread runs a scope.
    static var isActive: Bool { ripple_row_decoding_current_depth() > 0 }

    /// What a non-throwing subscript returns for a value it could not convert: records the
    /// error in the innermost scope and returns a placeholder; stops the process when no
    /// scope runs, or when `Value` has no placeholder.
    @usableFromInline @inline(never)
    static func valueAfterFailure<Value: DatabaseValueConvertible>(_ error: any Error, _ type: Value.Type) -> Value {
        let description = (error as? DatabaseError)?.message ?? "\(error)"
        guard let databaseError = error as? DatabaseError, isActive else {
            fatalError(
                """
                \(description). A row subscript cannot throw: use \
                `try row.decode(\(Value.self).self, forColumn:)` (or `atIndex:`) to get an error, \
                or fetch the record (`try Record.fetchAll(db, ...)`), which throws it.
                """)
        }
        _RowDecodingFailureSlot.record(databaseError, depth: ripple_row_decoding_current_depth())
        guard let placeholder = placeholder(Value.self) else {
            fatalError(
                """
                \(description). \(Value.self) has no value to stand in while the fetch fails: \
                read it with `try row.decode(\(Value.self).self, forColumn:)` in `init(row:)`.
                """)
        }
        return placeholder
    }

    /// A value of `Value`, from the simplest database values: `init(row:)` finishes with it,
    /// and the fetch throws, so it is never seen.
    static func placeholder<Value: DatabaseValueConvertible>(_ type: Value.Type) -> Value? {
        let candidates: [DatabaseValue] = [
            .null, DatabaseValue(storage: .int64(0)), DatabaseValue(storage: .double(0)),
            DatabaseValue(storage: .string("")), DatabaseValue(storage: .blob(.init())),
        ]
        for candidate in candidates {
            if let value = Value.fromDatabaseValue(candidate) { return value }
        }
        return nil
    }
}

/// The thread's recorded failure, handed to C as a retained object. Invariant: the
/// thread-local holds NULL or exactly one +1 reference to a `_RowDecodingFailureSlot`,
/// made by `record` and consumed once by `take`. The scope that records always takes
/// before its thread leaves it, so no reference is left behind.
final class _RowDecodingFailureSlot {
    let error: DatabaseError
    /// The depth of the scope the failure happened in.
    let depth: UInt32

    private init(error: DatabaseError, depth: UInt32) {
        self.error = error
        self.depth = depth
    }

    /// Keeps `error` unless the scope already holds a failure (the first one is the cause).
    static func record(_ error: DatabaseError, depth: UInt32) {
        assert(depth > 0, "a failure is recorded only inside a scope")
        if let current = ripple_row_decoding_current_failure() {
            // Failures of inner scopes are taken when they end: what is here is this scope's.
            assert(_CallbackContext<_RowDecodingFailureSlot>.retainedObject(current).depth == depth)
            return
        }
        let slot = _RowDecodingFailureSlot(error: error, depth: depth)
        ripple_row_decoding_set_failure(_CallbackContext.retained(slot))
    }

    /// The failure recorded in the scope of depth `endedDepth` (or deeper), taken out.
    static func take(endedDepth: UInt32) -> DatabaseError? {
        guard let current = ripple_row_decoding_current_failure() else { return nil }
        guard _CallbackContext<_RowDecodingFailureSlot>.retainedObject(current).depth >= endedDepth else {
            return nil
        }
        ripple_row_decoding_set_failure(nil)
        return _CallbackContext<_RowDecodingFailureSlot>.takeRetained(current).error
    }
}
