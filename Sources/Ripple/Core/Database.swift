import CSQLite
import Foundation

/// An SQLite connection.
///
/// You do not create a `Database` yourself: a ``DatabaseQueue`` or a ``DatabasePool`` hands
/// one to your closures, on the queue that protects it:
///
/// ```swift
/// try dbQueue.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// ```
///
/// `Database` is not `Sendable`: it must not leave the closure it was given to.
public final class Database {
    /// What the connection changes around each statement (see ``ConnectionState``).
    let state = _ExclusiveAccessBox(ConnectionState())

    /// The raw SQLite connection handle; nil once closed.
    public var sqliteConnection: OpaquePointer? { state.value.sqliteConnection }

    /// The configuration the connection was opened with.
    public let configuration: Configuration

    /// The path of the database file (`:memory:` for an in-memory database).
    public let path: String

    /// A description for debugging: the label of the connection.
    public let description: String

    /// Whether ``close()`` was called.
    public var isClosed: Bool { state.value.isClosed }

    /// What the busy handler asks, owned by the connection (the handler's context).
    var busyHandlerBox: BusyHandlerBox?
    /// The application's trace (see ``trace(options:_:)``).
    var traceHandler: ((TraceEvent) -> Void)?
    /// How many transaction methods' closures run (see `inTransactionBlock`).
    var transactionBlockDepth = 0
    /// Reports what each statement reads and writes as SQLite compiles it.
    let authorizer = Authorizer()
    /// Lets any thread interrupt the connection (``interrupt()``).
    let interruptHandle: InterruptHandle
    /// The journal mode, as read during a suspension (see `checkSuspension`).
    var suspensionJournalMode: (suspension: Int, isWAL: Bool)?

    /// The read transactions that this connection counts as it begins them: set for the
    /// readers of a pool (see ``ReadTransactionStarts``).
    let readStartsToCount: ReadTransactionStarts?
    /// Whether this connection is a pool's writer, which waits for those read transactions
    /// to begin when they hold the write lock for a moment.
    let waitsForOwnReaders: Bool

    /// Opens a connection. `readonly` overrides the configuration (DatabasePool readers);
    /// `readStarts` is this connection's part in its pool's ``ReadTransactionStarts``.
    init(
        path: String, description: String, configuration: Configuration, readonly: Bool? = nil,
        readStarts: ReadStartsRole? = nil
    ) throws {
        self.path = path
        if case .counts(let starts) = readStarts { readStartsToCount = starts } else { readStartsToCount = nil }
        if case .waitsFor = readStarts { waitsForOwnReaders = true } else { waitsForOwnReaders = false }
        self.description = description
        self.configuration = configuration
        let isReadonly = readonly ?? configuration.readonly
        var flags = SQLITE_OPEN_NOMUTEX
        flags |= isReadonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // `file:` URIs (`DatabaseQueue(named:)`), whether or not SQLite reads them by default.
        if path.hasPrefix("file:") { flags |= SQLITE_OPEN_URI }
        SQLiteMemoryStatistics.beforeOpeningConnection()
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = DatabaseError(connection: connection, code: code)
            sqlite3_close(connection)
            throw DatabaseError(
                resultCode: error.extendedResultCode,
                message: "could not open database at \(path): \(error.message ?? "unknown error")")
        }
        interruptHandle = InterruptHandle(connection)
        state.value.sqliteConnection = connection
        state.value.schemaSource = configuration.schemaSource
        state.value.transactionDate = TransactionDateState(usesSystemClock: configuration.transactionClock is DefaultTransactionClock)
        sqlite3_extended_result_codes(connection, 1)
        ripple_set_double_quoted_strings(connection, configuration.acceptsDoubleQuotedStringLiterals ? 1 : 0)
        authorizer.install(on: connection)
        authorizer.collectionDidBegin = { [unowned self] in self.state.value.observation.hook?.recompilationDidBegin() }
        do {
            try AccessChain.withAccess(to: self) { try setUp(configuration: configuration, readStarts: readStarts) }
        } catch {
            try? close()
            throw error
        }
    }

    private func setUp(configuration: Configuration, readStarts: ReadStartsRole?) throws {
        if case .waitsFor(let starts) = readStarts {
            setUpBusyMode(waitingFor: starts)
        } else {
            setUpBusyMode()
        }
        for collation in DatabaseCollation.builtIn { add(collation: collation) }
        for function in DatabaseFunction.builtIn { add(function: function) }
        // Fails with SQLITE_NOTADB for a file that is not a database.
        try execute(sql: "SELECT * FROM sqlite_master LIMIT 1")
        if configuration.foreignKeysEnabled {
            try execute(sql: "PRAGMA foreign_keys = ON")
        }
        for preparation in configuration.preparations {
            try preparation(self)
        }
    }

    deinit {
        if !isClosed { AccessChain.withAccess(to: self) { try? close() } }
    }

    /// Statements released outside of an access, to finalize at the next one.
    private let statementsToFinalize = LockedStatementList()

    /// Finalizes `statement` at the next access (see `Statement.deinit`). Any thread.
    func finalizeLater(_ statement: OpaquePointer) {
        statementsToFinalize.append(statement)
    }

    /// Finalizes the statements released outside of an access. Called when an access
    /// starts, and when the connection closes.
    func finalizeReleasedStatements() {
        for statement in statementsToFinalize.takeAll() { sqlite3_finalize(statement) }
    }

    /// Closes the connection. Later uses throw `SQLITE_MISUSE`. Closing twice does nothing.
    public func close() throws {
        guard let connection = sqliteConnection, !isClosed else { return }
        finalizeReleasedStatements()
        state.value.statementCache.removeCachedStatements()
        state.value.observation.hook?.connectionWillClose()
        state.value.observation.externalChangeHook?.connectionWillClose()
        state.value.observation.removeHooks()
        state.value.statementCache.removeInternalStatements()
        if traceHandler != nil {
            sqlite3_trace_v2(connection, 0, nil, nil)
            _CallbackContext.revoke(self)
        }
        authorizer.uninstall(from: connection)
        interruptHandle.connectionWillClose()
        // sqlite3_close_v2 waits for statements still alive elsewhere to be finalized.
        let code = sqlite3_close_v2(connection)
        guard code == SQLITE_OK else {
            throw DatabaseError(connection: connection, code: code)
        }
        state.value.isClosed = true
        state.value.sqliteConnection = nil
        if let busyHandlerBox { _CallbackContext.revoke(busyHandlerBox) }
        busyHandlerBox = nil
    }

    /// Stops the statements that run on this connection now: they throw a
    /// ``DatabaseError`` with code `SQLITE_INTERRUPT`, and the transaction they ran in
    /// may be rolled back (check ``isInsideTransaction``). Statements that start later run
    /// normally. Nothing happens once the connection is closed.
    ///
    /// Database queues and pools have ``DatabaseReader/interrupt()``, which any thread
    /// may call while an access runs:
    ///
    /// ```swift
    /// // On some thread
    /// try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = score + 1") }
    /// // On another thread: the write throws SQLITE_INTERRUPT, and is rolled back.
    /// dbQueue.interrupt()
    /// ```
    public func interrupt() {
        interruptHandle.interrupt()
    }

    /// Throws `SQLITE_MISUSE` once the connection is closed, or when it is used outside of
    /// an access (a statement or cursor kept after the closure that made it returned):
    /// the connection is not protected against concurrent use there.
    @inline(__always)
    func checkOpen() throws {
        if isClosed { throw DatabaseError.misuse("Connection is closed: \(description)") }
        if !AccessChain.holds(self) { throw usedOutsideOfAccess() }
        if state.value.observation.forbidsAccess {
            fatalError(
                """
                The database connection was used from databaseDidChange(with:), databaseDidChange(), \
                databaseWillChange(with:) or databaseWillCommit(): these callbacks must not use it. \
                Do the work in databaseDidCommit(_:), which may use the connection.
                """)
        }
    }

    @inline(never)
    private func usedOutsideOfAccess() -> DatabaseError {
        DatabaseError.misuse(
            """
            The connection \(description) was used outside of a database access: a statement, \
            cursor or row was kept after the closure that made it returned. Use them only \
            inside the closure of dbQueue.read/write or dbPool.read/write that gave you its db.
            """)
    }

    // MARK: - Facts

    /// The rowid of the last row inserted by this connection.
    public var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(sqliteConnection)
    }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    public var changesCount: Int {
        let total = Int(sqlite3_total_changes(sqliteConnection))
        // Ripple's own write was the last one (the commit log): the application's count.
        if let hiddenWrites, hiddenWrites.totalAfter == total { return hiddenWrites.changesBefore }
        return Int(sqlite3_changes(sqliteConnection))
    }

    /// The number of rows changed since the connection opened.
    public var totalChangesCount: Int {
        Int(sqlite3_total_changes(sqliteConnection)) - (hiddenWrites?.total ?? 0)
    }

    /// The rows that the last statement, an update or a delete of `table`, changed:
    /// ``changesCount``, or, for a view, whose `INSTEAD OF` triggers SQLite does not count
    /// there, what the triggers changed since `totalBefore` (``totalChangesCount`` before the
    /// statement), as GRDB counts them.
    func changesCount(of table: String, totalBefore: Int) throws -> Int {
        let count = changesCount
        if count > 0 { return count }
        // (Ripple's own question, asked after the application's statement: hidden from the
        // trace, whose last statement stays the application's.)
        guard try withStatementsHiddenFromTrace({ try isView(table) }) else { return 0 }
        return totalChangesCount - totalBefore
    }

    /// The rows Ripple's own writes changed (the commit log, written inside the
    /// application's transactions), left out of ``changesCount`` and ``totalChangesCount``.
    private var hiddenWrites: (total: Int, changesBefore: Int, totalAfter: Int)?

    /// Runs writes of Ripple's own: the application's change counts, last inserted rowid
    /// and trace stay as if they did not run.
    func withHiddenWrites<T>(_ body: () throws -> T) rethrows -> T {
        let changesBefore = changesCount
        let totalBefore = Int(sqlite3_total_changes(sqliteConnection))
        let lastInsertedRowID = sqlite3_last_insert_rowid(sqliteConnection)
        defer {
            sqlite3_set_last_insert_rowid(sqliteConnection, lastInsertedRowID)
            let totalAfter = Int(sqlite3_total_changes(sqliteConnection))
            if totalAfter != totalBefore {
                hiddenWrites = ((hiddenWrites?.total ?? 0) + totalAfter - totalBefore, changesBefore, totalAfter)
            }
        }
        return try withStatementsHiddenFromTrace(body)
    }

    // MARK: - Statements

    /// Executes one or several statements, separated by semicolons. Positional arguments
    /// are consumed by the statements in order; named arguments are shared by all.
    ///
    /// ```swift
    /// try db.execute(sql: """
    ///     CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT);
    ///     INSERT INTO player (name, score) VALUES (?, ?);
    ///     """, arguments: ["Arthur", 1000])
    /// ```
    public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try forEachStatement(sql: sql, arguments: arguments) { try executeStatement($0) }
    }

    /// Compiles the statements of `sql` one at a time, binds each one's arguments, and
    /// hands it to `body` before the next one is compiled (a statement may create the
    /// table the next one reads). Positional arguments are consumed in order.
    @inline(__always)
    func forEachStatement(sql: String, arguments: StatementArguments, _ body: (Statement) throws -> Void) throws {
        try checkOpen()
        var position = 0
        try sql.utf8CString.withUnsafeBufferPointer { buffer in
            var offset = 0
            while let statement = try compileStatement(in: buffer, from: &offset, arguments: arguments) {
                try statement.bind(arguments, consumingFrom: &position)
                try body(statement)
            }
        }
        if position != arguments.positional.count {
            throw DatabaseError.wrongArgumentCount(given: arguments.positional.count, expected: position, sql: sql, arguments: arguments)
        }
    }

    /// Compiles the statement of `buffer` (a NUL-terminated SQL string) that starts at
    /// `offset`, and moves `offset` past it; nil when only white space or comments remain.
    /// (`arguments`: for the error of a statement SQLite refuses.)
    func compileStatement(in buffer: UnsafeBufferPointer<CChar>, from offset: inout Int, arguments: StatementArguments?) throws -> Statement? {
        guard let base = buffer.baseAddress else { return nil }
        let end = base + buffer.count - 1  // the terminating NUL
        while base + offset < end {
            let current = base + offset
            var sqliteStatement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let (code, report) = authorizer.report {
                countingReadStart { sqlite3_prepare_v3(sqliteConnection, current, CInt(end - current), 0, &sqliteStatement, &tail) }
            }
            guard code == SQLITE_OK else {
                // The error names the statement that failed, not the whole string.
                let failingSQL = Self.firstStatementText(from: current, to: end)
                throw DatabaseError(
                    connection: sqliteConnection, code: code, sql: failingSQL, arguments: arguments,
                    publicStatementArguments: configuration.publicStatementArguments)
            }
            offset = (tail ?? end) - base
            guard let sqliteStatement else { return nil }  // only white space or comments remain
            return Statement(
                database: self,
                sqliteStatement: sqliteStatement,
                sql: Self.trimmedStatementText(String(cString: sqlite3_sql(sqliteStatement))),
                report: report)
        }
        return nil
    }

    /// The text of one statement of a multi-statement string, without the white space
    /// around it and its final semicolon, as errors and `Statement.sql` show it.
    static func trimmedStatementText(_ text: String) -> String {
        func isSeparator(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ";") || byte == UInt8(ascii: " ") || (byte >= 0x09 && byte <= 0x0D)
        }
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last, isSeparator(first) || isSeparator(last) else { return text }
        var bytes = Substring(text).utf8[...]
        while let last = bytes.last, isSeparator(last) { bytes.removeLast() }
        while let first = bytes.first, first != UInt8(ascii: ";"), isSeparator(first) { bytes.removeFirst() }
        return String(Substring(bytes))
    }

    /// The first statement of the text from `start` to `end` (a statement SQLite refused
    /// to compile): up to the first semicolon that completes a statement, or all of it.
    static func firstStatementText(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>) -> String {
        let text = String(decoding: UnsafeRawBufferPointer(start: start, count: end - start), as: UTF8.self)
        var prefixEnd = text.startIndex
        while let semicolon = text[prefixEnd...].firstIndex(of: ";") {
            prefixEnd = text.index(after: semicolon)
            let prefix = String(text[..<prefixEnd])
            if sqlite3_complete(prefix) != 0 { return trimmedStatementText(prefix) }
        }
        return trimmedStatementText(text)
    }

    /// Executes one or several statements written with SQL interpolation, whose
    /// interpolated values are bound as arguments:
    ///
    /// ```swift
    /// try db.execute(literal: "UPDATE player SET score = \(score) WHERE id = \(id)")
    /// ```
    public func execute(literal sqlLiteral: SQL) throws {
        try execute(sql: sqlLiteral.sql, arguments: sqlLiteral.arguments)
    }

    /// Compiles a single statement.
    ///
    /// Throws when `sql` is invalid, or holds more than one statement (use
    /// ``execute(sql:arguments:)`` for those).
    public func makeStatement(sql: String) throws -> Statement {
        try prepareStatement(sql: sql, persistent: false)
    }

    /// Compiles a single statement from an SQL literal, with its interpolated values bound
    /// as its arguments:
    ///
    /// ```swift
    /// let statement = try db.makeStatement(literal: "INSERT INTO player (name) VALUES (\(name))")
    /// try statement.execute()
    /// ```
    public func makeStatement(literal sqlLiteral: SQL) throws -> Statement {
        let statement = try makeStatement(sql: sqlLiteral.sql)
        // A literal without arguments leaves the parameters to `execute(arguments:)`.
        if !sqlLiteral.arguments.isEmpty { try statement.setArguments(sqlLiteral.arguments) }
        return statement
    }

    /// Runs `call`, a call to SQLite that may begin a read transaction (a statement's first
    /// step; a prepare, which reads the schema in a read transaction of its own when it
    /// must), counted for a pool's reader outside of a transaction (see
    /// ``ReadTransactionStarts``).
    @inline(__always)
    func countingReadStart(_ call: () -> CInt) -> CInt {
        if let starts = readStartsToCount, sqlite3_txn_state(sqliteConnection, nil) == SQLITE_TXN_NONE {
            return starts.counting(call)
        }
        if readsWaitForOtherWriters { waitForOtherWritersBeforeReading() }
        return call()
    }

    /// Set while the writer tells other connections' commits in rollback-journal mode: the
    /// reads that follow (observations' fetches) begin once no other connection holds the
    /// write lock, so that they do not meet that connection's next commit, whose writer
    /// would fail on their shared lock when it has no busy timeout.
    var readsWaitForOtherWriters = false

    @inline(never)
    private func waitForOtherWritersBeforeReading() {
        guard sqlite3_txn_state(sqliteConnection, nil) == SQLITE_TXN_NONE else { return }
        // (At most a second: then the read goes on, and may meet the lock as any read would.)
        for _ in 0..<10_000 {
            guard otherConnectionHoldsWriteLock() == true else { return }
            usleep(100)
        }
    }

    func prepareStatement(sql: String, persistent: Bool) throws -> Statement {
        try checkOpen()
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        return try sql.withCString { cString in
            var sqliteStatement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let (code, report) = authorizer.report {
                countingReadStart { sqlite3_prepare_v3(sqliteConnection, cString, -1, flags, &sqliteStatement, &tail) }
            }
            guard code == SQLITE_OK else {
                throw DatabaseError(connection: sqliteConnection, code: code, sql: sql)
            }
            guard let sqliteStatement else {
                throw DatabaseError.misuse("empty statement", sql: sql)
            }
            if let tail, tail.pointee != 0 {
                var other: OpaquePointer?
                let code = countingReadStart { sqlite3_prepare_v3(sqliteConnection, tail, -1, 0, &other, nil) }
                sqlite3_finalize(other)
                if code != SQLITE_OK || other != nil {
                    sqlite3_finalize(sqliteStatement)
                    throw DatabaseError.misuse(
                        "Multiple statements found. To execute multiple statements, "
                            + "use Database.execute(sql:) or Database.allStatements(sql:) instead.", sql: sql)
                }
            }
            return Statement(database: self, sqliteStatement: sqliteStatement, sql: sql, report: report)
        }
    }

    /// Runs a statement whose arguments are bound, to completion.
    @inline(__always)
    func executeStatement(_ statement: Statement) throws {
        try checkOpen()
        // The hook is read once for both calls: each read retains it (two atomic
        // operations). It is read again in the rare case it changed while the statement ran.
        let hook = state.value.observation.hook
        try statementWillStart(statement, hook: hook)
        do {
            while try statement.step() {}
        } catch {
            throw statementDidFail(statement, error: error)
        }
        statement.reset()
        if state.value.observation.recordedRegion != nil { recordReportedRead(of: statement) }
        if hook === state.value.observation.hook {
            try statementDidFinish(statement, hook: hook)
        } else {
            try statementDidFinish(statement)
        }
    }

    // The narrow hook transaction observation plugs into, around each statement execution.
    @inline(__always)
    func statementWillStart(_ statement: Statement) throws {
        try statementWillStart(statement, hook: state.value.observation.hook)
    }

    @inline(__always)
    private func statementWillStart(_ statement: Statement, hook: StatementExecutionHook?) throws {
        if readOnlyDepth > 0 { try checkReadOnly(statement) }
        if transactionWasAborted { throw abortedTransactionError(statement.sql, statement.arguments) }
        if interruptHandle.suspensionNumber != 0 { try checkSuspension(statement) }
        statement.observation.isExecuting = true
        if statement.report.transactionEffect != nil || statement.report.hasSavepointEffect {
            transactionDateState.transactionStatementWillStart(insideTransaction: isInsideTransaction)
            if state.value.observation.gathersWrites { transactionStatementWillStart(statement) }
        }
        gatherWrites(of: statement)
        try hook?.statementWillStart(statement)
    }

    /// Tells the commit log what `statement` may write. (The checks here, before the call,
    /// keep the reads of other statements cheap.)
    @inline(__always)
    private func gatherWrites(of statement: Statement) {
        if state.value.observation.gathersWrites, statement.report.mayWrite || statement.report.changesSchema {
            writingStatementWillStart(statement)
        }
    }

    // (Out of line: the hook's reference and call stay off the path of every statement.)
    @inline(never)
    private func transactionStatementWillStart(_ statement: Statement) {
        state.value.observation.externalChangeHook?.transactionStatementWillStart(statement)
    }

    @inline(never)
    private func writingStatementWillStart(_ statement: Statement) {
        state.value.observation.externalChangeHook?.writingStatementWillStart(statement)
    }

    @inline(__always)
    func statementDidFinish(_ statement: Statement) throws {
        try statementDidFinish(statement, hook: state.value.observation.hook)
    }

    @inline(__always)
    private func statementDidFinish(_ statement: Statement, hook: StatementExecutionHook?) throws {
        // Every way of running a statement ends here: executions and cursors.
        guard statement.observation.isExecuting else { return }
        statement.observation.isExecuting = false
        if statement.report.changesSchema { schemaDidChange() }
        if statement.report.transactionEffect != nil || statement.report.hasSavepointEffect { transactionStatementDidRun() }
        try hook?.statementDidFinish(statement)
    }

    /// After a statement that changed the schema: what the connection knew of it is
    /// forgotten, and so are the statements cached by SQL, since a new table may shadow the
    /// one a cached statement reads (a table of `main` one of an attached database, a
    /// temporary table one of `main`), and SQLite compiles that statement again only for
    /// changes of the schema it reads.
    @inline(never)
    private func schemaDidChange() {
        schemaCache = SchemaCache()
        state.value.statementCache.removeCachedStatements()
    }

    /// Returns the error to throw (an observer may replace SQLite's).
    @inline(__always)
    func statementDidFail(_ statement: Statement, error: any Error) -> any Error {
        guard statement.observation.isExecuting else { return error }
        statement.observation.isExecuting = false
        if statement.report.changesSchema { schemaDidChange() }
        if !isInsideTransaction {
            transactionDateState.date = nil
            // SQLite rolled the transaction back (an interrupt, a ROLLBACK conflict, a full
            // disk...).
            noteTransactionEndInsideBlock()
        }
        return state.value.observation.hook?.statementDidFail(statement, error: error) ?? error
    }

    /// Called after a step of `statement` during which the authorizer collected
    /// authorizations (see ``Authorizer``): when SQLite compiled the statement again, what
    /// it collected becomes the statement's report.
    func resolveRecompilation(of statement: Statement) {
        guard authorizer.collectionStatement == statement.sqliteStatement else { return }
        let reprepareCount = sqlite3_stmt_status(statement.sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
        let wasRecompiled = reprepareCount != authorizer.collectionReprepareCount
        guard let report = authorizer.takeCollection(), wasRecompiled else { return }
        statement.report = report
        gatherWrites(of: statement)
        statement.observation.cache = nil
        statement.refreshColumns()
        // The schema changed, maybe through another connection.
        schemaCache = SchemaCache()
        state.value.observation.hook?.statementWasRecompiled(statement)
    }
}
