/// What a connection reads or changes around each statement, in one stored value.
///
/// Confined to the connection's queue, and never accessed re-entrantly. Debug builds check
/// that at run time; release builds skip the checks, which slow every workload (Shortcuts
/// table, Benchmarks/README.md).
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
}

extension Database {
    // The parts of the state, by their names (accessors that the compiler inlines).
    var readOnlyDepth: Int {
        _read { yield state.readOnlyDepth }
        _modify { yield &state.readOnlyDepth }
    }
    var transactionWasAborted: Bool {
        _read { yield state.transactionWasAborted }
        _modify { yield &state.transactionWasAborted }
    }
    var schemaCache: SchemaCache {
        _read { yield state.schemaCache }
        _modify { yield &state.schemaCache }
    }
    var transactionDateState: TransactionDateState {
        _read { yield state.transactionDate }
        _modify { yield &state.transactionDate }
    }
    var hiddenTraceDepth: Int {
        _read { yield state.hiddenTraceDepth }
        _modify { yield &state.hiddenTraceDepth }
    }
}
