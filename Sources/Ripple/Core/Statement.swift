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

    /// The SQL of the statement.
    public let sql: String

    /// The connection that compiled the statement.
    // The connection outlives its statements. Read through `withDatabase` on the hot
    // paths: an `unowned(unsafe)` reference is retained and released at each use.
    private let databaseReference: Unmanaged<Database>
    var database: Database { databaseReference.takeUnretainedValue() }

    /// Runs `body` with the connection, without reference counting.
    @inline(__always)
    func withDatabase<R>(_ body: (Database) throws -> R) rethrows -> R {
        try databaseReference._withUnsafeGuaranteedRef(body)
    }

    /// The number of columns of the rows the statement produces.
    public let columnCount: Int

    /// The number of parameters.
    public let parameterCount: Int

    /// Parameter names without prefix; nil for the anonymous `?` and the numbered `?NNN`.
    let parameterNames: [String?]

    /// Whether any parameter is named.
    let hasNamedParameters: Bool

    // The mutable state of a statement is confined to its connection's queue and never
    // accessed re-entrantly: the runtime's dynamic exclusivity checks would only cost time
    // on the hottest paths (one per row and per execution).

    /// The arguments last bound with ``setArguments(_:)`` or ``execute(arguments:)``.
    @exclusivity(unchecked) public private(set) var arguments: StatementArguments = StatementArguments()

    @exclusivity(unchecked) private var argumentsWereBound = false

    /// Whether the statement ran since its last reset.
    @exclusivity(unchecked) private var needsReset = false

    /// What SQLite reported while it compiled the statement.
    let report: StatementReport

    /// See `columnIndexCache`.
    var _columnIndexCache: ColumnIndexCache?

    /// What the observation broker decided about this statement, kept until observers change.
    @exclusivity(unchecked) var observationCache: AnyObject? {
        didSet { unretainedObservationCache = observationCache.map { Unmanaged.passUnretained($0) } }
    }
    /// The same object, read without reference counting (valid while `observationCache`
    /// holds it).
    @exclusivity(unchecked) private(set) var unretainedObservationCache: Unmanaged<AnyObject>?

    init(database: Database, sqliteStatement: OpaquePointer, sql: String, report: StatementReport) {
        self.report = report
        databaseReference = Unmanaged.passUnretained(database)
        self.sqliteStatement = sqliteStatement
        self.sql = sql
        self.columnCount = Int(sqlite3_column_count(sqliteStatement))
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
        sqlite3_finalize(sqliteStatement)
    }

    /// The names of the columns, in order.
    public private(set) lazy var columnNames: [String] = (0..<columnCount).map {
        String(cString: sqlite3_column_name(sqliteStatement, CInt($0)))
    }

    /// Lowercased column names, for case-insensitive lookups.
    private lazy var lowercasedColumnNames: [String] = columnNames.map { $0.lowercased() }

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
        self.arguments = arguments
        argumentsWereBound = true
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
        DatabaseError(connection: database.sqliteConnection, code: code, sql: sql, arguments: arguments)
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
        try withDatabase { try $0.executeStatement(self) }
    }

    /// Resets the statement and binds arguments, before a step loop starts.
    @inline(__always)
    func prepareExecution(_ arguments: StatementArguments?) throws {
        if let arguments {
            try setArguments(arguments)
        } else {
            reset()
            if !argumentsWereBound && parameterCount > 0 {
                try setArguments(StatementArguments())
            }
        }
    }

    /// One step: true when a row is available, false when done.
    @inline(__always)
    func step() throws -> Bool {
        needsReset = true
        let code = sqlite3_step(sqliteStatement)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let error = DatabaseError(connection: database.sqliteConnection, code: code, sql: sql, arguments: arguments)
        reset()
        throw error
    }

    /// Releases the statement's locks and resources until its next execution.
    @inline(__always)
    func reset() {
        if needsReset {
            sqlite3_reset(sqliteStatement)
            needsReset = false
        }
    }
}

extension Statement: CustomStringConvertible {
    public var description: String { sql }
}
