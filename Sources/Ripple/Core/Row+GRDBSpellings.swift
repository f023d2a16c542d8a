import CSQLite
import Foundation

extension Row {
    /// A row from a dictionary (columns in the dictionary's order, which is not defined):
    /// `Row(["id": 1, "name": "Arthur"])`.
    public convenience init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        self.init(columns: Array(dictionary.keys), values: dictionary.values.map { $0?.databaseValue ?? .null })
    }

    /// A row from a dictionary of any values; nil unless every key is a `String` and
    /// every value is `DatabaseValueConvertible` (or `NSNull`, which is NULL).
    public convenience init?(_ dictionary: [AnyHashable: Any]) {
        var converted: [String: (any DatabaseValueConvertible)?] = [:]
        for (key, value) in dictionary {
            guard let column = key as? String, let value = databaseConvertible(value) else { return nil }
            converted[column] = value
        }
        self.init(converted)
    }

    /// Calls `body` with the blob (or text, as bytes) at `index`; nil for NULL. Throws
    /// when the value is a number. (The data is a copy: keeping it is safe.)
    public func withUnsafeData<T>(atIndex index: Int, _ body: (Data?) throws -> T) throws -> T {
        try body(decodeIfPresent(Data.self, atIndex: index))
    }

    /// Calls `body` with the blob (or text, as bytes) of column `name`; nil for NULL or no
    /// such column.
    public func withUnsafeData<T>(named name: String, _ body: (Data?) throws -> T) throws -> T {
        guard let index = index(forColumn: name) else { return try body(nil) }
        return try withUnsafeData(atIndex: index, body)
    }

    /// Calls `body` with the blob (or text, as bytes) of `column`; nil for NULL or no such
    /// column.
    public func withUnsafeData<T>(at column: some ColumnExpression, _ body: (Data?) throws -> T) throws -> T {
        try withUnsafeData(named: column.name, body)
    }
}

extension Database {
    /// The version number of the SQLite library, as `SQLITE_VERSION_NUMBER` says it:
    /// 3040001 for 3.40.1.
    public static var sqliteLibVersionNumber: CInt { sqlite3_libversion_number() }
}
