import CSQLite
import Foundation

/// Tracing: the application sees each statement the connection runs, except Ripple's own.
extension Database {
    /// What ``trace(options:_:)`` reports.
    public struct TracingOptions: OptionSet, Sendable {
        public let rawValue: CInt
        public init(rawValue: CInt) { self.rawValue = rawValue }
        /// Each statement, as it starts.
        public static let statement = TracingOptions(rawValue: CInt(SQLITE_TRACE_STMT))
        /// Each statement, with its duration, as it ends.
        public static let profile = TracingOptions(rawValue: CInt(SQLITE_TRACE_PROFILE))
    }

    /// Calls `trace` with each statement the connection runs (nil stops tracing).
    ///
    /// ```swift
    /// db.trace { print($0) }   // prints "SELECT * FROM player"
    /// ```
    public func trace(options: TracingOptions = .statement, _ trace: ((TraceEvent) -> Void)? = nil) {
        traceHandler = trace
        guard trace != nil, !options.isEmpty else {
            sqlite3_trace_v2(sqliteConnection, 0, nil, nil)
            _CallbackContext.revoke(self)
            return
        }
        sqlite3_trace_v2(
            sqliteConnection, UInt32(options.rawValue),
            { mask, context, p, x in
                _CallbackContext<Database>.object(context).handleTrace(mask: mask, p: p, x: x)
                return 0
            }, _CallbackContext.unretained(self))
    }

    private func handleTrace(mask: UInt32, p: UnsafeMutableRawPointer?, x: UnsafeMutableRawPointer?) {
        guard let traceHandler, let p, hiddenTraceDepth == 0 else { return }
        let sqliteStatement = OpaquePointer(p)
        switch CInt(mask) {
        case SQLITE_TRACE_STMT:
            let sql = x.map { String(cString: $0.assumingMemoryBound(to: CChar.self)).trimmingStatementSeparators() } ?? ""
            traceHandler(
                .statement(
                    TraceEvent.Statement(sqliteStatement: sqliteStatement, sql: sql, publicStatementArguments: configuration.publicStatementArguments)
                ))
        case SQLITE_TRACE_PROFILE:
            let nanoseconds = x?.assumingMemoryBound(to: Int64.self).pointee ?? 0
            let sql = sqlite3_sql(sqliteStatement).map { String(cString: $0).trimmingStatementSeparators() } ?? ""
            traceHandler(
                .profile(
                    statement: TraceEvent.Statement(
                        sqliteStatement: sqliteStatement, sql: sql, publicStatementArguments: configuration.publicStatementArguments),
                    duration: TimeInterval(nanoseconds) / 1e9))
        default:
            break
        }
    }

    /// Runs statements of Ripple's own (the broker's schema reads, the commit log): the
    /// application's trace does not show them.
    func withStatementsHiddenFromTrace<T>(_ body: () throws -> T) rethrows -> T {
        hiddenTraceDepth += 1
        defer { hiddenTraceDepth -= 1 }
        return try body()
    }
}

/// A statement reported by ``Database/trace(options:_:)``.
public enum TraceEvent: CustomStringConvertible {
    /// A statement starts.
    case statement(Statement)
    /// A statement ended, after `duration` seconds.
    case profile(statement: Statement, duration: TimeInterval)

    /// A traced statement; only valid during the trace callback.
    public struct Statement: CustomStringConvertible {
        let sqliteStatement: OpaquePointer
        /// The SQL, with parameters (`?`) as written. Trigger statements appear as comments.
        public let sql: String
        /// The SQL with bound values in place of parameters.
        public var expandedSQL: String {
            guard let cString = sqlite3_expanded_sql(sqliteStatement) else { return sql }
            defer { sqlite3_free(cString) }
            return String(cString: cString).trimmingStatementSeparators()
        }
        /// Whether ``description`` shows the bound values (see
        /// ``Configuration/publicStatementArguments``).
        let publicStatementArguments: Bool
        /// The SQL; with ``Configuration/publicStatementArguments``, with its values.
        public var description: String { publicStatementArguments ? expandedSQL : sql }
    }

    /// The statement's SQL (with its values when ``Configuration/publicStatementArguments``
    /// is set), preceded by the duration for a profile.
    public var description: String {
        describe { $0.description }
    }

    /// The description with the statement's values in place of its parameters, whatever
    /// the configuration: mind where it goes, since values may hold private data.
    public var expandedDescription: String {
        describe { $0.expandedSQL }
    }

    private func describe(_ text: (Statement) -> String) -> String {
        switch self {
        case .statement(let statement):
            return text(statement)
        case let .profile(statement, duration):
            return String(format: "%.3f", duration) + "s " + text(statement)
        }
    }
}

extension String {
    /// The SQL of a statement without the white space and semicolons around it, as
    /// statements and traces show it: `"\nINSERT ...;"` is `"INSERT ..."`.
    func trimmingStatementSeparators() -> String {
        func isSeparator(_ byte: UInt8) -> Bool { byte == UInt8(ascii: ";") || byte == UInt8(ascii: " ") || (9...13).contains(byte) }
        let bytes = utf8
        guard let first = bytes.first, let last = bytes.last, isSeparator(first) || isSeparator(last) else { return self }
        guard let start = bytes.firstIndex(where: { !isSeparator($0) }) else { return "" }
        let end = bytes.lastIndex(where: { !isSeparator($0) })!
        return String(self[start...end])
    }
}
