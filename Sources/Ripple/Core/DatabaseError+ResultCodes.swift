// The result codes of ResultCode, on DatabaseError too, as GRDB spells them in `catch`
// clauses and comparisons (`catch DatabaseError.SQLITE_BUSY`).

extension DatabaseError {
    /// `ResultCode.SQLITE_OK`.
    public static let SQLITE_OK = ResultCode.SQLITE_OK
    /// `ResultCode.SQLITE_INTERNAL`.
    public static let SQLITE_INTERNAL = ResultCode.SQLITE_INTERNAL
    /// `ResultCode.SQLITE_PERM`.
    public static let SQLITE_PERM = ResultCode.SQLITE_PERM
    /// `ResultCode.SQLITE_ABORT`.
    public static let SQLITE_ABORT = ResultCode.SQLITE_ABORT
    /// `ResultCode.SQLITE_LOCKED`.
    public static let SQLITE_LOCKED = ResultCode.SQLITE_LOCKED
    /// `ResultCode.SQLITE_NOMEM`.
    public static let SQLITE_NOMEM = ResultCode.SQLITE_NOMEM
    /// `ResultCode.SQLITE_INTERRUPT`.
    public static let SQLITE_INTERRUPT = ResultCode.SQLITE_INTERRUPT
    /// `ResultCode.SQLITE_IOERR`.
    public static let SQLITE_IOERR = ResultCode.SQLITE_IOERR
    /// `ResultCode.SQLITE_CORRUPT`.
    public static let SQLITE_CORRUPT = ResultCode.SQLITE_CORRUPT
    /// `ResultCode.SQLITE_NOTFOUND`.
    public static let SQLITE_NOTFOUND = ResultCode.SQLITE_NOTFOUND
    /// `ResultCode.SQLITE_FULL`.
    public static let SQLITE_FULL = ResultCode.SQLITE_FULL
    /// `ResultCode.SQLITE_PROTOCOL`.
    public static let SQLITE_PROTOCOL = ResultCode.SQLITE_PROTOCOL
    /// `ResultCode.SQLITE_EMPTY`.
    public static let SQLITE_EMPTY = ResultCode.SQLITE_EMPTY
    /// `ResultCode.SQLITE_SCHEMA`.
    public static let SQLITE_SCHEMA = ResultCode.SQLITE_SCHEMA
    /// `ResultCode.SQLITE_TOOBIG`.
    public static let SQLITE_TOOBIG = ResultCode.SQLITE_TOOBIG
    /// `ResultCode.SQLITE_NOLFS`.
    public static let SQLITE_NOLFS = ResultCode.SQLITE_NOLFS
    /// `ResultCode.SQLITE_AUTH`.
    public static let SQLITE_AUTH = ResultCode.SQLITE_AUTH
    /// `ResultCode.SQLITE_FORMAT`.
    public static let SQLITE_FORMAT = ResultCode.SQLITE_FORMAT
    /// `ResultCode.SQLITE_RANGE`.
    public static let SQLITE_RANGE = ResultCode.SQLITE_RANGE
    /// `ResultCode.SQLITE_NOTICE`.
    public static let SQLITE_NOTICE = ResultCode.SQLITE_NOTICE
    /// `ResultCode.SQLITE_WARNING`.
    public static let SQLITE_WARNING = ResultCode.SQLITE_WARNING
    /// `ResultCode.SQLITE_ROW`.
    public static let SQLITE_ROW = ResultCode.SQLITE_ROW
    /// `ResultCode.SQLITE_DONE`.
    public static let SQLITE_DONE = ResultCode.SQLITE_DONE
    /// `ResultCode.SQLITE_BUSY_RECOVERY`.
    public static let SQLITE_BUSY_RECOVERY = ResultCode.SQLITE_BUSY_RECOVERY
    /// `ResultCode.SQLITE_BUSY_SNAPSHOT`.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode.SQLITE_BUSY_SNAPSHOT
    /// `ResultCode.SQLITE_BUSY_TIMEOUT`.
    public static let SQLITE_BUSY_TIMEOUT = ResultCode.SQLITE_BUSY_TIMEOUT
    /// `ResultCode.SQLITE_READONLY_DBMOVED`.
    public static let SQLITE_READONLY_DBMOVED = ResultCode.SQLITE_READONLY_DBMOVED
    /// `ResultCode.SQLITE_CONSTRAINT_COMMITHOOK`.
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode.SQLITE_CONSTRAINT_COMMITHOOK
    /// `ResultCode.SQLITE_CONSTRAINT_FUNCTION`.
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode.SQLITE_CONSTRAINT_FUNCTION
    /// `ResultCode.SQLITE_CONSTRAINT_TRIGGER`.
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode.SQLITE_CONSTRAINT_TRIGGER
    /// `ResultCode.SQLITE_CONSTRAINT_VTAB`.
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode.SQLITE_CONSTRAINT_VTAB
    /// `ResultCode.SQLITE_CONSTRAINT_ROWID`.
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode.SQLITE_CONSTRAINT_ROWID
    /// `ResultCode.SQLITE_CONSTRAINT_PINNED`.
    public static let SQLITE_CONSTRAINT_PINNED = ResultCode.SQLITE_CONSTRAINT_PINNED
    /// `ResultCode.SQLITE_CONSTRAINT_DATATYPE`.
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode.SQLITE_CONSTRAINT_DATATYPE
}
