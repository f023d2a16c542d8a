import CSQLite
import Foundation

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
public protocol DatabaseValueConvertible: SQLExpressible {
    /// The value to store.
    var databaseValue: DatabaseValue { get }

    /// The value stored as `dbValue`, or nil when it cannot be converted.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?

    /// Binds the value to parameter `index` (1-based) of `sqliteStatement`, and returns the
    /// SQLite result code. The default implementation binds ``databaseValue``; standard
    /// types bind themselves directly, which is faster.
    func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt

    /// The decoder of the JSON a `Decodable` value is stored as. The default decodes data
    /// from base64, dates from milliseconds since 1970, and throws on non-conforming floats.
    static func databaseJSONDecoder() -> JSONDecoder

    /// The encoder of the JSON an `Encodable` value is stored as. The default encodes data
    /// as base64, dates as milliseconds since 1970, sorts keys, and throws on non-conforming
    /// floats.
    static func databaseJSONEncoder() -> JSONEncoder
}

extension DatabaseValueConvertible {
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        databaseValue.bind(to: sqliteStatement, at: index)
    }
}

/// A type that reads itself straight from a statement column, without going through a
/// ``DatabaseValue``: the fast path of fetching.
public protocol StatementColumnConvertible {
    /// Reads column `index` of the current row of `sqliteStatement`, which is not NULL
    /// (Ripple checks first, as GRDB does); nil when it cannot be converted. Check the
    /// column type (`sqlite3_column_type`) before reading: SQLite converts silently
    /// otherwise (the text "abc" reads as the integer 0).
    init?(sqliteStatement: OpaquePointer, index: CInt)

    /// The value of column `index`; nil when it is NULL or cannot be converted. Ripple
    /// reads columns through it; do not implement it.
    static func _columnValue(sqliteStatement: OpaquePointer, index: CInt) -> Self?
}

extension StatementColumnConvertible {
    /// NULL first, then `init(sqliteStatement:index:)`.
    @inlinable @inline(__always)
    public static func _columnValue(sqliteStatement: OpaquePointer, index: CInt) -> Self? {
        sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL ? nil : Self(sqliteStatement: sqliteStatement, index: index)
    }
}

/// Ripple's own column types, whose `init(sqliteStatement:index:)` switches on the column
/// type, NULL included: no second check of the type for each value read.
public protocol _ColumnTypeCheckingConvertible: StatementColumnConvertible {}

extension _ColumnTypeCheckingConvertible {
    @inlinable @inline(__always)
    public static func _columnValue(sqliteStatement: OpaquePointer, index: CInt) -> Self? {
        Self(sqliteStatement: sqliteStatement, index: index)
    }
}

extension DatabaseValueConvertible {
    /// Converts `dbValue`, throwing a clear error when it cannot be converted.
    @inlinable
    static func decode(from dbValue: DatabaseValue, column: String?, index: Int?) throws -> Self {
        if let value = fromDatabaseValue(dbValue) { return value }
        throw decodingError(dbValue, Self.self, column: column, index: index, statement: nil)
    }

    /// Reads column `index` of `statement`, the generic way.
    @inlinable
    static func decode(statement: Statement, index: CInt) throws -> Self {
        let dbValue = DatabaseValue(sqliteStatement: statement.sqliteStatement, index: index)
        if let value = fromDatabaseValue(dbValue) { return value }
        throw decodingError(dbValue, Self.self, statement: statement, index: index)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// Reads column `index` of `statement`, the fast way.
    @inlinable
    static func decode(statement: Statement, index: CInt) throws -> Self {
        if let value = _columnValue(sqliteStatement: statement.sqliteStatement, index: index) { return value }
        throw decodingError(Self.self, statement: statement, index: index)
    }

    /// Reads column `index` of `statement` as an optional, the fast way.
    @inlinable
    static func decodeIfPresent(statement: Statement, index: CInt) throws -> Self? {
        let sqliteStatement = statement.sqliteStatement
        if let value = _columnValue(sqliteStatement: sqliteStatement, index: index) { return value }
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        throw decodingError(Self.self, statement: statement, index: index)
    }
}

/// The error for a value of column `index` of `statement` that cannot be read as `type`.
@usableFromInline
func decodingError(_ type: Any.Type, statement: Statement, index: CInt) -> DatabaseError {
    let dbValue = DatabaseValue(sqliteStatement: statement.sqliteStatement, index: index)
    return decodingError(dbValue, type, statement: statement, index: index)
}

/// The error for `dbValue`, read from column `index` of `statement`, that cannot be `type`.
@usableFromInline
func decodingError(_ dbValue: DatabaseValue, _ type: Any.Type, statement: Statement, index: CInt) -> DatabaseError {
    let index = Int(index)
    let column = statement.columnNames.indices.contains(index) ? statement.columnNames[index] : nil
    return decodingError(dbValue, type, column: column, index: index, statement: statement)
}

/// The error for `dbValue` that cannot be `type`, with where it was read.
@usableFromInline
func decodingError(_ dbValue: DatabaseValue, _ type: Any.Type, column: String?, index: Int?, statement: Statement?) -> DatabaseError {
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
    return .mismatch(message, sql: statement?.sql, arguments: statement?.arguments)
}

// MARK: - Optional

extension Optional: SQLExpressible where Wrapped: DatabaseValueConvertible {}

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
