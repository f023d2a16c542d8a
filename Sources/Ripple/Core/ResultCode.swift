import CSQLite

/// An SQLite result code, primary or extended.
///
/// Primary codes are the low 8 bits of extended codes: `SQLITE_CONSTRAINT_UNIQUE` has the
/// primary code `SQLITE_CONSTRAINT`. Result codes match errors in `catch` clauses:
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
/// } catch ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY {
///     // the extended code matches exactly
/// } catch ResultCode.SQLITE_CONSTRAINT {
///     // a primary code matches every extended code of its family
/// }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The raw SQLite code.
    public let rawValue: CInt

    /// Creates a result code from its raw value.
    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The primary result code (the low 8 bits of an extended one).
    public var primaryResultCode: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    var isPrimary: Bool { self == primaryResultCode }

    /// The English text SQLite gives for the code, followed by its number.
    public var description: String {
        "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))"
    }

    /// Returns whether `error` is a ``DatabaseError`` with this code. A primary code matches
    /// all its extended codes; an extended code matches itself only.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern ~= error.extendedResultCode
    }

    /// Returns whether `code` is this code (extended) or belongs to its family (primary).
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primaryResultCode : pattern == code
    }

    /// SQLite's primary result code `SQLITE_OK`.
    public static let SQLITE_OK = ResultCode(rawValue: 0)
    /// SQLite's primary result code `SQLITE_ERROR`.
    public static let SQLITE_ERROR = ResultCode(rawValue: 1)
    /// SQLite's primary result code `SQLITE_INTERNAL`.
    public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
    /// SQLite's primary result code `SQLITE_PERM`.
    public static let SQLITE_PERM = ResultCode(rawValue: 3)
    /// SQLite's primary result code `SQLITE_ABORT`.
    public static let SQLITE_ABORT = ResultCode(rawValue: 4)
    /// SQLite's primary result code `SQLITE_BUSY`.
    public static let SQLITE_BUSY = ResultCode(rawValue: 5)
    /// SQLite's primary result code `SQLITE_LOCKED`.
    public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
    /// SQLite's primary result code `SQLITE_NOMEM`.
    public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
    /// SQLite's primary result code `SQLITE_READONLY`.
    public static let SQLITE_READONLY = ResultCode(rawValue: 8)
    /// SQLite's primary result code `SQLITE_INTERRUPT`.
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
    /// SQLite's primary result code `SQLITE_IOERR`.
    public static let SQLITE_IOERR = ResultCode(rawValue: 10)
    /// SQLite's primary result code `SQLITE_CORRUPT`.
    public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
    /// SQLite's primary result code `SQLITE_NOTFOUND`.
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
    /// SQLite's primary result code `SQLITE_FULL`.
    public static let SQLITE_FULL = ResultCode(rawValue: 13)
    /// SQLite's primary result code `SQLITE_CANTOPEN`.
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
    /// SQLite's primary result code `SQLITE_PROTOCOL`.
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
    /// SQLite's primary result code `SQLITE_EMPTY`.
    public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
    /// SQLite's primary result code `SQLITE_SCHEMA`.
    public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
    /// SQLite's primary result code `SQLITE_TOOBIG`.
    public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
    /// SQLite's primary result code `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
    /// SQLite's primary result code `SQLITE_MISMATCH`.
    public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
    /// SQLite's primary result code `SQLITE_MISUSE`.
    public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
    /// SQLite's primary result code `SQLITE_NOLFS`.
    public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
    /// SQLite's primary result code `SQLITE_AUTH`.
    public static let SQLITE_AUTH = ResultCode(rawValue: 23)
    /// SQLite's primary result code `SQLITE_FORMAT`.
    public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
    /// SQLite's primary result code `SQLITE_RANGE`.
    public static let SQLITE_RANGE = ResultCode(rawValue: 25)
    /// SQLite's primary result code `SQLITE_NOTADB`.
    public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
    /// SQLite's primary result code `SQLITE_NOTICE`.
    public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
    /// SQLite's primary result code `SQLITE_WARNING`.
    public static let SQLITE_WARNING = ResultCode(rawValue: 28)
    /// SQLite's primary result code `SQLITE_ROW`.
    public static let SQLITE_ROW = ResultCode(rawValue: 100)
    /// SQLite's primary result code `SQLITE_DONE`.
    public static let SQLITE_DONE = ResultCode(rawValue: 101)

    /// SQLite's extended result code `SQLITE_BUSY_RECOVERY`.
    public static let SQLITE_BUSY_RECOVERY = ResultCode(rawValue: 261)
    /// SQLite's extended result code `SQLITE_BUSY_SNAPSHOT`.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: 517)
    /// SQLite's extended result code `SQLITE_BUSY_TIMEOUT`.
    public static let SQLITE_BUSY_TIMEOUT = ResultCode(rawValue: 773)
    /// SQLite's extended result code `SQLITE_READONLY_DBMOVED`.
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: 8 | (4 << 8))
    /// SQLite's extended result code `SQLITE_CONSTRAINT_CHECK`.
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: 19 | (1 << 8))
    /// SQLite's extended result code `SQLITE_CONSTRAINT_COMMITHOOK`.
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode(rawValue: 19 | (2 << 8))
    /// SQLite's extended result code `SQLITE_CONSTRAINT_FOREIGNKEY`.
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: 19 | (3 << 8))
    /// SQLite's extended result code `SQLITE_CONSTRAINT_FUNCTION`.
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode(rawValue: 19 | (4 << 8))
    /// SQLite's extended result code `SQLITE_CONSTRAINT_NOTNULL`.
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: 19 | (5 << 8))
    /// SQLite's extended result code `SQLITE_CONSTRAINT_PRIMARYKEY`.
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: 19 | (6 << 8))
    /// SQLite's extended result code `SQLITE_CONSTRAINT_TRIGGER`.
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: 19 | (7 << 8))
    /// SQLite's extended result code `SQLITE_CONSTRAINT_UNIQUE`.
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: 19 | (8 << 8))
    /// SQLite's extended result code `SQLITE_CONSTRAINT_VTAB`.
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode(rawValue: 19 | (9 << 8))
    /// SQLite's extended result code `SQLITE_CONSTRAINT_ROWID`.
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode(rawValue: 19 | (10 << 8))
    /// SQLite's extended result code `SQLITE_CONSTRAINT_PINNED`.
    public static let SQLITE_CONSTRAINT_PINNED = ResultCode(rawValue: 19 | (11 << 8))
    /// SQLite's extended result code `SQLITE_CONSTRAINT_DATATYPE`.
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode(rawValue: 19 | (12 << 8))
}
