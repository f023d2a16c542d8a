/// What observation keeps with a connection: the one place, owned by the observation side,
/// for the state that `Database` carries for it (`db.state.value.observation`).
///
/// The core calls the hooks around each statement, checks `forbidsAccess` at each access,
/// and records what statements read while `recordedRegion` is set; everything else is
/// the observation side's.
struct DatabaseObservationState {
    /// Where transaction observation plugs in (see ``StatementExecutionHook``): the
    /// connection's broker, created with its first observer.
    var hook: StatementExecutionHook?

    /// Set while observers run callbacks that must not use the connection.
    var forbidsAccess = false

    /// The region read by the statements run since recording started (value observations
    /// track what their fetch closure reads); nil when not recording.
    var recordedRegion: DatabaseRegion?

    /// The tables (lowercased) that statements run while recording dropped or altered: a
    /// table read may be gone by the end (see ``Database/recordingReadRegion(_:)``).
    var recordingSchemaChangedTables: Set<String> = []

    /// A more precise region (with rowids) than its report for a statement a request
    /// prepared while recording: recorded instead of the report if that statement runs
    /// next, forgotten otherwise.
    var preparedStatementRegion: (statement: Statement, region: DatabaseRegion)?

    /// What the writer connection of a queue or pool on a file keeps to observe other
    /// processes' commits and log its own (nil elsewhere, or when
    /// ``Configuration/observesExternalChanges`` is false and nothing is logged).
    var externalChanges: ExternalChangeTracker?

    /// `externalChanges`, as Core sees it: the hook it tells of the close, and, while
    /// `gathersWrites`, of transaction statements and writes.
    var externalChangeHook: StatementExecutionHook? { externalChanges }

    /// Whether the connection gathers what its transactions write, for the commit log
    /// (`externalChanges` is set, on a connection that may write): read before each
    /// statement, so a plain flag.
    var gathersWrites = false

    /// Forgets the hooks, once told that the connection closes.
    mutating func removeHooks() {
        hook = nil
        externalChanges = nil
        gathersWrites = false
    }

    /// Set while the commit log reads or writes: the broker's transaction hooks ignore
    /// that work.
    var runsUnobservedWork = false
}

/// What observation keeps with a statement, from one execution to the next
/// (`statement.observation`).
struct StatementObservationState {
    /// What the broker decided about the statement (its questions to observers, its last
    /// execution); only the broker reads and writes it. (Typed: a cast from `AnyObject`
    /// costs a hundred instructions for each statement.)
    var cache: DatabaseObservationBroker.CachedActivation?

    /// Whether the connection told the hook that an execution started, and not yet that
    /// it ended (see `Database.statementWillStart`).
    var isExecuting = false

    /// Set when a cursor starts while the connection records what is read: the region is
    /// recorded after the first step (see `Database.prepareReadRecording(of:)`).
    var pendingReadRegion: PendingReadRegion?

    enum PendingReadRegion {
        /// What the statement's report says it reads.
        case report
        /// A more precise region (with rowids) that a request gave.
        case precise(DatabaseRegion)
    }
}
