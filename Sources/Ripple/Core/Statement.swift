import CSQLite
import Foundation

/// A prepared SQLite statement, bound to the connection that compiled it.
///
/// Make one with ``Database/makeStatement(sql:)`` or ``Database/cachedStatement(sql:)``,
/// then execute it as many times as needed, with new arguments each time:
///
/// ```swift
/// let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
/// try statement.execute(arguments: ["Arthur", 1000])
/// try statement.execute(arguments: ["Barbara", 750])
/// ```
///
/// A statement is not `Sendable`: it belongs to its connection's queue.
public final class Statement {
    /// The raw SQLite statement handle.
    public let sqliteStatement: OpaquePointer

    /// The SQL of the statement, without the white space and semicolons around it.
    public let sql: String

    /// The connection that compiled the statement.
    ///
    /// A strong reference: a statement kept beyond its database access keeps its connection
    /// object alive, and using it then throws "connection is closed" once the connection
    /// was closed (a ``DatabaseQueue`` or ``DatabasePool`` closes its connections when it
    /// is deallocated). The connection's statement caches refer back to their statements
    /// until it closes.
    let database: Database

    /// The number of columns of the rows the statement produces. It may change when SQLite
    /// compiles the statement again after a schema change (`SELECT *` of an altered table).
    public var columnCount: Int { state.columnCount }

    /// The number of parameters.
    public let parameterCount: Int

    /// Parameter names without prefix; nil for the anonymous `?` and the numbered `?NNN`.
    let parameterNames: [String?]

    /// Whether any parameter is named.
    let hasNamedParameters: Bool

    /// The mutable state, confined to the connection's queue and never reached
    /// re-entrantly. Debug builds keep the runtime's exclusivity checks; release builds
    /// skip them, as they cost at each row and execution (Shortcuts table,
    /// Benchmarks/README.md).
    #if DEBUG
    @usableFromInline var state: StatementState
    #else
    @usableFromInline @exclusivity(unchecked) var state: StatementState
    #endif

    /// The arguments last bound (the public `arguments`).
    var boundArguments: StatementArguments {
        get { state.boundArguments }
        set { state.boundArguments = newValue }
    }

    /// What SQLite reported while it compiled the statement, replaced when SQLite compiles
    /// it again after a schema change (see ``Authorizer``).
    var report: StatementReport {
        get { state.report }
        set { state.report = newValue }
    }

    /// See `columnIndexCache`. Replaced (nil, then a new one) when SQLite compiles the
    /// statement again: a cursor's row compares it with its own at each step (see
    /// `Row.describesColumns(of:)`).
    @inlinable var _columnIndexCache: ColumnIndexCache? {
        state.columnIndexCache
    }

    /// What observation keeps with the statement, in one place (see
    /// ``StatementObservationState``).
    var observation: StatementObservationState {
        get { state.observation }
        _modify { yield &state.observation }
    }

    init(database: Database, sqliteStatement: OpaquePointer, sql: String, report: StatementReport) {
        self.state = StatementState(columnCount: Int(sqlite3_column_count(sqliteStatement)), report: report)
        self.database = database
        self.sqliteStatement = sqliteStatement
        self.sql = sql.trimmingStatementSeparators()
        let parameterCount = Int(sqlite3_bind_parameter_count(sqliteStatement))
        self.parameterCount = parameterCount
        var names: [String?] = []
        names.reserveCapacity(parameterCount)
        var hasNamed = false
        if parameterCount > 0 {
            for index in 1...parameterCount {
                if let cName = sqlite3_bind_parameter_name(sqliteStatement, CInt(index)) {
                    let name = String(cString: cName)
                    if name.hasPrefix("?") {
                        names.append(nil)
                    } else {
                        names.append(String(name.dropFirst()))
                        hasNamed = true
                    }
                } else {
                    names.append(nil)
                }
            }
        }
        self.parameterNames = names
        self.hasNamedParameters = hasNamed
    }

    deinit {
        // A statement released outside of an access to its connection (kept by the
        // application, then dropped on another thread) must not touch the connection,
        // which may be in use on its queue: the connection finalizes it at its next access.
        if AccessChain.holds(database) || database.isClosed {
            sqlite3_finalize(sqliteStatement)
        } else {
            database.finalizeLater(sqliteStatement)
        }
    }

    /// The names of the columns, in order.
    public var columnNames: [String] {
        if let names = state.columnNames { return names }
        let names = (0..<columnCount).map { String(cString: sqlite3_column_name(sqliteStatement, CInt($0))) }
        state.columnNames = names
        return names
    }

    /// Lowercased column names, for case-insensitive lookups.
    private var lowercasedColumnNames: [String] {
        if let names = state.lowercasedColumnNames { return names }
        let names = columnNames.map { $0.lowercased() }
        state.lowercasedColumnNames = names
        return names
    }

    /// Reads the columns again: SQLite compiled the statement again, and `SELECT *` may
    /// now have other columns.
    func refreshColumns() {
        state.columnCount = Int(sqlite3_column_count(sqliteStatement))
        state.columnNames = nil
        state.lowercasedColumnNames = nil
        // A row that still holds the former lookups (`RowCursor.row` read before the first
        // step) looks the names up again rather than trusting their predictions (its
        // `Decodable` records too).
        state.columnIndexCache?.value = ColumnIndexCacheState()
        state.columnIndexCache = nil
    }

    /// The index of the leftmost column named `name`, compared case-insensitively.
    public func index(ofColumn name: String) -> Int? {
        let names = columnNames
        if let index = names.firstIndex(of: name) { return index }
        let lowercased = name.lowercased()
        return lowercasedColumnNames.firstIndex(of: lowercased)
    }

    /// Whether the statement does not write to the database.
    public var isReadonly: Bool {
        sqlite3_stmt_readonly(sqliteStatement) != 0
    }

    // MARK: - Arguments

    /// Binds `arguments`, which must fill every parameter and have no unused positional value.
    public func setArguments(_ arguments: StatementArguments) throws {
        var position = 0
        try bind(arguments, consumingFrom: &position)
        try checkAllPositionalValuesUsed(arguments, upTo: position)
    }

    /// Throws the error ``setArguments(_:)`` would throw, without binding.
    public func validateArguments(_ arguments: StatementArguments) throws {
        var position = 0
        _ = try resolve(arguments, consumingFrom: &position)
        try checkAllPositionalValuesUsed(arguments, upTo: position)
    }

    /// Throws when positional values remain after `position`, the count the statement used.
    private func checkAllPositionalValuesUsed(_ arguments: StatementArguments, upTo position: Int) throws {
        if position != arguments.positional.count {
            throw wrongArgumentCount(given: arguments.positional.count, expected: position, arguments)
        }
    }

    /// Binds the parameters, taking positional values from `position` on; used directly by
    /// multi-statement execution, where values flow from one statement to the next.
    func bind(_ arguments: StatementArguments, consumingFrom position: inout Int) throws {
        reset()
        if !hasNamedParameters {
            // Fast path: anonymous or numbered parameters only.
            let values = arguments.positional
            guard values.count - position >= parameterCount else {
                throw wrongArgumentCount(given: values.count, expected: position + parameterCount, arguments)
            }
            let start = position
            try values.withUnsafeBufferPointer { buffer in
                try bindPositional(buffer, from: start, arguments)
            }
            position += parameterCount
        } else {
            let values = try resolve(arguments, consumingFrom: &position)
            for (offset, value) in values.enumerated() {
                try bind(value, at: CInt(offset + 1), arguments)
            }
        }
        state.boundArguments = arguments
        state.argumentsWereBound = true
    }

    private func resolve(_ arguments: StatementArguments, consumingFrom position: inout Int) throws -> [DatabaseValue] {
        var values: [DatabaseValue] = []
        values.reserveCapacity(parameterCount)
        var missing: [String] = []
        for name in parameterNames {
            if let name, let value = arguments.namedValues[name] {
                values.append(value)
            } else if position < arguments.positional.count {
                values.append(arguments.positional[position]?.databaseValue ?? .null)
                position += 1
            } else {
                missing.append(name.map { ":" + $0 } ?? "?")
                values.append(.null)
            }
        }
        if !missing.isEmpty {
            let list = missing.joined(separator: ", ")
            if parameterNames.allSatisfy({ $0 == nil }) {
                throw wrongArgumentCount(given: arguments.positional.count, expected: parameterCount, arguments)
            }
            throw DatabaseError.misuse("missing statement argument(s): \(list)", sql: sql, arguments: arguments)
        }
        return values
    }

    @inline(__always)
    private func bind(_ value: DatabaseValue, at index: CInt, _ arguments: StatementArguments) throws {
        let code = value.bind(to: sqliteStatement, at: index)
        if code != SQLITE_OK { throw bindingError(code, arguments) }
    }

    func bindingError(_ code: CInt, _ arguments: StatementArguments) -> DatabaseError {
        DatabaseError(
            connection: database.sqliteConnection, code: code, sql: sql, arguments: arguments,
            publicStatementArguments: database.configuration.publicStatementArguments)
    }

    /// The error for arguments whose positional values are not all used.
    func wrongArgumentCount(given: Int, expected: Int, _ arguments: StatementArguments) -> DatabaseError {
        DatabaseError.wrongArgumentCount(given: given, expected: expected, sql: sql, arguments: arguments)
    }

    // MARK: - Execution

    /// Executes the statement, after binding `arguments` when given.
    ///
    /// Rows the statement produces are ignored: fetch them with `Row.fetchAll(statement)`
    /// and friends instead.
    public func execute(arguments: StatementArguments? = nil) throws {
        try prepareExecution(arguments)
        try database.executeStatement(self)
    }

    /// Resets the statement and binds arguments, before a step loop starts.
    @inline(__always)
    func prepareExecution(_ arguments: StatementArguments?) throws {
        if let arguments {
            try setArguments(arguments)
        } else {
            reset()
            if !state.argumentsWereBound && parameterCount > 0 {
                try setArguments(StatementArguments())
            }
        }
    }

    /// One step: true when a row is available, false when done.
    @inline(__always)
    func step() throws -> Bool {
        let isFirstStep = !state.needsReset
        state.needsReset = true
        // (No local for the authorizer: it would be retained and released around the step.)
        let previous = database.authorizer.steppingStatement
        database.authorizer.steppingStatement = sqliteStatement
        // A first step may begin a read transaction: counted on a pool's reader (see
        // ``ReadTransactionStarts``). Later steps are not asked.
        var code =
            isFirstStep
            ? database.countingReadStart { sqlite3_step(sqliteStatement) }
            : sqlite3_step(sqliteStatement)
        if code == SQLITE_BUSY && database.waitsForOwnReaders {
            code = database.stepAgainAfterOwnReaders(sqliteStatement)
        }
        database.authorizer.steppingStatement = previous
        if database.authorizer.collectionStatement == sqliteStatement {
            database.resolveRecompilation(of: self)
        }
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let error = DatabaseError(
            connection: database.sqliteConnection, code: code, sql: sql, arguments: arguments,
            publicStatementArguments: database.configuration.publicStatementArguments)
        reset()
        throw error
    }

    /// Releases the statement's locks and resources until its next execution.
    @inline(__always)
    func reset() {
        if state.needsReset {
            sqlite3_reset(sqliteStatement)
            state.needsReset = false
        }
    }
}

/// The mutable state of a ``Statement``, in one stored value.
@usableFromInline
struct StatementState {
    var columnCount: Int
    var boundArguments = StatementArguments()
    var argumentsWereBound = false
    /// Whether the statement ran since its last reset.
    var needsReset = false
    var report: StatementReport
    @usableFromInline var columnIndexCache: ColumnIndexCache?
    var observation = StatementObservationState()
    var columnNames: [String]?
    var lowercasedColumnNames: [String]?
    /// The region of the request that prepared the statement, when it differs from what
    /// the statement reads (see `Statement.databaseRegion`).
    var requestRegion: DatabaseRegion?

    init(columnCount: Int, report: StatementReport) {
        self.columnCount = columnCount
        self.report = report
    }
}

extension Statement: CustomStringConvertible {
    public var description: String { sql }
}
