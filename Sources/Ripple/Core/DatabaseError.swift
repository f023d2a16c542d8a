import CSQLite
import Foundation

/// An error thrown by SQLite or by Ripple, with everything needed to understand it: the
/// result code, SQLite's message, and the SQL and arguments of the failing statement.
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO player (id) VALUES (?)", arguments: [1])
/// } catch let error as DatabaseError {
///     error.resultCode          // SQLITE_CONSTRAINT
///     error.extendedResultCode  // SQLITE_CONSTRAINT_PRIMARYKEY
///     error.message             // "UNIQUE constraint failed: player.id"
///     error.sql                 // "INSERT INTO player (id) VALUES (?)"
///     error.arguments           // [1]
/// }
/// ```
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The extended result code.
    public let extendedResultCode: ResultCode

    /// The primary result code.
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// The error message.
    public let message: String?

    /// The SQL of the statement that failed, if any.
    public let sql: String?

    /// The arguments of the statement that failed, if any.
    public let arguments: StatementArguments?

    /// Whether ``description`` shows the arguments (see
    /// ``Configuration/publicStatementArguments``); ``expandedDescription`` always does.
    let publicStatementArguments: Bool

    /// Creates an error.
    ///
    /// - parameter resultCode: the result code.
    /// - parameter message: the message; SQLite's text for the result code when nil, as
    ///   in GRDB.
    /// - parameter sql: the statement that failed.
    /// - parameter arguments: its arguments.
    /// - parameter publicStatementArguments: whether ``description`` shows the arguments
    ///   (by default only ``expandedDescription`` does, so that logs do not leak them).
    public init(
        resultCode: ResultCode = .SQLITE_ERROR,
        message: String? = nil,
        sql: String? = nil,
        arguments: StatementArguments? = nil,
        publicStatementArguments: Bool = false
    ) {
        self.publicStatementArguments = publicStatementArguments
        self.extendedResultCode = resultCode
        self.message = message ?? String(cString: sqlite3_errstr(resultCode.rawValue))
        self.sql = sql
        self.arguments = arguments
    }

    /// A readable description, with the primary result code, such as
    /// "SQLite error 19: UNIQUE constraint failed: player.id - while executing ...".
    /// The arguments appear only with ``Configuration/publicStatementArguments``.
    public var description: String {
        describe(withArguments: publicStatementArguments)
    }

    /// The description with the statement's arguments, whatever the configuration: mind
    /// where it goes, since arguments may hold private data.
    public var expandedDescription: String {
        describe(withArguments: true)
    }

    private func describe(withArguments: Bool) -> String {
        var text = "SQLite error \(extendedResultCode.rawValue & 0xFF)"
        if let message { text += ": \(message)" }
        if let sql {
            // Without the separators around it, as GRDB writes it: `a; b;` reads `a; b`.
            text += " - while executing `\(sql.trimmingCharacters(in: sqlStatementSeparators))`"
            if withArguments, let arguments, !arguments.isEmpty {
                text += " with arguments \(arguments)"
            }
        }
        return text
    }

    /// `ResultCode.SQLITE_ERROR`, for `catch DatabaseError.SQLITE_ERROR`.
    public static let SQLITE_ERROR = ResultCode.SQLITE_ERROR
    /// `ResultCode.SQLITE_BUSY`, for `catch DatabaseError.SQLITE_BUSY`.
    public static let SQLITE_BUSY = ResultCode.SQLITE_BUSY
    /// `ResultCode.SQLITE_READONLY`, for `catch DatabaseError.SQLITE_READONLY`.
    public static let SQLITE_READONLY = ResultCode.SQLITE_READONLY
    /// `ResultCode.SQLITE_CONSTRAINT`, for `catch DatabaseError.SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT = ResultCode.SQLITE_CONSTRAINT
    /// `ResultCode.SQLITE_MISMATCH`, for `catch DatabaseError.SQLITE_MISMATCH`.
    public static let SQLITE_MISMATCH = ResultCode.SQLITE_MISMATCH
    /// `ResultCode.SQLITE_MISUSE`, for `catch DatabaseError.SQLITE_MISUSE`.
    public static let SQLITE_MISUSE = ResultCode.SQLITE_MISUSE
    /// `ResultCode.SQLITE_CANTOPEN`, for `catch DatabaseError.SQLITE_CANTOPEN`.
    public static let SQLITE_CANTOPEN = ResultCode.SQLITE_CANTOPEN
    /// `ResultCode.SQLITE_NOTADB`, for `catch DatabaseError.SQLITE_NOTADB`.
    public static let SQLITE_NOTADB = ResultCode.SQLITE_NOTADB
    /// `ResultCode.SQLITE_CONSTRAINT_UNIQUE`, for `catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE`.
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode.SQLITE_CONSTRAINT_UNIQUE
    /// `ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY`, for `catch DatabaseError.SQLITE_CONSTRAINT_PRIMARYKEY`.
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY
    /// `ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY`, for `catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY`.
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY
    /// `ResultCode.SQLITE_CONSTRAINT_NOTNULL`, for `catch DatabaseError.SQLITE_CONSTRAINT_NOTNULL`.
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode.SQLITE_CONSTRAINT_NOTNULL
    /// `ResultCode.SQLITE_CONSTRAINT_CHECK`, for `catch DatabaseError.SQLITE_CONSTRAINT_CHECK`.
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode.SQLITE_CONSTRAINT_CHECK
}

extension DatabaseError {
    /// The error SQLite reports on `connection` for `code`.
    init(connection: OpaquePointer?, code: CInt, sql: String? = nil, arguments: StatementArguments? = nil, publicStatementArguments: Bool = false) {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        // The connection's last code can lag behind (e.g. after an OOM); keep the family right.
        let resultCode = (extended & 0xFF) == (code & 0xFF) ? extended : code
        let message =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(
            resultCode: ResultCode(rawValue: resultCode), message: message, sql: sql, arguments: arguments,
            publicStatementArguments: publicStatementArguments)
    }

    /// An error about a misused API (closed connection, bad arguments).
    static func misuse(_ message: String, sql: String? = nil, arguments: StatementArguments? = nil) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE, message: message, sql: sql, arguments: arguments)
    }

    /// An error about positional arguments that do not match the parameters.
    static func wrongArgumentCount(given: Int, expected: Int, sql: String, arguments: StatementArguments) -> DatabaseError {
        .misuse("wrong number of statement arguments: \(given) given, \(expected) expected", sql: sql, arguments: arguments)
    }

    /// An error about a value that cannot be converted to the requested type.
    static func mismatch(_ message: String, sql: String? = nil, arguments: StatementArguments? = nil) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISMATCH, message: message, sql: sql, arguments: arguments)
    }
}

/// What separates SQL statements: semicolons and white space.
private let sqlStatementSeparators = CharacterSet(charactersIn: ";").union(.whitespacesAndNewlines)
