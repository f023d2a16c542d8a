import CSQLite
import Foundation

/// A column of the row a statement is on, as the dump formats read it: with its SQLite
/// storage class, without conversion.
enum DumpedValue {
    case null
    case integer(Int64)
    case real(Double)
    /// Text, with any invalid UTF-8 repaired (shown, not refused: a dump hides nothing).
    case text(String)
    case blob(Data)

    /// Column `column` of the current row of `statement`, read with its byte count, so
    /// that NUL bytes inside texts and blobs are kept.
    init(_ statement: Statement, column: Int) {
        let value = sqlite3_column_value(statement.sqliteStatement, CInt(column))
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let bytes = UnsafeBufferPointer(start: sqlite3_value_text(value), count: Int(sqlite3_value_bytes(value)))
            self = .text(String(decoding: bytes, as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            // (An empty blob has no pointer.)
            self = .blob(count == 0 ? Data() : Data(bytes: sqlite3_value_blob(value), count: count))
        default:
            self = .null
        }
    }

    /// The text of the list and line formats: numbers as Swift prints them, blobs as
    /// UTF-8 (repaired), NULL as `nullValue`.
    func plainText(nullValue: String) -> String {
        switch self {
        case .null: return nullValue
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text): return text
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }

    /// The value to bind, for SQLite to quote it.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let integer): return DatabaseValue(storage: .int64(integer))
        case .real(let real): return DatabaseValue(storage: .double(real))
        case .text(let text): return DatabaseValue(storage: .string(text))
        case .blob(let data): return DatabaseValue(storage: .blob(data))
        }
    }
}

extension Statement {
    /// The columns of the current row.
    var dumpedValues: [DumpedValue] {
        (0..<columnCount).map { DumpedValue(self, column: $0) }
    }
}
