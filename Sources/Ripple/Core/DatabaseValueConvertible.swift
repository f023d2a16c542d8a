import CSQLite

/// A type whose values can be stored in a database column and read back.
///
/// Adopt it for your own types by converting to and from ``DatabaseValue``:
///
/// ```swift
/// struct Email: DatabaseValueConvertible {
///     var address: String
///     var databaseValue: DatabaseValue { address.databaseValue }
///     static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Email? {
///         String.fromDatabaseValue(dbValue).map(Email.init)
///     }
/// }
/// ```
///
/// A value that cannot be converted (`Int` from the text `"abc"`, a non-optional type from
/// NULL) makes fetching methods throw a ``DatabaseError`` with code `SQLITE_MISMATCH`: it never
/// turns into a silent default.
public protocol DatabaseValueConvertible {
    /// The value to store.
    var databaseValue: DatabaseValue { get }

    /// The value stored as `dbValue`, or nil when it cannot be converted.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?
}

/// A type that reads itself straight from a statement column, without going through a
/// ``DatabaseValue``: the fast path of fetching.
public protocol StatementColumnConvertible {
    /// Reads the non-NULL column `index` of the current row of `sqliteStatement`; nil when
    /// it cannot be converted.
    init?(sqliteStatement: OpaquePointer, index: CInt)
}

/// How a value failed to decode, turned into a ``DatabaseError`` where the context is known.
struct DecodingFailure {
    var typeName: String
    var value: DatabaseValue
}

extension DatabaseValueConvertible {
    /// Converts `dbValue`, throwing a clear error when it cannot be converted.
    static func decode(
        from dbValue: DatabaseValue,
        context: @autoclosure () -> DecodingContext) throws -> Self
    {
        if let value = fromDatabaseValue(dbValue) { return value }
        throw context().error(converting: dbValue, to: Self.self)
    }

    /// Reads column `index` of `statement`, the generic way.
    @inline(__always)
    static func decode(statement: Statement, index: CInt) throws -> Self {
        let dbValue = DatabaseValue(sqliteStatement: statement.sqliteStatement, index: index)
        if let value = fromDatabaseValue(dbValue) { return value }
        throw DecodingContext(statement: statement, index: Int(index))
            .error(converting: dbValue, to: Self.self)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// Reads column `index` of `statement`, the fast way.
    @inline(__always)
    static func decode(statement: Statement, index: CInt) throws -> Self {
        let sqliteStatement = statement.sqliteStatement
        if sqlite3_column_type(sqliteStatement, index) != SQLITE_NULL,
           let value = Self(sqliteStatement: sqliteStatement, index: index)
        {
            return value
        }
        let dbValue = DatabaseValue(sqliteStatement: sqliteStatement, index: index)
        throw DecodingContext(statement: statement, index: Int(index))
            .error(converting: dbValue, to: Self.self)
    }

    /// Reads column `index` of `statement` as an optional, the fast way.
    @inline(__always)
    static func decodeIfPresent(statement: Statement, index: CInt) throws -> Self? {
        let sqliteStatement = statement.sqliteStatement
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        if let value = Self(sqliteStatement: sqliteStatement, index: index) { return value }
        let dbValue = DatabaseValue(sqliteStatement: sqliteStatement, index: index)
        throw DecodingContext(statement: statement, index: Int(index))
            .error(converting: dbValue, to: Self.self)
    }
}

/// Where a value was read, for error messages.
struct DecodingContext {
    var column: String?
    var index: Int?
    var sql: String?
    var arguments: StatementArguments?

    init(column: String? = nil, index: Int? = nil, sql: String? = nil, arguments: StatementArguments? = nil) {
        self.column = column
        self.index = index
        self.sql = sql
        self.arguments = arguments
    }

    init(statement: Statement, index: Int) {
        self.init(
            column: statement.columnNames.indices.contains(index) ? statement.columnNames[index] : nil,
            index: index,
            sql: statement.sql,
            arguments: statement.arguments)
    }

    func error(converting dbValue: DatabaseValue, to type: Any.Type) -> DatabaseError {
        var message: String
        if dbValue.isNull {
            message = "unexpected NULL: could not decode \(type)"
        } else {
            message = "could not decode \(type) from database value \(dbValue)"
            if case .blob = dbValue.storage, type == String.self {
                message += " (text that is not valid UTF-8 reads as Data only)"
            }
        }
        if let column {
            message += " in column \"\(column)\""
            if let index { message += " (index \(index))" }
        } else if let index {
            message += " at index \(index)"
        }
        return .mismatch(message, sql: sql, arguments: arguments)
    }
}

// MARK: - Optional

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// The wrapped value, or NULL.
    public var databaseValue: DatabaseValue {
        switch self {
        case .none: return .null
        case .some(let value): return value.databaseValue
        }
    }

    /// nil for NULL; the wrapped conversion otherwise (`.none` when that fails).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Wrapped?? {
        if dbValue.isNull { return .some(.none) }
        return Wrapped.fromDatabaseValue(dbValue).map { .some($0) }
    }
}
