/// What a connection reads or changes around each statement, in one stored value.
///
/// Confined to the connection's queue, and never accessed re-entrantly: kept in an
/// ``_ExclusiveAccessBox``, whose accesses debug builds check at run time.
struct ConnectionState {
    /// The raw SQLite connection handle; nil once closed.
    var sqliteConnection: OpaquePointer?
    /// Whether ``Database/close()`` was called.
    var isClosed = false
    var statementCache = StatementCache()
    /// How many read-only accesses run (see ``Database/readOnly(_:)``).
    var readOnlyDepth = 0
    /// Whether the transaction of the running transaction method ended inside its closure:
    /// its later statements throw `SQLITE_ABORT`.
    var transactionWasAborted = false
    /// Schema facts (primary keys), dropped when a statement changes the schema.
    var schemaCache = SchemaCache()
    /// The date of the current transaction (see ``Database/transactionDate``).
    var transactionDate = TransactionDateState(usesSystemClock: false)
    /// How many statements of Ripple's own run, hidden from the trace.
    var hiddenTraceDepth = 0
    /// The schema source in use (see ``Database/schemaSource``).
    var schemaSource: (any DatabaseSchemaSource)?
    /// What observation keeps with the connection (see ``DatabaseObservationState``),
    /// whose shape the observation side owns. Read before each statement; in the same box
    /// as the rest, so that a check of both reads the box once.
    var observation = DatabaseObservationState()
}

extension Database {
    // The parts of the state, by their names (accessors that the compiler inlines).
    var readOnlyDepth: Int {
        _read { yield state.value.readOnlyDepth }
        _modify { yield &state.value.readOnlyDepth }
    }
    var transactionWasAborted: Bool {
        _read { yield state.value.transactionWasAborted }
        _modify { yield &state.value.transactionWasAborted }
    }
    var schemaCache: SchemaCache {
        _read { yield state.value.schemaCache }
        _modify { yield &state.value.schemaCache }
    }
    var transactionDateState: TransactionDateState {
        _read { yield state.value.transactionDate }
        _modify { yield &state.value.transactionDate }
    }
    var hiddenTraceDepth: Int {
        _read { yield state.value.hiddenTraceDepth }
        _modify { yield &state.value.hiddenTraceDepth }
    }
}
