import CSQLite
import Foundation

/// A value stored in a database table: NULL, an integer, a real, a text, or a blob.
///
/// Integers and reals compare numerically: `DatabaseValue(1)` equals `DatabaseValue(1.0)`,
/// as they do in SQLite.
public struct DatabaseValue: Hashable, Sendable, CustomStringConvertible {
    /// The storage classes of SQLite. Storages are equal when they are identical: unlike
    /// database values, the integer 1 and the double 1.0 are different storages.
    public enum Storage: Sendable, Equatable {
        case null
        case int64(Int64)
        case double(Double)
        case string(String)
        case blob(Data)
    }

    /// The stored value.
    public let storage: Storage

    /// The NULL value.
    public static let null = DatabaseValue(storage: .null)

    /// Creates a value from its storage.
    public init(storage: Storage) {
        self.storage = storage
    }

    /// Creates a value from any convertible value; `nil` gives NULL.
    public init(value: (any DatabaseValueConvertible)?) {
        self = value?.databaseValue ?? .null
    }

    /// Whether the value is NULL.
    @inlinable
    public var isNull: Bool {
        if case .null = storage { return true }
        return false
    }

    /// Reads column `index` of the current row of a statement.
    @usableFromInline
    init(sqliteStatement: OpaquePointer, index: CInt) {
        self.init(sqliteValue: sqlite3_column_value(sqliteStatement, index))
    }

    /// Reads an SQLite value (a column, a function argument, a pre-update value).
    init(sqliteValue: OpaquePointer?) {
        guard let value = sqliteValue else {
            storage = .null
            return
        }
        switch sqlite3_value_type(value) {
        case SQLITE_NULL:
            storage = .null
        case SQLITE_INTEGER:
            storage = .int64(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            storage = .double(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let bytes = UnsafeBufferPointer(
                start: sqlite3_value_text(value),
                count: Int(sqlite3_value_bytes(value)))
            if let string = validatedString(bytes) {
                storage = .string(string)
            } else {
                storage = .blob(Data(bytes))
            }
        default:
            let count = Int(sqlite3_value_bytes(value))
            if count == 0 {
                storage = .blob(Data())
            } else {
                storage = .blob(Data(bytes: sqlite3_value_blob(value), count: count))
            }
        }
    }

    public static func == (lhs: DatabaseValue, rhs: DatabaseValue) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.null, .null): return true
        case let (.int64(a), .int64(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.int64(a), .double(b)): return Double(exactly: a).map { $0 == b } ?? false
        case let (.double(a), .int64(b)): return Double(exactly: b).map { $0 == a } ?? false
        case let (.string(a), .string(b)): return a == b
        case let (.blob(a), .blob(b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .null:
            hasher.combine(0)
        case .int64(let int):
            hasher.combine(1)
            hasher.combine(int)
        case .double(let double):
            // Equal to an integer: hash as that integer, so that == and hash agree.
            if let int = Int64(exactly: double) {
                hasher.combine(1)
                hasher.combine(int)
            } else {
                hasher.combine(2)
                hasher.combine(double)
            }
        case .string(let string):
            hasher.combine(3)
            hasher.combine(string)
        case .blob(let data):
            hasher.combine(4)
            hasher.combine(data)
        }
    }

    /// SQL-like: `NULL`, `1`, `1.5`, `"text"`, `<3 bytes>`.
    public var description: String {
        switch storage {
        case .null: return "NULL"
        case .int64(let int): return String(int)
        case .double(let double): return String(double)
        case .string(let string): return String(reflecting: string)
        case .blob(let data): return "Data(\(data.count) bytes)"
        }
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValue? { dbValue }

    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        switch storage {
        case .null: return sqlite3_bind_null(sqliteStatement, index)
        case .int64(let int): return sqlite3_bind_int64(sqliteStatement, index, int)
        case .double(let double): return sqlite3_bind_double(sqliteStatement, index, double)
        case .string(let string): return string.bind(to: sqliteStatement, at: index)
        case .blob(let data): return data.bind(to: sqliteStatement, at: index)
        }
    }
}

extension DatabaseValue: ExpressibleByNilLiteral {
    /// `nil` is NULL.
    public init(nilLiteral: ()) { self = .null }
}

extension DatabaseValue.Storage {
    /// The stored value as a Swift value: nil, `Int64`, `Double`, `String` or `Data`.
    public var value: (any DatabaseValueConvertible)? { DatabaseValue(storage: self).storageValue }
}

/// A value is an expression of its own, as in GRDB: `[Column("a"), 2.databaseValue].joined(operator: .add)`.
extension DatabaseValue: SQLSpecificExpressible {}
