import CSQLite
import Foundation

/// Suspension: on iOS, a suspended app that holds a lock on a database in a shared
/// container is killed (the `0xdead10cc` exception). A suspended connection gives its lock
/// up and takes no new one until it is resumed.
extension Database {
    /// Post it when the application is about to be suspended: the databases opened with
    /// ``Configuration/observesSuspensionNotifications`` are suspended.
    ///
    /// A suspended database takes no lock on the database file: its statements that could
    /// take one throw a ``DatabaseError`` of code `SQLITE_ABORT` ("Database is suspended"),
    /// and the transaction in progress is rolled back. The statement that runs when the
    /// database is suspended is interrupted (`SQLITE_INTERRUPT`). Reads in WAL mode go on,
    /// as do statements that end a transaction (`COMMIT`, `ROLLBACK`, `RELEASE`).
    ///
    /// ```swift
    /// // In the app delegate's applicationDidEnterBackground(_:)
    /// NotificationCenter.default.post(name: Database.suspendNotification, object: self)
    /// ```
    public static let suspendNotification = Notification.Name("Ripple.Database.Suspend")

    /// Post it when the application comes back: the databases opened with
    /// ``Configuration/observesSuspensionNotifications`` are resumed.
    public static let resumeNotification = Notification.Name("Ripple.Database.Resume")

    /// Throws when the connection is suspended and `statement` could take a lock: the
    /// transaction in progress, if any, is rolled back first, so that its lock is released.
    @inline(never)
    func checkSuspension(_ statement: Statement) throws {
        let suspension = interruptHandle.suspensionNumber
        guard suspension != 0 else { return }
        let report = statement.report
        // Statements that end transactions release locks (and rollbacks notify observers).
        if report.transactionEffect == .commit || report.transactionEffect == .rollback { return }
        switch report.savepointEffect {
        case .release, .rollback: return
        case .begin, nil: break
        }
        // Setting the read-only mode takes no lock.
        if Self.isQueryOnlyPragma(statement.sql) { return }
        // In WAL mode, reads (and `BEGIN DEFERRED`) take no lock that blocks other
        // processes' writers.
        if statement.isReadonly, try journalModeIsWAL(duringSuspension: suspension) { return }
        rollbackIfInsideTransaction()
        throw DatabaseError(
            resultCode: .SQLITE_ABORT, message: "Database is suspended", sql: statement.sql, arguments: statement.arguments)
    }

    private static func isQueryOnlyPragma(_ sql: String) -> Bool {
        let words = sql.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "=" || $0 == "(" || $0 == ";" })
        return words.count >= 2 && words[0] == "pragma" && (words[1] == "query_only" || words[1].hasSuffix(".query_only"))
    }

    /// Whether the connection's main database is in WAL mode, read once per suspension
    /// (the journal mode can not change while suspended: changing it takes a lock).
    private func journalModeIsWAL(duringSuspension suspension: Int) throws -> Bool {
        if let known = suspensionJournalMode, known.suspension == suspension { return known.isWAL }
        // Run directly, not as a `Statement`: it must not meet this check again. Hidden
        // from the application's trace.
        let mode: String = try withStatementsHiddenFromTrace {
            var sqliteStatement: OpaquePointer?
            let sql = "PRAGMA main.journal_mode"
            var code = sqlite3_prepare_v2(sqliteConnection, sql, -1, &sqliteStatement, nil)
            defer { sqlite3_finalize(sqliteStatement) }
            if code == SQLITE_OK { code = sqlite3_step(sqliteStatement) }
            guard code == SQLITE_ROW, let text = sqlite3_column_text(sqliteStatement, 0) else {
                throw DatabaseError(connection: sqliteConnection, code: code, sql: sql)
            }
            return String(cString: text)
        }
        let isWAL = mode.lowercased() == "wal"
        suspensionJournalMode = (suspension, isWAL)
        return isWAL
    }
}

/// Suspends and resumes a database when the application posts
/// ``Database/suspendNotification`` and ``Database/resumeNotification`` (see
/// ``Configuration/observesSuspensionNotifications``).
final class SuspensionNotificationObserver: Sendable {
    private let tokens: LockedState<[any NSObjectProtocol]>

    init(_ handle: InterruptHandle) {
        let center = NotificationCenter.default
        tokens = LockedState([
            center.addObserver(forName: Database.suspendNotification, object: nil, queue: nil) { _ in handle.suspend() },
            center.addObserver(forName: Database.resumeNotification, object: nil, queue: nil) { _ in handle.resume() },
        ])
    }

    deinit {
        for token in tokens.withLock({ $0 }) { NotificationCenter.default.removeObserver(token) }
    }
}
