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
    // Exclusivity: the fields marked @exclusivity(unchecked) in Core and Record are confined to
    // the connection's queue (or to one decoder) and never accessed re-entrantly; the
    // runtime's checks of them slow every workload (measured: Benchmarks/README.md, "Shortcuts").
    /// The raw SQLite connection handle; nil once closed.
    @exclusivity(unchecked) public private(set) var sqliteConnection: OpaquePointer?

    /// The configuration the connection was opened with.
    public let configuration: Configuration

    /// The path of the database file (`:memory:` for an in-memory database).
    public let path: String

    /// A description for debugging: the label of the connection.
    public let description: String

    /// Whether ``close()`` was called.
    @exclusivity(unchecked) public private(set) var isClosed = false

    // Confined to the connection's queue, never accessed re-entrantly: no need for the
    // runtime's dynamic exclusivity checks, which cost on each statement.
    @exclusivity(unchecked) private var statementCache: [String: Statement] = [:]
    /// The last statement `cachedStatement(sql:)` returned, found again without hashing
    /// its SQL when the same SQL comes next (the loop of a bulk import).
    @exclusivity(unchecked) private var lastCachedStatement: (sql: String, statement: Statement)?
    @exclusivity(unchecked) private var internalStatements: [Statement?] = Array(repeating: nil, count: InternalStatement.allCases.count)
    /// What the busy handler asks, owned by the connection (the handler's context).
    private var busyHandlerBox: BusyHandlerBox?
    private var traceHandler: ((TraceEvent) -> Void)?
    /// (Read before each statement: unchecked, as the fields above.)
    @exclusivity(unchecked) private var readOnlyDepth = 0
    /// How many transaction methods' closures run (see `inTransactionBlock`).
    var transactionBlockDepth = 0
    /// Whether the transaction of the running transaction method ended inside its closure:
    /// its later statements throw `SQLITE_ABORT`. (Checked before each statement: a plain flag.)
    @exclusivity(unchecked) var transactionWasAborted = false
    /// Reports what each statement reads and writes as SQLite compiles it.
    let authorizer = Authorizer()
    /// Lets any thread interrupt the connection (``interrupt()``).
    let interruptHandle: InterruptHandle

    /// Schema facts (primary keys), dropped when a statement changes the schema.
    @exclusivity(unchecked) var schemaCache = SchemaCache()

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
        readStarts: ReadStartsRole? = nil) throws
    {
        self.path = path
        if case .counts(let starts) = readStarts { readStartsToCount = starts } else { readStartsToCount = nil }
        if case .waitsFor = readStarts { waitsForOwnReaders = true } else { waitsForOwnReaders = false }
        self.usesSystemClock = configuration.transactionClock is DefaultTransactionClock
        self.description = description
        self.configuration = configuration
        let isReadonly = readonly ?? configuration.readonly
        var flags = SQLITE_OPEN_NOMUTEX
        flags |= isReadonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
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
        sqliteConnection = connection
        interruptHandle = InterruptHandle(connection)
        sqlite3_extended_result_codes(connection, 1)
        ripple_disable_double_quoted_strings(connection)
        authorizer.install(on: connection)
        authorizer.collectionDidBegin = { [unowned self] in self.observation.hook?.recompilationDidBegin() }
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
        statementCache.removeAll()
        lastCachedStatement = nil
        observation.hook?.connectionWillClose()
        observation.hook = nil
        observation.externalChanges?.connectionWillClose()
        observation.externalChanges = nil
        observation.gathersWrites = false
        internalStatements = internalStatements.map { _ in nil }
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
        isClosed = true
        sqliteConnection = nil
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
        if observation.forbidsAccess {
            fatalError("""
                The database connection was used from databaseDidChange(with:), databaseDidChange(), \
                databaseWillChange(with:) or databaseWillCommit(): these callbacks must not use it. \
                Do the work in databaseDidCommit(_:), which may use the connection.
                """)
        }
    }

    @inline(never)
    private func usedOutsideOfAccess() -> DatabaseError {
        DatabaseError.misuse("""
            The connection \(description) was used outside of a database access: a statement, \
            cursor or row was kept after the closure that made it returned. Use them only \
            inside the closure of dbQueue.read/write or dbPool.read/write that gave you its db.
            """)
    }



    /// What observation keeps with the connection, in one place (see
    /// ``DatabaseObservationState``).
    @exclusivity(unchecked) var observation = DatabaseObservationState()

    /// Runs `block` and returns the region it read.
    func recordingReadRegion<T>(_ block: () throws -> T) rethrows -> (T, DatabaseRegion) {
        let previous = observation.recordedRegion
        observation.recordedRegion = DatabaseRegion()
        defer {
            observation.recordedRegion = previous.map { $0.union(observation.recordedRegion ?? DatabaseRegion()) }
            observation.preparedStatementRegion = nil
        }
        let result = try block()
        return (result, observation.recordedRegion ?? DatabaseRegion())
    }

    /// Runs `body` without recording what it reads: for the schema introspection that
    /// Ripple does for a request (its primary key, its columns), which is not what the
    /// request reads. Cached after the first time, it would be recorded by the first
    /// fetch only; and a change of the schema fetches a `tracking` observation again
    /// anyway (see ``RegionObserver/observesSchemaChanges``).
    func withoutRecordingReads<T>(_ body: () throws -> T) rethrows -> T {
        guard let recorded = observation.recordedRegion else { return try body() }
        let prepared = observation.preparedStatementRegion
        observation.recordedRegion = nil
        observation.preparedStatementRegion = nil
        defer {
            observation.recordedRegion = recorded
            observation.preparedStatementRegion = prepared
        }
        return try body()
    }

    /// Adds to the recorded region, when recording.
    func recordRead(_ region: DatabaseRegion) {
        if observation.recordedRegion != nil { observation.recordedRegion!.formUnion(region) }
    }

    /// Prepares the recording of what a cursor's statement reads, when recording: the
    /// precise region a request gave for this very statement, or the statement's report,
    /// read after the first step (SQLite may compile the statement again then).
    func prepareReadRecording(of statement: Statement) {
        guard observation.recordedRegion != nil else { return }
        if let prepared = observation.preparedStatementRegion, prepared.statement === statement {
            statement.observation.pendingReadRegion = .precise(prepared.region)
        } else {
            statement.observation.pendingReadRegion = .report
        }
        observation.preparedStatementRegion = nil
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

    /// Runs statements of Ripple's own (the broker's schema reads, the commit log): the
    /// application's trace does not show them.
    func withStatementsHiddenFromTrace<T>(_ body: () throws -> T) rethrows -> T {
        hiddenTraceDepth += 1
        defer { hiddenTraceDepth -= 1 }
        return try body()
    }

    private var hiddenTraceDepth = 0

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
            guard let base = buffer.baseAddress else { return }
            let end = base + buffer.count - 1  // the terminating NUL
            var current = base
            while current < end {
                var sqliteStatement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let (code, report) = authorizer.report {
                    countingReadStart { sqlite3_prepare_v3(sqliteConnection, current, CInt(end - current), 0, &sqliteStatement, &tail) }
                }
                guard code == SQLITE_OK else {
                    // The error names the statement that failed, not the whole string.
                    let failingSQL = Self.firstStatementText(from: current, to: end)
                    throw DatabaseError(connection: sqliteConnection, code: code, sql: failingSQL, arguments: arguments,
                                        publicStatementArguments: configuration.publicStatementArguments)
                }
                guard let sqliteStatement else { break }  // only white space or comments remain
                let statement = Statement(
                    database: self,
                    sqliteStatement: sqliteStatement,
                    sql: Self.trimmedStatementText(String(cString: sqlite3_sql(sqliteStatement))),
                    report: report)
                try statement.bind(arguments, consumingFrom: &position)
                try body(statement)
                current = tail ?? end
            }
        }
        if position != arguments.positional.count {
            throw DatabaseError.wrongArgumentCount(given: arguments.positional.count, expected: position, sql: sql, arguments: arguments)
        }
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

    /// Compiles a single statement, or returns the one compiled earlier for the same SQL.
    /// Best for statements run many times.
    public func cachedStatement(sql: String) throws -> Statement {
        if let last = lastCachedStatement, last.sql == sql, sqlite3_stmt_busy(last.statement.sqliteStatement) == 0 {
            return last.statement
        }
        if let statement = statementCache[sql] {
            // A statement still stepping (an open cursor) is not reused: a fresh one is.
            guard sqlite3_stmt_busy(statement.sqliteStatement) == 0 else {
                return try prepareStatement(sql: sql, persistent: false)
            }
            lastCachedStatement = (sql, statement)
            return statement
        }
        let statement = try prepareStatement(sql: sql, persistent: true)
        statementCache[sql] = statement
        lastCachedStatement = (sql, statement)
        return statement
    }

    /// The statements Ripple runs often itself, compiled once, found without hashing SQL.
    enum InternalStatement: Int, CaseIterable {
        case beginDeferred, beginImmediate, beginExclusive, commit, rollback
        case savepoint, releaseSavepoint, rollbackToSavepoint

        var sql: String {
            switch self {
            case .beginDeferred: return "BEGIN DEFERRED TRANSACTION"
            case .beginImmediate: return "BEGIN IMMEDIATE TRANSACTION"
            case .beginExclusive: return "BEGIN EXCLUSIVE TRANSACTION"
            case .commit: return "COMMIT TRANSACTION"
            case .rollback: return "ROLLBACK TRANSACTION"
            case .savepoint: return "SAVEPOINT ripple"
            case .releaseSavepoint: return "RELEASE SAVEPOINT ripple"
            case .rollbackToSavepoint: return "ROLLBACK TRANSACTION TO SAVEPOINT ripple"
            }
        }
    }

    func internalStatement(_ key: InternalStatement) throws -> Statement {
        if let statement = internalStatements[key.rawValue] { return statement }
        let statement = try prepareStatement(sql: key.sql, persistent: true)
        internalStatements[key.rawValue] = statement
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

    private func prepareStatement(sql: String, persistent: Bool) throws -> Statement {
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
                        + "use Database.execute(sql:) instead.", sql: sql)
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
        let hook = observation.hook
        try statementWillStart(statement, hook: hook)
        do {
            while try statement.step() {}
        } catch {
            throw statementDidFail(statement, error: error)
        }
        statement.reset()
        if hook === observation.hook {
            try statementDidFinish(statement, hook: hook)
        } else {
            try statementDidFinish(statement)
        }
    }

    // The narrow hook transaction observation plugs into, around each statement execution.
    @inline(__always)
    func statementWillStart(_ statement: Statement) throws {
        try statementWillStart(statement, hook: observation.hook)
    }

    @inline(__always)
    private func statementWillStart(_ statement: Statement, hook: StatementExecutionHook?) throws {
        if readOnlyDepth > 0 { try checkReadOnly(statement) }
        if transactionWasAborted { throw abortedTransactionError(statement.sql, statement.arguments) }
        statement.observation.isExecuting = true
        if statement.report.transactionEffect != nil || statement.report.hasSavepointEffect {
            transactionStatementStartsOutsideOfTransaction = !isInsideTransaction
            if observation.externalChanges != nil { commitLogTransactionStatementWillStart(statement) }
        }
        if observation.gathersWrites { commitLogStatementWillStart(statement) }
        try hook?.statementWillStart(statement)
    }

    /// The date of the current transaction, set when a statement (`BEGIN`, `SAVEPOINT`)
    /// opens it (with the system's clock; a custom clock is asked at the first read); nil
    /// outside of a transaction. See ``transactionDate``.
    private var currentTransactionDate: Result<Date, any Error>?
    /// Whether `configuration.transactionClock` is the system's: known once, since a type
    /// check of the existential has a cost at each `BEGIN` and `COMMIT`.
    private let usesSystemClock: Bool
    /// Whether the transaction statement that runs started outside of a transaction.
    private var transactionStatementStartsOutsideOfTransaction = false

    /// Keeps `currentTransactionDate` after a transaction statement ran.
    @inline(never)
    private func transactionStatementDidRun() {
        if !isInsideTransaction {
            currentTransactionDate = nil
            noteTransactionEndInsideBlock()
        } else if transactionStatementStartsOutsideOfTransaction || currentTransactionDate == nil {
            // (A custom clock is asked later: its closure may use the database, which is
            // in the middle of the statement that opened the transaction.)
            currentTransactionDate = usesSystemClock ? .success(Date()) : nil
        }
    }

    /// The date of the current transaction: the same at any point of a transaction, set
    /// when `BEGIN` (or a savepoint outside of a transaction) opens it. Outside of a
    /// transaction, the current date, anew at each call. The date comes from
    /// ``Configuration/transactionClock``; an error of a custom clock is thrown here, at
    /// each read in the transaction.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     let date = try db.transactionDate   // the same for every record of the transaction
    /// }
    /// ```
    public var transactionDate: Date {
        get throws {
            try checkOpen()
            guard isInsideTransaction else { return try configuration.transactionClock.now(self) }
            if let currentTransactionDate { return try currentTransactionDate.get() }
            let date = Result { try configuration.transactionClock.now(self) }
            // (The clock may have ended the transaction: its date is then not kept.)
            if isInsideTransaction { currentTransactionDate = date }
            return try date.get()
        }
    }

    @inline(__always)
    func statementDidFinish(_ statement: Statement) throws {
        try statementDidFinish(statement, hook: observation.hook)
    }

    @inline(__always)
    private func statementDidFinish(_ statement: Statement, hook: StatementExecutionHook?) throws {
        // Every way of running a statement ends here: executions and cursors.
        guard statement.observation.isExecuting else { return }
        statement.observation.isExecuting = false
        if statement.report.changesSchema { schemaCache = SchemaCache() }
        if statement.report.transactionEffect != nil || statement.report.hasSavepointEffect { transactionStatementDidRun() }
        try hook?.statementDidFinish(statement)
    }

    /// Returns the error to throw (an observer may replace SQLite's).
    @inline(__always)
    func statementDidFail(_ statement: Statement, error: any Error) -> any Error {
        guard statement.observation.isExecuting else { return error }
        statement.observation.isExecuting = false
        if statement.report.changesSchema { schemaCache = SchemaCache() }
        if !isInsideTransaction {
            currentTransactionDate = nil
            // SQLite rolled the transaction back (an interrupt, a ROLLBACK conflict, a full
            // disk...).
            noteTransactionEndInsideBlock()
        }
        return observation.hook?.statementDidFail(statement, error: error) ?? error
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
        if observation.gathersWrites { commitLogStatementWillStart(statement) }
        statement.observation.cache = nil
        statement.refreshColumns()
        // The schema changed, maybe through another connection.
        schemaCache = SchemaCache()
        observation.hook?.statementWasRecompiled(statement)
    }

    // MARK: - Read-only accesses

    /// Whether writes are forbidden right now (read-only connection or read access).
    public var isReadOnly: Bool {
        configuration.readonly || readOnlyDepth > 0 || sqlite3_db_readonly(sqliteConnection, "main") == 1
    }

    /// Whether a read-only connection runs, or a read access (`readOnly(_:)`): the
    /// cheap part of ``isReadOnly``, checked for each statement.
    var isInReadOnlyAccess: Bool {
        configuration.readonly || readOnlyDepth > 0
    }

    /// Runs `block` with writes forbidden: a statement that would write (one that
    /// `sqlite3_stmt_readonly` does not call read-only) throws `SQLITE_READONLY` before it
    /// starts. Observers are never told of a read-only access (see
    /// `DatabaseObservationBroker.statementWillStart`).
    ///
    /// Not `PRAGMA query_only`: setting a flag pragma expires every prepared statement of
    /// the connection, so that each one would be compiled again after each read, and
    /// Ripple would read the schema again (W6one: a third of the time of a one-row
    /// transaction and the fetch that follows it).
    public func readOnly<T>(_ block: () throws -> T) throws -> T {
        if configuration.readonly { return try block() }
        readOnlyDepth += 1
        defer { readOnlyDepth -= 1 }
        return try block()
    }

    /// Throws `SQLITE_READONLY` if `statement` would write, in a read-only access.
    @inline(never)
    private func checkReadOnly(_ statement: Statement) throws {
        guard sqlite3_stmt_readonly(statement.sqliteStatement) == 0 else { return }
        throw DatabaseError(
            resultCode: .SQLITE_READONLY,
            message: "attempt to write a readonly database",
            sql: statement.sql, arguments: statement.arguments)
    }

    // MARK: - Busy mode

    private func setUpBusyMode() {
        switch configuration.busyMode {
        case .immediateError:
            break
        case .timeout(let seconds):
            sqlite3_busy_timeout(sqliteConnection, CInt(max(0, min(seconds * 1000, Double(CInt.max)))))
        case .callback(let callback):
            installBusyHandler(BusyHandlerBox(otherwise: .callback(callback), ownReaders: nil))
        }
    }

    /// The busy mode of a pool's writer: it also tries again while the pool's readers may
    /// hold the write lock for a moment (see ``ReadTransactionStarts``), in every mode: the
    /// handler also serves ``stepAgainAfterOwnReaders(_:)``, where SQLite calls none.
    private func setUpBusyMode(waitingFor starts: ReadTransactionStarts) {
        switch configuration.busyMode {
        case .timeout(let seconds):
            let nanoseconds = UInt64(max(0, seconds) * 1e9)
            installBusyHandler(BusyHandlerBox(otherwise: .timeout(nanoseconds: nanoseconds), ownReaders: starts))
        case .immediateError:
            installBusyHandler(BusyHandlerBox(otherwise: .fail, ownReaders: starts))
        case .callback(let callback):
            installBusyHandler(BusyHandlerBox(otherwise: .callback(callback), ownReaders: starts))
        }
    }

    /// Steps `statement` again after it failed with plain `SQLITE_BUSY` inside a read
    /// transaction, while the pool's readers may hold the write lock for a moment (a
    /// pool's writer only; see ``ReadTransactionStarts``). SQLite calls no busy handler
    /// there: a transaction that read cannot wait for the write lock, since a commit
    /// made meanwhile would leave it on a stale snapshot. A reader's moment commits
    /// nothing, and SQLite resumes the statement where it stopped; after another
    /// connection's commit, SQLite answers `SQLITE_BUSY_SNAPSHOT`, and the step fails.
    @inline(never)
    func stepAgainAfterOwnReaders(_ statement: OpaquePointer) -> CInt {
        // (A statement that SQLite stopped for the lock is still running: stepped again, it
        // resumes. One that ended would start over.)
        guard let box = busyHandlerBox,
              sqlite3_txn_state(sqliteConnection, nil) == SQLITE_TXN_READ,
              sqlite3_stmt_busy(statement) != 0
        else { return SQLITE_BUSY }
        var code = SQLITE_BUSY
        var tries = 0
        while code == SQLITE_BUSY && box.waitsForOwnReaders(tries: tries) {
            code = sqlite3_step(statement)
            tries += 1
        }
        return code
    }

    private func installBusyHandler(_ box: BusyHandlerBox) {
        if let busyHandlerBox { _CallbackContext.revoke(busyHandlerBox) }
        busyHandlerBox = box
        sqlite3_busy_handler(sqliteConnection, { context, tries in
            _CallbackContext<BusyHandlerBox>.object(context).shouldRetry(tries: Int(tries)) ? 1 : 0
        }, _CallbackContext.unretained(box))
    }

    // MARK: - Tracing

    /// What ``trace(options:_:)`` reports.
    public struct TracingOptions: OptionSet, Sendable {
        public let rawValue: CInt
        public init(rawValue: CInt) { self.rawValue = rawValue }
        /// Each statement, as it starts.
        public static let statement = TracingOptions(rawValue: CInt(SQLITE_TRACE_STMT))
        /// Each statement, with its duration, as it ends.
        public static let profile = TracingOptions(rawValue: CInt(SQLITE_TRACE_PROFILE))
    }

    /// Calls `trace` with each statement the connection runs (nil stops tracing).
    ///
    /// ```swift
    /// db.trace { print($0) }   // prints "SELECT * FROM player"
    /// ```
    public func trace(options: TracingOptions = .statement, _ trace: ((TraceEvent) -> Void)? = nil) {
        traceHandler = trace
        guard trace != nil, !options.isEmpty else {
            sqlite3_trace_v2(sqliteConnection, 0, nil, nil)
            _CallbackContext.revoke(self)
            return
        }
        sqlite3_trace_v2(sqliteConnection, UInt32(options.rawValue), { mask, context, p, x in
            _CallbackContext<Database>.object(context).handleTrace(mask: mask, p: p, x: x)
            return 0
        }, _CallbackContext.unretained(self))
    }

    private func handleTrace(mask: UInt32, p: UnsafeMutableRawPointer?, x: UnsafeMutableRawPointer?) {
        guard let traceHandler, let p, hiddenTraceDepth == 0 else { return }
        let sqliteStatement = OpaquePointer(p)
        switch CInt(mask) {
        case SQLITE_TRACE_STMT:
            let sql = x.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            traceHandler(.statement(TraceEvent.Statement(sqliteStatement: sqliteStatement, sql: sql, publicStatementArguments: configuration.publicStatementArguments)))
        case SQLITE_TRACE_PROFILE:
            let nanoseconds = x?.assumingMemoryBound(to: Int64.self).pointee ?? 0
            let sql = sqlite3_sql(sqliteStatement).map { String(cString: $0) } ?? ""
            traceHandler(.profile(
                statement: TraceEvent.Statement(sqliteStatement: sqliteStatement, sql: sql, publicStatementArguments: configuration.publicStatementArguments),
                duration: TimeInterval(nanoseconds) / 1e9))
        default:
            break
        }
    }
}

/// A statement reported by ``Database/trace(options:_:)``.
public enum TraceEvent: CustomStringConvertible {
    /// A statement starts.
    case statement(Statement)
    /// A statement ended, after `duration` seconds.
    case profile(statement: Statement, duration: TimeInterval)

    /// A traced statement; only valid during the trace callback.
    public struct Statement: CustomStringConvertible {
        let sqliteStatement: OpaquePointer
        /// The SQL, with parameters (`?`) as written. Trigger statements appear as comments.
        public let sql: String
        /// The SQL with bound values in place of parameters.
        public var expandedSQL: String {
            guard let cString = sqlite3_expanded_sql(sqliteStatement) else { return sql }
            defer { sqlite3_free(cString) }
            return String(cString: cString)
        }
        /// Whether ``description`` shows the bound values (see
        /// ``Configuration/publicStatementArguments``).
        let publicStatementArguments: Bool
        /// The SQL; with ``Configuration/publicStatementArguments``, with its values.
        public var description: String { publicStatementArguments ? expandedSQL : sql }
    }

    /// The statement's SQL (with its values when ``Configuration/publicStatementArguments``
    /// is set), preceded by the duration for a profile.
    public var description: String {
        describe { $0.description }
    }

    /// The description with the statement's values in place of its parameters, whatever
    /// the configuration: mind where it goes, since values may hold private data.
    public var expandedDescription: String {
        describe { $0.expandedSQL }
    }

    private func describe(_ text: (Statement) -> String) -> String {
        switch self {
        case .statement(let statement):
            return text(statement)
        case let .profile(statement, duration):
            return String(format: "%.3f", duration) + "s " + text(statement)
        }
    }
}

/// What a connection's busy handler decides with: the configuration's busy mode, and for a
/// pool's writer, its readers (see ``ReadTransactionStarts``). Only the connection's busy
/// handler uses it, from inside the connection's statements: confined to its queue.
private final class BusyHandlerBox {
    enum Otherwise {
        case fail
        case timeout(nanoseconds: UInt64)
        case callback(@Sendable (Int) -> Bool)
    }

    let otherwise: Otherwise
    let ownReaders: ReadTransactionStarts?
    private var rule = OwnReadersBusyRule()
    private var firstCall: UInt64 = 0
    private var triesForOwnReaders = 0

    init(otherwise: Otherwise, ownReaders: ReadTransactionStarts?) {
        self.otherwise = otherwise
        self.ownReaders = ownReaders
    }

    /// Whether SQLite tries again, called by the busy handler.
    func shouldRetry(tries: Int) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        if tries == 0 {
            firstCall = now
            triesForOwnReaders = 0
        }
        if waitsForOwnReaders(tries: tries, now: now) {
            triesForOwnReaders += 1
            return true
        }
        switch otherwise {
        case .fail:
            return false
        case .timeout(let nanoseconds):
            guard now &- firstCall < nanoseconds else { return false }
            usleep(1000)
            return true
        case .callback(let callback):
            // The tries made for the pool's readers are not the callback's.
            return callback(tries - triesForOwnReaders)
        }
    }

    /// Whether to try again because the pool's readers may hold the lock for a moment
    /// (see ``OwnReadersBusyRule``); waits a little first. False for other connections.
    func waitsForOwnReaders(tries: Int, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        guard let ownReaders, rule.shouldRetry(tries: tries, counts: ownReaders.current, now: now) else {
            return false
        }
        ownReaders.writerDidWait()
        // The reader that holds the lock may wait for a core: let it have one.
        if tries < 3 { sched_yield() } else { usleep(50) }
        return true
    }
}

/// What the connection tells around each statement execution: the only thing Core knows
/// of transaction observation.
class StatementExecutionHook {
    func statementWillStart(_ statement: Statement) throws {}
    func statementDidFinish(_ statement: Statement) throws {}
    /// Returns the error to throw.
    func statementDidFail(_ statement: Statement, error: any Error) -> any Error { error }
    /// SQLite is compiling a stepping statement again (called from inside `sqlite3_step`).
    func recompilationDidBegin() {}
    /// `statement` has a new report, from its new compilation.
    func statementWasRecompiled(_ statement: Statement) {}
    func connectionWillClose() {}
}
